import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension StubRegistry {
    /// The journal as a HAR 1.2 document: one entry per intercepted request, with the response
    /// the caller received, or `status: 0` and an `_error` for requests that got none.
    public func journalAsHAR() -> Data {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let entries: [JSONValue] = journal.map { entry in
            var request: JSONObject = [
                "method": .string(entry.request.method.rawValue),
                "url": .string(entry.request.url.absoluteString),
                "httpVersion": "HTTP/1.1",
                "cookies": [],
                "headers": .array(entry.request.headers.map { ["name": .string($0.name), "value": .string($0.value)] }),
                "queryString": .array(entry.request.queryParameters.map { ["name": .string($0.name), "value": .string($0.value)] }),
                "headersSize": -1,
                "bodySize": .number(JSONNumber(entry.request.body?.count ?? 0)),
            ]
            if let body = entry.request.body, !body.isEmpty {
                request["postData"] = [
                    "mimeType": .string(entry.request.header("Content-Type") ?? "application/octet-stream"),
                    "text": .string(String(data: body, encoding: .utf8) ?? body.base64EncodedString()),
                ]
            }
            var response: JSONObject
            if let recorded = entry.response {
                var content: JSONObject = [
                    "size": .number(JSONNumber(recorded.body.count)),
                    "mimeType": .string(recorded.urlResponse.value(forHTTPHeaderField: "Content-Type") ?? ""),
                ]
                if let text = String(data: recorded.body, encoding: .utf8) {
                    content["text"] = .string(text)
                } else {
                    content["text"] = .string(recorded.body.base64EncodedString())
                    content["encoding"] = "base64"
                }
                response = [
                    "status": .number(JSONNumber(recorded.status)),
                    "statusText": "",
                    "httpVersion": "HTTP/1.1",
                    "cookies": [],
                    "headers": .array(recorded.headers.map { ["name": .string($0.name), "value": .string($0.value)] }),
                    "content": .object(content),
                    "redirectURL": "",
                    "headersSize": -1,
                    "bodySize": .number(JSONNumber(recorded.body.count)),
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
