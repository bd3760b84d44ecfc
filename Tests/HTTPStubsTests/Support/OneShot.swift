import Foundation
import HTTPStubs

/// A value delivered once, from any thread, and awaited (optionally with a deadline).
final class OneShot<Value: Sendable>: Sendable {
    private struct State {
        var stored: Value?
        var isDone = false
        var waiters: [CheckedContinuation<Value?, Never>] = []
    }

    private let state = Locked(State())

    func fulfill(_ value: Value) {
        finish(value)
    }

    /// Whether the value has come (or the wait for it has given up).
    var isFulfilled: Bool {
        state.withLock { $0.isDone }
    }

    private func finish(_ value: Value?) {
        let waiters = state.withLock { state -> [CheckedContinuation<Value?, Never>] in
            guard !state.isDone else { return [] }
            state.isDone = true
            state.stored = value
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(returning: value) }
    }

    /// The value, or `nil` if it has not come within `seconds` (after which it is ignored).
    func value(within seconds: Double) async -> Value? {
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [self] in finish(nil) }
        return await withCheckedContinuation { continuation in
            let done = state.withLock { state -> (Value?)? in
                if state.isDone { return .some(state.stored) }
                state.waiters.append(continuation)
                return nil
            }
            if let done { continuation.resume(returning: done) }
        }
    }
}
