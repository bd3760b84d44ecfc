import Foundation
import HTTPStubs

/// One test's stubs: a ``StubRegistry`` whose sessions see only this test's stubs, checked when
/// the test ends.
///
/// When the scope ends it fails the test that created it, at the right line, for:
/// - every request no stub answered, with the near-miss report (at the line that opened the scope);
/// - every stub whose ``Stub/expectation`` is unmet (at the line that declared the stub);
/// - every broken stub, such as one whose regular expression does not compile.
///
/// Open one with ``withHTTPStubs(clock:fileID:filePath:line:column:_:)-8pz9s``, the
/// `@Test(.httpStubs)` trait, or `XCTestCase.makeStubRegistry()`.
public final class HTTPStubsScope: Sendable {
    /// The scope of the running test, set by the `.httpStubs` trait and by `withHTTPStubs`.
    @TaskLocal public static var current: HTTPStubsScope?

    /// The scope's stubs; make sessions from it (``StubRegistry/makeSession(configuration:delegate:delegateQueue:)``).
    public let stubs: StubRegistry
    private let location: SourceCodeLocation
    private let framework: TestFailureReporter.Framework
    private let testCase: UncheckedTestCase
    private let state = Locked(ScopeState())

    private struct ScopeState {
        var reportedUnmatched = 0
        var issues: [StubIssue] = []
        var ended = false
    }

    /// Opens a scope with a new registry; call on the test's task.
    convenience init(clock: any StubClock, location: SourceCodeLocation, testCase: AnyObject? = nil) {
        self.init(stubs: StubRegistry(clock: clock), location: location, testCase: testCase)
    }

    /// Opens a scope over an existing registry; call on the test's task.
    init(stubs: StubRegistry, location: SourceCodeLocation, testCase: AnyObject? = nil) {
        self.stubs = stubs
        self.location = location
        self.framework = TestFailureReporter.current
        self.testCase = UncheckedTestCase(object: testCase)
        let state = self.state
        stubs.onIssue { issue in state.withLock { $0.issues.append(issue) } }
        let reported = stubs.journal.last?.id ?? 0   // read before locking: the scope's lock is a leaf
        state.withLock { $0.reportedUnmatched = reported }
    }

    /// Reports what went wrong so far (unmatched requests, broken stubs) as failures of the test.
    /// Call it from the test's own task.
    public func verify() {
        let allUnmatched = stubs.unmatchedRequests   // read before locking: the scope's lock is a leaf
        let (unmatched, issues) = state.withLock { state -> ([JournalEntry], [StubIssue]) in
            let unmatched = allUnmatched.filter { $0.id > state.reportedUnmatched }
            state.reportedUnmatched = unmatched.last?.id ?? state.reportedUnmatched
            defer { state.issues.removeAll() }
            return (unmatched, state.issues)
        }
        for issue in issues {
            fail("Broken stub: \(issue.message)", at: SourceCodeLocation(issue.source) ?? location)
        }
        for entry in unmatched {
            guard case let .unmatched(report) = entry.outcome else { continue }
            fail(report.text, at: location)
        }
    }

    /// Reports remaining problems and every unmet stub expectation; runs once.
    func end() {
        guard state.withLock({ state -> Bool in
            defer { state.ended = true }
            return !state.ended
        }) else { return }
        verify()
        for unmet in stubs.unmetExpectations {
            let stubLocation = stubs.stubs.first { $0.id == unmet.stub.id }.flatMap { SourceCodeLocation($0.source) }
            fail("Unmet expectation: \(unmet)", at: stubLocation ?? location)
        }
    }

    private func fail(_ message: String, at location: SourceCodeLocation) {
        TestFailureReporter.fail(message, at: location, framework: framework, testCase: testCase.object)
    }
}

/// The XCTestCase a scope reports into, if any.
private struct UncheckedTestCase: @unchecked Sendable {
    // Invariant: only used to record failures, which XCTest allows from any thread.
    let object: AnyObject?
}
