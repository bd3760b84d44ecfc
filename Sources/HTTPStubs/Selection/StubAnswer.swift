import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a registry answers to a request, found without URLSession: for tools such as `stubs match`
/// and for tests that check stub files. Delays are reported, not waited for, and redirects are
/// not followed (as a server would not follow them).
package enum StubAnswer: Sendable {
    /// An HTTP response.
    case response(StubbedHTTPResponse, stub: StubSummary)
    /// The stub fails the request with this error.
    case failure(any Error, stub: StubSummary)
    /// No stub matched.
    case unmatched(UnmatchedRequestReport)
}

/// An HTTP response a stub answers with.
package struct StubbedHTTPResponse: Sendable {
    /// The status code.
    package let status: Int
    /// The reason phrase the stub sets, if any.
    package let reason: String?
    /// The header fields, as the stub writes them.
    package let headers: HeaderFields
    /// The body.
    package let body: Data
    /// How long the stub waits before answering (drawn once for random delays).
    package let delay: Duration
}

extension StubRegistry {
    /// Answers a request as the stubs would, consuming a use of the stub and advancing its
    /// scenario, and records it in the journal. The stub's response is resolved as delivery
    /// resolves it (``ResponseResolution``), except that a response computed by an `async`
    /// responder fails: it cannot be awaited here.
    package func answer(_ request: InterceptedRequest) -> StubAnswer {
        switch selection.choose(request) {
        case let .unmatched(report):
            return .unmatched(report)
        case let .gaveUp(error, stub):
            return .failure(error.urlError(for: request.url), stub: stub)
        case let .answered(chosen):
            let stub = chosen.summary
            var resolution = ResponseResolution(chosen)
            let asyncResponder = StubError.responderFailed(source: stub.source, error: Self.asyncResponderReason)
            let resolved =
                resolution.resolveSynchronously(drawingDelayFrom: self)
                ?? .failed(asyncResponder.urlError(for: request.url), url: request.url)
            switch resolved.answer {
            case let .http(status, reason, headers, body):
                let response = StubbedHTTPResponse(
                    status: status,
                    reason: reason,
                    headers: headers,
                    body: body,
                    delay: resolved.delay
                )
                return .response(response, stub: stub)
            case let .failure(error):
                return .failure(error, stub: stub)
            case let .urlResponse(response, data):
                let http = response as? HTTPURLResponse
                let headers = HeaderFields(of: http)
                let response = StubbedHTTPResponse(
                    status: http?.statusCode ?? 200,
                    reason: nil,
                    headers: headers,
                    body: data ?? Data(),
                    delay: resolved.delay
                )
                return .response(response, stub: stub)
            }
        }
    }

    /// Why ``answer(_:)`` fails a response computed by an `async` responder.
    private static let asyncResponderReason =
        "its response is computed by an async responder, which `answer(_:)` cannot await: "
        + "send the request through a session from `makeSession()`"
}
