import Foundation
import HTTPStubs

/// One test's stubs: a `StubRegistry` whose sessions see only this test's stubs, checked when
/// the test ends.
///
/// When the scope ends it first waits, up to ``inFlightTimeout`` (1 s by default), for the
/// requests still being served by its registry to finish, so that a request started and not
/// awaited (a view model's `Task { }`) is still checked. A request waiting for a
/// `ManualStubClock` that only the test can move is not waited for. Then it fails the test that
/// created it, at the right line, for:
/// - every request no stub answered, with the near-miss report (at the line that opened the scope);
/// - every request still in flight, or still waiting for virtual time, which it ends with a
///   `URLError` saying so (at the line that declared the stub answering it);
/// - every stub whose `Stub.expectation` is unmet (at the line that declared the stub; a stub
///   written inside the `.httpStubs` attribute has no line of its own, so its failure names the
///   trait and the test);
/// - every broken stub, such as one whose regular expression does not compile;
/// - every request the network guard stopped: one sent through `URLSession.shared` while the
///   scope was open, where the platform lets the toolkit see it (see the network guard, <doc:RequestsThatMissTheStubs>);
/// - what its ``stubUsage`` check asks: by default a warning when its stubs received no request
///   at all, the sign of code under test that uses a session they do not serve.
///
/// After that the registry is closed: a request that reaches it later fails with a `URLError`
/// naming the test, and is reported on standard error, since no test is left to fail.
///
/// Open one with ``withHTTPStubs(clock:stubUsage:fileID:filePath:line:column:_:)-3n5bp``, the
/// `@Test(.httpStubs)` trait, or `XCTestCase.makeStubRegistry()`.
public final class HTTPStubsScope: Sendable {
    /// The scope of the running test, set by the `.httpStubs` trait and by `withHTTPStubs`; `nil`
    /// outside them (and in XCTest, whose `makeStubRegistry()` needs no scope of this kind).
    public static var current: HTTPStubsScope? { running }

    /// Where the running test's scope is kept: only the trait and `withHTTPStubs` set it.
    @TaskLocal static var running: HTTPStubsScope?

    /// The scope's stubs; make sessions from it (`stubs.makeSession()`).
    public let stubs: StubRegistry
    private let location: SourceCodeLocation
    private let framework: TestFailureReporter.Framework
    private let testCase: UncheckedTestCase
    /// The test, as its framework names it (`Suite/test()`, `-[Case test]`).
    private let testName: String
    /// Whether the scope's end closes the registry to later requests (not for a registry that
    /// outlives the scope, such as `URLProtocolStub.registry`).
    private let closesRegistry: Bool
    private let state = Locked(ScopeState())
    /// Runs the stub code of the scope's requests in tasks of the test (see ``UserCodeHost``).
    private let userCode = UserCodeHost()
    /// The failures reported, attached as files when the scope ends (see ``FailureAttachment``).
    private let evidence = FailureEvidence()

    /// The journal's last entry when the scope opened: the scope's requests come after it.
    private let firstJournalEntry: Int

    private struct ScopeState {
        var reportedUnmatched = 0
        var issues: [StubDiagnostic] = []
        var ended = false
        var inFlightTimeout = Duration.seconds(1)
        var stubUsage = StubUsageCheck.warnIfNoneAnswered
        /// How many failures the scope has reported, expected ones included.
        var failures = 0
    }

    /// How long the scope's end waits, in real time, for requests still being served to finish
    /// before it checks them and fails those still in flight: 1 s by default. Set it from the test
    /// (`HTTPStubsScope.current?.inFlightTimeout = .seconds(5)`) when its requests take longer.
    public var inFlightTimeout: Duration {
        get { state.withLock { $0.inFlightTimeout } }
        set { state.withLock { $0.inFlightTimeout = max(newValue, .zero) } }
    }

    /// What the scope's end checks about how its stubs were used:
    /// ``StubUsageCheck/warnIfNoneAnswered`` by default. Set it from the test
    /// (`HTTPStubsScope.current?.stubUsage = .noRequests`) or where the scope opens.
    public var stubUsage: StubUsageCheck {
        get { state.withLock { $0.stubUsage } }
        set { state.withLock { $0.stubUsage = newValue } }
    }

    /// Opens a scope with a new registry; call on the test's task.
    convenience init(clock: any StubClock, location: SourceCodeLocation, testCase: AnyObject? = nil) {
        self.init(stubs: StubRegistry(clock: clock), location: location, testCase: testCase)
    }

