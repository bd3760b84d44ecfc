#if canImport(Testing)
import HTTPStubs
import Testing

/// A Swift Testing trait that gives each test (each test case of a parameterized test) its own
/// ``HTTPStubsScope``, available as ``HTTPStubsScope/current`` and `StubRegistry.current()`.
///
/// ```swift
/// @Test(.httpStubs { stubs in
///     try stubs.load("Fixtures/Feed", relativeTo: #filePath)
/// })
/// func loadsTheFeed() async throws {
///     let stubs = StubRegistry.current()
///     let model = FeedModel(session: stubs.makeSession())
///     try await model.load()
/// }
/// ```
/// On a suite, every test in it gets its own scope.
///
/// Swift gives code written inside an attribute the line of the declaration the attribute is
/// attached to, so a stub declared in the closure is reported at the test's `func` line (a suite's
/// `struct` line), and its failures name the stub, the trait and the test. Stubs declared in the
/// test body, in a function passed as `configure`, or in `withHTTPStubs` are reported at their own line.
public struct HTTPStubsTrait: TestTrait, SuiteTrait, TestScoping {
    let clock: @Sendable () -> any StubClock
    let stubUsage: StubUsageCheck
    let configure: @Sendable (StubRegistry) throws -> Void
    /// Where failures are reported; the test's own place when `nil`.
    let location: SourceCodeLocation?

    init(
        clock: @escaping @Sendable () -> any StubClock,
        stubUsage: StubUsageCheck,
        configure: @escaping @Sendable (StubRegistry) throws -> Void,
        location: SourceCodeLocation?
    ) {
        // Made while the test plan is built, before any test runs: early enough for URLSession.shared
        // to see the network guard (see `NetworkGuard.register()`).
        NetworkGuard.register()
        self.clock = clock
        self.stubUsage = stubUsage
        self.configure = configure
        self.location = location
    }

    /// Every test of a suite gets its own scope.
    public var isRecursive: Bool { true }

    /// Runs the test inside a fresh scope, then reports its failures from the test's task.
    public func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        let scope = HTTPStubsScope(clock: clock(), location: location ?? SourceCodeLocation(test.sourceLocation))
        scope.stubUsage = stubUsage
        do {
            try configureStubs(of: scope)
            try await scope.run { try await function() }
        } catch {
            await scope.end()
            throw error
        }
        await scope.end()
    }

    /// Runs `configure` on the scope's registry and tells the scope which stubs it declared, even
    /// when it throws, so that their failures can name the trait and the test.
    private func configureStubs(of scope: HTTPStubsScope) throws {
        let existing = Set(scope.stubs.stubs.map(\.id))
        defer {
            let declared = Set(scope.stubs.stubs.map(\.id)).subtracting(existing)
            scope.stubsDeclaredInTrait(declared)
        }
        try configure(scope.stubs)
    }

    /// A scope for each test case (a test function has one, a parameterized test one per argument),
    /// never for a suite as a whole.
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }
}

extension Trait where Self == HTTPStubsTrait {
    /// Gives the test stubs of its own, on real time.
    public static var httpStubs: Self {
        HTTPStubsTrait(clock: { SystemStubClock() }, stubUsage: .warnIfNoneAnswered, configure: { _ in }, location: nil)
    }

    /// Gives the test stubs of its own, which the test adds, on `clock`, checked as `stubUsage` says.
    /// - Parameters:
    ///   - clock: Makes the clock delays and timeouts run on; real time by default.
    ///   - stubUsage: What the end of each test checks about how its stubs were used; by default a
    ///     warning when none of them received a request (see ``StubUsageCheck``).
    public static func httpStubs(
        clock: @escaping @Sendable () -> any StubClock = { SystemStubClock() },
        stubUsage: StubUsageCheck = .warnIfNoneAnswered
    ) -> Self {
        HTTPStubsTrait(clock: clock, stubUsage: stubUsage, configure: { _ in }, location: nil)
    }

    /// Gives the test stubs of its own, set up by `configure` (which may load stub files).
    /// - Parameters:
    ///   - clock: Makes the clock delays and timeouts run on; real time by default.
    ///   - stubUsage: What the end of each test checks about how its stubs were used; by default a
    ///     warning when none of them received a request (see ``StubUsageCheck``).
    ///   - fileID: The source `#fileID` associated with failures.
    ///   - filePath: The source `#filePath` associated with failures.
    ///   - line: The source `#line` associated with failures.
    ///   - column: The source `#column` associated with failures.
    ///   - configure: Adds the test's stubs.
    public static func httpStubs(
        clock: @escaping @Sendable () -> any StubClock = { SystemStubClock() },
        stubUsage: StubUsageCheck = .warnIfNoneAnswered,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column,
        _ configure: @escaping @Sendable (StubRegistry) throws -> Void
    ) -> Self {
        HTTPStubsTrait(
            clock: clock,
            stubUsage: stubUsage,
            configure: configure,
            location: SourceCodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        )
    }
}
#endif
