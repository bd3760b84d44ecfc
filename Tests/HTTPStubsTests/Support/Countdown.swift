import HTTPStubs

/// Counts down from `count`, from any thread; `wait()` returns at zero.
final class Countdown: Sendable {
    private struct State {
        var remaining: Int
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state: Locked<State>

    init(_ count: Int) {
        state = Locked(State(remaining: count))
    }

    /// Counts one down; at zero, wakes the one waiting.
    func tick() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.remaining -= 1
            guard state.remaining == 0 else { return nil }
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    /// Returns once the count has reached zero.
    func wait() async {
        await withCheckedContinuation { continuation in
            let reached = state.withLock { state -> Bool in
                if state.remaining <= 0 { return true }
                state.waiter = continuation
                return false
            }
            if reached { continuation.resume() }
        }
    }
}
