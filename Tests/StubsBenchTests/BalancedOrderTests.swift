import Testing

@testable import stubs_bench

@Suite struct BalancedOrderTests {
    /// One batch running right after another.
    struct Step: Hashable {
        let before: Int
        let after: Int
    }

    /// How often each step occurs in the first `count` orders of `orders`, cycled through.
    static func steps(in orders: [[Int]], first count: Int) -> [Step: Int] {
        var steps: [Step: Int] = [:]
        for turn in 0..<count {
            let order = orders[turn % orders.count]
            for (before, after) in zip(order, order.dropFirst()) {
                steps[Step(before: before, after: after), default: 0] += 1
            }
        }
        return steps
    }

    /// Every step between two different batches of `count`.
    static func allSteps(_ count: Int) -> [Step] {
        (0..<count).flatMap { before in (0..<count).filter { $0 != before }.map { Step(before: before, after: $0) } }
    }

    @Test(arguments: 2...12)
    func everyBatchFollowsEveryOtherEquallyOften(count: Int) {
        let orders = BalancedOrder.orders(count: count)
        #expect(orders.count == (count % 2 == 0 ? count : 2 * count))
        let steps = Self.steps(in: orders, first: orders.count)
        #expect(steps.count == Self.allSteps(count).count, "the steps that occur")
        let expected = count % 2 == 0 ? 1 : 2
        for step in Self.allSteps(count) {
            #expect(steps[step] == expected, "\(step.after) right after \(step.before)")
        }
    }

    /// A run stops where its slices end, partway through the cycle (a full run: 40 slices of 26
    /// orders): the steps stay nearly balanced in every such prefix.
    @Test(arguments: 2...13)
    func everyPrefixOfTheCycleIsNearlyBalanced(count: Int) {
        let orders = BalancedOrder.orders(count: count)
        for prefix in 1...(3 * orders.count) {
            let steps = Self.steps(in: orders, first: prefix)
            let occurrences = Self.allSteps(count).map { steps[$0] ?? 0 }
            let allowed = count % 2 == 1 && prefix % 2 == 1 ? 2 : 1
            #expect(
                occurrences.max()! - occurrences.min()! <= allowed,
                "first \(prefix) orders: steps occur \(occurrences.min()!)–\(occurrences.max()!) times"
            )
        }
    }

    @Test(arguments: 1...12)
    func eachOrderIsAPermutationAndEachBatchStartsEquallyOften(count: Int) {
        let orders = BalancedOrder.orders(count: count)
        for order in orders {
            #expect(order.sorted() == Array(0..<count), "\(order)")
        }
        var starts: [Int: Int] = [:]
        for order in orders { starts[order[0], default: 0] += 1 }
        #expect(Set(starts.values).count == 1, "how often each batch starts: \(starts)")
        #expect(starts.count == count)
    }

    @Test func fewerThanTwoBatchesGiveOneOrder() {
        #expect(BalancedOrder.orders(count: 0) == [[]])
        #expect(BalancedOrder.orders(count: 1) == [[0]])
    }
}
