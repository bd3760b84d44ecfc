import Foundation
import HTTPStubs
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A redirect the toolkit follows is first put to the delegate, as URLSession puts it on Apple
/// platforms (issue #13, part 2): the task's delegate, else the session's, may refuse it (the
/// caller gets the 3xx with its `Location`) or change the request that follows it.
@Suite("Redirects and the session delegate")
struct RedirectDelegateTests {
    private static let old = "https://api.example.com/old"

    private func redirectingStubs() -> StubRegistry {
        let stubs = StubRegistry()
        stubs.stub(
            .get(URLPattern(Self.old)),
            .text("see elsewhere", status: 302).header("Location", "https://cdn.example.com/new")
        )
        stubs.stub(.get("https://cdn.example.com/new"), .text("moved here"))
        stubs.stub(.get("https://mirror.example.com/new"), .text("from the mirror"))
        return stubs
    }

    #if canImport(FoundationNetworking)
    @Test("a session delegate that refuses gets the 302 with its Location, by completion handler and by async call")
    func sessionDelegateRefuses() async throws {
        let stubs = redirectingStubs()
        let delegate = RedirectDecider(.refuse)
        let session = stubs.makeSession(delegate: delegate)
        defer { session.finishTasksAndInvalidate() }

        let completion = await complete(session, Self.old)
        #expect(completion.error == nil)
        #expect(completion.status == 302)
        #expect(completion.text == "see elsewhere")
        #expect(completion.http?.value(forHTTPHeaderField: "Location") == "https://cdn.example.com/new")
        #expect(completion.response?.url == URL(string: Self.old))

        let (data, response) = try await session.data(for: URLRequest(url: URL(string: Self.old)!))
        #expect((response as? HTTPURLResponse)?.statusCode == 302)
        #expect(String(decoding: data, as: UTF8.self) == "see elsewhere")
        #expect((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Location") == "https://cdn.example.com/new")

        #expect(delegate.asked == ["https://cdn.example.com/new", "https://cdn.example.com/new"])
        #expect(
            stubs.journal.map(\.request.url.absoluteString) == [Self.old, Self.old],
            "the redirect was not followed"
        )
        #expect(stubs.journal.first?.response?.status == 302)
    }

    @Test("a session delegate that refuses: a delegate-style data task receives the 302 and its body")
    func delegateStyleTaskGetsTheRedirect() async throws {
        let stubs = redirectingStubs()
        let delegate = RedirectDecider(.refuse)
        let session = stubs.makeSession(delegate: delegate)
        defer { session.finishTasksAndInvalidate() }
        session.dataTask(with: URL(string: Self.old)!).resume()
        let result = try #require(await delegate.finished.value(within: patience), "the task never completed")
        #expect(result.status == 302)
        #expect(result.body == "see elsewhere")
        #expect(result.error == nil)
    }

    @Test("a session delegate that changes the new request has its change honoured")
    func sessionDelegateChangesTheRequest() async throws {
        let stubs = redirectingStubs()
        let session = stubs.makeSession(
            delegate: RedirectDecider(.sendTo("https://mirror.example.com/new", header: "X-Via-Delegate"))
        )
        defer { session.finishTasksAndInvalidate() }

        let completion = await complete(session, Self.old)
        #expect(completion.status == 200)
        #expect(completion.text == "from the mirror")
        #expect(completion.response?.url == URL(string: "https://mirror.example.com/new"))
        #expect(await answerAsync(session, Self.old) == "from the mirror")

        let hops = stubs.journal.map(\.request)
        #expect(
            hops.map(\.url.absoluteString) == [
                Self.old, "https://mirror.example.com/new", Self.old, "https://mirror.example.com/new",
            ]
        )
        #expect(hops[1].headers["X-Via-Delegate"] == "yes")
    }

    @Test("a session delegate that lets the redirect through, and a delegate without the method, see it followed")
    func delegateLetsItThrough() async throws {
        let stubs = redirectingStubs()
        let decider = RedirectDecider(.follow)
        for session in [stubs.makeSession(delegate: decider), stubs.makeSession(delegate: SilentDelegate())] {
            #expect(await answer(session, Self.old) == "moved here")
            #expect(await answerAsync(session, Self.old) == "moved here")
            session.finishTasksAndInvalidate()
        }
        #expect(decider.asked.count == 2)
        // Every redirect the delegates let through is in the journal with its response.
        let statuses = stubs.journal.map { $0.response?.status }
        #expect(statuses == Array(repeating: [302, 200], count: 4).flatMap { $0 }, "\(statuses)")
    }

    @Test("a task delegate (data(for:delegate:)) that refuses gets the 302")
    func taskDelegateRefuses() async throws {
        let stubs = redirectingStubs()
        let delegate = RedirectDecider(.refuse)
        let (data, response) = try await stubs.makeSession().data(
            for: URLRequest(url: URL(string: Self.old)!),
            delegate: delegate
        )
        #expect((response as? HTTPURLResponse)?.statusCode == 302)
        #expect(String(decoding: data, as: UTF8.self) == "see elsewhere")
        #expect(delegate.asked == ["https://cdn.example.com/new"])
    }

    @Test("each hop of a chain is put to the delegate, which may refuse a later one")
    func chainRefusedAtTheSecondHop() async throws {
        let stubs = StubRegistry()
        stubs.stub(.get("https://api.example.com/a"), .redirect(to: "https://api.example.com/b"))
        stubs.stub(.get("https://api.example.com/b"), .redirect(to: "https://api.example.com/c", status: 307))
        stubs.stub(.get("https://api.example.com/c"), .text("c"))
        let delegate = RedirectDecider(.refuseURL("https://api.example.com/c"))
        let session = stubs.makeSession(delegate: delegate)
        defer { session.finishTasksAndInvalidate() }
        let completion = await complete(session, "https://api.example.com/a")
        #expect(completion.status == 307)
        #expect(completion.response?.url == URL(string: "https://api.example.com/b"))
        #expect(delegate.asked == ["https://api.example.com/b", "https://api.example.com/c"])
    }
    #endif
}

/// A session or task delegate that decides about redirects, and records the URLs it was asked about.
private final class RedirectDecider: NSObject, URLSessionDataDelegate, Sendable {
    enum Decision {
        case follow
        case refuse
        case refuseURL(String)
        case sendTo(String, header: String)
    }

    private struct State {
        var askedURLs: [String] = []
        var status: Int?
        var body = Data()
    }

    private let state = Locked(State())
    private let decision: Decision
    let finished = OneShot<(status: Int?, body: String, error: URLError?)>()

    init(_ decision: Decision) {
        self.decision = decision
    }

    var asked: [String] { state.withLock { $0.askedURLs } }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        let url = request.url?.absoluteString ?? ""
        state.withLock { $0.askedURLs.append(url) }
        switch decision {
        case .follow:
            completionHandler(request)
        case .refuse:
            completionHandler(nil)
        case let .refuseURL(refused):
            completionHandler(url == refused ? nil : request)
        case let .sendTo(target, header):
            var changed = request
            changed.url = URL(string: target)
            changed.setValue("yes", forHTTPHeaderField: header)
            completionHandler(changed)
        }
    }

    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        state.withLock { $0.status = (response as? HTTPURLResponse)?.statusCode }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        state.withLock { $0.body.append(data) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let (status, body) = state.withLock { ($0.status, $0.body) }
        finished.fulfill((status, String(decoding: body, as: UTF8.self), error as? URLError))
    }
}

/// A session delegate that implements nothing.
private final class SilentDelegate: NSObject, URLSessionTaskDelegate, Sendable {}
