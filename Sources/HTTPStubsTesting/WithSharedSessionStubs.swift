import Foundation
import HTTPStubs

/// Runs `body` with the stubs that serve `URLSession.shared`, for code under test that cannot be
/// given a session.
///
/// `URLSession.shared` is one per process, so its stubs (`URLProtocolStub.registry`) are too:
/// tests that use it cannot run in parallel with each other. Every `withSharedSessionStubs` call
/// waits for the previous one to end, starts interception, and at the end reports unmatched
/// requests and unmet expectations, stops interception and resets the registry. Prefer injecting
/// `stubs.makeSession()`: such tests stay isolated and parallel.
///
/// Reported as failures: a `URLSession.shared` that cannot be intercepted on Linux (see
/// `URLProtocolStub.startInterceptingRequests()`), interception left
/// running by code outside these scopes (two tests would overwrite each other's stubs),
/// interception stopped during the scope by code outside it (its stubs were reset under it), and a
/// nested call (which would otherwise wait for itself forever).
public func withSharedSessionStubs<Result>(
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    _ body: (StubRegistry) async throws -> Result
) async rethrows -> Result {
    let location = SourceCodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    let framework = TestFailureReporter.current
    if SharedSessionTurn.isHeld {
        TestFailureReporter.fail(
            "withSharedSessionStubs is already running in this task; nest its code in the outer call instead",
            at: location,
            framework: framework
        )
        return try await body(URLProtocolStub.registry)
    }
    await SharedSessionTurn.lock.acquire()
    if URLProtocolStub.isIntercepting {
        TestFailureReporter.fail(
            "URLProtocolStub is already intercepting: code outside withSharedSessionStubs started "
                + "it and did not stop it, so tests using URLSession.shared would overwrite each other's stubs; "
                + "use withSharedSessionStubs in every such test (it runs them one at a time)",
            at: location,
            framework: framework
        )
        URLProtocolStub.stopInterceptingRequests()
    }
    URLProtocolStub.registry.onDiagnostic { _ in }  // the reason below is reported once, as a failure
    if case let .unavailable(reason) = URLProtocolStub.startInterceptingRequests(
        fileID: fileID,
        filePath: filePath,
        line: line,
        column: column
    ) {
        TestFailureReporter.fail(reason, at: location, framework: framework)
    }
    let scope = HTTPStubsScope(stubs: URLProtocolStub.registry, location: location, closesRegistry: false)
    do {
        let result = try await SharedSessionTurn.$isHeld.withValue(true) {
            try await scope.run { try await body(scope.stubs) }
        }
        await finish(scope, at: location, framework: framework)
        return result
    } catch {
        await finish(scope, at: location, framework: framework)
        throw error
    }
}

/// Ends a shared-session scope and lets the next one run.
private func finish(
    _ scope: HTTPStubsScope,
    at location: SourceCodeLocation,
    framework: TestFailureReporter.Framework
) async {
    if !URLProtocolStub.isIntercepting {
        TestFailureReporter.fail(
            "URLProtocolStub.stopInterceptingRequests() was called while this withSharedSessionStubs scope ran: "
                + "code outside the scope (another test using URLProtocolStub directly?) stopped interception "
                + "and reset its stubs; use withSharedSessionStubs in every test that uses URLSession.shared",
            at: location,
            framework: framework
        )
    }
    await scope.end()
    URLProtocolStub.stopInterceptingRequests()
    // Give the registry back its default: problems printed to standard error.
    URLProtocolStub.registry.onDiagnostic { issue in FileHandle.standardError.write(Data("\(issue)\n".utf8)) }
    SharedSessionTurn.lock.release()
}

/// The turn of `URLSession.shared`'s stubs: one scope at a time, in arrival order.
enum SharedSessionTurn {
    static let lock = AsyncLock()
    @TaskLocal static var isHeld = false
}

/// A first-come, first-served lock that suspends instead of blocking a thread.
final class AsyncLock: Sendable {
    private let state = Locked((held: false, waiters: [CheckedContinuation<Void, Never>]()))

    func acquire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let acquired = state.withLock { state -> Bool in
                if state.held {
                    state.waiters.append(continuation)
                    return false
                }
                state.held = true
                return true
            }
            if acquired { continuation.resume() }
        }
    }

    func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiters.isEmpty else {
                state.held = false
                return nil
            }
            return state.waiters.removeFirst()
        }
        next?.resume()
    }
}
