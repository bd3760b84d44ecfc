import HTTPStubs

/// What the end of a test's stub scope checks about how its stubs were used, beyond the
/// expectations stubs declare with `expecting:`.
///
/// The default, ``warnIfNoneAnswered``, catches the commonest mistake of all: code under test that
/// makes its requests through a `URLSession` the stubs do not serve (`URLSession(configuration:
/// .default)` instead of `stubs.makeSession()`). On Linux the toolkit cannot see such a session at
/// all; a scope whose stubs then received no request says so when it ends.
public struct StubUsageCheck: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        case warnIfNoneAnswered
        case everyStubAnswers
        case noRequests
    }

    let kind: Kind

    /// When the scope has stubs and none of them received a request, a warning that names them and
    /// the likely cause: a Swift Testing warning, which does not fail the test; under XCTest, which
    /// has no such severity, a notice on standard error. A stub that declares `expecting:` is
    /// checked by its expectation instead, whose failure then says the same. The default.
    public static let warnIfNoneAnswered = StubUsageCheck(kind: .warnIfNoneAnswered)

    /// Every stub must answer at least once: each one that answered no request fails the test, at
    /// the line that declared it (as nock's `isDone()` and VCR's `allow_unused_http_interactions:
    /// false` do). A stub that declares `expecting:` is held to its expectation instead.
    public static let everyStubAnswers = StubUsageCheck(kind: .everyStubAnswers)

    /// The test expects no request at all: stubs loaded for a whole suite may go unused, and every
    /// request that reaches the stubs fails the test (an unmatched one with its near-miss report).
    public static let noRequests = StubUsageCheck(kind: .noRequests)
}
