// The README's Swift Testing example, verbatim: it compiles and passes here, so it can be copied.
import Foundation
import HTTPStubs
import HTTPStubsTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

struct Feed: Codable, Equatable {
    var items: [String]
}

/// The code under test takes its session by injection.
struct FeedClient {
    let session: URLSession

    func feed() async throws -> Feed {
        let (data, response) = try await session.data(from: URL(string: "https://api.example.com/v1/feed")!)
        guard (response as? HTTPURLResponse)?.statusCode == 200 else { throw URLError(.badServerResponse) }
        return try JSONDecoder().decode(Feed.self, from: data)
    }
}

@Suite struct FeedTests {
    @Test(
        .httpStubs { stubs in
            stubs.stub(.get("https://api.example.com/v1/feed"), .json(Feed(items: ["a", "b", "c"])), expecting: .once)
        }
    )
    func loadsTheFeed() async throws {
        let stubs = StubRegistry.current()
        let feed = try await FeedClient(session: stubs.makeSession()).feed()
        #expect(feed.items.count == 3)
        #expect(stubs.requests(to: .get, "/v1/feed").count == 1)
    }

    @Test func failsWhenOffline() async {
        await withHTTPStubs { stubs in
            stubs.stub(.get("https://api.example.com/v1/feed"), .error(.notConnectedToInternet))
            let client = FeedClient(session: stubs.makeSession())
            let error = await #expect(throws: URLError.self) { try await client.feed() }
            #expect(error?.code == .notConnectedToInternet)
        }
    }

    @Test func reportsAServerError() async {
        await withHTTPStubs { stubs in
            stubs.stub(.get("https://api.example.com/v1/feed"), .status(500))
            await #expect(throws: URLError(.badServerResponse)) {
                try await FeedClient(session: stubs.makeSession()).feed()
            }
        }
    }
}
