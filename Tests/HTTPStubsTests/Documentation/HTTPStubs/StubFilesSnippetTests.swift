import Foundation
import HTTPStubs
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The Swift code of `Sources/HTTPStubsFiles/HTTPStubsFiles.docc/StubFiles.md`, run as the article says it runs.
@Suite("Docs: StubFiles")
struct StubFilesSnippetTests {
    /// The package root, which `swift test` runs in: the article's paths are relative to it.
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // HTTPStubs
        .deletingLastPathComponent()  // Documentation
        .deletingLastPathComponent()  // HTTPStubsTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()

    @Test("a stub root, a HAR capture and code stubs, side by side")
    func loadSideBySide() async throws {
        try #require(
            FileManager.default.fileExists(atPath: "Stubs/mappings"),
            "the article's paths are relative to the working directory, which must be the package root \(Self.packageRoot.path), not \(FileManager.default.currentDirectoryPath)"
        )
        let stubs = StubRegistry()
        try stubs.load("Stubs")  // a stub root: mappings/**/*.json + __files/
        try stubs.load("Tests/Fixtures/Corpus/har/mitmproxy-chrome.har")  // a HAR capture
        stubs.stub(.get("/v1/flags"), .json(["beta": true]))  // and code stubs beside them

        let session = stubs.makeSession()
        let user = await complete(
            session,
            request("GET", "https://api.example.com/v1/users/42", headers: ["Accept": "application/json"])
        )
        #expect(user.status == 200)
        #expect(user.stub(in: stubs)?.source.description.hasPrefix("Stubs/mappings/users/get-user-42.json") == true)
        #expect(await complete(session, "https://api.example.com/v1/users/7").status == 404)
        #expect(
            await complete(
                session,
                "https://www.google.com/images/branding/googlelogo/2x/googlelogo_light_color_272x92dp.png"
            ).status == 200
        )
        #expect(await complete(session, "https://mitmproxy.org/").status == 304)
        #expect(await answer(session, "https://api.example.com/v1/flags") == #"{"beta":true}"#)
        #expect(await complete(session, "https://api.example.com/v1/status").urlError?.code == .notConnectedToInternet)
    }

    @Test("a load with an error adds nothing and lists every diagnostic in compiler style")
    func loadErrors() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "docs-stubfiles-\(UUID().uuidString)"
        )
        defer { try? FileManager.default.removeItem(at: folder) }
        let mappings = folder.appendingPathComponent("mappings")
        try FileManager.default.createDirectory(at: mappings, withIntermediateDirectories: true)
        try Data(#"{ "request": { "method": "GET", "urlPath": "/a" }, "response": { "status": 200 } }"#.utf8)
            .write(to: mappings.appendingPathComponent("a.json"))
        try Data(
            """
            {
              "request": { "method": "POST", "urlPath": "/orders", "bodyPatterns": [ { "matches": "(" } ] },
              "response": { "status": 201 }
            }
            """.utf8
        ).write(to: mappings.appendingPathComponent("orders.json"))
        let brokenRoot = folder.path
        let stubs = StubRegistry()

        var messages: [String] = []
        do {
            try stubs.load(brokenRoot)
        } catch {
            messages = error.diagnostics.map(\.description)  // path:line:column: error: $.json.path: message
        }

        #expect(stubs.stubs.isEmpty)
        let message = try #require(messages.first)
        #expect(message.hasPrefix("\(mappings.path)/orders.json:2:"))
        #expect(message.contains(": error: $.request.bodyPatterns[0].matches: invalid regular expression '('"))
    }
}

extension Completion {
    /// The summary of the stub that answered this completion's request, found in the journal by URL.
    func stub(in stubs: StubRegistry) -> StubSummary? {
        stubs.journal.last { $0.request.url == http?.url }?.stub
    }
}
