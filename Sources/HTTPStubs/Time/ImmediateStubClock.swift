import Dispatch

/// A clock on which waiting takes no time: every scheduled action runs at once and ``now`` jumps to
/// its deadline (never backwards). Within one request, delays, dribbles and timeouts keep their
/// order and their outcome (a stub slower than the timeout still times out), but a test does not
/// wait for them: a request's response and the pieces of its body are delivered in one go, in
/// order, each piece still a chunk of its own, and ``now`` moves to the last one's time.
///
/// A request's delay is served as soon as the request starts loading: the relative order of
/// *overlapping* requests is not modelled (a 2 s stub started just before a 1 s stub answers
/// first), like `ImmediateClock` in swift-clocks. Other actions scheduled on the clock (a computed
/// response's own waits, say) run in deadline order among those waiting at the same moment. To test
/// what happens while requests overlap, use ``ManualStubClock`` and advance it.
public final class ImmediateStubClock: StubClock, @unchecked Sendable {
    // Invariant: `state` is only touched under its lock; actions run on `queue`, one at a time.
    private let state = Locked((now: Duration.zero, pending: PendingActions()))
    private let queue = DispatchQueue(label: "swift-http-stubs.immediate-clock")

    /// Creates a clock that starts at zero.
    public init() {}

    /// The virtual time: the deadline of the latest action run.
    public var now: Duration {
        state.withLock { $0.now }
    }

    /// Schedules `action`; it runs promptly, on another thread, after the earlier-deadline actions
    /// already waiting.
    public func schedule(at deadline: Duration, _ action: @escaping @Sendable () -> Void) -> any StubClockTimer {
        let timer = ReleasingTimer(action)
        _ = state.withLock { $0.pending.add(timer, at: deadline) }
        queue.async { [self] in runEarliest() }
        return timer
    }

    /// Moves ``now`` to `instant` (never backwards): a request delivered events due then without
    /// scheduling a wake-up for each (see `RequestDelivery`).
    func reach(_ instant: Duration) {
        state.withLock { $0.now = max($0.now, instant) }
    }

    private func runEarliest() {
        let next = state.withLock { state -> ReleasingTimer? in
            guard let next = state.pending.takeEarliest() else { return nil }
            state.now = max(state.now, next.deadline)
            return next.timer
        }
        next?.fire()
    }
}
