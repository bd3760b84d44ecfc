import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import HTTPStubs

@Suite struct SmokeTests {
    @Test func servesAJSONStub() async throws {
        let stubs = StubRegistry()
        stubs.stub(.get("https://api.example.com/users/{id}"), .computed { request in
            .json(User(id: Int(request.pathParameters["id"]!)!, name: "Ada"))
        })
        let session = stubs.makeSession()
        let (data, response) = try await session.data(for: URLRequest(url: URL(string: "https://api.example.com/users/42")!))
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(try JSONDecoder().decode(User.self, from: data) == User(id: 42, name: "Ada"))
        let completion = await complete(session, "https://api.example.com/users/7")
        #expect(try JSONDecoder().decode(User.self, from: #require(completion.data)) == User(id: 7, name: "Ada"))
        let missing = await complete(session, "https://api.example.com/posts/1")
        #expect(missing.urlError?.code == .resourceUnavailable)
    }

    @Test func delaysAndTimesOut() async throws {
        let stubs = StubRegistry()
        stubs.stub(.get("https://api.example.com/slow"), .text("late").delayed(by: .seconds(5)))
        stubs.stub(.get("https://api.example.com/quick"), .text("soon").delayed(by: .milliseconds(100)))
        let session = stubs.makeSession()
        var slow = URLRequest(url: URL(string: "https://api.example.com/slow")!)
        slow.timeoutInterval = 0.3
        let timedOut = await complete(session, slow)
        #expect(timedOut.urlError?.code == .timedOut)
        let quick = await complete(session, "https://api.example.com/quick")
        #expect(quick.text == "soon")
    }
}
