import Foundation

/// Why ``awaitCallback(timeout:fileID:filePath:line:column:_:)`` gave up.
public struct CallbackTimeout: Error, CustomStringConvertible {
    /// How long it waited.
    public let timeout: Duration
    /// Where it was called.
    public let location: SourceCodeLocation

    /// `the callback was not called within 5 seconds (at Tests/FeedTests.swift:12:9)`.
    public var description: String {
        "the callback was not called within \(timeout) (awaited at \(location)); check that every path of the code under test calls it"
    }
}

/// Awaits a completion-handler API from an `async` test.
///
/// ```swift
/// let result = try await awaitCallback { done in loader.load(completion: done) }
/// ```
/// It never hangs and never crashes: when the callback does not come within `timeout` it throws
/// ``CallbackTimeout``; when the callback comes a second time before this function returns (the
/// usual double-completion bug), the test fails at this call's line and the extra value is ignored.
/// - Parameters:
///   - timeout: How long to wait; 5 seconds by default.
///   - fileID: The source `#fileID` associated with failures.
///   - filePath: The source `#filePath` associated with failures.
///   - line: The source `#line` associated with failures.
///   - column: The source `#column` associated with failures.
///   - start: Starts the operation, handing it the callback.
public func awaitCallback<Value: Sendable>(
    timeout: Duration = .seconds(5),
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    _ start: (@escaping @Sendable (Value) -> Void) -> Void
) async throws -> Value {
    let location = SourceCodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    let framework = TestFailureReporter.current
    let waiter = CallbackWaiter<Value>()
    let value = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
        waiter.wait(with: continuation)
        let timer = Task {
            try? await Task.sleep(for: timeout)
            waiter.finish(.failure(CallbackTimeout(timeout: timeout, location: location)))
        }
        start { value in
            waiter.finish(.success(value))
            timer.cancel()
        }
    }
    // A second call made right after the first (the usual double-completion bug) is seen here.
    await Task.yield()
    if waiter.extraCalls > 0 {
        TestFailureReporter.fail("the callback was called \(waiter.extraCalls + 1) times; a completion handler must be called exactly once", at: location, framework: framework)
    }
    return value
}

/// Awaits a completion-handler function that takes one argument before its callback:
/// `try await awaitCallback(loader.load, url)`.
public func awaitCallback<Argument, Value: Sendable>(
    _ function: (Argument, @escaping @Sendable (Value) -> Void) -> Void,
    _ argument: Argument,
    timeout: Duration = .seconds(5),
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) async throws -> Value {
    try await awaitCallback(timeout: timeout, fileID: fileID, filePath: filePath, line: line, column: column) { function(argument, $0) }
}

/// Awaits a completion-handler function that takes two arguments before its callback:
/// `try await awaitCallback(client.send, request, options)`.
public func awaitCallback<First, Second, Value: Sendable>(
    _ function: (First, Second, @escaping @Sendable (Value) -> Void) -> Void,
    _ first: First,
    _ second: Second,
    timeout: Duration = .seconds(5),
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) async throws -> Value {
    try await awaitCallback(timeout: timeout, fileID: fileID, filePath: filePath, line: line, column: column) { function(first, second, $0) }
}

/// Resumes a continuation exactly once, whichever of the callback and the timeout comes first,
/// and counts the callbacks that come after.
private final class CallbackWaiter<Value: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Value, any Error>?
        var finished = false
        var extraCalls = 0
    }

    private let state = Locked(State())

    func wait(with continuation: CheckedContinuation<Value, any Error>) {
        state.withLock { $0.continuation = continuation }
    }

    /// Resumes the continuation if nothing did yet; otherwise counts a successful call as extra.
    func finish(_ result: Result<Value, any Error>) {
        let continuation = state.withLock { state -> CheckedContinuation<Value, any Error>? in
            guard !state.finished else {
                if case .success = result { state.extraCalls += 1 }
                return nil
            }
            state.finished = true
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume(with: result)
    }

    /// How many times the callback came after the first.
    var extraCalls: Int {
        state.withLock { $0.extraCalls }
    }
}
