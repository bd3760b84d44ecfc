/// The orders the interleaved request workloads run their slices in: a Williams design, in which
/// every batch runs right after every other batch equally often.
///
/// What runs just before a slice changes what it measures. After the `concurrent` workload's 64
/// tasks, for one, both CPUs are awake and libdispatch's worker threads are running, and the next
/// sequential slice is faster for it. A fixed order, even one rotated from slice to slice, keeps
/// each batch behind the same neighbour everywhere but at a slice's start (the floor behind
/// `concurrent`, the toolkit behind the floor), and `overhead_ratio` would measure the neighbours
/// as well as the toolkit (BENCHMARKS.md, "How it measures"). In a Williams design the order
/// differs from slice to slice so that, over a full cycle of `orders(count:)`, each batch starts a
/// slice equally often and follows each other batch equally often: what a neighbour does to a
/// slice falls on every batch alike.
enum BalancedOrder {
    /// The orders of `count` batches (their indices), one per slice, cycled through in turn:
    /// `count` orders when `count` is even, `2 × count` when it is odd (each followed by its
    /// reverse, since this construction's `count` orders alone cannot balance an odd count), one
    /// when `count` is below 2.
    ///
    /// Each is a permutation of `0..<count`. Over all of them, each index comes first equally
    /// often, and each ordered pair of different indices is adjacent (the second right after the
    /// first) equally often: once for an even `count`, twice for an odd one. A run that stops
    /// partway through the cycle, as a full run's 40 slices of 26 orders do, stays nearly
    /// balanced: over the first orders, however many, no ordered pair is adjacent more than once
    /// more often than any other (twice after an odd number of orders, for an odd `count`).
    static func orders(count: Int) -> [[Int]] {
        guard count > 1 else { return [Array(0..<max(count, 0))] }
        // The first order alternates from either end of the indices: 0, 1, n−1, 2, n−2, …; the
        // others add 1, 2, … to every index (mod n). Between neighbours, the first order steps by
        // +1, −2, +3, −4, …, differences that are all distinct mod n when n is even.
        let first = (0..<count).map { position in
            position % 2 == 1 ? (position + 1) / 2 : (count - position / 2) % count
        }
        let shifted = (0..<count).map { shift in first.map { ($0 + shift) % count } }
        return count % 2 == 0 ? shifted : shifted.flatMap { [$0, $0.reversed()] }
    }
}
