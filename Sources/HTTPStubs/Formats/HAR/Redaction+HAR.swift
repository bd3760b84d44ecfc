import Foundation

extension Redaction {
    /// A HAR exchange as it may be written into a stub root: its URL's secret query parameters,
    /// its secret headers and the secret members and fields of its bodies replaced, as recording
    /// replaces them.
    func redacted(_ exchange: HARExchange) -> HARExchange {
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
        let url = URL(string: request.url).map { redactedURL($0).absoluteString } ?? request.url
        let contentType = Self.contentType(
            isForm: request.body?.isForm == true,
            declared: request.stubRequest.header("Content-Type")
        )
        let body = request.body.map { body -> HARBody in
            guard case .bytes = body.key else {
                let text = String(decoding: redactedBody(Data(body.text.utf8), contentType: contentType), as: UTF8.self)
                return HARBody(text: text, isForm: body.isForm)
            }
            return body
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
                reason: response.reason,
                headers: response.headers.mappingValues { redactedHeader($0, $1) },
                body: redactedBody(response.body, contentType: response.contentType),
                contentType: response.contentType
            )
        )
    }
}
