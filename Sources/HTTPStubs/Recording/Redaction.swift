import Foundation

/// Which secrets are replaced before recorded traffic is written to disk, by recording
/// (``StubRegistry/replay(_:relativeTo:mode:redaction:)``) and by the HAR export
/// (``StubRegistry/journalAsHAR(redaction:)``).
///
/// By default the values of the `Authorization`, `Proxy-Authorization`, `Cookie` and `Set-Cookie`
/// headers, and of query parameters, JSON members and `application/x-www-form-urlencoded` form
/// fields named like credentials (`token`, `password`, `api_key`, `refresh_token`, …), never reach
/// disk: they are written as ``placeholder``. Recorded stubs still match later requests, whatever
/// secret those carry. Opting out is explicit: ``none``.
public struct Redaction: Sendable, Hashable {
    /// What a redacted value is written as.
    public static let placeholder = "REDACTED"

    /// Header names (case-insensitive) whose values are replaced.
    public var headers: Set<String>
    /// Query parameter names (case-insensitive) whose values are replaced.
    public var queryParameters: Set<String>
    /// JSON member names (case-insensitive), at any depth of request and response bodies, whose values are replaced.
    public var jsonMembers: Set<String>
    /// Field names (case-insensitive) of `application/x-www-form-urlencoded` request and response
    /// bodies whose values are replaced.
    public var formFields: Set<String>

    /// Creates a redaction.
    public init(headers: Set<String>, queryParameters: Set<String>, jsonMembers: Set<String>, formFields: Set<String>) {
        self.headers = Set(headers.map { $0.lowercased() })
        self.queryParameters = Set(queryParameters.map { $0.lowercased() })
        self.jsonMembers = Set(jsonMembers.map { $0.lowercased() })
        self.formFields = Set(formFields.map { $0.lowercased() })
    }

    /// Credentials in the usual places.
    public static let `default` = Redaction(
        headers: ["authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "x-auth-token"],
        queryParameters: ["token", "access_token", "api_key", "apikey", "key", "password", "secret", "signature", "client_secret"],
        jsonMembers: ["token", "access_token", "refresh_token", "id_token", "password", "secret", "client_secret", "api_key", "apikey"],
        formFields: [
            "token", "access_token", "refresh_token", "id_token", "password", "secret", "client_secret", "api_key", "apikey",
            "client_assertion", "assertion",
        ]
    )

    /// Nothing is redacted: recordings keep every secret. Use only for traffic without any.
    public static let none = Redaction(headers: [], queryParameters: [], jsonMembers: [], formFields: [])

    /// This redaction with more header, query parameter, JSON member and form field names.
    public func adding(headers: Set<String> = [], queryParameters: Set<String> = [], jsonMembers: Set<String> = [], formFields: Set<String> = []) -> Redaction {
        Redaction(
            headers: self.headers.union(headers),
            queryParameters: self.queryParameters.union(queryParameters),
            jsonMembers: self.jsonMembers.union(jsonMembers),
            formFields: self.formFields.union(formFields)
        )
    }

    func redactsHeader(_ name: String) -> Bool { headers.contains(name.lowercased()) }
    func redactsQuery(_ name: String) -> Bool { queryParameters.contains(name.lowercased()) }

    /// A header's value as it may be written: replaced when the header is secret; for a URL-valued
    /// header (`Location`, `Content-Location`), with its secret query parameters replaced, as in a
    /// request URL (an OAuth redirect carries its code and tokens there).
    func redactedHeader(_ name: String, _ value: String) -> String {
        if redactsHeader(name) { return Self.placeholder }
        guard ["location", "content-location"].contains(name.lowercased()), value.contains("?"),
              let url = URL(string: value) else { return value }
        return redactedURL(url).absoluteString
    }

    /// `url` with the values of the query parameters this redaction names replaced; the rest of the
    /// URL is kept exactly as written.
    func redactedURL(_ url: URL) -> URL {
        guard !queryParameters.isEmpty,
              var components = URLComponents(url: url, resolvingAgainstBaseURL: false),
              let items = components.percentEncodedQueryItems else { return url }
        components.percentEncodedQueryItems = items.map { item in
            redactsQuery(item.name.removingPercentEncoding ?? item.name) ? URLQueryItem(name: item.name, value: Self.placeholder) : item
        }
        return components.url ?? url
    }

    /// A request or response body as it may be written: a JSON object or array with its secret
    /// members replaced, a form body (see ``isForm(_:)``) with its secret fields replaced, and
    /// anything else unchanged.
    func redactedBody(_ body: Data, contentType: String?) -> Data {
        guard let text = String(data: body, encoding: .utf8) else { return body }
        if let value = try? JSONValue(parsing: text), value.objectValue != nil || value.arrayValue != nil {
            let redactedValue = redactingJSON(value)
            return redactedValue == value ? body : Data(redactedValue.serialized().utf8)
        }
        guard Self.isForm(contentType) else { return body }
        let redacted = redactedForm(text)
        return redacted == text ? body : Data(redacted.utf8)
    }

    /// Whether a body with this `Content-Type` is `application/x-www-form-urlencoded`: when it says
    /// so, or when there is none, because URLSession sends a body without one as a form.
    static func isForm(_ contentType: String?) -> Bool {
        guard let contentType else { return true }
        let mediaType = contentType.split(separator: ";", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        return mediaType.lowercased() == "application/x-www-form-urlencoded"
    }

    /// Form text (`a=1&password=x`) with the values of the fields this redaction names replaced;
    /// every other field is kept exactly as written.
    private func redactedForm(_ text: String) -> String {
        guard !formFields.isEmpty else { return text }
        return text.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            let name = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)[0]
            return formFields.contains(FormURLEncoding.unescape(name).lowercased()) ? "\(name)=\(Self.placeholder)" : String(pair)
        }.joined(separator: "&")
    }

    /// `value` with every JSON member this redaction names replaced by the placeholder.
    func redactingJSON(_ value: JSONValue) -> JSONValue {
        switch value {
        case let .object(object):
            var redacted = JSONObject()
            for member in object.members {
                redacted.members.append(JSONMember(
                    key: member.key,
                    value: jsonMembers.contains(member.key.lowercased()) ? .string(Self.placeholder) : redactingJSON(member.value)
                ))
            }
            return .object(redacted)
        case let .array(items):
            return .array(items.map(redactingJSON))
        default:
            return value
        }
    }
}