    /// Opens a scope over an existing registry; call on the test's task.
    init(stubs: StubRegistry, location: SourceCodeLocation, testCase: AnyObject? = nil, closesRegistry: Bool = true) {
        self.stubs = stubs
        self.location = location
        self.framework = TestFailureReporter.current
        self.testCase = UncheckedTestCase(object: testCase)
        self.testName = TestFailureReporter.currentTestName(testCase: testCase) ?? "opened at \(location)"
        self.closesRegistry = closesRegistry
        let state = self.state
        stubs.onDiagnostic { issue in state.withLock { $0.issues.append(issue) } }
        // Started here, on the test's task, the task serving stub code inherits the test's
        // task-local values: `#expect` in a responder counts for this test.
        let userCode = self.userCode
        stubs.userCodeHost = userCode
        Task { await userCode.serve() }
        let reported = stubs.journal.last?.id ?? 0  // read before locking: the scope's lock is a leaf
        firstJournalEntry = reported
        state.withLock { $0.reportedUnmatched = reported }
        // A registry that outlives the scope (URLSession.shared's) is not guarded: it serves that session.
        if closesRegistry {
            // Only an XCTest test (one at a time in its process) owns requests from any thread.
            NetworkGuard.engage(stubs, testName: testName, claimsUnscopedTasks: testCase != nil)
        }
    }

    /// Runs `body` as the scope's test code: ``current`` is this scope, and the requests its tasks
    /// send through `URLSession.shared` are this scope's to guard.
    func run<Result>(_ body: () async throws -> Result) async rethrows -> Result {
        try await Self.$running.withValue(self) {
            try await NetworkGuard.$scopeRegistry.withValue(stubs) { try await body() }
        }
    }

    /// ``run(_:)`` for synchronous test code.
    func runSynchronously<Result>(_ body: () throws -> Result) rethrows -> Result {
        try Self.$running.withValue(self) {
            try NetworkGuard.$scopeRegistry.withValue(stubs) { try body() }
        }
    }

    /// Reports what went wrong so far (unmatched requests, broken stubs) as failures of the test.
    /// Call it from the test's own task.
    public func verify() {
        let allUnmatched = stubs.unmatchedRequests  // read before locking: the scope's lock is a leaf
        let (unmatched, issues) = state.withLock { state -> ([JournalEntry], [StubDiagnostic]) in
            let unmatched = allUnmatched.filter { $0.id > state.reportedUnmatched }
            state.reportedUnmatched = unmatched.last?.id ?? state.reportedUnmatched
            defer { state.issues.removeAll() }
            return (unmatched, state.issues)
        }
        for issue in issues {
            fail(
                "Broken stub: \(issue.message)\(traitNote(source: issue.source))",
                at: SourceCodeLocation(issue.source) ?? location
            )
        }
        for entry in unmatched {
            guard case let .unmatched(report) = entry.outcome else { continue }
            fail(report.text, at: location)
        }
    }

    /// Waits for the requests in flight (see ``inFlightTimeout``), then reports remaining
    /// problems and every unmet stub expectation; runs once.
    func end() async {
        guard let timeout = beginEnding() else { return }
        await stubs.settleRequests(timeout: timeout)
        finishEnding()
    }

    /// ``end()`` for synchronous callers (an XCTest teardown block, the synchronous
    /// `withHTTPStubs`): blocks the thread while it waits.
    func endBlocking() {
        guard let timeout = beginEnding() else { return }
        stubs.settleRequestsBlocking(timeout: timeout)
        finishEnding()
    }

    /// The wait of the scope's end, or `nil` when it has already ended.
    private func beginEnding() -> Duration? {
        state.withLock { state in
            defer { state.ended = true }
            return state.ended ? nil : state.inFlightTimeout
        }
    }

    private func finishEnding() {
        let stopped = closesRegistry ? NetworkGuard.disengage(stubs) : []
        let ended = stubs.endTest(named: testName, closing: closesRegistry)
        stubs.removeUserCodeHost(userCode)
        userCode.close()
        verify()
        for request in ended {
            let stubLocation = request.stub.flatMap { SourceCodeLocation($0.source) }
            let stub = request.stub.map { " (answered by \($0))" } ?? ""
            fail(
                "Request still in flight when the test ended\(stub): "
                    + "\(request.message)\(traitNote(stub: request.stub?.id))",
                at: stubLocation ?? location
            )
        }
        for request in stopped {
            fail("Request stopped by the network guard: \(request.message)", at: location)
        }
        let received = stubs.journal.filter { $0.id > firstJournalEntry }
        // Follows each failure about a stub when nothing at all arrived: the likely cause, and the fix.
        let noneReceived = received.isEmpty ? "\n" + Self.noRequestReceived : ""
        let unmetExpectations = stubs.unmetExpectations
        for unmet in unmetExpectations {
            // The trait's note belongs to the headline, before the requests that arrived.
            let lines = unmet.description.split(separator: "\n", maxSplits: 1)
            let rest = lines.dropFirst().map { "\n\($0)" }.joined()
            fail(
                "Unmet expectation: \(lines[0])\(traitNote(stub: unmet.stub.id))\(rest)\(noneReceived)",
                at: place(of: unmet.stub.id)
            )
        }
        checkStubUsage(received: received, reported: Set(stopped.map(\.journalEntry)), noneReceived: noneReceived)
        evidence.attach(stubs: stubs, testName: testName, at: location, framework: framework, testCase: testCase.object)
    }

    // MARK: How the stubs were used

