import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A stub's response with every computation done: what to answer, after which delay.
struct ResolvedResponse {
    enum Answer {
        case http(status: Int, reason: String?, headers: HeaderFields, body: ResponseBody)
        case failure(any Error)
        case urlResponse(URLResponse?, data: Data?)
    }

    let answer: Answer
    let delay: StubDelay?
    let dribble: Dribble?
}

/// A stub's response on its way to being resolved: computed responses are evaluated one after the
/// other, at most 16 deep, synchronous ones at once and an `async` one when awaited. Delays and
/// dribbles set on a computed response apply unless its result sets its own.
struct ResponseResolution {
    private var content: StubResponse.Content
    private var delay: StubDelay?
    private var dribble: Dribble?
    private var depth = 0
    private let request: InterceptedRequest
    private let source: StubSource

    init(_ response: StubResponse, for request: InterceptedRequest, source: StubSource) {
        content = response.content
        delay = response.delay
        dribble = response.dribble
        self.request = request
        self.source = source
    }

    /// Evaluates the synchronous computed responses; returns the resolved response, or `nil` when
    /// the next is computed by an `async` responder (see ``awaitResponder()``). Throws the
    /// responder's `URLError`, or a `URLError` naming any other error it threw.
    mutating func resolveSynchronously() throws -> ResolvedResponse? {
        while true {
            switch content {
            case let .http(status, reason, headers, body):
                return ResolvedResponse(answer: .http(status: status, reason: reason, headers: headers, body: body), delay: delay, dribble: dribble)
            case let .failure(error):
                return ResolvedResponse(answer: .failure(error), delay: delay, dribble: dribble)
            case let .urlResponse(urlResponse, data):
                return ResolvedResponse(answer: .urlResponse(urlResponse, data: data), delay: delay, dribble: dribble)
            case let .computed(responder):
                try apply(responding { try responder(request) })
            case .computedAsync:
                return nil
            }
        }
    }

    /// Runs the `async` responder ``resolveSynchronously()`` stopped at.
    mutating func awaitResponder() async throws {
        guard case let .computedAsync(responder) = content else { return }
        let request = request
        let next: StubResponse
        do {
            next = try await responder(request)
        } catch {
            throw failure(error)
        }
        try apply(next)
    }

    private func responding(_ responder: () throws -> StubResponse) throws -> StubResponse {
        do {
            return try responder()
        } catch {
            throw failure(error)
        }
    }

    private func failure(_ error: any Error) -> any Error {
        if let error = error as? URLError { return error }
        return StubError.responderFailed(source: source, error: "\(error)").urlError(for: request.url)
    }

    private mutating func apply(_ next: StubResponse) throws {
        depth += 1
        guard depth <= 16 else {
            throw StubError.responderFailed(source: source, error: "a chain of more than 16 computed responses").urlError(for: request.url)
        }
        content = next.content
        delay = next.delay ?? delay
        dribble = next.dribble ?? dribble
    }
}

extension StubResponse {
    /// Evaluates computed responses, for callers that cannot wait: a response computed by an
    /// `async` responder fails with a `URLError` saying so.
    func resolved(for request: InterceptedRequest, source: StubSource) throws -> ResolvedResponse {
        var resolution = ResponseResolution(self, for: request, source: source)
        guard let resolved = try resolution.resolveSynchronously() else {
            let reason = "its response is computed by an async responder, which `answer(_:)` cannot await: send the request through a session from `makeSession()`"
            throw StubError.responderFailed(source: source, error: reason).urlError(for: request.url)
        }
        return resolved
    }
}
