import Foundation
import HTTPStubs
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The Swift code of `Sources/HTTPStubs/HTTPStubs.docc/HTTPStubs.md`, run as the page says it runs.
@Suite("Docs: HTTPStubs")
struct RootPageSnippetTests {
    struct Feed: Codable, Equatable {
        var items: [String]
    }

    /// The code under test takes its session by injection.
    struct FeedClient {
        let session: URLSession

        func feed() async throws -> Feed {
            let (data, _) = try await session.data(from: URL(string: "https://api.example.com/v1/feed")!)
            return try JSONDecoder().decode(Feed.self, from: data)
        }
    }

    @Test("a registry's session serves its stubs to the code under test")
    func overview() async throws {
        let stubs = StubRegistry()
        stubs.stub(.get("https://api.example.com/v1/feed"), .json(["items": ["a", "b", "c"]]))
        let client = FeedClient(session: stubs.makeSession())
        #expect(try await client.feed() == Feed(items: ["a", "b", "c"]))
        #expect(stubs.journal.count == 1)
        // A request no stub answers fails at once.
        #expect(await answer(stubs.makeSession(), "https://api.example.com/v1/other") == unmatched)
    }
}
