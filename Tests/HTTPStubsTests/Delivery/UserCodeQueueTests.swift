import Dispatch
import Foundation
import HTTPStubs
import HTTPStubsTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The user's closures — observers, custom matchers, computed responses — never run on the queue
/// URLSession runs its protocols on (issue #12, part 4).
///
/// On Linux every session of the process shares that one serial queue. Before the fix, a closure
/// that started a request there died with SIGILL (`dispatch_sync` onto the queue it runs on), and a
/// slow one held up every session in the process. No test here measures time: a test that would
/// hang without the fix gives up after a bounded wait and fails on what it then sees.
@Suite struct UserCodeQueueTests {
    private let base = "https://api.example.com"

    @Test("a computed response may start a request through a stubbed session and wait for its answer")
    func computedResponseStartsARequest() async throws {
        let stubs = StubRegistry()
        let session = stubs.makeSession()
        stubs.stub(.get(.path("/inner")), .text("inner"))
        stubs.stub(.get(.path("/outer"))) { _ in
            .text("outer+" + (Self.fetchBlocking(session, "https://api.example.com/inner") ?? "no answer"))
        }
        #expect(await answer(session, base + "/outer") == "outer+inner")
        #expect(await answerAsync(session, base + "/outer") == "outer+inner")
    }

    @Test("an observer may start a request, through a stubbed session or another one")
    func observerStartsARequest() async throws {
        let stubs = StubRegistry()
        let session = stubs.makeSession()
        stubs.stub(.get(.path("/side")), .text("side"))
        stubs.stub(.get(.path("/main")), .text("main"))
        let sideAnswers = Collected<String>()
        stubs.observeRequests { request in
            guard request.url?.path == "/main" else { return }
            session.dataTask(with: URL(string: "https://api.example.com/side")!) { data, _, _ in
                sideAnswers.append(data.map { String(decoding: $0, as: UTF8.self) } ?? "no answer")
            }.resume()
        }
        #expect(await answer(session, base + "/main") == "main")
        #expect(await answerAsync(session, base + "/main") == "main")
        try await waitUntil { sideAnswers.all.count == 2 }
        #expect(sideAnswers.all == ["side", "side"])
    }

    @Test("a custom matcher may start a request")
    func customMatcherStartsARequest() async throws {
        let stubs = StubRegistry()
        let session = stubs.makeSession()
        stubs.stub(.get(.path("/flag")), .text("on"))
        stubs.stub(
            .get(.path("/feature")).matching("the flag is on") { _ in
                Self.fetchBlocking(session, "https://api.example.com/flag") == "on"
            },
            .text("feature")
        )
        #expect(await answer(session, base + "/feature") == "feature")
        #expect(await answerAsync(session, base + "/feature") == "feature")
    }

    @Test("a responder that takes its time delays only its own request, not another registry's")
    func slowResponderDelaysOnlyItsOwnRequest() async throws {
        let slow = StubRegistry()
        let fast = StubRegistry()
        let started = OneShot<Bool>()
        let released = DispatchSemaphore(value: 0)
        slow.stub(.get(.path("/slow"))) { _ in
            started.fulfill(true)
            // Waits for the other registry's request to be answered: the wait only ends with
            // "released" if that request did not wait for this responder.
            return .text(released.wait(timeout: .now() + patience) == .success ? "released" : "timed out")
        }
        fast.stub(.get(.path("/fast")), .text("fast"))
        let slowSession = slow.makeSession()
        let fastSession = fast.makeSession()
        let slowAnswer = Task { await answer(slowSession, "https://api.example.com/slow") }
        #expect(await started.value(within: patience) == true)
        #expect(await answer(fastSession, base + "/fast") == "fast")
        #expect(await answerAsync(fastSession, base + "/fast") == "fast")
        released.signal()
        #expect(await slowAnswer.value == "released")
    }

    @Test("a redirect from a plain stub to a computed one consumes each stub once")
    func redirectIntoComputedResponse() async throws {
        let stubs = StubRegistry()
        let redirect = stubs.stub(.get(.path("/old")), .redirect(to: "/new"))
        let computed = stubs.stub(.get(.path("/new"))) { request in .text("moved to \(request.url.path)") }
        let session = stubs.makeSession()
        #expect(await answer(session, base + "/old") == "moved to /new")
        #expect(stubs.useCount(of: redirect) == 1)
        #expect(stubs.useCount(of: computed) == 1)
        #expect(stubs.journal.count == 2)
    }

