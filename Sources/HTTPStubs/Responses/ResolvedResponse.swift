import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A stub's response with every computation done: what to answer, after which delay.
struct ResolvedResponse {
    enum Answer {
        case http(status: Int, reason: String?, headers: HTTPHeaders, body: ResponseBody)
        case failure(any Error)
        case urlResponse(URLResponse?, data: Data?)
    }

    let answer: Answer
    let delay: StubDelay?
    let dribble: Dribble?
}

extension StubResponse {
    /// Evaluates computed responses (which may compute further ones), at most 16 deep. Delays and
    /// dribbles set on a computed response apply unless its result sets its own.
    func resolved(for request: StubRequest, source: StubSource) throws -> ResolvedResponse {
        var delay = self.delay
        var dribble = self.dribble
        var content = self.content
        for _ in 0...16 {
            switch content {
            case let .http(status, reason, headers, body):
                return ResolvedResponse(answer: .http(status: status, reason: reason, headers: headers, body: body), delay: delay, dribble: dribble)
            case let .failure(error):
                return ResolvedResponse(answer: .failure(error), delay: delay, dribble: dribble)
            case let .urlResponse(urlResponse, data):
                return ResolvedResponse(answer: .urlResponse(urlResponse, data: data), delay: delay, dribble: dribble)
            case let .computed(responder):
                let next: StubResponse
                do {
                    next = try responder(request)
                } catch let error as URLError {
                    throw error
                } catch {
                    throw StubError.responderFailed(source: source, error: "\(error)").urlError(for: request.url)
                }
                content = next.content
                delay = next.delay ?? delay
                dribble = next.dribble ?? dribble
            }
        }
        throw StubError.responderFailed(source: source, error: "a chain of more than 16 computed responses").urlError(for: request.url)
    }
}
