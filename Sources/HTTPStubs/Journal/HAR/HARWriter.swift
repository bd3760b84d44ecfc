import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Writes HAR 1.2 documents from the HAR model that `HARReader` (HTTPStubsFiles) reads into (``HARExchange``),
/// so reading and writing agree on what an entry holds.
///
/// Secrets are replaced while writing, as `redaction` says: header values, query parameters, the
/// URL's user info, and the request and response bodies (by their `Content-Type`).
enum HARWriter {
    /// The toolkit as HAR's `creator`.
    private static let creator: JSONValue = ["name": "swift-http-stubs", "version": "0.1.0"]

    /// A HAR document (pretty-printed JSON) logging `entries` in order, each an exchange and when it started.
    static func document(_ entries: [(exchange: HARExchange, started: Date)], redaction: Redaction) -> Data {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let document: JSONValue = [
            "log": [
                "version": "1.2",
                "creator": creator,
                "entries": .array(
                    entries.map { exchange, started in
                        [
                            "startedDateTime": .string(formatter.string(from: started)),
                            "time": 0,
                            "request": .object(request(exchange.request, redaction)),
                            "response": .object(response(exchange.outcome, redaction)),
                            "cache": [:],
                            "timings": ["send": 0, "wait": 0, "receive": 0],
                        ]
                    }
                ),
            ]
        ]
        return Data(document.serialized(pretty: true).utf8)
    }

    /// HAR's `request`; a body is written as `postData` with the request's `Content-Type`. A body
    /// sent compressed (`Content-Encoding`) whose secrets had to be replaced is written decoded,
    /// with a `comment` saying so; one in an encoding that cannot be read is left out, and its
    /// `comment` says why.
    private static func request(_ request: HARRequest, _ redaction: Redaction) -> JSONObject {
        let recorded = request.stubRequest
        let contentType = recorded.header("Content-Type")
        let url = redaction.redactedURL(recorded.url)
        var body: Data?
        var comment: String?
        if let data = request.body?.data {
            let encoding = recorded.header("Content-Encoding")
            switch redaction.redactedBody(data, contentType: contentType, contentEncoding: encoding) {
            case let .asSent(redacted):
                body = redacted
            case let .decoded(redacted):
                body = redacted
                comment = "decoded from its Content-Encoding \(encoding ?? ""), so that its secrets could be redacted"
            case .withheld:
                comment =
                    "the body, sent with the Content-Encoding \(encoding ?? ""), which cannot be decoded here, is left "
                    + "out: it might hold secrets"
            }
        }
        var object: JSONObject = [
            "method": .string(recorded.method.rawValue),
            "url": .string(url.absoluteString),
            "httpVersion": "HTTP/1.1",
            "cookies": [],
            "headers": headers(recorded.headers, redaction),
            "queryString": .array(
                InterceptedRequest(url: url).queryParameters.map { parameter in
                    ["name": .string(parameter.name), "value": .string(parameter.value)]
                }
            ),
            "headersSize": -1,
            "bodySize": .number(JSONNumber(body?.count ?? 0)),
        ]
        if let body, !body.isEmpty {
            var postData: JSONObject = [
                "mimeType": .string(contentType ?? "application/octet-stream"),
                "text": .string(String(data: body, encoding: .utf8) ?? body.base64EncodedString()),
            ]
            if let comment { postData["comment"] = .string(comment) }
            object["postData"] = .object(postData)
        } else if let comment {
            object["comment"] = .string(comment)
        }
        return object
    }

    /// HAR's `response`: the HTTP response, or `status: 0` with an `_error` for a request that got none.
    private static func response(_ outcome: HAROutcome, _ redaction: Redaction) -> JSONObject {
        let error: String?
        switch outcome {
        case let .response(response):
            // HAR's `content.text` is the decoded body, which is also the only one whose secrets
            // can be redacted; one that cannot be decoded is left out, as it might hold some.
            let encoding = response.headers["Content-Encoding"].flatMap { Redaction.isEncoding($0) ? $0 : nil }
            var content: JSONObject = ["mimeType": .string(response.contentType)]
            var body = Data()
            switch redaction.redactedBody(response.body, contentType: response.contentType, contentEncoding: encoding) {
            case let .asSent(redacted):
                body = redacted
                if let encoding, case let .success(decoded) = Inflate.decompress(redacted, contentEncoding: encoding) {
                    body = decoded
                    content["comment"] = .string("decoded from its Content-Encoding \(encoding)")
                }
            case let .decoded(redacted):
                body = redacted
                content["comment"] = .string("decoded from its Content-Encoding \(encoding ?? "")")
            case .withheld:
                content["comment"] = .string(
                    "the body, sent with the Content-Encoding \(encoding ?? ""), which cannot be decoded here, is "
                        + "left out: it might hold secrets"
                )
            }
            content["size"] = .number(JSONNumber(body.count))
            if let text = String(data: body, encoding: .utf8) {
                content["text"] = .string(text)
            } else {
                content["text"] = .string(body.base64EncodedString())
                content["encoding"] = "base64"
            }
            return [
                "status": .number(JSONNumber(response.status)),
                "statusText": .string(response.reason),
                "httpVersion": "HTTP/1.1",
                "cookies": [],
                "headers": headers(response.headers, redaction),
                "content": .object(content),
                "redirectURL": "",
                "headersSize": -1,
                "bodySize": .number(JSONNumber(body.count)),
            ]
        case let .failure(errorName):
            error = errorName
        case let .urlError(code):
            error = URLErrorNames.name(of: code)
        }
        var object: JSONObject = [
            "status": 0, "statusText": "", "httpVersion": "", "cookies": [], "headers": [],
            "content": ["size": 0, "mimeType": ""], "redirectURL": "", "headersSize": -1, "bodySize": -1,
        ]
        if let error { object["_error"] = .string(error) }
        return object
    }

    /// HAR `headers`: `{"name", "value"}` objects, secret values replaced.
    private static func headers(_ headers: HeaderFields, _ redaction: Redaction) -> JSONValue {
        .array(
            headers.map { field in
                ["name": .string(field.name), "value": .string(redaction.redactedHeader(field.name, field.value))]
            }
        )
    }
}
