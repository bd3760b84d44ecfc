import Foundation
import Testing

@testable import HTTPStubs
@testable import HTTPStubsFiles
@testable import HTTPStubsLanguages
@testable import HTTPStubsTemplates

/// Foundation's file errors ("NSCocoaErrorDomain error 512" on Linux) put in words: the system's
/// reason, `errno`, the path, and what to do.
@Suite struct FileFailureTests {
    @Test("the errno is found under a Foundation error, in a POSIX error, or from the Cocoa code")
    func posixCodes() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("file-failure-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let readingAFolder = #expect(throws: (any Error).self) { try Data(contentsOf: folder) }
        #expect(readingAFolder.map(FileFailure.posixCode(of:)) == EISDIR)
        #expect(readingAFolder.map(FileFailure.readProblem) == "is a directory (errno 21); give a file, not a folder")
        #expect(FileFailure.posixCode(of: NSError(domain: NSPOSIXErrorDomain, code: Int(EACCES))) == EACCES)
        #expect(FileFailure.posixCode(of: CocoaError(.fileWriteNoPermission)) == EACCES)
        #expect(FileFailure.posixCode(of: URLError(.timedOut)) == nil)
        #expect(
            FileFailure.writeProblem(CocoaError(.fileWriteNoPermission), alternative: "choose another --into")
                == "permission denied (errno 13); make the folder writable or choose another --into"
        )
    }

    @Test("recording's atomic write into a folder that cannot be created names the file, the errno and the way out")
    func atomicWriteUnderAFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("file-failure-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let blocker = folder.appendingPathComponent("blocker")
        try Data("a file".utf8).write(to: blocker)
        let target = blocker.appendingPathComponent("mappings/a.json")
        let error = #expect(throws: AtomicFile.WriteError.self) {
            _ = try AtomicFile.create(Data("{}".utf8), at: target)
        }
        #expect(
            error?.description == "cannot write \(target.path): mkdir failed: not a directory (errno 20); "
                + "a file stands where the path needs a folder; move it or record into another folder"
        )
    }

    @Test("a body file that is a folder: the request fails saying it is a folder, and what to give instead")
    func bodyFileIsAFolder() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("file-failure-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let error = #expect(throws: StubError.self) { _ = try ResponseBody.file(folder).load() }
        #expect(
            error?.message == "The stub's body file \(folder.path) cannot be read: it is a folder, not a regular file; "
                + "give the path of a file inside it; check the path, or whether the file exists."
        )
    }
}
