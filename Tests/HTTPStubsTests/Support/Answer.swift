import Foundation
import Testing

@testable import HTTPStubs
@testable import HTTPStubsFiles
@testable import HTTPStubsLanguages
@testable import HTTPStubsTemplates

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a client received, in a form live and replayed answers can be compared in: status,
/// headers by lower-cased name (without `Content-Length`, which the recorder drops and the replay
/// computes afresh) and body (JSON compared as values, because recorded JSON bodies are
/// pretty-printed; anything else byte for byte).
struct Answer: Equatable, CustomStringConvertible {
    /// The status code.
    let status: Int
    /// The header values by lower-cased name, without `Content-Length` and the server's `X-Served` counter.
    let headers: [String: String]
    /// The body.
    let body: Body

    /// A body.
    enum Body: Equatable {
        /// A JSON object or array.
        case json(JSONValue)
        /// Anything else.
        case bytes(Data)
    }

    /// The answer a completion handler received; throws when it got an error instead.
    init(_ completion: Completion) throws {
        if let error = completion.error { throw error }
        try self.init(data: completion.data ?? Data(), response: try #require(completion.response))
    }

    /// The answer an `async` call returned.
    init(data: Data, response: URLResponse) throws {
        let http = try #require(response as? HTTPURLResponse)
        status = http.statusCode
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            let name = "\(name)".lowercased()
            // The server's request counter differs between the exchanges of a recorded scenario.
            if !["content-length", "x-served", "date"].contains(name) { headers[name] = "\(value)" }
        }
        self.headers = headers
        if let value = try? JSONValue(parsing: data), value.objectValue != nil || value.arrayValue != nil {
            body = .json(value)
        } else {
            body = .bytes(data)
        }
    }

    /// An answer made of these parts.
    private init(status: Int, headers: [String: String], body: Body) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// This answer as a replay of its default-redacted recording gives it: secret headers and JSON
    /// members replaced by `REDACTED`.
    var redacted: Answer {
        let redaction = Redaction.default
        var headers = headers
        for (name, value) in headers {
            headers[name] = redaction.redactedHeader(name, value)
        }
        guard case let .json(value) = body else { return Answer(status: status, headers: headers, body: body) }
        return Answer(status: status, headers: headers, body: .json(Self.redacting(value, redaction)))
    }

    /// `value` with the members `redaction` calls secret, at any depth, replaced by `REDACTED`.
    private static func redacting(_ value: JSONValue, _ redaction: Redaction) -> JSONValue {
        switch value {
        case let .object(object):
            return .object(
                JSONObject(
                    members: object.members.map { member in
                        let secret = redaction.isSecret(member.key, at: .jsonMember)
                        return JSONMember(
                            key: member.key,
                            value: secret ? .string(Redaction.placeholder) : redacting(member.value, redaction)
                        )
                    }
                )
            )
        case let .array(items):
            return .array(items.map { redacting($0, redaction) })
        default:
            return value
        }
    }

    /// `status name: value; … | body`, for failure messages.
    var description: String {
        let bodyText: String
        switch body {
        case let .json(value): bodyText = value.serialized()
        case let .bytes(data): bodyText = String(data: data, encoding: .utf8) ?? "\(data.count) bytes"
        }
        return
            "\(status) \(headers.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: "; ")) | \(bodyText)"
    }
}
