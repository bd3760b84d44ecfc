import Foundation
import HTTPStubs
import HTTPStubsFiles
import HTTPStubsTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The Swift code of `Sources/HTTPStubsFiles/HTTPStubsFiles.docc/RecordAndReplay.md`, run as the article says
/// it runs. `Recordings/Repositories` beside this file is the checked-in recording the article's
/// tests replay (excluded from the target in `Package.swift`); with it present, `.once` only
/// replays and nothing reaches the network.
@Suite("Docs: RecordAndReplay")
struct RecordAndReplaySnippetTests {
    struct Repository: Decodable {
        let name: String
    }

    /// The code under test: lists an organisation's repositories on GitHub.
    struct GitHubClient {
        let session: URLSession

        func repositories(of organization: String) async throws -> [Repository] {
            let url = URL(string: "https://api.github.com/orgs/\(organization)/repos")!
            let (data, response) = try await session.data(from: url)
            guard (response as? HTTPURLResponse)?.statusCode == 200 else { throw URLError(.badServerResponse) }
            return try JSONDecoder().decode([Repository].self, from: data)
        }
    }

    @Test func listsRepositories() async throws {
        try await withHTTPStubs { stubs in
            try stubs.replay("Recordings/Repositories", relativeTo: #filePath, mode: .once)
            let client = GitHubClient(session: stubs.makeSession())
            let repositories = try await client.repositories(of: "swiftlang")
            #expect(!repositories.isEmpty)
        }
    }

    // The same with the trait, which sets the scope up before the test runs.
    @Test(
        .httpStubs { stubs in
            try stubs.replay("Recordings/Repositories", relativeTo: #filePath, mode: .once)
        }
    )
    func listsRepositoriesWithTheTrait() async throws {
        let client = GitHubClient(session: StubRegistry.current().makeSession())
        let repositories = try await client.repositories(of: "swiftlang")
        #expect(!repositories.isEmpty)
    }

    @Test("the replayed answer is the recorded one, and an unrecorded request fails naming HTTPSTUBS_RECORD")
    func replayedAnswers() async throws {
        let stubs = StubRegistry()
        let mode = try stubs.replay("Recordings/Repositories", relativeTo: #filePath, mode: .none)
        #expect(mode == .none || ProcessInfo.processInfo.environment[RecordMode.environmentVariable] != nil)
        let repositories = try await GitHubClient(session: stubs.makeSession()).repositories(of: "swiftlang")
        #expect(repositories.map(\.name) == ["swift", "swift-testing"])
        let unrecorded = await complete(stubs.makeSession(), "https://api.github.com/orgs/apple/repos")
        #expect(unrecorded.urlError?.code == .resourceUnavailable)
        #expect(unrecorded.urlError?.localizedDescription.contains("HTTPSTUBS_RECORD=new_episodes") == true)
    }

    @Test("the journal exported as HAR 1.2, redacted, loads back as stubs")
    func journalAsHAR() async throws {
        let stubs = StubRegistry()
        stubs.stub(.get("https://api.example.com/me"), .json(["name": "Ada"]))
        let sent = request("GET", "https://api.example.com/me?code=abc123", headers: ["Authorization": "Bearer s3cr3t"])
        _ = await complete(stubs.makeSession(), sent)
        let harURL = FileManager.default.temporaryDirectory.appendingPathComponent(
            "docs-journal-\(UUID().uuidString).har"
        )
        defer { try? FileManager.default.removeItem(at: harURL) }

        try stubs.journalAsHAR().write(to: harURL)

        let har = try String(contentsOf: harURL, encoding: .utf8)
        #expect(har.contains(#""version""#) && har.contains("1.2"))
        #expect(!har.contains("s3cr3t") && !har.contains("abc123"))
        #expect(har.contains("Authorization"))
        let replayed = StubRegistry()
        try replayed.load(harURL.path)
        #expect(replayed.stubs.count == 1)
        #expect(await answer(replayed.makeSession(), "https://api.example.com/me?code=REDACTED") == #"{"name":"Ada"}"#)
        let unredacted = String(decoding: stubs.journalAsHAR(redaction: .none), as: UTF8.self)
        #expect(unredacted.contains("s3cr3t"))
    }
}
