import Testing

/// The issues `body` records, each taken as a known issue, so that a test can check the failures
/// the toolkit reports while staying green itself. Recording none fails the calling test.
func recordedIssues(
    allowingNone: Bool = false,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () async throws -> Void
) async throws -> [Issue] {
    let issues = Collected<Issue>()
    try await withKnownIssue(isIntermittent: allowingNone, sourceLocation: sourceLocation) {
        try await body()
    } matching: { issue in
        issues.append(issue)
        return true
    }
    return issues.all
}
