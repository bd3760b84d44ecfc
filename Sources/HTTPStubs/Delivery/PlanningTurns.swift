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
///
/// The turns live in the registry's state, under its lock, so that whether a request can be
/// planned at once (no turn outstanding, no observer to tell) is one look (see
/// ``StubRegistry/plansAtOnce``); the registry's methods below take and end turns.
struct PlanningTurns {
    private var issued = 0
    /// The first turn not ended: the one whose request chooses now.
    private var current = 0
    /// Turns ended before an earlier one (which waited too long, or is still choosing).
    private var endedEarly: Set<Int> = []
    private var waiters: [Int: CheckedContinuation<Void, Never>] = [:]

    /// How long a request waits for its turn before it chooses anyway.
    static let patience = DispatchTimeInterval.seconds(1)

    /// Whether no turn is outstanding: a request may then be planned at once.
    var isIdle: Bool { current == issued }

    /// Takes the next turn.
    mutating func take() -> Int {
        issued += 1
        return issued - 1
    }

    /// Keeps `continuation` until `turn` comes; `false` when it has come already.
    mutating func wait(for turn: Int, _ continuation: CheckedContinuation<Void, Never>) -> Bool {
        guard turn > current else { return false }
        waiters[turn] = continuation
        return true
    }

    /// Ends `turn`; returns the waiter of the turn that comes now, to resume once the lock is let go.
    mutating func end(_ turn: Int) -> CheckedContinuation<Void, Never>? {
        endedEarly.insert(turn)
        while endedEarly.remove(current) != nil {
            current += 1
        }
        return stopWaiting(current)
    }

    /// The waiter of `turn`, if it still waits, no longer kept.
    mutating func stopWaiting(_ turn: Int) -> CheckedContinuation<Void, Never>? {
        waiters.removeValue(forKey: turn)
    }
}

extension StubRegistry {
    /// Whether a request can be planned now without the user's code: no turn is outstanding and
    /// there is no observer to tell. One look under the registry's lock, for every request.
    var plansAtOnce: Bool {
        state.withLock { $0.planningTurns.isIdle && $0.observers.isEmpty }
    }

    /// Takes the next planning turn (see ``PlanningTurns``).
    func takePlanningTurn() -> Int {
        state.withLock { $0.planningTurns.take() }
    }

    /// Waits until `turn` comes, or for ``PlanningTurns/patience`` at most.
    func waitForPlanningTurn(_ turn: Int) async {
        await withCheckedContinuation { continuation in
            // Invariant: a continuation is resumed after the lock is let go, once: it is taken out
            // of the turns under the lock first.
            guard state.withLock({ $0.planningTurns.wait(for: turn, continuation) }) else {
                continuation.resume()
                return
            }
            // Weakly: the waiting task holds the registry, so while a waiter is kept the registry
            // exists; once it is gone there is no one to resume, and it need not outlive its users.
            DispatchQueue.global().asyncAfter(deadline: .now() + PlanningTurns.patience) { [weak self] in
                self?.state.withLock { $0.planningTurns.stopWaiting(turn) }?.resume()
            }
        }
    }

    /// Ends `turn`, letting the next one begin.
    func endPlanningTurn(_ turn: Int) {
        state.withLock { $0.planningTurns.end(turn) }?.resume()
    }
}
