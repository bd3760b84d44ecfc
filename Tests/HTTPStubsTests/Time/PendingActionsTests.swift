import Testing

@testable import HTTPStubs
@testable import HTTPStubsFiles
@testable import HTTPStubsLanguages
@testable import HTTPStubsTemplates

/// The queue both virtual clocks take their actions from: earliest deadline first, and at one
/// deadline the order of scheduling.
@Suite struct PendingActionsTests {
    /// Adds an action that appends `label` to `log` when fired.
    private func add(_ label: String, at seconds: Int64, to actions: inout PendingActions, log: Locked<[String]>) -> Int
    {
        actions.add(ReleasingTimer { log.withLock { $0.append(label) } }, at: .seconds(seconds))
    }

    @Test func takesEarliestDeadlineFirstThenSchedulingOrder() {
        let log = Locked([String]())
        var actions = PendingActions()
        _ = add("late", at: 3, to: &actions, log: log)
        _ = add("first at 1", at: 1, to: &actions, log: log)
        _ = add("second at 1", at: 1, to: &actions, log: log)
        var deadlines: [Duration] = []
        while let next = actions.takeEarliest() {
            deadlines.append(next.deadline)
            next.timer.fire()
        }
        #expect(log.withLock { $0 } == ["first at 1", "second at 1", "late"])
        #expect(deadlines == [.seconds(1), .seconds(1), .seconds(3)])
        #expect(actions.isEmpty)
    }

    @Test func leavesActionsDueAfterTheInstant() {
        let log = Locked([String]())
        var actions = PendingActions()
        _ = add("at 2", at: 2, to: &actions, log: log)
        _ = add("at 5", at: 5, to: &actions, log: log)
        let beforeAny = actions.takeEarliest(dueBy: .seconds(1))
        let atTwo = actions.takeEarliest(dueBy: .seconds(2))
        let beforeFive = actions.takeEarliest(dueBy: .seconds(4))
        #expect(beforeAny == nil)
        #expect(atTwo?.deadline == .seconds(2))
        #expect(beforeFive == nil)
        #expect(actions.count == 1)
    }

    @Test func removesOnlyTheActionItIsGiven() {
        let log = Locked([String]())
        var actions = PendingActions()
        let removed = add("removed", at: 1, to: &actions, log: log)
        _ = add("kept", at: 2, to: &actions, log: log)
        actions.remove(removed)
        actions.remove(removed)
        actions.takeEarliest()?.timer.fire()
        #expect(log.withLock { $0 } == ["kept"])
        #expect(actions.isEmpty)
    }
}
