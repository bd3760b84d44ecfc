import Foundation

/// The order in which a registry's requests that need the user's code choose their stubs: the
/// order they reached `startLoading` in, as for requests planned there.
///
/// A request handed off to be planned in a task takes a turn when it is handed off; its task
/// waits for that turn before it tells the observers and chooses its stub (which consumes a use,
/// moves a scenario on and journals the request), and ends the turn at once after, before any
/// computed response or redirect question runs. While turns are outstanding, later requests of the
/// registry take one too rather than being planned ahead of them.
///
/// A turn is waited for at most ``patience``: an observer or matcher that waits for another
/// request of its own registry (which waits for its turn behind it) then delays it by that much
/// rather than for ever, and the order is kept as far as the user's code lets it.
final class PlanningTurns: Sendable {
    // Invariant: continuations are resumed after the lock is released, each once (it is removed
    // from `waiters` under the lock first).
    private let state = Locked(State())

    private struct State {
        var issued = 0
        /// The first turn not ended: the one whose request chooses now.
        var current = 0
        /// Turns ended before an earlier one (which waited too long, or is still choosing).
        var endedEarly: Set<Int> = []
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
    }

    /// How long a request waits for its turn before it chooses anyway.
    static let patience = DispatchTimeInterval.seconds(1)

    /// Whether no turn is outstanding: a request may then be planned at once.
    var isIdle: Bool {
        state.withLock { $0.current == $0.issued }
    }

    /// Takes the next turn.
    func take() -> Int {
        state.withLock { state in
            state.issued += 1
            return state.issued - 1
        }
    }

    /// Waits until `turn` comes, or for ``patience`` at most.
    func wait(for turn: Int) async {
        await withCheckedContinuation { continuation in
            let waits = state.withLock { state in
                guard turn > state.current else { return false }
                state.waiters[turn] = continuation
                return true
            }
            guard waits else {
                continuation.resume()
                return
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + Self.patience) { [self] in
                resume(turn)
            }
        }
    }

    /// Ends `turn`, letting the next one begin.
    func end(_ turn: Int) {
        let next = state.withLock { state in
            state.endedEarly.insert(turn)
            while state.endedEarly.remove(state.current) != nil {
                state.current += 1
            }
            return state.current
        }
        resume(next)
    }

    private func resume(_ turn: Int) {
        state.withLock { $0.waiters.removeValue(forKey: turn) }?.resume()
    }
}
