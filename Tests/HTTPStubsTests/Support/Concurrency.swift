import Foundation

/// A thread-safe counter.
final class Counter: @unchecked Sendable {
    // Invariant: `count` is only touched while `lock` is held.
    private let lock = NSLock()
    private var count = 0

    func increment() {
        lock.lock()
        count += 1
        lock.unlock()
    }

    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }
}

/// A value delivered once, from any thread, and awaited (optionally with a deadline).
final class OneShot<Value: Sendable>: @unchecked Sendable {
    // Invariant: every stored property is only touched while `lock` is held.
    private let lock = NSLock()
    private var stored: Value?
    private var isDone = false
    private var waiters: [CheckedContinuation<Value?, Never>] = []

    func fulfill(_ value: Value) {
        finish(value)
    }

    private func finish(_ value: Value?) {
        lock.lock()
        guard !isDone else {
            lock.unlock()
            return
        }
        isDone = true
        stored = value
        let waiters = self.waiters
        self.waiters = []
        lock.unlock()
        for waiter in waiters { waiter.resume(returning: value) }
    }

    /// The value, or `nil` if it has not come within `seconds` (after which it is ignored).
    func value(within seconds: Double) async -> Value? {
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [self] in finish(nil) }
        return await withCheckedContinuation { continuation in
            lock.lock()
            if isDone {
                let value = stored
                lock.unlock()
                continuation.resume(returning: value)
            } else {
                waiters.append(continuation)
                lock.unlock()
            }
        }
    }
}
