/// The stub chosen to answer a request, or why there is none: what ``StubSelection`` decides.
enum StubChoice: Sendable {
    case answered(ChosenStub)
    case unmatched(UnmatchedRequestReport)
    /// Testing `stub` spent the request's work budget (``StubError/matchingGaveUp(stub:request:exhaustion:)``):
    /// the request fails with `error`.
    case gaveUp(StubError, stub: StubSummary)
}
