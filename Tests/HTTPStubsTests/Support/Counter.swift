import HTTPStubs

/// A count incremented from any thread.
final class Counter: Sendable {
    private let count = Locked(0)

    /// Adds one.
    func increment() {
        count.withLock { $0 += 1 }
    }

    /// The count so far.
    var value: Int { count.value }
}
