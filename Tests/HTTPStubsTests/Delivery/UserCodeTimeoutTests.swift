import Dispatch
import Foundation
import HTTPStubs
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The request's timeout holds whatever keeps the answer back: a computed response (synchronous or
/// `async`) slower than the timeout, or one that never returns, a custom matcher or an observer
/// that blocks. The request fails with `URLError(.timedOut)` at the timeout, as a server that went
/// quiet would make it, through every kind of caller; the user's code is left to finish, and what it
/// returns afterwards is dropped.
///
/// No test asserts that something is fast: each checks that the request timed out instead of getting
/// the late answer, and gives up waiting after ``patience`` rather than hanging.
@Suite("Timeouts while the user's code runs")
struct UserCodeTimeoutTests {
    /// A gate the user's code waits at, for at most ``patience``, until the test opens it.
    final class Gate: Sendable {
        private let semaphore = DispatchSemaphore(value: 0)
        private let entered = Locked(0)

        /// Waits until the gate opens (or ``patience`` passes).
        func pass() {
            entered.withLock { $0 += 1 }
            _ = semaphore.wait(timeout: .now() + patience)
        }

        /// How many callers reached the gate.
        var arrivals: Int { entered.withLock { $0 } }

        /// Lets every caller through, now and later.
        func open() {
            for _ in 0..<64 { semaphore.signal() }
        }
    }

    /// A registry whose `/stuck` stub computes its response at `gate` (waiting until the test opens
    /// it) and whose `/quick` stub computes its response at once.
    static func stuckRegistry(at gate: Gate, clock: any StubClock = SystemStubClock()) -> StubRegistry {
        let stubs = StubRegistry(clock: clock)
        stubs.stub(
            .get("https://api.example.com/stuck"),
            .computed { _ in
                gate.pass()
                return .text("too late")
            }
        )
        stubs.stub(.get("https://api.example.com/quick"), .computed { _ in .text("quick") })
        return stubs
    }

    /// Sends `request` through a completion handler, failing the test if nothing comes back in ``patience``.
    static func send(_ session: URLSession, _ request: URLRequest) async throws -> Completion {
        try #require(await within { await complete(session, request) }, "the request hung")
    }

    static func slowRequest(_ path: String, timeout: TimeInterval = 0.3) -> URLRequest {
        var request = URLRequest(url: URL(string: "https://api.example.com\(path)")!)
        request.timeoutInterval = timeout
        return request
    }

    @Test("a synchronous computed response that never returns times out, for completion handlers, async and delegates")
    func blockedSynchronousResponder() async throws {
        let gate = Gate()
        defer { gate.open() }
        let stubs = Self.stuckRegistry(at: gate)
        let session = stubs.makeSession()
        let request = Self.slowRequest("/stuck")

        let completion = try await Self.send(session, request)
        let error = try #require(completion.urlError, "got \(completion)")
        #expect(error.code == .timedOut)
        #expect(error.failingURL == request.url)
        #expect(completion.response == nil)
        #expect(
            error.localizedDescription.contains("the stub's response had not been computed after 0.3 s"),
            "\(error.localizedDescription)"
        )

        let asyncFailure = try #require(await within { await asyncError(session, request) }, "the request hung")
        #expect((asyncFailure as? URLError)?.code == .timedOut)

