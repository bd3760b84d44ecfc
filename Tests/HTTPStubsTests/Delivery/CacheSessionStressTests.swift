import Foundation
import HTTPStubs
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking

/// Many concurrent redirected requests in a session that keeps a urlCache: each reads the session's
/// task registry (to find the delegate to ask about the redirect) while others come and go.
@Suite struct CacheSessionStressTests {
    @Test("2000 concurrent redirected requests through a session with a urlCache")
    func concurrentRedirects() async throws {
        let stubs = StubRegistry()
        stubs.stub(.get("https://api.example.com/start"), .redirect(to: "/final"))
        stubs.stub(.get("https://api.example.com/final"), .text("done"))
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [stubs.protocolClass]
        let session = URLSession(configuration: configuration)
        let url = URL(string: "https://api.example.com/start")!
        // One round in the default suite, five with `HTTPSTUBS_RELIABILITY=1` (as `.ci/run` runs it).
        let rounds = ProcessInfo.processInfo.environment["HTTPSTUBS_RELIABILITY"] == "1" ? 5 : 1
        for _ in 0..<rounds {
            let texts = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<2000 {
                    group.addTask { String(decoding: try await session.data(from: url).0, as: UTF8.self) }
                }
                return try await group.reduce(into: [String]()) { $0.append($1) }
            }
            #expect(texts.allSatisfy { $0 == "done" })
        }
    }
}
#endif
