import Foundation

/// A value guarded by an `NSLock`.
///
/// `NSLock` is used rather than `Synchronization.Mutex` because the thread sanitizer understands it:
/// `Mutex` produced false race reports on the Swift 6.3 Linux toolchain, and users run their suites
/// under `--sanitize=thread`. `package`: HTTPStubsTesting uses it too.
package final class Locked<State>: @unchecked Sendable {
    // Invariant: `state` is read and written only inside `withLock`, which holds `lock`.
    private let lock = NSLock()
    private var state: State

    package init(_ state: State) {
        self.state = state
    }

    /// Runs `body` with exclusive access to the state.
    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }
}

/// Carries a non-`Sendable` value into a `@Sendable` closure.
///
/// Use only where the surrounding code guarantees the value is used safely; every use states why.
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
}