        let recorder = ChunkRecorder()
        let delegateSession = stubs.makeSession(delegate: recorder)
        defer { delegateSession.finishTasksAndInvalidate() }
        delegateSession.dataTask(with: request).resume()
        let result = try #require(await within { await recorder.result() }, "the delegate was never told")
        #expect((result.error as? URLError)?.code == .timedOut)
        #expect(result.chunks.isEmpty)
        #expect(gate.arrivals == 3, "each request ran the responder once")
    }

    @Test("an async computed response slower than the timeout times out, and its late answer is dropped")
    func slowAsyncResponder() async throws {
        let finished = Locked(0)
        let stubs = StubRegistry()
        stubs.stub(
            .get("https://api.example.com/slow"),
            .computed { _ async throws -> StubResponse in
                try await Task.sleep(for: .seconds(1.5))
                finished.withLock { $0 += 1 }
                return .text("too late")
            }
        )
        let session = stubs.makeSession()
        let request = Self.slowRequest("/slow")

        let completion = try await Self.send(session, request)
        #expect(completion.urlError?.code == .timedOut, "got \(completion)")
        let asyncFailure = try #require(await within { await asyncError(session, request) }, "the request hung")
        #expect((asyncFailure as? URLError)?.code == .timedOut)

        // The responders finish later; their answers reach no one, and nothing crashes.
        try await waitUntil { finished.withLock { $0 } == 2 }
        try await Task.sleep(for: .milliseconds(100))
        #expect(stubs.journal.count == 2)
    }

    @Test("the session's timeoutIntervalForRequest holds a blocked responder too")
    func sessionTimeout() async throws {
        let gate = Gate()
        defer { gate.open() }
        let stubs = Self.stuckRegistry(at: gate)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 0.3
        let session = stubs.makeSession(configuration: configuration)
        let completion = try await Self.send(session, URLRequest(url: URL(string: "https://api.example.com/stuck")!))
        #expect(completion.urlError?.code == .timedOut, "got \(completion)")
    }

    @Test("a custom matcher or an observer that blocks times out the request it holds up")
    func blockedMatcherAndObserver() async throws {
        let gate = Gate()
        defer { gate.open() }
        let stubs = StubRegistry()
        stubs.stub(
            .get("https://api.example.com/matcher").matching("a matcher that blocks") { _ in
                gate.pass()
                return true
            },
            .text("too late")
        )
        let session = stubs.makeSession()
        let matcherCompletion = try await Self.send(session, Self.slowRequest("/matcher"))
        #expect(matcherCompletion.urlError?.code == .timedOut, "got \(matcherCompletion)")

        let observed = StubRegistry()
        observed.stub(.get("https://api.example.com/observed"), .text("too late"))
        observed.observeRequests { _ in gate.pass() }
        let observedSession = observed.makeSession()
        let observerCompletion = try await Self.send(observedSession, Self.slowRequest("/observed"))
        #expect(observerCompletion.urlError?.code == .timedOut, "got \(observerCompletion)")
    }

    @Test(
        "an observer that returns after its request timed out leaves the stubs unused: the next request gets the first answer"
    )
    func observerReturningAfterTheTimeout() async throws {
        let gate = Gate()
        defer { gate.open() }
        let stubs = StubRegistry()
        let once = stubs.stub(.get("https://api.example.com/sequence"), responses: [.text("first"), .text("second")])
        let blocking = Locked(true)
        stubs.observeRequests { _ in
            if blocking.value { gate.pass() }
        }
        let session = stubs.makeSession()
        let timedOut = try await Self.send(session, Self.slowRequest("/sequence"))
        #expect(timedOut.urlError?.code == .timedOut, "got \(timedOut)")

        blocking.value = false
        gate.open()  // the observer returns, after the request failed
        try await Task.sleep(for: .milliseconds(200))  // time enough to choose a stub, were it to
        #expect(stubs.useCount(of: once) == 0)
        // Journaled all the same, as refused, saying why.
        #expect(stubs.journal.count == 1)
        guard case let .refused(reason)? = stubs.journal.first?.outcome else {
            Issue.record("expected a refused entry, got \(stubs.journal)")
            return
        }
        #expect(reason.contains("timed out"), "\(reason)")
        let next = try await Self.send(session, Self.slowRequest("/sequence", timeout: patience))
        #expect(next.text == "first")
    }

    @Test("a computed response within the timeout answers, and later requests are not held up by one that timed out")
    func inTimeAfterATimeout() async throws {
        let gate = Gate()
        defer { gate.open() }
        let stubs = Self.stuckRegistry(at: gate)
        let session = stubs.makeSession()
        let stuck = try await Self.send(session, Self.slowRequest("/stuck"))
        #expect(stuck.urlError?.code == .timedOut)
        let quick = try await Self.send(session, Self.slowRequest("/quick", timeout: 10))
        #expect(quick.text == "quick")
    }

    @Test("on a virtual clock the user's code is timed in real time: a blocked responder still times out")
    func virtualClocks() async throws {
        for clock in [ImmediateStubClock() as any StubClock, ManualStubClock()] {
            let gate = Gate()
            defer { gate.open() }
            let stubs = Self.stuckRegistry(at: gate, clock: clock)
            let session = stubs.makeSession()
            let stuck = try await Self.send(session, Self.slowRequest("/stuck"))
            #expect(stuck.urlError?.code == .timedOut, "\(type(of: clock)): got \(stuck)")
            // A responder that returns at once is not timed out by a clock that runs waits at once.
            let quick = try await Self.send(session, Self.slowRequest("/quick"))
            #expect(quick.text == "quick", "\(type(of: clock)): got \(quick)")
        }
    }
}
