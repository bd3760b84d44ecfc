import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import HTTPStubs

/// Recorded file names come from the request, which may carry any text: they stay inside the root.
extension RecordingTests {
    @Test("a request whose method is a path ('../../ESCAPED') is recorded inside the root, under a safe name")
    func methodThatIsAPathStaysInsideTheRoot() async throws {
        let root = try RecordingRoot()
        defer { root.remove() }
        let server = try RecordingServer.start()
        defer { server.stop() }

        let recorder = StubRegistry()
        let issues = RecordingIssues(recorder)
        try recorder.replay(root.path, mode: .once)
        var request = server.request("GET", "/users/1")
        request.httpMethod = "../../ESCAPED"
        _ = await complete(recorder.makeSession(), request)

        let file = try #require(recorder.journal.first?.recordedFile, "\(recorder.journal) \(issues.all)")
        #expect(file.hasPrefix(root.path + "/mappings/escaped-users-1-"), "\(file)")
        let everything = try FileManager.default.subpathsOfDirectory(atPath: root.folder.path)
        #expect(everything.allSatisfy { $0 == "stubs" || $0.hasPrefix("stubs/") }, "written outside the root: \(everything)")
    }
}
