/// A clock that moves only when the test says so: ``advance(by:)`` runs exactly the actions due by
/// then, in deadline order, so a test can observe what happens before and after a delay.
///
/// ```swift
/// let clock = ManualStubClock()
/// let stubs = StubRegistry(clock: clock)
/// stubs.stub(.get("/feed"), .json(feed).delayed(by: .seconds(2)))
/// let load = Task { try await model.load() }       // model.state == .loading
/// clock.advance(by: .seconds(2))                    // the response is delivered
/// try await load.value                              // model.state == .loaded
/// ```
public final class ManualStubClock: StubClock, @unchecked Sendable {
    // Invariant: `state` is only touched under its lock; actions run outside it.
    private let state = Locked((now: Duration.zero, sequence: 0, pending: [(deadline: Duration, sequence: Int, timer: ReleasingTimer)]()))

    /// Creates a clock that starts at zero.
    public init() {}

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
            state.sequence += 1
            state.pending.append((deadline, state.sequence, timer))
            return state.sequence
        }
        guard let sequence else {
            // Never run inside schedule: its caller may hold locks (URLSession's queue among them).
            Task.detached { timer.fire() }
            return timer
        }
        return PendingTimer(timer: timer) { [weak self] in
            self?.state.withLock { $0.pending.removeAll { $0.sequence == sequence } }
        }
    }

    /// Moves time forward by `duration`, running every action due by then, earliest first.
    public func advance(by duration: Duration) {
        advance(to: now + max(duration, .zero))
    }

    /// Moves time forward to `instant` (never backward), running every action due by then, earliest first.
    public func advance(to instant: Duration) {
        while let next = state.withLock({ state -> ReleasingTimer? in
            guard let index = state.pending.indices.filter({ state.pending[$0].deadline <= instant }).min(by: {
                (state.pending[$0].deadline, state.pending[$0].sequence) < (state.pending[$1].deadline, state.pending[$1].sequence)
            }) else {
                state.now = max(state.now, instant)
                return nil
            }
            let entry = state.pending.remove(at: index)
            state.now = max(state.now, entry.deadline)
            return entry.timer
        }) {
            next.fire()
        }
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
