import Foundation
import HTTPStubs

/// Why ``awaitCallback(timeout:fileID:filePath:line:column:_:)`` gave up.
public struct CallbackTimeout: Error, CustomStringConvertible {
    /// How long it waited before giving up.
    public let timeout: Duration
    /// The call to `awaitCallback` that gave up, where the failure is reported.
    public let location: SourceCodeLocation

    /// `the callback was not called within 5 seconds (at Tests/FeedTests.swift:12:9)`.
    public var description: String {
        "the callback was not called within \(timeout) (awaited at \(location)); "
            + "check that every path of the code under test calls it"
    }
}

/// Awaits a completion-handler API from an `async` test.
///
/// ```swift
/// let result = try await awaitCallback { done in loader.load(completion: done) }
/// ```
/// It never hangs and never crashes: when the callback does not come within `timeout` it throws
/// ``CallbackTimeout``; when the callback comes more than once (the usual double-completion bug),
/// the test fails at this call's line and the extra values are ignored. A second call made before
/// this function returns is reported when it returns; one made later is reported when it comes
/// (under Swift Testing, an issue recorded from another thread is attributed to no test, but it
/// still fails the run).
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
    let waiter = CallbackWaiter<Value> { calls in
        TestFailureReporter.fail(
            "the callback was called \(calls) times; a completion handler must be called exactly once",
            at: location,
            framework: framework
        )
    }
    let value: Value
    do {
        value = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
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
    } catch {
        waiter.returned()  // after a timeout, a callback that comes twice is still a bug
        throw error
    }
    // A second call made right after the first (the usual double-completion bug) is seen here, and
    // reported once with the count; later ones are reported as they come.
    await Task.yield()
    waiter.returned()
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
    try await awaitCallback(timeout: timeout, fileID: fileID, filePath: filePath, line: line, column: column) {
        function(argument, $0)
    }
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
    try await awaitCallback(timeout: timeout, fileID: fileID, filePath: filePath, line: line, column: column) {
        function(first, second, $0)
    }
}

/// Resumes a continuation exactly once, whichever of the callback and the timeout comes first,
/// and reports callbacks beyond the first: those before ``returned()`` together, later ones one by one.
private final class CallbackWaiter<Value: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Value, any Error>?
        var finished = false
        var calls = 0
        var hasReturned = false
    }

    private let state = Locked(State())
    private let reportCalls: @Sendable (Int) -> Void

    /// - Parameter reportCalls: Called with the number of calls so far when there were too many.
    init(reportCalls: @escaping @Sendable (Int) -> Void) {
        self.reportCalls = reportCalls
    }

    func wait(with continuation: CheckedContinuation<Value, any Error>) {
        state.withLock { $0.continuation = continuation }
    }

    /// Resumes the continuation if nothing did yet; counts a call of the callback.
    func finish(_ result: Result<Value, any Error>) {
        let (continuation, tooMany) = state.withLock { state -> (CheckedContinuation<Value, any Error>?, Int?) in
            if case .success = result { state.calls += 1 }
            let tooMany = state.hasReturned && state.calls > 1 ? state.calls : nil
            guard !state.finished else { return (nil, tooMany) }
            state.finished = true
            defer { state.continuation = nil }
            return (state.continuation, tooMany)
        }
        continuation?.resume(with: result)
        if let tooMany { reportCalls(tooMany) }
    }

    /// The awaiting function is returning: reports the calls beyond the first made so far.
    func returned() {
        let calls = state.withLock { state -> Int in
            state.hasReturned = true
            return state.calls
        }
        if calls > 1 { reportCalls(calls) }
    }
}
