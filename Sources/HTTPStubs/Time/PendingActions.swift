/// The actions a virtual clock has scheduled and not yet run, taken earliest deadline first and,
/// at one deadline, in the order they were scheduled. A value type: each clock keeps it under its
/// own lock and fires what it takes outside that lock.
struct PendingActions {
    private var entries: [(deadline: Duration, sequence: Int, timer: ReleasingTimer)] = []
    private var lastSequence = 0

    /// How many actions are waiting.
    var count: Int { entries.count }

    var isEmpty: Bool { entries.isEmpty }

    /// Adds `timer` to run at `deadline`; the returned number identifies it for ``remove(_:)``.
    mutating func add(_ timer: ReleasingTimer, at deadline: Duration) -> Int {
        lastSequence += 1
        entries.append((deadline, lastSequence, timer))
        return lastSequence
    }

    /// Removes the action added as `sequence`, if it is still waiting.
    mutating func remove(_ sequence: Int) {
        entries.removeAll { $0.sequence == sequence }
    }

    /// Removes and returns the earliest action due by `instant` (any deadline when `nil`).
    mutating func takeEarliest(dueBy instant: Duration? = nil) -> (deadline: Duration, timer: ReleasingTimer)? {
        var earliest: Int?
        for index in entries.indices where instant.map({ entries[index].deadline <= $0 }) ?? true {
            if let best = earliest,
                (entries[best].deadline, entries[best].sequence) <= (entries[index].deadline, entries[index].sequence)
            {
                continue
            }
            earliest = index
        }
        guard let index = earliest else { return nil }
        let entry = entries.remove(at: index)
        return (entry.deadline, entry.timer)
    }
}
