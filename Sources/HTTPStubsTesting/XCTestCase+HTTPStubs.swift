#if canImport(XCTest)
import HTTPStubs
import XCTest

extension XCTestCase {
    /// A registry of stubs for this test, checked when the test ends (in a teardown block, after
    /// waiting for requests in flight as ``HTTPStubsScope`` describes): unmatched requests, requests
    /// still in flight, broken stubs and unmet stub expectations fail the test, the latter at the
    /// line that declared the stub.
    ///
    /// ```swift
    /// func test_loadsTheFeed() async throws {
    ///     let stubs = makeStubRegistry()
    ///     stubs.stub(.get("https://api.example.com/feed"), .json(feed), expecting: .once)
    ///     let model = FeedModel(session: stubs.makeSession())
    ///     try await model.load()
    /// }
    /// ```
    /// - Parameters:
    ///   - clock: The clock delays and timeouts run on; real time by default.
    ///   - inFlightTimeout: How long the end of the test waits for requests still in flight
    ///     (see ``HTTPStubsScope/inFlightTimeout``); 1 s by default.
    ///   - stubUsage: What the end of the test checks about how its stubs were used; by default a
    ///     notice on standard error when none of them received a request (see ``StubUsageCheck``).
    ///   - fileID: The source `#fileID` associated with failures.
    ///   - filePath: The source `#filePath` associated with failures.
    ///   - line: The source `#line` associated with failures.
    ///   - column: The source `#column` associated with failures.
    public func makeStubRegistry(
        clock: any StubClock = SystemStubClock(),
        inFlightTimeout: Duration = .seconds(1),
        stubUsage: StubUsageCheck = .warnIfNoneAnswered,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> StubRegistry {
        let scope = HTTPStubsScope(
            clock: clock,
            location: SourceCodeLocation(fileID: fileID, filePath: filePath, line: line, column: column),
            testCase: self
        )
        scope.inFlightTimeout = inFlightTimeout
        scope.stubUsage = stubUsage
        addTeardownBlock { @Sendable in await scope.end() }
        return scope.stubs
    }
}
#endif
