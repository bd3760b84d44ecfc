import Foundation

/// A clock that moves only when the test says so: ``advance(by:)`` runs exactly the actions due by
/// then, in deadline order, so a test can observe what happens before and after a delay.
///
/// ```swift
/// let clock = ManualStubClock()
/// let stubs = StubRegistry(clock: clock)
/// stubs.stub(.get("/feed"), .json(feed).delayed(by: .seconds(2)))
/// let load = Task { try await model.load() }       // model.state == .loading
/// await clock.advance(by: .seconds(2))              // the response is delivered
/// try await load.value                              // model.state == .loaded
/// ```
///
/// The clock follows the requests of the registries that use it, from `resume()` until they wait
/// on it or finish (on Linux, where URLSession creates the `URLProtocol` inside `resume()`; on
/// Apple platforms it may do so later, which is untested), and `advance` relies on that instead of
/// guessing:
/// 1. It first waits until no request is on its way to the clock, so what a request already
///    resumed schedules is run by this advance. A request is delayed from the instant it was
///    resumed, however long it takes to reach the clock: if that wait ever gives up (a hang guard
///    of 10 s), the late request's due answer is delivered as soon as it arrives. When no request
///    is waiting on the clock and none reached it since the previous advance, it also waits for
///    one to arrive: that covers a `Task` that has not run yet, as above. That wait is a hang guard
///    of ``arrivalTimeout`` (10 s), not a guess: if it ever gives up, the next request to start is
///    timed from the instant before that advance, as if it had arrived in time, so the pattern
///    above cannot hang however slowly the `Task` starts.
/// 2. It then runs the due actions one at a time, earliest first, each at its own instant, and
///    waits for the delivery each one triggers (URLSession calls the toolkit back on its own queue)
///    before the next, so the actions that delivery schedules are run in order too.
///
/// When `advance` returns, everything due by then has been handed to URLSession. A request still
/// waiting on this clock when its test's stub scope ends fails, and the test fails, naming the
/// stub and the instant it waited for.
public final class ManualStubClock: StubClock, @unchecked Sendable {
    // Invariant: `state` is only touched under its lock; actions run outside it. Lock order: a
    // request's loader may hold its own lock while it takes this one, never the reverse.
    private let state = Locked(State())

    private struct State {
        var now = Duration.zero
        var pending = PendingActions()
        /// Requests between `resume()` (or a wake-up) and the toolkit's next look at them.
        var inTransit = 0
        /// How many times a request reached the clock (was planned or delivered), ever.
        var arrivals = 0
        /// `arrivals` when the previous advance began.
        var arrivalsSeen = 0
        /// Set when an advance gave up waiting for a first request: the instant before it, which
        /// the next request to start takes as its start. It stays until a request takes it (a
        /// later advance does not clear it: the late request may still be on its way then), and a
        /// later advance that gives up replaces it.
        var lateStart: Duration?
    }

    /// How long ``advance(by:)`` waits, at most, for a first request when none is waiting on the
    /// clock or on its way to it (real time; 10 s by default). A test that means to move time while
    /// no request is in flight would pay it on every such advance: give it `.zero` there (then no
    /// request is ever timed from before an advance).
    public let arrivalTimeout: Duration

    /// The most an advance waits, in real time, for requests on their way to the clock (a hang guard:
    /// they normally arrive within microseconds).
    private static let transitTimeout = Duration.seconds(10)

    /// Creates a clock that starts at zero.
    /// - Parameter arrivalTimeout: How long an advance waits for a first request to reach the
    ///   clock when none has (see the type's documentation).
    public init(arrivalTimeout: Duration = .seconds(10)) {
        self.arrivalTimeout = max(arrivalTimeout, .zero)
    }

    /// The current virtual time.
    public var now: Duration {
        state.withLock { $0.now }
    }

    /// How many scheduled actions have neither run nor been cancelled.
    public var pendingCount: Int {
        state.withLock { $0.pending.count }
    }

