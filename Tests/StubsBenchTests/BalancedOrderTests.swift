import Testing

@testable import stubs_bench

@Suite struct BalancedOrderTests {
    @Test(arguments: 2...12)
    func everyBatchFollowsEveryOtherEquallyOften(count: Int) {
        let orders = BalancedOrder.orders(count: count)
        #expect(orders.count == (count % 2 == 0 ? count : 2 * count))
        var follows: [[Int]: Int] = [:]
        for order in orders {
            for (before, after) in zip(order, order.dropFirst()) { follows[[before, after], default: 0] += 1 }
        }
        let pairs = (0..<count).flatMap { before in (0..<count).filter { $0 != before }.map { [before, $0] } }
        let expected = count % 2 == 0 ? 1 : 2
        #expect(follows.count == pairs.count, "ordered pairs that are adjacent somewhere")
        for pair in pairs {
            #expect(follows[pair] == expected, "\(pair[1]) right after \(pair[0])")
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

    @Test func noBatchesGiveOneEmptyOrder() {
        #expect(BalancedOrder.orders(count: 0) == [[]])
    }
}
