import HTTPStubs

/// Runs `body` with stubs of its own, then fails the test for unmatched requests, requests still in
/// flight, broken stubs and unmet stub expectations — whatever way `body` ends (returning, throwing,
/// or being cancelled). See ``HTTPStubsScope`` for what the end of the scope waits for.
///
/// ```swift
/// @Test func loadsTheFeed() async throws {
///     try await withHTTPStubs { stubs in
///         stubs.stub(.get("https://api.example.com/feed"), .json(feed), expecting: .once)
///         let model = FeedModel(session: stubs.makeSession())
///         try await model.load()
///         #expect(model.items.count == 3)
///     }
/// }
/// ```
/// - Parameters:
///   - clock: The clock delays and timeouts run on; real time by default.
///   - stubUsage: What the scope's end checks about how its stubs were used; by default a warning
///     when none of them received a request (see ``StubUsageCheck``).
///   - fileID: The source `#fileID` associated with failures.
///   - filePath: The source `#filePath` associated with failures.
///   - line: The source `#line` associated with failures.
///   - column: The source `#column` associated with failures.
///   - body: The test code, given the scope's registry.
public func withHTTPStubs<Result>(
    clock: any StubClock = SystemStubClock(),
    stubUsage: StubUsageCheck = .warnIfNoneAnswered,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    _ body: (StubRegistry) async throws -> Result
) async rethrows -> Result {
    let scope = HTTPStubsScope(
        clock: clock,
        location: SourceCodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
    scope.stubUsage = stubUsage
    let result: Result
    do {
        result = try await scope.run { try await body(scope.stubs) }
    } catch {
        await scope.end()
        throw error
    }
    await scope.end()
    return result
}

/// Runs synchronous `body` with stubs of its own (see the `async` form, whose parameters it takes). Its end blocks the thread
/// while it waits for requests in flight.
public func withHTTPStubs<Result>(
    clock: any StubClock = SystemStubClock(),
    stubUsage: StubUsageCheck = .warnIfNoneAnswered,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    _ body: (StubRegistry) throws -> Result
) rethrows -> Result {
    let scope = HTTPStubsScope(
        clock: clock,
        location: SourceCodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
    scope.stubUsage = stubUsage
    defer { scope.endBlocking() }
    return try scope.runSynchronously { try body(scope.stubs) }
}
