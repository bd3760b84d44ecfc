// The snippets of Sources/HTTPStubsTesting/HTTPStubsTesting.docc/Isolation.md, VirtualTime.md,
// RequestsThatOutliveTheirTest.md and AsyncTestHelpers.md, each in a test that runs it.
import Foundation
import HTTPStubs
import HTTPStubsTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A completion-handler API, as `AsyncTestHelpers.md` awaits it.
private struct GreetingLoader {
    let session: URLSession

    func load(completion: @escaping @Sendable (String?) -> Void) {
        session.dataTask(with: URL(string: "https://api.example.com/greeting")!) { data, _, _ in
            completion(data.map { String(decoding: $0, as: UTF8.self) })
        }.resume()
    }
}

/// A completion-handler API with a leading argument.
private struct UserClient {
    let session: URLSession

    func user(_ id: Int, completion: @escaping @Sendable (User?) -> Void) {
        session.dataTask(with: URL(string: "https://api.example.com/users/\(id)")!) { data, _, _ in
            completion(data.flatMap { try? JSONDecoder().decode(User.self, from: $0) })
        }.resume()
    }
}

@Suite("Documentation: HTTPStubsTesting's articles")
struct DocumentationTestingArticlesTests {
    // Isolation.md
    @Test(.httpStubs, arguments: ["first", "second", "third", "fourth"])
    func eachTestCaseSeesItsOwnStubs(body: String) async throws {
        let stubs = StubRegistry.current()
        stubs.stub(.get("https://api.example.com/v1/value"), .text(body))
        let (data, _) = try await stubs.makeSession().data(from: URL(string: "https://api.example.com/v1/value")!)
        #expect(String(decoding: data, as: UTF8.self) == body)
        #expect(stubs.journal.count == 1)
    }

    // VirtualTime.md
    @Test func immediateClockTimesOutAtOnce() async throws {
        let report = ["status": "ready"]
        let stubs = StubRegistry(clock: ImmediateStubClock())  // no waiting, same outcomes
        stubs.stub(.get("/slow"), .json(report).delayed(by: .seconds(30)))
        var request = URLRequest(url: URL(string: "https://api.example.com/slow")!)
        request.timeoutInterval = 10
        let error = await #expect(throws: URLError.self) { try await stubs.makeSession().data(for: request) }
        #expect(error?.code == .timedOut)  // at once, as it would after 10 s
        #expect(stubs.clock.now == .seconds(10), "the timeout, not the 30 s delay, ended the request (in virtual time)")
    }

    // RequestsThatOutliveTheirTest.md
    @Test(.httpStubs)
    func aRequestStartedAndNotAwaitedStillCounts() async throws {
        HTTPStubsScope.current?.inFlightTimeout = .seconds(5)  // the test's end waits up to 5 s for its requests
        let stubs = StubRegistry.current()
        stubs.stub(
            .post("https://api.example.com/v1/events"),
            .status(204).delayed(by: .milliseconds(200)),
            expecting: .once
        )
        var event = URLRequest(url: URL(string: "https://api.example.com/v1/events")!)
        event.httpMethod = "POST"
        stubs.makeSession().dataTask(with: event).resume()  // started, never awaited
    }

    // AsyncTestHelpers.md
    @Test func awaitsCompletionHandlers() async throws {
        try await withHTTPStubs { stubs in
            stubs.stub(.get("https://api.example.com/greeting"), .text("hello"))
            stubs.stub(.get("https://api.example.com/users/42"), .json(User(id: 42, name: "Ada")))
            let loader = GreetingLoader(session: stubs.makeSession())
            let client = UserClient(session: stubs.makeSession())
            let result = try await awaitCallback { done in loader.load(completion: done) }
            let user = try await awaitCallback(client.user, 42)  // leading arguments
            #expect(result == "hello")
            #expect(user == User(id: 42, name: "Ada"))
        }
    }

    @Test func aCallbackThatNeverComesTimesOut() async throws {
        let neverCalled: (@escaping @Sendable (Int) -> Void) -> Void = { _ in }
        let timeout = await #expect(throws: CallbackTimeout.self) {
            try await awaitCallback(timeout: .milliseconds(100)) { done in neverCalled(done) }
        }
        #expect(timeout?.timeout == .milliseconds(100))
        #expect(timeout?.location.fileID == #fileID)
    }
}
