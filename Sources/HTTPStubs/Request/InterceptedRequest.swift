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
        storage = Storage(
            method: method,
            url: url,
            parts: URLParts(url),
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
    func sentValues(ofHeader name: String) -> [String] {
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
    /// Creates the stubs' view of a `URLRequest`, with a body read by the caller.
    init(_ request: URLRequest, body: Data?, bodyUnavailableReason: String?) {
        let headers = HeaderFields(of: request)
        self.init(
            method: InterceptedRequest.Method(rawValue: request.httpMethod ?? "GET"),
            url: request.url ?? URL(string: "about:blank")!,
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

/// The parts of a URL that matchers read, split from its text by RFC 3986's generic syntax
/// (`scheme:[//authority]path[?query][#fragment]`), as `URLComponents` splits them but without
/// building one for every request.
private struct URLParts: Sendable {
    let scheme: String
    let host: String
    /// The port as the URL text writes it, when a plain authority (see `colonOfPlainAuthority`) tells.
    private let writtenPort: WrittenPort
    let path: String
    let pathAndQuery: String
    let queryParameters: [(name: String, value: String)]

    init(_ url: URL) {
        var text = url.absoluteString
        let plainHost: String?
        (scheme, plainHost, writtenPort, path, pathAndQuery, queryParameters) = text.withUTF8 { bytes in
            var start = 0
            var scheme = ""
            var host: String?
            var port = WrittenPort.askURL
            if let colon = bytes.firstIndex(of: UInt8(ascii: ":")), Self.isScheme(bytes[..<colon]) {
                scheme = Self.scheme(bytes[..<colon])
                start = colon + 1
                // Compared byte by byte: the generic `starts(with:)` showed in the profile.
                if start + 1 < bytes.count, bytes[start] == UInt8(ascii: "/"), bytes[start + 1] == UInt8(ascii: "/") {
                    let authority = start + 2
                    start =
                        bytes[authority...].firstIndex {
                            $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#")
                        } ?? bytes.endIndex
                    var needsLowercasing = false
                    if let colon = Self.colonOfPlainAuthority(
                        bytes[authority..<start],
                        needsLowercasing: &needsLowercasing
                    ) {
                        let hostEnd = colon ?? start
                        if hostEnd > authority {
                            let hostBytes = bytes[authority..<hostEnd]
                            host = needsLowercasing ? Self.lowercased(hostBytes) : Self.string(hostBytes)
                            port = colon.map { Self.port(bytes[($0 + 1)..<start]) } ?? .absent
                        }
                    }
                }
            }
            let fragment = bytes[start...].firstIndex(of: UInt8(ascii: "#")) ?? bytes.endIndex
            let question = bytes[start..<fragment].firstIndex(of: UInt8(ascii: "?"))
            let pathEnd = question ?? fragment
            let path = pathEnd > start ? Self.string(bytes[start..<pathEnd]) : "/"
            guard let question else { return (scheme, host, port, path, path, []) }
            let query = Self.string(bytes[(question + 1)..<fragment])
            return (scheme, host, port, path, "\(path)?\(query)", FormURLEncoding.decode(query))
        }
        // `URL.host` decodes percent-escapes and unwraps IPv6 literals; only such hosts need it.
        host = plainHost ?? url.host?.lowercased() ?? ""
    }

    /// What the URL text says about the port.
    private enum WrittenPort: Sendable {
        /// No port: the authority has no colon, or nothing after it.
        case absent
        case number(Int)
        /// Only `URL.port` can tell.
        case askURL
    }

    /// The port the URL writes, if any.
    func port(of url: URL) -> Int? {
        switch writtenPort {
        case .absent: nil
        case let .number(port): port
        case .askURL: url.port
        }
    }

    private static func string(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes), as: UTF8.self)
    }

    /// The scheme, lower-cased: `http` and `https`, as almost every request writes them, are the
    /// literals themselves, without building (and checking) a string from the bytes.
    private static func scheme(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> String {
        let start = bytes.startIndex
        if bytes.count >= 4, bytes.count <= 5, bytes[start] == UInt8(ascii: "h"), bytes[start + 1] == UInt8(ascii: "t"),
            bytes[start + 2] == UInt8(ascii: "t"), bytes[start + 3] == UInt8(ascii: "p")
        {
            if bytes.count == 4 { return "http" }
            if bytes[start + 4] == UInt8(ascii: "s") { return "https" }
        }
        return lowercased(bytes)
    }

    /// The bytes as a string, lower-cased: ASCII letters by hand, anything else by `lowercased()`.
    private static func lowercased(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> String {
        if bytes.allSatisfy({ $0 < 0x80 && !Self.isUpperCaseLetter($0) }) {
            return string(bytes)
        }
        if bytes.allSatisfy({ $0 < 0x80 }) {
            return String(
                decoding: bytes.map { Self.isUpperCaseLetter($0) ? $0 | 0x20 : $0 },
                as: UTF8.self
            )
        }
        return string(bytes).lowercased()
    }

    /// Where the first colon of an authority made of a registered name or IPv4 address and maybe a
    /// port is (`.some(nil)` without one); `nil` for any other authority (user information, an IPv6
    /// literal or a percent-escape). An empty host (`http://:80`) is the caller's to refuse.
    /// `needsLowercasing` is set when the authority has an upper-case ASCII letter or a non-ASCII
    /// byte, so that most hosts become strings without a second look at their bytes. One pass, by
    /// hand: the generic `contains(where:)`, `firstIndex(of:)` and `allSatisfy` it replaces took four.
    private static func colonOfPlainAuthority(
        _ authority: Slice<UnsafeBufferPointer<UInt8>>,
        needsLowercasing: inout Bool
    ) -> Int?? {
        var colon: Int?
        var index = authority.startIndex
        while index < authority.endIndex {
            let byte = authority[index]
            index += 1
            // Lower-case letters (and `{|}~`, DEL), most of a host, need no other test.
            if byte &- UInt8(ascii: "a") < 0x80 - UInt8(ascii: "a") { continue }
            switch byte {
            case UInt8(ascii: "@"), UInt8(ascii: "["), UInt8(ascii: "%"): return .none
            case UInt8(ascii: ":"): if colon == nil { colon = index - 1 }
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), 0x80...: needsLowercasing = true
            default: break
            }
        }
        return .some(colon)
    }

    /// The port written after an authority's colon: none when nothing follows it, the number when
    /// 1 to 5 digits do; anything else is left to `URL.port`.
    private static func port(_ digits: Slice<UnsafeBufferPointer<UInt8>>) -> WrittenPort {
        if digits.isEmpty { return .absent }
        guard digits.count <= 5, digits.allSatisfy({ ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) }) else {
            return .askURL
        }
        return .number(digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) })
    }

    /// Whether `bytes` spell a scheme: a letter, then letters, digits, `+`, `-` or `.`.
    private static func isScheme(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        guard let first = bytes.first, Self.isLetter(first) else { return false }
        return bytes.dropFirst().allSatisfy { byte in
            isLetter(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
        }
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
    }

    /// Whether `byte` is `A` to `Z` (compared by hand: a `ClosedRange` test is not always inlined).
    private static func isUpperCaseLetter(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")
    }
}