    /// What a scope whose stubs received no request says about the likely cause, and the fixes.
    static let noRequestReceived =
        "No request reached this test's stubs. If the code under test made one, it went through a URLSession they "
        + "do not serve (on Linux a session made with URLSession(configuration: .default) or .ephemeral is invisible "
        + "to the toolkit, and its requests may reach the real network): give the code under test the session "
        + "stubs.makeSession() makes, or one made from stubs.configuration(). If the test makes no request, give its "
        + "scope stubUsage: .noRequests."

    /// Reports what ``stubUsage`` asks about the scope's `received` requests. `reported` are the
    /// journal entries of requests the network guard stopped, failures already; `noneReceived`
    /// follows a failure about a stub (empty when some request arrived).
    private func checkStubUsage(received: [JournalEntry], reported: Set<Int>, noneReceived: String) {
        let unexpected = stubs.stubs.filter { $0.expectation == nil }
        switch stubUsage.kind {
        case .warnIfNoneAnswered:
            // A test the scope failed has been told enough; a stub that answered proves the session right.
            let failed = state.withLock { $0.failures > 0 }
            guard received.isEmpty, !failed, !unexpected.isEmpty,
                unexpected.allSatisfy({ stubs.useCount(of: $0.id) == 0 })
            else { return }
            let count = unexpected.count == 1 ? "its stub" : "any of its \(unexpected.count) stubs"
            let list = unexpected.map { "\n  - \($0)" }.joined()
            warn("No request reached \(count):\(list)\n\(Self.noRequestReceived)", at: location)
        case .everyStubAnswers:
            for stub in unexpected where stubs.useCount(of: stub.id) == 0 {
                fail(
                    "Unused stub: \(stub) answered no request\(traitNote(stub: stub.id)), and this test's stubUsage "
                        + ".everyStubAnswers requires every stub to answer at least once; remove the stub, or give it "
                        + "expecting: .never if it must not be used\(noneReceived)",
                    at: place(of: stub.id)
                )
            }
        case .noRequests:
            // Unmatched requests and those the guard stopped are failures already.
            for entry in received where !entry.isUnmatched && !reported.contains(entry.id) {
                fail(
                    "Unexpected request: \(entry), but this test's stubUsage .noRequests expects no request; remove "
                        + "stubUsage: .noRequests if the test should make it",
                    at: entry.stub.flatMap { SourceCodeLocation($0.source) } ?? location
                )
            }
        }
    }

    /// The line that declared the stub `id`, or the scope's own when it has none.
    private func place(of id: Stub.ID) -> SourceCodeLocation {
        stubs.stubs.first { $0.id == id }.flatMap { SourceCodeLocation($0.source) } ?? location
    }

    // MARK: Stubs declared inside the `.httpStubs` trait

    /// The stubs the `.httpStubs` trait declared inside its attribute.
    private struct TraitStubs {
        var ids: Set<Stub.ID> = []
        var sources: Set<StubSource> = []
    }

    private let traitStubs = Locked(TraitStubs())

    /// Called by the `.httpStubs` trait once its closure has added the stubs `ids`.
    ///
    /// Swift gives every `#line` written inside an attribute the line (and column) of the
    /// declaration the attribute is attached to, the same place the trait captures as its own. A
    /// stub declared there has lost its line, so failures about it name the trait and the test. A
    /// stub the closure adds from elsewhere (a function of the test file) keeps its own line.
    func stubsDeclaredInTrait(_ ids: Set<Stub.ID>) {
        let lost = stubs.stubs.filter { stub in
            guard ids.contains(stub.id), let place = SourceCodeLocation(stub.source) else { return false }
            return (place.fileID, place.line, place.column) == (location.fileID, location.line, location.column)
        }
        traitStubs.withLock { $0 = TraitStubs(ids: Set(lost.map(\.id)), sources: Set(lost.map(\.source))) }
    }

    /// What follows a failure about the stub `id`, or a stub written at `source`, when it was
    /// declared inside the trait's attribute; empty otherwise.
    private func traitNote(stub id: Stub.ID? = nil, source: StubSource? = nil) -> String {
        let declaredInTrait = traitStubs.withLock { traits in
            id.map(traits.ids.contains) ?? source.map(traits.sources.contains) ?? false
        }
        guard declaredInTrait else { return "" }
        return " — declared in the `.httpStubs` trait of `\(testName)` (code inside an attribute gets the line of the"
            + " declaration the attribute is attached to; declare the stub in the test body, in a function passed to"
            + " `.httpStubs`, or in `withHTTPStubs` to have failures at its own line)"
    }

    private func fail(_ message: String, at location: SourceCodeLocation) {
        state.withLock { $0.failures += 1 }
        if TestFailureReporter.fail(message, at: location, framework: framework, testCase: testCase.object) {
            evidence.note(message)
        }
    }

    private func warn(_ message: String, at location: SourceCodeLocation) {
        TestFailureReporter.warn(message, at: location, framework: framework, testName: testName)
    }
}

/// The XCTestCase a scope reports into, if any.
private struct UncheckedTestCase: @unchecked Sendable {
    // Invariant: only used to record failures, which XCTest allows from any thread.
    let object: AnyObject?
}
