import Foundation
import HTTPStubs
import HTTPStubsFiles

/// What `stubs match` prints of an answer's secrets: masked as near-miss reports mask them
/// (`<redacted:1a2b3c>`: secret headers, secret values in the body, and every value the request
/// carried that is secret, wherever it shows), or, with `--keep-secrets`, the answer as the stub
/// gives it.
struct AnswerMasking {
    /// Whether secrets are printed as they are.
    let keepsSecrets: Bool

    /// The response with its headers and body masked.
    func masked(_ response: StubbedHTTPResponse) -> (headers: HeaderFields, body: Data) {
        guard !keepsSecrets else { return (response.headers, response.body) }
        var headers = HeaderFields()
        for field in response.headers {
            headers.add(field.name, LogMasking.header(field.name, field.value))
        }
        return (headers, LogMasking.body(response.body, contentType: response.headers["Content-Type"]))
    }

    /// `text`, printed for `request`, with the request's secrets masked wherever they show.
    func masked(_ text: String, for request: InterceptedRequest) -> String {
        guard !keepsSecrets else { return text }
        return LogMasking.masking(LogMasking.secrets(of: request)) { LogMasking.maskingSecrets(text) }
    }
}

/// The JSON line `stubs match --requests` prints for an answer.
enum AnswerJSON {
    static func line(for answer: StubAnswer, to request: InterceptedRequest, masking: AnswerMasking) -> String {
        var object = JSONObject()
        switch answer {
        case let .response(response, stub):
            let (shownHeaders, body) = masking.masked(response)
            object["status"] = .number(JSONNumber(response.status))
            var headers = JSONObject()
            for (name, value) in shownHeaders.folded.sorted(by: { $0.key < $1.key }) {
                headers[name] = .string(value)
            }
            object["headers"] = .object(headers)
            if let text = String(data: body, encoding: .utf8) {
                object["body"] = .string(text)
            } else {
                object["bodyBase64"] = .string(body.base64EncodedString())
            }
            object["stub"] = .string(stub.source.description)
        case let .failure(error, stub):
            var details = JSONObject()
            details["code"] = .number(JSONNumber((error as? URLError)?.code.rawValue ?? (error as NSError).code))
            details["description"] = .string((error as? URLError)?.localizedDescription ?? "\(error)")
            object["error"] = .object(details)
            object["stub"] = .string(stub.source.description)
        case let .unmatched(report):
            object["unmatched"] = true
            object["message"] = .string(report.text)
            object["nearMisses"] = .array(
                report.nearMisses.map { miss in
                    var near = JSONObject()
                    near["stub"] = .string(report.masking(miss.stub.source.description))
                    if let name = miss.stub.name { near["name"] = .string(report.masking(name)) }
                    near["distance"] = .number(JSONNumber((miss.distance * 10_000).rounded() / 10_000) ?? JSONNumber(1))
                    near["pattern"] = .string(miss.pattern)
                    near["mismatches"] = .array(
                        miss.rows.filter { !$0.verdict.isMatch }.map { .string($0.explanation) }
                            + miss.notes.map { .string($0) }
                    )
                    return .object(near)
                }
            )
        }
        return masking.masked(JSONValue.object(object).serialized(), for: request)
    }
}

/// What `stubs match METHOD URL` prints: the answer like `curl -i`, then the stub's source.
enum AnswerText {
    static func text(for answer: StubAnswer, to request: InterceptedRequest, masking: AnswerMasking) -> String {
        switch answer {
        case let .response(response, stub):
            let (headers, body) = masking.masked(response)
            var text = "HTTP/1.1 \(response.status) \(response.reason ?? reasonPhrase(response.status))\n"
            for field in headers {
                text += "\(field.name): \(field.value)\n"
            }
            text += "\n"
            if let body = String(data: body, encoding: .utf8) {
                text += body.hasSuffix("\n") || body.isEmpty ? body : body + "\n"
            } else {
                text += "(\(body.count) bytes of binary data)\n"
            }
            if response.delay > .zero {
                text += "\n(after a delay of \(response.delay))\n"
            }
            return masking.masked(text + "\n(answered by \(stub))\n", for: request)
        case let .failure(error, stub):
            let code = (error as? URLError).map { "URLError \($0.code.rawValue)" } ?? "\(type(of: error))"
            return
                "The stub fails the request with \(code): "
                + "\((error as? URLError)?.localizedDescription ?? "\(error)")\n\n(answered by \(stub))\n"
        case let .unmatched(report):
            return report.text + "\n"
        }
    }

    /// The standard reason phrase of common status codes.
    static func reasonPhrase(_ status: Int) -> String {
        let phrases = [
            100: "Continue", 200: "OK", 201: "Created", 202: "Accepted", 204: "No Content", 206: "Partial Content",
            301: "Moved Permanently", 302: "Found", 303: "See Other", 304: "Not Modified", 307: "Temporary Redirect",
            308: "Permanent Redirect", 400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found",
            405: "Method Not Allowed", 409: "Conflict", 410: "Gone", 415: "Unsupported Media Type", 418: "I'm a teapot",
            422: "Unprocessable Entity", 429: "Too Many Requests", 500: "Internal Server Error", 501: "Not Implemented",
            502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Timeout",
        ]
        return phrases[status] ?? ""
    }
}
