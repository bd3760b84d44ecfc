import Foundation
import Testing

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

    /// Whether the value has come (or the wait for it has given up).
    var isFulfilled: Bool {
        lock.lock()
        defer { lock.unlock() }
        return isDone
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

/// How long a test waits for something that must happen before calling it a hang, in seconds.
///
/// Generous on purpose: under the thread sanitizer on a 2-core CI machine a parallel run can stall
/// for several seconds, and a passing test never waits this long. Nothing that uses it is a timing
/// assertion; it only turns a hang into a failure.
let patience: Double = 60

/// Waits until `condition` holds, checking every millisecond; after ``patience`` it fails the test
/// at the caller's line and throws, rather than hanging.
func waitUntil(
    _ condition: () -> Bool,
    sourceLocation: SourceLocation = #_sourceLocation
) async throws {
    let deadline = ContinuousClock.now + .seconds(patience)
    while !condition() {
        try #require(ContinuousClock.now < deadline, "the condition did not hold within \(Int(patience)) s", sourceLocation: sourceLocation)
        try await Task.sleep(for: .milliseconds(1))
    }
}

/// Runs `operation`, and gives up waiting for it after `seconds` (it keeps running): `nil` then.
func within<T: Sendable>(
    _ seconds: Double = patience,
    _ operation: @escaping @Sendable () async -> T
) async -> T? {
    let outcome = OneShot<T>()
    Task { outcome.fulfill(await operation()) }
    return await outcome.value(within: seconds)
}

/// A value guarded by a lock, shared between tasks and URLSession's threads.
final class LockedBox<Value>: @unchecked Sendable {
    // Invariant: `stored` is only touched while `lock` is held.
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) {
        stored = value
    }

    /// The current value.
    var value: Value {
        get { mutate { $0 } }
        set { mutate { $0 = newValue } }
    }

    /// Reads or changes the value under the lock.
    @discardableResult
    func mutate<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&stored)
    }
}

/// Values collected from any thread (issues a handler saw, requests an observer saw), in order.
final class Collected<Element>: Sendable {
    private let box = LockedBox<[Element]>([])

    /// Adds a value.
    func append(_ element: Element) {
        box.mutate { $0.append(element) }
    }

    /// The values so far.
    var all: [Element] { box.value }
}

/// A flag set once from any thread.
final class Flag: Sendable {
    private let box = LockedBox(false)

    /// Sets the flag.
    func set() {
        box.value = true
    }

    /// Whether the flag is set.
    var isSet: Bool { box.value }
}

/// The issues `body` records, each taken as a known issue, so that a test can check the failures
/// the toolkit reports while staying green itself. Recording none fails the calling test.
func recordedIssues(
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () async throws -> Void
) async throws -> [Issue] {
    let issues = Collected<Issue>()
    try await withKnownIssue(sourceLocation: sourceLocation) {
        try await body()
    } matching: { issue in
        issues.append(issue)
        return true
    }
    return issues.all
}
