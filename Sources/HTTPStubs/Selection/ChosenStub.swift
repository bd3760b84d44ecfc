/// A stub chosen to answer a request: one of its uses is consumed and the request is journaled.
struct ChosenStub: Sendable {
    /// The chosen stub's entry (a reference, rather than copies of the stub's parts).
    let entry: StubIndex.Entry
    /// Which of the stub's responses answers.
    let responseIndex: Int
    /// The request, with the path parameters the stub's pattern captured.
    let request: InterceptedRequest
    /// The journal entry of the request.
    let journalID: Int

    var summary: StubSummary { entry.summary }
    var response: StubResponse { entry.stub.responses[responseIndex] }
    /// The response resolved already, when it is the same for every request (see
    /// ``StubIndex/Entry/literalAnswers``).
    var literalAnswer: StubIndex.LiteralAnswer? { entry.literalAnswers[responseIndex] }
}
