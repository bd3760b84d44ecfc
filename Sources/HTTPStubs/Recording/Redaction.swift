/// Which secrets are replaced before recorded traffic is written to disk.
///
/// By default the values of the `Authorization`, `Proxy-Authorization`, `Cookie` and `Set-Cookie`
/// headers, and of query parameters and JSON members named like credentials (`token`, `password`,
/// `api_key`, …), never reach disk: they are written as ``placeholder``. Recorded stubs still match
/// later requests, whatever secret those carry. Opting out is explicit: ``none``.
public struct Redaction: Sendable, Hashable {
    /// What a redacted value is written as.
    public static let placeholder = "REDACTED"

    /// Header names (case-insensitive) whose values are replaced.
    public var headers: Set<String>
    /// Query parameter names (case-insensitive) whose values are replaced.
    public var queryParameters: Set<String>
    /// JSON member names (case-insensitive), at any depth of request and response bodies, whose values are replaced.
    public var jsonMembers: Set<String>

    /// Creates a redaction.
    public init(headers: Set<String>, queryParameters: Set<String>, jsonMembers: Set<String>) {
        self.headers = Set(headers.map { $0.lowercased() })
        self.queryParameters = Set(queryParameters.map { $0.lowercased() })
        self.jsonMembers = Set(jsonMembers.map { $0.lowercased() })
    }

    /// Credentials in the usual places.
    public static let `default` = Redaction(
        headers: ["authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "x-auth-token"],
        queryParameters: ["token", "access_token", "api_key", "apikey", "key", "password", "secret", "signature", "client_secret"],
        jsonMembers: ["token", "access_token", "refresh_token", "id_token", "password", "secret", "client_secret", "api_key", "apikey"]
    )

    /// Nothing is redacted: recordings keep every secret. Use only for traffic without any.
    public static let none = Redaction(headers: [], queryParameters: [], jsonMembers: [])

    /// This redaction with more header, query parameter and JSON member names.
    public func adding(headers: Set<String> = [], queryParameters: Set<String> = [], jsonMembers: Set<String> = []) -> Redaction {
        Redaction(headers: self.headers.union(headers), queryParameters: self.queryParameters.union(queryParameters), jsonMembers: self.jsonMembers.union(jsonMembers))
    }

    func redactsHeader(_ name: String) -> Bool { headers.contains(name.lowercased()) }
    func redactsQuery(_ name: String) -> Bool { queryParameters.contains(name.lowercased()) }

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
