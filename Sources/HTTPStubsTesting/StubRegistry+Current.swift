import HTTPStubs

#if canImport(Testing)
import Testing
#endif

extension StubRegistry {
    /// The stubs of the running test's scope (`@Test(.httpStubs)`, `withHTTPStubs`).
    ///
    /// Outside any scope this records a failure naming the fix and returns a fresh registry, so
    /// the test fails instead of crashing.
    public static func current(
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> StubRegistry {
        if let scope = HTTPStubsScope.current { return scope.stubs }
        TestFailureReporter.fail(
            "No HTTP stub scope: add the .httpStubs trait to the test "
                + "(@Test(.httpStubs)) or wrap the code in withHTTPStubs { stubs in … }",
            at: SourceCodeLocation(fileID: fileID, filePath: filePath, line: line, column: column),
            framework: TestFailureReporter.current
        )
        return StubRegistry()
    }
}
