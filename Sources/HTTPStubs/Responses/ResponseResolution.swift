import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A chosen stub's response on its way to being resolved: the one path from a ``ChosenStub`` to
/// the ``ResolvedResponse`` it answers with, for delivery and for ``StubAnswer`` alike.
///
/// Computed responses are evaluated one after the other, at most 16 deep, synchronous ones at once
/// and an `async` one when awaited. Delays and dribbles set on a computed response apply unless its
/// result sets its own.
struct ResponseResolution {
    private var content: StubResponse.Content
    private var delay: StubDelay?
    private var dribble: Dribble?
    private var depth = 0
    /// The stub and the request: a reference each, rather than copies of the request and of the
    /// stub's source, which only a failure reads.
    private let chosen: ChosenStub

    /// The resolution of the response `chosen` answers with.
    init(_ chosen: ChosenStub) {
        let response = chosen.response
        content = response.content
        delay = response.delay
        dribble = response.dribble
        self.chosen = chosen
    }

    /// Evaluates the synchronous computed responses, reads the body and draws the delay from
    /// `registry`: the resolved response, or `nil` when the next is computed by an `async`
    /// responder (see ``awaitResponder()``). A responder's error fails the request: its `URLError`,
    /// or a `URLError` naming any other error it threw.
    mutating func resolveSynchronously(drawingDelayFrom registry: StubRegistry) -> ResolvedResponse? {
        let request = chosen.request
        let url = request.url
        while true {
            switch content {
            case let .http(status, reason, headers, body):
                let delay = drawDelay(from: registry)
                let served: (status: Int, headers: HeaderFields, data: Data)
                do {
                    served = try body.served(status: status, headers: headers)
                } catch {
                    let failure = (error as? StubError)?.urlError(for: url) ?? error
                    return ResolvedResponse(answer: .failure(failure), delay: delay, dribble: dribble)
                }
                let answer = ResolvedResponse.Answer.http(
                    status: served.status,
                    reason: served.status == status ? reason : nil,
                    headers: served.headers,
                    body: served.data
                )
                return ResolvedResponse(answer: answer, delay: delay, dribble: dribble)
            case let .failure(error):
                let failure = ResolvedResponse.withFailingURL(error, url)
                return ResolvedResponse(answer: .failure(failure), delay: drawDelay(from: registry), dribble: dribble)
            case let .urlResponse(urlResponse, data):
                let answer = ResolvedResponse.Answer.urlResponse(urlResponse, data: data)
                return ResolvedResponse(answer: answer, delay: drawDelay(from: registry), dribble: dribble)
            case let .computed(responder):
                do {
                    try apply(responding { try responder(request) })
                } catch {
                    return .failed(error, url: url)
                }
            case .computedAsync:
                return nil
            case let .rendered(template, modifiers):
                content = Self.render(template, modifiers: modifiers, for: chosen, registry: registry)
            }
        }
    }

    /// The response `template` renders for the chosen stub's request, with the registry's clock
    /// and generator; a template that fails answers 500 as WireMock does, and the failure is
    /// reported.
    private static func render(
        _ template: any RenderedResponse,
        modifiers: [StubResponse.HTTPModifier],
        for chosen: ChosenStub,
        registry: StubRegistry
    ) -> StubResponse.Content {
        let request = chosen.request
        let (content, failure) = template.render(request, environment: registry.templateEnvironment)
        if let failure {
            registry.report(
                StubDiagnostic(
                    severity: .error,
                    source: chosen.summary.source,
                    message:
                        "the response template failed for \(request.method) \(request.url.absoluteString) "
                        + "and the stub answered 500, as WireMock does: \(failure)"
                )
            )
            return content
        }
        guard case var .http(status, reason, headers, body) = content else { return content }
        for modify in modifiers { modify(&status, &reason, &headers, &body) }
        return .http(status: status, reason: reason, headers: headers, body: body)
    }

    /// The delay the resolved response waits, drawn from the registry's generator once.
    private func drawDelay(from registry: StubRegistry) -> Duration {
        delay.map(registry.sample) ?? .zero
    }

    /// Runs the `async` responder ``resolveSynchronously(drawingDelayFrom:)`` stopped at.
    mutating func awaitResponder() async throws {
        guard case let .computedAsync(responder) = content else { return }
        let request = chosen.request
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
        return StubError.responderFailed(source: chosen.summary.source, error: "\(error)")
            .urlError(for: chosen.request.url)
    }

    private mutating func apply(_ next: StubResponse) throws {
        depth += 1
        guard depth <= 16 else {
            let reason = "a chain of more than 16 computed responses"
            throw StubError.responderFailed(source: chosen.summary.source, error: reason)
                .urlError(for: chosen.request.url)
        }
        content = next.content
        delay = next.delay ?? delay
        dribble = next.dribble ?? dribble
    }
}
