import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A request as the stubs see it: what matchers test, what computed responses read, and what the
/// journal records.
public struct InterceptedRequest: Sendable, CustomStringConvertible {
    /// The fields, shared by copies until one of them changes (copy-on-write): a request is
    /// copied into the journal and into every answer, and a copy is one reference.
    private var storage: Storage

    /// The request method.
    public var method: InterceptedRequest.Method {
        get { storage.method }
        set { writableStorage().method = newValue }
    }
    /// The full request URL.
    public var url: URL {
        get { storage.url }
        set {
            let storage = writableStorage()
            storage.url = newValue
            storage.parts = URLParts(newValue)
        }
    }
    /// The request's own header fields.
    ///
    /// On Linux, `URLSessionConfiguration.httpAdditionalHeaders` never reach a `URLProtocol`, so they
    /// are not here.
    public var headers: HeaderFields {
        get { storage.headers }
        set { writableStorage().headers = newValue }
    }
    /// The request body, or `nil` when the request has none or when it could not be read
    /// (see ``bodyUnavailableReason``).
    public var body: Data? {
        get { storage.body }
        set {
            let storage = writableStorage()
            storage.body = newValue
            storage.decodedBody = DecodedBody.for(newValue)
        }
    }
    /// Why the body could not be read, when the platform hides it; `nil` when ``body`` is accurate.
    public var bodyUnavailableReason: String? {
        get { storage.bodyUnavailableReason }
        set { writableStorage().bodyUnavailableReason = newValue }
    }
    /// Values captured by the URI template of the stub that answers, such as `id` for `/users/{id}`.
    /// Empty while matching.
    public var pathParameters: [String: String] {
        get { storage.pathParameters }
        set { writableStorage().pathParameters = newValue }
    }

    /// Creates a request.
    public init(
        method: InterceptedRequest.Method = .get,
        url: URL,
        headers: HeaderFields = [:],
        body: Data? = nil,
        bodyUnavailableReason: String? = nil,
        pathParameters: [String: String] = [:]
    ) {
        self.init(
            method: method,
            url: url,
            parts: URLParts(url),
            headers: headers,
            body: body,
            bodyUnavailableReason: bodyUnavailableReason,
            pathParameters: pathParameters
        )
    }

    /// Creates a request whose URL is split already.
    private init(
        method: InterceptedRequest.Method,
        url: URL,
        parts: URLParts,
        headers: HeaderFields,
        body: Data?,
        bodyUnavailableReason: String?,
        pathParameters: [String: String] = [:]
    ) {
        storage = Storage(
            method: method,
            url: url,
            parts: parts,
            headers: headers,
            body: body,
            decodedBody: DecodedBody.for(body),
            bodyUnavailableReason: bodyUnavailableReason,
            pathParameters: pathParameters
        )
    }

    /// The storage, first copied if another request shares it.
    private mutating func writableStorage() -> Storage {
        if !isKnownUniquelyReferenced(&storage) {
            storage = storage.copy()
        }
        return storage
    }

    private var parts: URLParts { storage.parts }
    private var decodedBody: DecodedBody? { storage.decodedBody }

    /// The URL's scheme, lower-cased (`https`).
    public var scheme: String { parts.scheme }
    /// The URL's host, lower-cased.
    public var host: String { parts.host }
    /// The URL's port, or the scheme's default port (80 for http, 443 for https).
    public var port: Int? {
        if let port = parts.port(of: url) { return port }
        switch scheme {
        case "http", "ws": return 80
        case "https", "wss": return 443
        default: return nil
        }
    }

    /// The URL's path, still percent-encoded as sent (`/users/42`); `/` when empty.
    public var path: String { parts.path }

    /// The path and query as sent, without scheme and host (`/users?page=2`): what WireMock calls the URL.
    public var pathAndQuery: String { parts.pathAndQuery }

    /// The decoded query parameters in order. `+` decodes to a space, as WireMock decodes it.
    public var queryParameters: [(name: String, value: String)] { parts.queryParameters }

    /// Every decoded value of one query parameter, in order.
    public func queryValues(_ name: String) -> [String] {
        queryParameters.filter { $0.name == name }.map(\.value)
    }

    /// The first value of a header (case-insensitive) as the request is sent, or `nil`. `Host`,
    /// which URLSession adds after the protocol has seen the request, is the URL's host and, when
    /// it is not the scheme's default, its port (`api.example.com`, `localhost:8080`), unless the
    /// request sets its own: what header matchers test too.
    public func header(_ name: String) -> String? {
        sentValues(ofHeader: name).first
    }

