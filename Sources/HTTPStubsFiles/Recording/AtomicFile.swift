import Foundation
import HTTPStubs

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes whole files in one step, so that a reader (a test loading the stub root, another
/// process) sees the old file or the new one, never part of one.
///
/// The bytes first go to a temporary file beside the target, `.<name>.<UUID>.tmp`, which no stub
/// root loads. ``create(_:at:)`` then links it to the target with `link(2)`, which fails when the
/// target exists, so a file that another registry or process created meanwhile is never
/// replaced; ``replace(_:at:)`` renames it over the target with `rename(2)`. Either way the
/// temporary name is gone afterwards.
enum AtomicFile {
    /// What ``create(_:at:)`` did.
    enum Creation: Equatable {
        /// The file was created with the bytes.
        case created
        /// A file of that name exists; it was left as it was.
        case exists
    }

    /// Creates `url` with `data`, unless a file of that name exists.
    /// - Throws: ``WriteError`` when the file cannot be written (other than because it exists).
    static func create(_ data: Data, at url: URL) throws -> Creation {
        try withTemporaryCopy(of: data, beside: url) { temporary in
            if link(temporary, url.path) == 0 { return .created }
            let code = errno
            if code == EEXIST { return .exists }
            throw WriteError(path: url.path, call: "link", code: code)
        }
    }

    /// Writes `data` to `url`, replacing the file there if there is one.
    /// - Throws: ``WriteError`` when the file cannot be written.
    static func replace(_ data: Data, at url: URL) throws {
        try withTemporaryCopy(of: data, beside: url) { temporary in
            guard rename(temporary, url.path) == 0 else {
                throw WriteError(path: url.path, call: "rename", code: errno)
            }
        }
    }

    /// Writes `data` to a new temporary file in `url`'s folder (created if missing), runs `body`
    /// with its path, and removes the temporary name if `body` left it. The temporary file is
    /// locked (`flock`) until then, which tells ``removeAbandonedTemporaries(in:)`` it is in use.
    private static func withTemporaryCopy<Result>(
        of data: Data,
        beside url: URL,
        _ body: (String) throws -> Result
    ) throws -> Result {
        let folder = url.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw WriteError(path: url.path, call: "mkdir", code: FileFailure.posixCode(of: error) ?? EIO)
        }
        let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp").path
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw WriteError(path: url.path, call: "open", code: errno) }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)  // closing releases the lock
        defer { unlink(temporary) }
        _ = flock(descriptor, LOCK_EX)
        do {
            try handle.write(contentsOf: data)
        } catch {
            throw WriteError(path: url.path, call: "write", code: FileFailure.posixCode(of: error) ?? EIO)
        }
        return try body(temporary)
    }

    /// Removes the temporary files (`.<name>.<UUID>.tmp`) in `folder` that a writer abandoned (a
    /// recording killed mid-write): those older than a minute that no writer holds locked. A file
    /// another registry or process is writing right now is locked, and so kept.
    static func removeAbandonedTemporaries(in folder: URL) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        let cutoff = Date().addingTimeInterval(-60)
        for name in names where name.hasPrefix(".") && name.hasSuffix(".tmp") {
            let path = folder.appendingPathComponent(name).path
            guard let modified = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date,
                modified < cutoff
            else { continue }
            let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
            guard descriptor >= 0 else { continue }
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { unlink(path) }
            close(descriptor)
        }
    }

    /// A file could not be put in place.
    struct WriteError: Error, LocalizedError, CustomStringConvertible {
        /// The file that was to be written.
        let path: String
        /// The system call that failed: `mkdir` (of the file's folder), `open`, `write`, `link` or `rename`.
        let call: String
        /// Its `errno`.
        let code: Int32

        /// What failed, where, and what to do about it.
        var description: String {
            let reason = String(cString: strerror(code))
            if call == "link", [EPERM, ENOTSUP, ENOSYS].contains(code) {
                return
                    "cannot create \(path): the file system does not support hard links (link: "
                    + "\(reason)), which recording needs "
                    + "to create files without ever replacing one another recording created; "
                    + "record into a folder on a local disk"
            }
            return "cannot write \(path): \(call) failed: \(FileFailure.reason(code: code)); "
                + FileFailure.writeAdvice(code: code, alternative: "record into another folder")
        }

        /// The description, for `localizedDescription`.
        var errorDescription: String? { description }
    }
}
