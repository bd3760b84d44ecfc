import Foundation

extension Redaction {
    /// A HAR exchange as it may be written into a stub root: the secrets of its URL, headers,
    /// bodies (text or bytes) and reason phrase replaced, as recording replaces them.
    package func redacted(_ exchange: HARExchange) -> HARExchange {
        guard redactsAnything else { return exchange }
        return HARExchange(
            entryIndex: exchange.entryIndex,
            jsonPath: exchange.jsonPath,
            request: redacted(exchange.request),
            outcome: redacted(exchange.outcome),
            startedAt: exchange.startedAt,
            order: exchange.order
        )
    }

    private func redacted(_ request: HARRequest) -> HARRequest {
        var stubRequest = request.stubRequest
        stubRequest.url = redactedURL(stubRequest.url)
        stubRequest.headers = stubRequest.headers.mappingValues { redactedHeader($0, $1) }
        let url = redactedURLText(request.url, with: .placeholder)
        let contentType = Self.contentType(
            isForm: request.body?.isForm == true,
            declared: request.stubRequest.header("Content-Type")
        )
        let body = request.body.map { body -> HARBody in
            let redacted = redactedBody(body.data, contentType: contentType)
            guard redacted != body.data else { return body }
            if case .bytes = body.key, redacted.range(of: Data(Redaction.placeholder.utf8)) == nil {
                return HARBody(bytes: redacted)
            }
            // Matched as text, so that what was redacted matches any value (see StubRecorder).
            return HARBody(text: String(decoding: redacted, as: UTF8.self), isForm: body.isForm)
        }
        return HARRequest(url: url, stubRequest: stubRequest, body: body)
    }

    /// The `Content-Type` a HAR request body is redacted as: a form when the capture said so, else
    /// the request's own header (multipart, XML), else none that makes it a form.
    private static func contentType(isForm: Bool, declared: String?) -> String {
        isForm ? "application/x-www-form-urlencoded" : (declared ?? "")
    }

    private func redacted(_ outcome: HAROutcome) -> HAROutcome {
        guard case let .response(response) = outcome else { return outcome }
        return .response(
            HARResponse(
                status: response.status,
                reason: redactedValue(response.reason, with: .placeholder),
                headers: response.headers.mappingValues { redactedHeader($0, $1) },
                body: redactedBody(response.body, contentType: response.contentType),
                contentType: response.contentType
            )
        )
    }
}
