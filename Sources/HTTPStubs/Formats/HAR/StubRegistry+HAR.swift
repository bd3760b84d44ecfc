import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension StubRegistry {
    /// The journal as a HAR 1.2 document: one entry per intercepted request, with the response
    /// the caller received, or `status: 0` and an `_error` for requests that got none.
    ///
    /// Secrets are replaced before they reach the document, as recording replaces them: by default
    /// the values of request and response headers, query parameters (also in the fragment and in
    /// URL-valued headers such as `Location`), JSON members, form and multipart fields and XML
    /// elements named like credentials, values shaped like credentials and URL passwords, become
    /// `REDACTED` (see ``Redaction``), so the document can be written to disk and checked in.
    /// Opting out is explicit: `journalAsHAR(redaction: .none)`.
    /// - Parameter redaction: What is replaced; ``Redaction/default`` unless given.
    public func journalAsHAR(redaction: Redaction = .default) -> Data {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let entries: [JSONValue] = journal.map { entry in
            let requestBody = entry.request.body.map { redaction.redactedBody($0, contentType: entry.request.header("Content-Type")) }
            var request: JSONObject = [
                "method": .string(entry.request.method.rawValue),
                "url": .string(redaction.redactedURL(entry.request.url).absoluteString),
                "httpVersion": "HTTP/1.1",
                "cookies": [],
                "headers": Self.harHeaders(entry.request.headers, redaction),
                "queryString": .array(entry.request.queryParameters.map { parameter in
                    let secret = redaction.isSecret(parameter.name, at: .query) || redaction.isSecretValue(parameter.value)
                    return ["name": .string(parameter.name), "value": .string(secret ? Redaction.placeholder : parameter.value)]
                }),
                "headersSize": -1,
                "bodySize": .number(JSONNumber(requestBody?.count ?? 0)),
            ]
            if let body = requestBody, !body.isEmpty {
                request["postData"] = [
                    "mimeType": .string(entry.request.header("Content-Type") ?? "application/octet-stream"),
                    "text": .string(String(data: body, encoding: .utf8) ?? body.base64EncodedString()),
                ]
            }
            var response: JSONObject
            if let recorded = entry.response {
                let contentType = recorded.urlResponse.value(forHTTPHeaderField: "Content-Type")
                let body = redaction.redactedBody(recorded.body, contentType: contentType)
                var content: JSONObject = [
                    "size": .number(JSONNumber(body.count)),
                    "mimeType": .string(contentType ?? ""),
                ]
                if let text = String(data: body, encoding: .utf8) {
                    content["text"] = .string(text)
                } else {
                    content["text"] = .string(body.base64EncodedString())
                    content["encoding"] = "base64"
                }
                response = [
                    "status": .number(JSONNumber(recorded.status)),
                    "statusText": "",
                    "httpVersion": "HTTP/1.1",
                    "cookies": [],
                    "headers": Self.harHeaders(recorded.headers, redaction),
                    "content": .object(content),
                    "redirectURL": "",
                    "headersSize": -1,
                    "bodySize": .number(JSONNumber(body.count)),
                ]
            } else {
                response = [
                    "status": 0, "statusText": "", "httpVersion": "", "cookies": [], "headers": [],
                    "content": ["size": 0, "mimeType": ""], "redirectURL": "", "headersSize": -1, "bodySize": -1,
                    "_error": .string(Self.harError(for: entry.outcome)),
                ]
            }
            return [
                "startedDateTime": .string(formatter.string(from: entry.date)),
                "time": 0,
                "request": .object(request),
                "response": .object(response),
                "cache": [:],
                "timings": ["send": 0, "wait": 0, "receive": 0],
            ]
        }
        let document: JSONValue = [
            "log": [
                "version": "1.2",
                "creator": ["name": "swift-http-stubs", "version": "0.1.0"],
                "entries": .array(entries),
            ],
        ]
        return Data(document.serialized(pretty: true).utf8)
    }

    /// HAR `headers`: `{"name", "value"}` objects, secret values replaced.
    private static func harHeaders(_ headers: HeaderFields, _ redaction: Redaction) -> JSONValue {
        .array(headers.map { ["name": .string($0.name), "value": .string(redaction.redactedHeader($0.name, $0.value))] })
    }

    /// Why a journaled request got no HTTP response, for HAR's `_error`.
    private static func harError(for outcome: JournalEntry.Outcome) -> String {
        switch outcome {
        case .answered: return "the stub answered with an error"
        case .unmatched: return "no stub answered the request"
        case .passedThrough: return "passed through to the network"
        case let .refused(reason): return reason
        case .recorded: return "the real server's answer was an error"
        }
    }
}
