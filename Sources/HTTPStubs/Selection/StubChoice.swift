/// The stub chosen to answer a request, or why there is none: what ``StubSelection`` decides.
enum StubChoice: Sendable {
    case answered(ChosenStub)
    case unmatched(UnmatchedRequestReport)
}