    /// Schedules `action` to run when ``advance(by:)`` reaches `deadline` (at once if it already has).
    public func schedule(at deadline: Duration, _ action: @escaping @Sendable () -> Void) -> any StubClockTimer {
        let timer = ReleasingTimer(action)
        let sequence = state.withLock { state -> Int? in
            guard deadline > state.now else { return nil }
            return state.pending.add(timer, at: deadline)
        }
        guard let sequence else {
            // Never run inside schedule: its caller may hold locks (URLSession's queue among them).
            Task.detached { timer.fire() }
            return timer
        }
        return PendingTimer(timer: timer) { [weak self] in
            self?.state.withLock { $0.pending.remove(sequence) }
        }
    }

    /// Moves time forward by `duration`, running every action due by then, earliest first (see the
    /// type's documentation for what it waits for).
    public func advance(by duration: Duration) async {
        await letRequestsArrive()
        await run(until: now + max(duration, .zero))
    }

    /// Moves time forward to `instant` (never backward), running every action due by then, earliest
    /// first (see the type's documentation for what it waits for).
    public func advance(to instant: Duration) async {
        await letRequestsArrive()
        await run(until: instant)
    }

    private func run(until instant: Duration) async {
        while let next = state.withLock({ state -> ReleasingTimer? in
            guard let next = state.pending.takeEarliest(dueBy: instant) else {
                state.now = max(state.now, instant)
                state.arrivalsSeen = state.arrivals
                return nil
            }
            state.now = max(state.now, next.deadline)
            return next.timer
        }) {
            next.fire()
            await waitUntil(within: Self.transitTimeout) { $0.inTransit == 0 }
        }
    }

    /// Step 1 of an advance: no request on its way to the clock, and some request there to move.
    private func letRequestsArrive() async {
        await waitUntil(within: Self.transitTimeout) { $0.inTransit == 0 }
        let idle = state.withLock { $0.pending.isEmpty && $0.arrivals == $0.arrivalsSeen }
        guard idle, arrivalTimeout > .zero else { return }
        await waitUntil(within: arrivalTimeout) { $0.arrivals > $0.arrivalsSeen || $0.inTransit > 0 }
        await waitUntil(within: Self.transitTimeout) { $0.inTransit == 0 }
        state.withLock { state in
            if state.arrivals == state.arrivalsSeen, state.inTransit == 0 {
                state.lateStart = state.now  // gave up: the request, when it comes, started before this advance
            }
        }
    }

    /// Polls `condition` until it holds, `timeout` of real time passes, or the task is cancelled.
    private func waitUntil(within timeout: Duration, _ condition: (State) -> Bool) async {
        let deadline = ContinuousClock.now + timeout
        var pause = Duration.milliseconds(1)
        while !state.withLock({ condition($0) }), ContinuousClock.now < deadline, !Task.isCancelled {
            try? await Task.sleep(for: pause)
            pause = min(pause * 2, .milliseconds(2))
        }
    }

    // MARK: Following requests (called by the toolkit's loaders)

    /// A request was resumed: it is on its way to the clock. Returns the instant it started, from
    /// which its delays count: ``now``, or the instant before an advance that gave up waiting for it.
    /// It is fixed here, not when the request reaches the clock, so a request that takes long to
    /// get there (a stalled machine) is still delayed from the instant it was resumed.
    func requestStarted() -> Duration {
        state.withLock { state in
            defer { state.lateStart = nil }
            state.inTransit += 1
            return state.lateStart ?? state.now
        }
    }

    /// A request was woken to deliver what became due: it is on its way to the clock.
    func requestDeparted() {
        state.withLock { $0.inTransit += 1 }
    }

    /// A request on its way reached the clock: it was planned or delivered, and waits or is done.
    func requestArrived() {
        state.withLock { state in
            state.inTransit -= 1
            state.arrivals += 1
        }
    }

    /// A request on its way was cancelled or released before it reached the clock.
    func requestVanished() {
        state.withLock { $0.inTransit -= 1 }
    }
}

/// A pending action that, when cancelled, also leaves the clock's list of pending actions.
private struct PendingTimer: StubClockTimer {
    let timer: ReleasingTimer
    let remove: @Sendable () -> Void

    func cancel() {
        timer.cancel()
        remove()
    }
}
