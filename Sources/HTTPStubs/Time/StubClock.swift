import Dispatch

/// The time source that delays, dribbled bodies and timeouts run on.
///
/// ``SystemStubClock`` (the default) waits for real. A test may give a registry another clock to
/// make waiting instant or to move time by hand.
public protocol StubClock: Sendable {
    /// The current instant, as a duration since an arbitrary fixed origin.
    var now: Duration { get }

    /// Runs `action` once `now` reaches `deadline` (as soon as possible if it already has).
    /// Cancelling the returned timer before then means `action` never runs and is released.
    ///
    /// The toolkit calls ``now`` and this method while it holds the lock of the request they
    /// serve: never run `action` inside `schedule` (hand it to another thread or task), and never
    /// call back into the toolkit from either.
    func schedule(at deadline: Duration, _ action: @escaping @Sendable () -> Void) -> any StubClockTimer
}

/// An action scheduled on a ``StubClock``.
public protocol StubClockTimer: Sendable {
    /// Stops the action from running, if it has not run yet.
    func cancel()
}

/// The real, monotonic clock: delays take as long as they say.
public struct SystemStubClock: StubClock {
    /// The clock of real time, which every registry uses unless given another.
    public init() {}

    /// The time since boot.
    public var now: Duration {
        .nanoseconds(Int64(clamping: DispatchTime.now().uptimeNanoseconds))
    }

    /// Schedules `action` on a global dispatch queue.
    public func schedule(at deadline: Duration, _ action: @escaping @Sendable () -> Void) -> any StubClockTimer {
        let timer = ReleasingTimer(action)
        // A wait longer than a century never ends in a test run: don't schedule it at all (the
        // nanosecond count would overflow).
        guard deadline - now < .longestWait else { return timer }
        let wait = max(deadline - now, .zero).components
        let nanoseconds = Int(
            clamping: wait.seconds.multipliedReportingOverflow(by: 1_000_000_000).partialValue + wait.attoseconds
                / 1_000_000_000
        )
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) { timer.fire() }
        return timer
    }
}

/// A scheduled action that lets go of it when cancelled or run, so that whatever it captured (a
/// task, a protocol instance) is released at once rather than when the deadline passes.
final class ReleasingTimer: StubClockTimer {
    private let action: Locked<(@Sendable () -> Void)?>

    init(_ action: @escaping @Sendable () -> Void) {
        self.action = Locked(action)
    }

    /// Runs the action unless it was cancelled or already ran.
    func fire() {
        let pending = action.withLock { action -> (@Sendable () -> Void)? in
            defer { action = nil }
            return action
        }
        pending?()
    }

    /// Drops the action, after the lock: what it captured may be the last reference to a task
    /// and its protocol instance, whose `deinit` takes its loader's lock (see ``Locked``).
    func cancel() {
        let dropped = action.withLock { action -> (@Sendable () -> Void)? in
            defer { action = nil }
            return action
        }
        _ = dropped
    }
}
