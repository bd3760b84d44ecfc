import Dispatch
import ExampleClients
import Foundation
import HTTPStubs
import HTTPStubsTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Delays, dribbled bodies and timeouts on virtual time.
///
/// No test measures wall-clock time ("timing goes in benchmarks"). That no real waiting happens is
/// proven instead by delays of an hour, which could never elapse within the test run, and by the
/// clocks' own `now`. With `ManualStubClock`, tests observe what happens before and after time
/// moves.
@Suite("Virtual time")
struct VirtualTimeTests {
    private static let url = URL(string: "https://api.example.com/feed")!

    // MARK: ImmediateStubClock

    @Test(
        "ImmediateStubClock: a 30 s stub against a 10 s timeout fails with URLError(.timedOut), via a completion handler"
    )
    func immediateTimeoutThroughCompletionHandler() async throws {
        let clock = ImmediateStubClock()
        await withHTTPStubs(clock: clock) { stubs in
            stubs.stub(.get(.init(Self.url.absoluteString)), .text("too late").delayed(by: .seconds(30)))
            let result = await complete(stubs.makeSession(), virtualRequest(Self.url, timeout: 10))
            #expect(result.urlError?.code == .timedOut)
            #expect(result.data == nil)
            #expect(stubs.journal.count == 1)
        }
        #expect(clock.now == .seconds(10), "the timeout fired at its virtual deadline")
    }