    /// Every value of a header (case-insensitive) as the request is sent: those set on the request,
    /// and for `Host`, when the request sets none, the one URLSession sends: the URL's host and,
    /// when it is not the scheme's default, its port (`api.example.com`, `localhost:8080`). Header
    /// matchers test these values, so a stub file that matches `Host` works as against a server.
    package func sentValues(ofHeader name: String) -> [String] {
        let values = headers.values(for: name)
        guard values.isEmpty, name.caseInsensitiveCompare("Host") == .orderedSame, !host.isEmpty else { return values }
        let bracketed = host.contains(":") ? "[\(host)]" : host
        let defaultPort = scheme == "https" || scheme == "wss" ? 443 : (scheme == "http" || scheme == "ws" ? 80 : nil)
        guard let port = parts.port(of: url), port != defaultPort else { return [bracketed] }
        return ["\(bracketed):\(port)"]
    }

    /// The body as UTF-8 text, or `nil` when there is no body or it is not valid UTF-8.
    public var bodyText: String? {
        guard let body else { return nil }
        guard let decodedBody else { return "" }  // an empty body
        return decodedBody.text(of: body)
    }

    /// Decodes the JSON body.
    public func decodeJSON<Value: Decodable>(
        _ type: Value.Type = Value.self,
        decoder: JSONDecoder = JSONDecoder()
    ) throws -> Value {
        try decoder.decode(Value.self, from: body ?? Data())
    }

    /// `METHOD URL`.
    public var description: String { "\(method) \(url.absoluteString)" }
}

extension InterceptedRequest {
    /// Creates the stubs' view of a `URLRequest`, with a body read by the caller. With `reads`, a
    /// URL and header fields the same as the request read before are not split and made again.
    init(_ request: URLRequest, body: Data?, bodyUnavailableReason: String?, reads: RequestReadCache? = nil) {
        let url = request.url ?? URL(string: "about:blank")!
        let headerDictionary = request.allHTTPHeaderFields ?? [:]
        let (parts, headers) =
            reads?.read(url, headers: headerDictionary)
            ?? (URLParts(url), HeaderFields(headerDictionary))
        self.init(
            method: InterceptedRequest.Method(rawValue: request.httpMethod ?? "GET"),
            url: url,
            parts: parts,
            headers: headers,
            body: body,
            bodyUnavailableReason: bodyUnavailableReason
        )
    }

    /// The request as a `URLRequest` (method, URL, header fields and body), as it is sent to a
    /// real server or shown to a session delegate.
    var urlRequest: URLRequest {
        var request = URLRequest(url: url)
        request.httpMethod = method.rawValue
        for field in headers {
            request.addValue(field.value, forHTTPHeaderField: field.name)
        }
        request.httpBody = body
        return request
    }
}

/// The fields of a ``InterceptedRequest``.
private final class Storage: @unchecked Sendable {
    // Invariant (copy-on-write): fields are only written through `InterceptedRequest.writableStorage()`,
    // that is, on a storage no other request shares. A storage is never written while several
    // requests, and so several threads, can see it.
    var method: InterceptedRequest.Method
    var url: URL
    /// The parts of `url` matchers read, computed once per URL rather than on every match attempt.
    var parts: URLParts
    var headers: HeaderFields
    var body: Data?
    /// `body` decoded as UTF-8, computed once however many matchers read it; `nil` without a
    /// body to decode (no allocation for the many requests that have none).
    var decodedBody: DecodedBody?
    var bodyUnavailableReason: String?
    var pathParameters: [String: String]

    init(
        method: InterceptedRequest.Method,
        url: URL,
        parts: URLParts,
        headers: HeaderFields,
        body: Data?,
        decodedBody: DecodedBody?,
        bodyUnavailableReason: String?,
        pathParameters: [String: String]
    ) {
        self.method = method
        self.url = url
        self.parts = parts
        self.headers = headers
        self.body = body
        self.decodedBody = decodedBody
        self.bodyUnavailableReason = bodyUnavailableReason
        self.pathParameters = pathParameters
    }

    func copy() -> Storage {
        Storage(
            method: method,
            url: url,
            parts: parts,
            headers: headers,
            body: body,
            decodedBody: decodedBody,
            bodyUnavailableReason: bodyUnavailableReason,
            pathParameters: pathParameters
        )
    }
}

/// The UTF-8 decoding of a body, computed on first use and shared by the copies of a request (a
/// new one is made whenever the body changes).
private final class DecodedBody: @unchecked Sendable {
    // Invariant: `decoded` is only touched while `lock` is held; it is only ever set to the decoding
    // of the one body this instance belongs to.
    private let lock = NSLock()
    private var decoded: String??

    /// A cache for `body`, or `nil` when there is nothing to decode (no body, or an empty one).
    static func `for`(_ body: Data?) -> DecodedBody? {
        guard let body, !body.isEmpty else { return nil }
        return DecodedBody()
    }

    func text(of body: Data) -> String? {
        lock.lock()
        defer { lock.unlock() }
        if let decoded { return decoded }
        let text = String(data: body, encoding: .utf8)
        decoded = .some(text)
        return text
    }
}