    @Test("ManualStubClock: an advance right after a request with a computed response waits for it, then delivers it")
    func manualClockWaitsForAComputedResponse() async throws {
        let clock = ManualStubClock()
        let stubs = StubRegistry(clock: clock)
        stubs.stub(.get(.path("/late"))) { _ in .text("late").delayed(by: .seconds(2)) }
        let session = stubs.makeSession()
        let late = Task { await answer(session, "https://api.example.com/late") }
        await clock.advance(by: .seconds(2))
        #expect(await within { await late.value } == "late")
    }

    /// Sends a GET and waits, blocking the calling thread, for its body (`nil` after ``patience``).
    private static func fetchBlocking(_ session: URLSession, _ url: String) -> String? {
        let done = DispatchSemaphore(value: 0)
        let body = Locked<String?>(nil)
        session.dataTask(with: URL(string: url)!) { data, _, _ in
            body.value = data.map { String(decoding: $0, as: UTF8.self) }
            done.signal()
        }.resume()
        return done.wait(timeout: .now() + patience) == .success ? body.value : nil
    }
}

/// Requests whose planning runs the user's code still choose their stubs in the order they were
/// started, and one whose test ended while its user code ran chooses none.
@Suite struct UserCodeOrderTests {
    @Test(
        "with an observer, requests started one after the other get a sequence's responses in that order",
        arguments: 1...10
    )
    func sequenceInStartOrder(_ run: Int) async throws {
        let stubs = StubRegistry()
        // The first request's observer takes longest: unordered, later requests would overtake it.
        let calls = Counter()
        stubs.observeRequests { _ in
            calls.increment()
            if calls.value == 1 { Thread.sleep(forTimeInterval: 0.1) }
        }
        stubs.stub(.get("https://api.example.com/page"), responses: (1...6).map { .text("page \($0)") })
        let session = stubs.makeSession()
        let answers = (0..<6).map { _ in OneShot<String>() }
        let tasks = answers.map { answer in
            session.dataTask(with: URL(string: "https://api.example.com/page")!) { data, _, _ in
                answer.fulfill(data.map { String(decoding: $0, as: UTF8.self) } ?? "no answer")
            }
        }
        for task in tasks { task.resume() }
        var received: [String?] = []
        for answer in answers { received.append(await answer.value(within: patience)) }
        #expect(received == (1...6).map { "page \($0)" })
    }

    @Test("a request whose test ends while its observer runs chooses no stub afterwards")
    func abandonedWhileObserving() async throws {
        let observing = Flag()
        let observed = Flag()
        let testEnded = DispatchSemaphore(value: 0)
        let stubs = Locked<StubRegistry?>(nil)
        let stubID = Locked(Stub.ID(""))
        _ = try await recordedIssues {
            try await withHTTPStubs { registry in
                HTTPStubsScope.current?.inFlightTimeout = .milliseconds(50)
                stubs.value = registry
                registry.observeRequests { _ in
                    observing.set()
                    _ = testEnded.wait(timeout: .now() + patience)  // the observer outlasts its test
                    observed.set()
                }
                stubID.value = registry.stub(.get("https://api.example.com/slow-observer"), .text("answered"))
                // A timeout beyond the test's: this test is about the end of the test, not the timeout.
                var request = URLRequest(url: URL(string: "https://api.example.com/slow-observer")!)
                request.timeoutInterval = patience * 2
                registry.makeSession().dataTask(with: request).resume()
                try await waitUntil { observing.isSet }  // the test ends while the observer runs
            }
        }
        testEnded.signal()
        try await waitUntil { observed.isSet }
        try await Task.sleep(for: .milliseconds(200))  // time enough to choose a stub, were it to
        let registry = try #require(stubs.value)
        #expect(registry.useCount(of: stubID.value) == 0, "the stub was not used after the test ended")
        #expect(!registry.journal.contains { $0.stub != nil })
    }
}