    @Test(
        "ImmediateStubClock: a 30 s stub against a 10 s timeout fails with URLError(.timedOut), via async data(for:)",
        .httpStubs(clock: { ImmediateStubClock() }) { _ in }
    )
    func immediateTimeoutThroughAsync() async throws {
        let stubs = StubRegistry.current()
        stubs.stub(.get(.init(Self.url.absoluteString)), .text("too late").delayed(by: .seconds(30)))
        let error = await #expect(throws: URLError.self) {
            _ = try await stubs.makeSession().data(for: virtualRequest(Self.url, timeout: 10))
        }
        #expect(error?.code == .timedOut)
        #expect(stubs.clock.now == .seconds(10))
    }

    @Test("ImmediateStubClock: a 30 s stub within a 60 s timeout answers")
    func immediateDelayWithinTimeout() async throws {
        let clock = ImmediateStubClock()
        try await withHTTPStubs(clock: clock) { stubs in
            stubs.stub(.get(.init(Self.url.absoluteString)), .text("worth the wait").delayed(by: .seconds(30)))
            let session = stubs.makeSession()
            let result = await complete(session, virtualRequest(Self.url, timeout: 60))
            #expect(result.text == "worth the wait")
            let (data, _) = try await session.data(for: virtualRequest(Self.url, timeout: 60))
            #expect(String(decoding: data, as: UTF8.self) == "worth the wait")
        }
        #expect(clock.now >= .seconds(30))
    }

    @Test("ImmediateStubClock: an hour-long delay answers without anyone waiting an hour")
    func immediateHourLongDelay() async throws {
        let clock = ImmediateStubClock()
        try await withHTTPStubs(clock: clock) { stubs in
            stubs.stub(.get(.init(Self.url.absoluteString)), .text("an hour later").delayed(by: .seconds(3600)))
            let configuration = URLSessionConfiguration.ephemeral
            configuration.timeoutIntervalForRequest = 7200
            let session = stubs.makeSession(configuration: configuration)
            let result = await complete(session, virtualRequest(Self.url, timeout: 7200))
            #expect(result.text == "an hour later")
            let (data, _) = try await session.data(for: virtualRequest(Self.url, timeout: 7200))
            #expect(String(decoding: data, as: UTF8.self) == "an hour later")
        }
        #expect(clock.now >= .seconds(3600), "virtual time moved an hour")
    }

    @Test("ImmediateStubClock: an hour-long delay against a 10 s timeout times out at 10 s of virtual time")
    func immediateHourLongDelayTimesOut() async throws {
        let clock = ImmediateStubClock()
        await withHTTPStubs(clock: clock) { stubs in
            stubs.stub(.get(.init(Self.url.absoluteString)), .text("never").delayed(by: .seconds(3600)))
            let result = await complete(stubs.makeSession(), virtualRequest(Self.url, timeout: 10))
            #expect(result.urlError?.code == .timedOut)
        }
        #expect(clock.now == .seconds(10))
    }

    @Test("ImmediateStubClock: a dribbled body arrives whole, its chunks spread over virtual time")
    func immediateDribble() async throws {
        let clock = ImmediateStubClock()
        await withHTTPStubs(clock: clock) { stubs in
            stubs.stub(
                .get(.init(Self.url.absoluteString)),
                .text("abcdefghij").dribbled(chunks: 5, over: .seconds(50))
            )
            let result = await complete(stubs.makeSession(), virtualRequest(Self.url, timeout: 60))
            #expect(result.text == "abcdefghij")
        }
        #expect(clock.now == .seconds(50))
    }

    @Test("ImmediateStubClock: requests made one after another each take their own delay, in virtual time")
    func immediateSequence() async throws {
        let clock = ImmediateStubClock()
        try await withHTTPStubs(clock: clock) { stubs in
            stubs.stub(.get("https://api.example.com/slow"), .text("slow").delayed(by: .seconds(2)))
            stubs.stub(.get("https://api.example.com/fast"), .text("fast").delayed(by: .seconds(1)))
            let session = stubs.makeSession()
            let (slow, _) = try await session.data(from: URL(string: "https://api.example.com/slow")!)
            #expect(clock.now == .seconds(2))
            let (fast, _) = try await session.data(from: URL(string: "https://api.example.com/fast")!)
            #expect(clock.now == .seconds(3), "the second delay starts when the second request does")
            #expect(String(decoding: slow + fast, as: UTF8.self) == "slowfast")
        }
    }

    // MARK: ManualStubClock

    @Test(
        "ManualStubClock: the model is loading until time passes the delay, then loaded",
        .httpStubs(clock: { ManualStubClock() }) { stubs in
            stubs.stub(.get("https://api.example.com/feed"), .text("3 items").delayed(by: .seconds(2)))
        }
    )
    func manualLoadingThenLoaded() async throws {
        let stubs = StubRegistry.current()
        let clock = try #require(stubs.clock as? ManualStubClock)
        let model = FeedModel(
            client: AsyncHTTPClient(
                HTTPClient(session: stubs.makeSession(), baseURL: URL(string: "https://api.example.com")!)
            )
        )
        #expect(model.state == .idle)

        let load = Task { await model.load() }
        try await waitUntil { stubs.journal.count == 1 && clock.pendingCount == 1 }
        #expect(model.state == .loading, "the request is in flight, and no time has passed")

        await clock.advance(by: .seconds(2))
        await load.value
        #expect(model.state == .loaded("3 items"))
        #expect(clock.now == .seconds(2))
    }

    @Test(
        "ManualStubClock: a request that reaches the clock after an advance gave up waiting for it is timed from before that advance"
    )
    func manualLateRequestIsTimedFromBeforeTheAdvance() async throws {
        let clock = ManualStubClock(arrivalTimeout: .milliseconds(5))  // gives up long before the request comes
        try await withHTTPStubs(clock: clock) { stubs in
            stubs.stub(.get(.init(Self.url.absoluteString)), .text("3 items").delayed(by: .seconds(2)))
            let model = FeedModel(
                client: AsyncHTTPClient(
                    HTTPClient(session: stubs.makeSession(), baseURL: URL(string: "https://api.example.com")!)
                )
            )
            let started = Flag()
            let load = Task {
                while !started.isSet { try? await Task.sleep(for: .milliseconds(1)) }
                await model.load()
            }
            await clock.advance(by: .milliseconds(1999))  // nothing arrives within 5 ms
            started.set()
            try await waitUntil { clock.pendingCount == 1 }
            #expect(model.state == .loading, "timed from 0 s, the answer is not due at 1.999 s")
            await clock.advance(by: .milliseconds(1))
            let finished: Void? = await within { await load.value }
            #expect(finished != nil, "the request waited for 3.999 s instead of 2 s: it would hang")
            #expect(model.state == .loaded("3 items"))
            #expect(clock.now == .seconds(2))
        }
    }

    @Test("ManualStubClock: only the latest advance that gave up waiting times a late request")
    func manualLateStartIsTheLatestGiveUp() async throws {
        let clock = ManualStubClock(arrivalTimeout: .milliseconds(5))
        try await withHTTPStubs(clock: clock) { stubs in
            stubs.stub(.get(.init(Self.url.absoluteString)), .text("3 items").delayed(by: .seconds(2)))
            await clock.advance(by: .seconds(1))  // nothing in flight: gives up at 0 s
            await clock.advance(by: .seconds(1))  // again, at 1 s
            let outcome = OneShot<Completion>()
            stubs.makeSession().dataTask(with: Self.url) { data, response, error in
                outcome.fulfill(Completion(data: data, response: response, error: error))
            }.resume()
            try await waitUntil { clock.pendingCount == 1 }  // timed from 1 s: due at 3 s, not at once
            #expect(!outcome.isFulfilled)
            await clock.advance(by: .seconds(1))
            let completion = try #require(await outcome.value(within: patience))
            #expect(completion.text == "3 items")
            #expect(clock.now == .seconds(3))
        }
    }

    @Test(
        "ManualStubClock: a late request still on its way when the next advance begins is timed from before the advance that gave up"
    )
    func manualLateRequestInTransitAtTheNextAdvance() async throws {
        let clock = ManualStubClock(arrivalTimeout: .milliseconds(5))
        try await withHTTPStubs(clock: clock) { stubs in
            stubs.stub(.get(.init(Self.url.absoluteString)), .text("3 items").delayed(by: .seconds(2)))
            await clock.advance(by: .milliseconds(1999))  // nothing arrives within 5 ms: gives up at 0 s
            let outcome = OneShot<Completion>()
            // Resumed now, the request is on its way (planned on URLSession's queue) while the next
            // advance begins: it must still be timed from 0 s, or it would wait for 3.999 s and hang.
            stubs.makeSession().dataTask(with: Self.url) { data, response, error in
                outcome.fulfill(Completion(data: data, response: response, error: error))
            }.resume()
            await clock.advance(by: .milliseconds(1))
            let completion = try #require(await outcome.value(within: patience), "the answer was not due at 2 s")
            #expect(completion.text == "3 items")
            #expect(clock.now == .seconds(2))
        }
    }

    @Test("ManualStubClock: advancing less than the delay keeps the model loading")
    func manualAdvancingLessKeepsLoading() async throws {
        let clock = ManualStubClock()
        try await withHTTPStubs(clock: clock) { stubs in
            stubs.stub(.get(.init(Self.url.absoluteString)), .text("3 items").delayed(by: .seconds(2)))
            let model = FeedModel(
                client: AsyncHTTPClient(
                    HTTPClient(session: stubs.makeSession(), baseURL: URL(string: "https://api.example.com")!)
                )
            )
            let load = Task { await model.load() }
            try await waitUntil { stubs.journal.count == 1 && clock.pendingCount == 1 }

            await clock.advance(by: .milliseconds(1999))
            #expect(clock.pendingCount == 1, "nothing was due, so nothing ran")
            #expect(model.state == .loading)

            await clock.advance(by: .milliseconds(1))
            await load.value
            #expect(model.state == .loaded("3 items"))
        }
    }

    @Test("ManualStubClock: a failed load is observed as such")
    func manualFailure() async throws {
        let clock = ManualStubClock()
        try await withHTTPStubs(clock: clock) { stubs in
            stubs.stub(.get(.init(Self.url.absoluteString)), .error(.notConnectedToInternet).delayed(by: .seconds(1)))
            let model = FeedModel(
                client: AsyncHTTPClient(
                    HTTPClient(session: stubs.makeSession(), baseURL: URL(string: "https://api.example.com")!)
                )
            )
            let load = Task { await model.load() }
            try await waitUntil { stubs.journal.count == 1 && clock.pendingCount == 1 }
            #expect(model.state == .loading)
            await clock.advance(by: .seconds(1))
            await load.value
            #expect(model.state == .failed)
        }
    }

    @Test("ManualStubClock: a dribbled body reaches the delegate one chunk per step of time")
    func manualDribble() async throws {
        let clock = ManualStubClock()
        try await withHTTPStubs(clock: clock) { stubs in
            stubs.stub(.get(.init(Self.url.absoluteString)), .text("abcdefghij").dribbled(chunks: 5, over: .seconds(5)))
            let delegate = ChunkRecorder()
            let session = URLSession(configuration: stubs.configuration(), delegate: delegate, delegateQueue: nil)
            defer { session.finishTasksAndInvalidate() }
            session.dataTask(with: virtualRequest(Self.url, timeout: 60)).resume()

            try await waitUntil { delegate.gotResponse && clock.pendingCount == 1 }
            #expect(delegate.texts.isEmpty, "the headers come at once, the body only as time passes")
            let expected = ["ab", "cd", "ef", "gh", "ij"]
            for step in 1...5 {
                await clock.advance(by: .seconds(1))
                try await waitUntil { delegate.texts.count == step && (step == 5 || clock.pendingCount == 1) }
                #expect(delegate.texts == Array(expected.prefix(step)), "after \(step) s")
                if step < 5 { #expect(!delegate.isComplete, "after \(step) s") }
            }
            try await waitUntil { delegate.isComplete }  // the end follows the last chunk
            #expect(delegate.error == nil)
            #expect(clock.now == .seconds(5))
        }
    }

    @Test("ManualStubClock: a timeout fires exactly when time reaches it")
    func manualTimeoutFiresExactly() async throws {
        let clock = ManualStubClock()
        try await withHTTPStubs(clock: clock) { stubs in
            stubs.stub(.get(.init(Self.url.absoluteString)), .text("too late").delayed(by: .seconds(30)))
            let outcome = Locked<Completion?>(nil)
            stubs.makeSession().dataTask(with: virtualRequest(Self.url, timeout: 10)) { data, response, error in
                outcome.value = Completion(data: data, response: response, error: error)
            }.resume()
            try await waitUntil { stubs.journal.count == 1 && clock.pendingCount == 1 }

            await clock.advance(to: .seconds(10) - .milliseconds(1))
            #expect(clock.pendingCount == 1, "not yet due")
            #expect(outcome.value == nil)

            await clock.advance(by: .milliseconds(1))
            #expect(clock.pendingCount == 0)
            try await waitUntil { outcome.value != nil }
            #expect(outcome.value?.urlError?.code == .timedOut)
            #expect(clock.now == .seconds(10))
        }
    }

    @Test("ManualStubClock: a 2 s stub started first answers after a 1 s stub started second")
    func manualOrdering() async throws {
        let clock = ManualStubClock()
        try await withHTTPStubs(clock: clock) { stubs in
            stubs.stub(.get("https://api.example.com/slow"), .text("slow").delayed(by: .seconds(2)))
            stubs.stub(.get("https://api.example.com/fast"), .text("fast").delayed(by: .seconds(1)))
            let session = stubs.makeSession()
            let order = Locked<[String]>([])
            for path in ["slow", "fast"] {
                session.dataTask(with: URL(string: "https://api.example.com/\(path)")!) { data, _, error in
                    order.withLock { $0.append(bodyOrError(data, error)) }
                }.resume()
                try await waitUntil { clock.pendingCount == (path == "slow" ? 1 : 2) }
            }
            #expect(stubs.journal.map(\.request.url.path) == ["/slow", "/fast"])

            await clock.advance(by: .milliseconds(1500))
            try await waitUntil { order.value.count == 1 }
            #expect(order.value == ["fast"])
            #expect(clock.pendingCount == 1, "the slow stub is still waiting")

            await clock.advance(by: .milliseconds(500))
            try await waitUntil { order.value.count == 2 }
            #expect(order.value == ["fast", "slow"])
        }
    }
}

// MARK: - Helpers

/// A view model that loads a feed, as an app would: `.idle`, then `.loading`, then `.loaded` or `.failed`.
private final class FeedModel: Sendable {
    /// What the screen shows.
    enum State: Equatable, Sendable {
        case idle
        case loading
        case loaded(String)
        case failed
    }

    private let current = Locked(State.idle)
    private let client: AsyncHTTPClient

    init(client: AsyncHTTPClient) {
        self.client = client
    }

    /// The current state.
    var state: State { current.value }

    /// Loads the feed, moving through `.loading` to `.loaded` or `.failed`.
    func load() async {
        update(.loading)
        do {
            update(.loaded(try await client.get("/feed", as: String.self)))
        } catch {
            update(.failed)
        }
    }

    private func update(_ state: State) {
        current.value = state
    }
}

/// A GET of `url` with a timeout.
private func virtualRequest(_ url: URL, timeout: TimeInterval) -> URLRequest {
    var request = URLRequest(url: url)
    request.timeoutInterval = timeout
    return request
}
