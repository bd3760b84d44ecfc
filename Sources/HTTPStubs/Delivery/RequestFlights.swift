import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The requests a registry is serving right now, and whether the test that owned it has ended.
///
/// A request joins when URLSession creates its `URLProtocol` instance and leaves when its answer
/// is complete or its instance goes away (``RequestDelivery/instanceGone()``). On Linux, corelibs creates the instance inside
/// `URLSessionTask.resume()` on the caller's thread (the toolkit's configurations have no
/// `urlCache`, so nothing defers it): when `resume()` has returned, the registry knows the
/// request, before `startLoading` runs. Apple's URLSession may create it later (untested).
final class RequestFlights: Sendable {
    // Invariant: every loader's `flightSlot` is only touched inside `state.withLock`; a loader in
    // `loaders` has its position there as its `flightSlot`, and one not in it has `nil`. Lock
    // order: a loader may hold its own lock while it takes this one; while this one is held, a
    // loader's `flightSlot` is read and written and nothing else of it is called. Loaders, which
    // cannot be declared `Sendable` (`RequestDelivery` is a `ManagedBuffer`), are safe to hand to
    // any thread: see the invariant at the top of `RequestDelivery`.
    private let state = Locked(State())

    private struct State {
        /// Held strongly, from `join` until `remove`: a loader leaves when its load ends, and at the
        /// latest when its protocol instance, which owns it, goes away. Not a weak reference: one
        /// gives every loader a side table to allocate and free (BENCHMARKS.md, "Side tables"). In no
        /// order: each loader knows its position, so joining appends and leaving moves the last loader
        /// into the gap, without hashing (a dictionary by identity showed in the protocols-alone profile).
        var loaders: [RequestDelivery] = []
        var endedTest: String?
    }

    /// Adds a request being served, unless the registry is closed: then returns the test whose
    /// end closed it, and the request is not added. Together with ``close(endingTest:)``, each
    /// request is either ended by its test's end or arrives after it, never both.
    func join(_ loader: RequestDelivery) -> String? {
        state.withLock { state in
            guard state.endedTest == nil else { return state.endedTest }
            loader.flightSlot = state.loaders.count
            state.loaders.append(loader)
            return nil
        }
    }

    func remove(_ loader: RequestDelivery) {
        let removed = state.withLock { state -> RequestDelivery? in
            guard let slot = loader.flightSlot else { return nil }  // it left already
            loader.flightSlot = nil
            let last = state.loaders.removeLast()
            guard slot < state.loaders.count else { return last }
            last.flightSlot = slot
            defer { state.loaders[slot] = last }
            return state.loaders[slot]
        }
        _ = removed  // released here, after the lock: its `deinit` may take locks of its own
    }

    /// The requests being served.
    var current: [RequestDelivery] {
        state.withLock { $0.loaders }
    }

    /// The test whose end closed the registry, if one did.
    var closedByTest: String? {
        state.withLock { $0.endedTest }
    }

    /// Refuses every later request (it fails, naming `test`) and returns the requests being served.
    func close(endingTest test: String) -> [RequestDelivery] {
        state.withLock { state in
            state.endedTest = test
            return state.loaders
        }
    }
}

/// Where a request is, as the end of its test sees it.
package enum FlightState: Sendable, Equatable {
    /// Between `resume()` (or a wake-up) and the toolkit's next look at it: it is about to move.
    case inTransit
    /// Waiting on the registry's clock for this virtual or real instant.
    case waiting(until: Duration)
    /// Waiting for the real server (pass-through while recording).
    case recording
    /// Reading the open ``StubStream`` with this description, which only the test can end.
    case streaming(String)
    /// Answered completely, failed or cancelled.
    case finished
}

/// A request that its test's end failed.
package struct EndedRequest: Sendable {
    /// What happened, and what to do (the message of the `URLError` the request failed with).
    package let message: String
    /// The stub answering it, if one was chosen.
    package let stub: StubSummary?
}

extension StubRegistry {
    /// How many requests of any registry are being served by a protocol instance: what the
    /// benchmark checks comes back to zero once every request ended.
    package static var liveRequestCount: Int {
        RequestDelivery.liveCount
    }

    /// Whether every request the registry serves is finished or waits for a ``ManualStubClock``
    /// that only the test can move.
    var requestsHaveSettled: Bool {
        let manual = clock is ManualStubClock
        return flights.current.allSatisfy { loader in
            switch loader.flightState {
            case .finished: true
            case .waiting: manual
            case .streaming: true
            case .inTransit, .recording: false
            }
        }
    }

    /// Waits, up to `timeout`, until the requests in flight have finished or wait on a manual clock.
    package func settleRequests(timeout: Duration) async {
        let deadline = ContinuousClock.now + timeout
        var pause = Duration.milliseconds(1)
        while !requestsHaveSettled, ContinuousClock.now < deadline, !Task.isCancelled {
            try? await Task.sleep(for: pause)
            pause = min(pause * 2, .milliseconds(5))
        }
    }

    /// ``settleRequests(timeout:)`` for synchronous callers (an XCTest teardown block): blocks the thread.
    package func settleRequestsBlocking(timeout: Duration) {
        let deadline = ContinuousClock.now + timeout
        var pause = Duration.milliseconds(1)
        while !requestsHaveSettled, ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: pause.seconds)
            pause = min(pause * 2, .milliseconds(5))
        }
    }

    /// Ends the test `name` for this registry: every request still being served fails with a
    /// `URLError` saying so, and when `closing`, so does every later request (reported on standard
    /// error, since no test is left to fail). Returns the requests it failed.
    package func endTest(named name: String, closing: Bool) -> [EndedRequest] {
        let loaders = closing ? flights.close(endingTest: name) : flights.current
        let manual = clock as? ManualStubClock
        return loaders.compactMap { loader in
            let state = loader.flightState
            guard state != .finished else { return nil }
            var virtualDeadline: Duration?
            if case let .waiting(until) = state, manual != nil { virtualDeadline = until }
            let error: StubError
            if case let .streaming(stream) = state {
                error = .streamLeftOpen(test: name, request: loader.requestLine, stream: stream)
            } else {
                error = .testEnded(
                    test: name,
                    request: loader.requestLine,
                    virtualDeadline: virtualDeadline,
                    now: manual?.now
                )
            }
            guard loader.abandon(with: error) else { return nil }
            return EndedRequest(message: error.message, stub: loader.answeringStub)
        }
    }
}
