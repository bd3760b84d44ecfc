import Foundation
import HTTPStubs

/// Where a file the toolkit writes into a stub root goes (recording, `stubs import-har`), proven to
/// stay inside the root before anything is written.
package enum StubRootPath {
    /// A write the toolkit refuses, and why.
    package struct Refused: Error, CustomStringConvertible {
        package let description: String
    }

    /// Refuses to use the file system's root (`/`) as a stub root: its `mappings/` and `__files/`
    /// would be created at the top of the disk.
    package static func checkRoot(_ root: URL) throws {
        guard root.standardizedFileURL.resolvingSymlinksInPath().path != "/" else {
            throw Refused(
                description:
                    "\(root.path): error: refusing to write a stub root into the file system's root; "
                    + "give a folder of its own, such as Stubs/Imported"
            )
        }
    }

    /// The file `relativePath` inside `root`. Every component of `relativePath` must be a plain name
    /// (letters, digits, `.`, `_`, `-`; never `.` or `..`), and the file's folder, once symbolic
    /// links are resolved, must lie inside the root's.
    package static func file(_ relativePath: String, in root: URL) throws -> URL {
        let components = relativePath.split(separator: "/", omittingEmptySubsequences: false)
        guard !components.isEmpty, components.allSatisfy(isPlainName) else {
            throw Refused(
                description:
                    "\(root.path): error: refusing to write \(quoted(relativePath)), "
                    + "which is not a plain path inside the stub root"
            )
        }
        let base = root.standardizedFileURL.resolvingSymlinksInPath()
        let file = base.appendingPathComponent(relativePath)
        let folder = file.deletingLastPathComponent().resolvingSymlinksInPath().path
        guard folder == base.path || folder.hasPrefix(base.path == "/" ? "/" : base.path + "/") else {
            throw Refused(
                description:
                    "\(file.path): error: refusing to write outside the stub root "
                    + "\(root.path) (its folder leads to \(folder)); remove the symbolic link"
            )
        }
        return file
    }

    /// Where `path`, given to ``StubRegistry/load(_:relativeTo:templating:)`` or
    /// ``StubRegistry/replay(_:relativeTo:mode:redaction:)``, is: an absolute path as it is; a
    /// relative one in the folder of `file` (a `#filePath`), or without `file` in the current directory.
    package static func resolving(_ path: String, relativeTo file: StaticString?) -> String {
        guard let file, !path.hasPrefix("/") else { return path }
        return URL(fileURLWithPath: "\(file)").deletingLastPathComponent().appendingPathComponent(path).path
    }

    private static func isPlainName(_ component: Substring) -> Bool {
        component != "." && component != ".." && !component.isEmpty
            && component.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"),
                    UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
                    true
                default:
                    false
                }
            }
    }
}
