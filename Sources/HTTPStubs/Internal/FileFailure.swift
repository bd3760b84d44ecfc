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

/// Words for a file operation that failed with a Foundation error, which on Linux describes itself
/// as little more than "NSCocoaErrorDomain error 512": the system's reason and `errno`, taken
/// from the POSIX error Foundation wraps, and what to do about it.
package enum FileFailure {
    /// The `errno` behind `error`: its own code for a POSIX error, the wrapped POSIX error's code
    /// for a Foundation file error, or the `errno` a Foundation file error code stands for.
    package static func posixCode(of error: any Error) -> Int32? {
        if let posix = error as? POSIXError { return posix.code.rawValue }
        let bridged = error as NSError
        if bridged.domain == NSPOSIXErrorDomain { return Int32(bridged.code) }
        if let underlying = (error as? CocoaError)?.underlying ?? bridged.userInfo[NSUnderlyingErrorKey] as? any Error,
            let code = posixCode(of: underlying)
        {
            return code
        }
        guard bridged.domain == NSCocoaErrorDomain else { return nil }
        switch CocoaError.Code(rawValue: bridged.code) {
        case .fileNoSuchFile, .fileReadNoSuchFile: return ENOENT
        case .fileReadNoPermission, .fileWriteNoPermission: return EACCES
        case .fileWriteOutOfSpace: return ENOSPC
        case .fileWriteVolumeReadOnly: return EROFS
        default: return nil
        }
    }

    /// `permission denied (errno 13)`; Foundation's own description when no `errno` is known.
    package static func reason(_ error: any Error) -> String {
        posixCode(of: error).map(reason(code:)) ?? error.localizedDescription
    }

    /// `permission denied (errno 13)`: the system's words for `code`, and the code.
    package static func reason(code: Int32) -> String {
        let text = String(cString: strerror(code))
        return text.prefix(1).lowercased() + text.dropFirst() + " (errno \(code))"
    }

    /// `is a directory (errno 21); give a file, not a folder`: why a file could not be read, and
    /// what to do.
    package static func readProblem(_ error: any Error) -> String {
        reason(error) + "; " + readAdvice(code: posixCode(of: error))
    }

    /// What to do when reading a file failed with `code`.
    package static func readAdvice(code: Int32?) -> String {
        switch code {
        case ENOENT: "check the path"
        case EISDIR: "give a file, not a folder"
        case EACCES, EPERM: "make the file readable by this user (chmod a+r)"
        case ENOTDIR: "a file stands where the path needs a folder; check the path"
        default: "check the file and its folder"
        }
    }

    /// `permission denied (errno 13); make the folder writable or choose another --into`: why a
    /// file could not be written, and what to do; `alternative` is the other way out
    /// (`choose another --into`).
    package static func writeProblem(_ error: any Error, alternative: String) -> String {
        reason(error) + "; " + writeAdvice(code: posixCode(of: error), alternative: alternative)
    }

    /// What to do when writing a file failed with `code`.
    package static func writeAdvice(code: Int32?, alternative: String) -> String {
        switch code {
        case EACCES, EPERM, EROFS: "make the folder writable or \(alternative)"
        case ENOENT: "create the folder or \(alternative)"
        case ENOTDIR: "a file stands where the path needs a folder; move it or \(alternative)"
        case EISDIR: "a folder has the file's name; move it or \(alternative)"
        case ENOSPC, EDQUOT: "free some disk space or \(alternative)"
        default: "check the folder or \(alternative)"
        }
    }
}
