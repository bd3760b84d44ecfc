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
    /// scenario, and records it in the journal.
    package func answer(_ request: InterceptedRequest) -> StubAnswer {
        switch selection.choose(request) {
        case let .unmatched(report):
            return .unmatched(report)
        case let .answered(selection):
            let stub = selection.summary
            do {
                let resolved = try selection.response.resolved(for: selection.request, source: selection.summary.source)
                let delay = resolved.delay.map(sample) ?? .zero
                switch resolved.answer {
                case let .http(status, reason, headers, body):
                    let served = try body.served(status: status, headers: headers)
                    return .response(StubbedHTTPResponse(
                        status: served.status, reason: served.status == status ? reason : nil, headers: served.headers, body: served.data, delay: delay
                    ), stub: stub)
                case let .failure(error):
                    return .failure(error, stub: stub)
                case let .urlResponse(response, data):
                    let http = response as? HTTPURLResponse
                    var headers = HeaderFields()
                    for (name, value) in (http?.allHeaderFields ?? [:]).sorted(by: { "\($0.key)" < "\($1.key)" }) {
                        headers.add("\(name)", "\(value)")
                    }
                    return .response(StubbedHTTPResponse(status: http?.statusCode ?? 200, reason: nil, headers: headers, body: data ?? Data(), delay: delay), stub: stub)
                }
            } catch let error as StubError {
                return .failure(error.urlError(for: request.url), stub: stub)
            } catch let error as URLError {
                return .failure(error, stub: stub)
            } catch {
                return .failure(StubError.responderFailed(source: selection.summary.source, error: "\(error)").urlError(for: request.url), stub: stub)
            }
        }
    }
}
