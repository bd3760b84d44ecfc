import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads the files stubs are made of and served from (mapping files, HAR captures, body files),
/// refusing whatever is not a regular file: reading a FIFO waits for a writer that may never
/// come, a device such as `/dev/zero` never ends, and a socket or a folder has no contents. The
/// file is checked before it is opened (`stat`, so that opening a device has no effect), opened
/// without blocking (`O_NONBLOCK`), and checked again on the open descriptor (`fstat`), so that
/// a file replaced in between is refused too. `package`: HTTPStubsTesting reads recorded files
/// with it.
package enum RegularFile {
    /// Why a file was not read.
    package enum Failure: Error, Sendable, Equatable {
        /// Nothing is there.
        case missing
        /// Something other than a regular file is there: what it is, such as `a FIFO (named pipe)`.
        case notRegular(String)
        /// A symbolic link is there, and links were not to be followed.
        case symbolicLink
        /// Opening or reading failed with this `errno`.
        case system(Int32)

        /// Why, in words: `it is a FIFO (named pipe), not a regular file`.
        package var reason: String {
            switch self {
            case .missing: "no such file (errno \(ENOENT))"
            case let .notRegular(kind): "it is \(kind), not a regular file"
            case .symbolicLink: "it is a symbolic link"
            case let .system(code): FileFailure.reason(code: code)
            }
        }
    }

    /// What to do about a file that is `kind` and not a regular file.
    package static func advice(forKind kind: String) -> String {
        kind == folderKind
            ? "give the path of a file inside it"
            : "reading it could block or never end, so it is refused; put a regular file there"
    }

    /// How a folder is described.
    package static let folderKind = "a folder"

    /// What is at `path` (links followed) when it exists and is not a regular file, such as
    /// `a FIFO (named pipe)`; `nil` for a regular file or nothing.
    package static func kind(atPath path: String) -> String? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return kind(of: status.st_mode)
    }

    /// The bytes of the regular file at `path`; with `followingLinks` false, a symbolic link at
    /// `path` itself is refused (the folders on the way are the caller's to check).
    package static func read(_ path: String, followingLinks: Bool = true) throws(Failure) -> Data {
        var status = stat()
        let found = followingLinks ? stat(path, &status) : lstat(path, &status)
        if found == 0 {
            if !followingLinks, status.st_mode & mode_t(S_IFMT) == mode_t(S_IFLNK) { throw .symbolicLink }
            if let kind = kind(of: status.st_mode) { throw .notRegular(kind) }
        }
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | (followingLinks ? 0 : O_NOFOLLOW))
        guard descriptor >= 0 else {
            let code = errno
            switch code {
            case ENOENT: throw .missing
            case ELOOP where !followingLinks: throw .symbolicLink
            default: throw .system(code)
            }
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        guard fstat(descriptor, &status) == 0 else { throw .system(errno) }
        if let kind = kind(of: status.st_mode) { throw .notRegular(kind) }
        do {
            return try handle.readToEnd() ?? Data()
        } catch {
            throw .system(FileFailure.posixCode(of: error) ?? EIO)
        }
    }

    /// What a file of `mode` is when it is not a regular file; `nil` for a regular file.
    private static func kind(of mode: mode_t) -> String? {
        switch mode & mode_t(S_IFMT) {
        case mode_t(S_IFREG): nil
        case mode_t(S_IFDIR): folderKind
        case mode_t(S_IFIFO): "a FIFO (named pipe)"
        case mode_t(S_IFSOCK): "a socket"
        case mode_t(S_IFCHR): "a character device"
        case mode_t(S_IFBLK): "a block device"
        case mode_t(S_IFLNK): "a symbolic link"
        default: "a special file"
        }
    }
}
