import Foundation
import HTTPStubs
import HTTPStubsFiles
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The files recording writes stay inside the root whatever the request carries, and none is left behind.
extension RecordingTests {
    @Test("a request whose method is a path ('../../ESCAPED') is recorded inside the root, under a safe name")
    func methodThatIsAPathStaysInsideTheRoot() async throws {
        try await withRecordingFixture { root, server in

            let issues = DiagnosticLog()
            let recorder = try root.recorder(.once, reporting: issues)
            var request = server.request("GET", "/users/1")
            request.httpMethod = "../../ESCAPED"
            _ = await complete(recorder.makeSession(), request)

            let file = try #require(recorder.journal.first?.recordedFile, "\(recorder.journal) \(issues.all)")
            #expect(file.hasPrefix(root.path + "/mappings/escaped-users-1-"), "\(file)")
            let everything = try FileManager.default.subpathsOfDirectory(atPath: root.folder.path)
            #expect(
                everything.allSatisfy { $0 == "stubs" || $0.hasPrefix("stubs/") },
                "written outside the root: \(everything)"
            )
        }
    }

    @Test(
        "temporary files a killed recording left are removed when recording starts again; ones in use or just created are kept"
    )
    func abandonedTemporariesAreRemoved() throws {
        let root = try RecordingRoot()
        defer { root.remove() }
        let files = URL(fileURLWithPath: root.path).appendingPathComponent("__files")
        try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
        let hourAgo = Date().addingTimeInterval(-3600)
        func temporary(_ name: String, modified: Date) throws -> String {
            let path = files.appendingPathComponent(name).path
            try Data(count: 1024).write(to: URL(fileURLWithPath: path))
            try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: path)
            return path
        }
        _ = try temporary(".get-big-1234abcd.json.0F6C9D6E-0000-4000-8000-000000000001.tmp", modified: hourAgo)
        let locked = try temporary(".get-big-1234abcd.json.0F6C9D6E-0000-4000-8000-000000000002.tmp", modified: hourAgo)
        _ = try temporary(".get-big-1234abcd.json.0F6C9D6E-0000-4000-8000-000000000003.tmp", modified: Date())
        // Another process is still writing this one: it holds the lock.
        let descriptor = open(locked, O_RDONLY)
        #expect(descriptor >= 0 && flock(descriptor, LOCK_EX) == 0)
        defer { close(descriptor) }

        let stubs = StubRegistry()
        let log = DiagnosticLog(stubs)
        try stubs.replay(root.path, mode: .newEpisodes)
        #expect(log.all.map(\.message) == ["no .json or .har files found"], "the root holds no mapping yet")

        #expect(
            root.bodyFileNames() == [
                ".get-big-1234abcd.json.0F6C9D6E-0000-4000-8000-000000000002.tmp",
                ".get-big-1234abcd.json.0F6C9D6E-0000-4000-8000-000000000003.tmp",
            ]
        )
    }
}
