import Foundation

/// WireMock's request model (`RequestTemplateModel`, `RequestLine`, `UrlPath`, `ListOrSingle`) as a
/// ``TemplateValue``, printing as WireMock prints it:
///
/// - `request.url`: the path and query as sent, not decoded; `request.path`: the decoded path,
///   which is also the list of its non-empty segments (`request.path.[0]`, `#each`, `size`), and
///   with a path template (WireMock 3) carries the named variables (`request.path.contactId`);
///   `request.pathSegments`: the same segments.
/// - `request.query.x`, `request.headers.X` (names case-insensitive), `request.cookies.c`: lists
///   that print as their first value and index as lists (`.[1]`); `eq` with a string is false.
/// - `request.method`: the method, an enum in WireMock (so `eq` with a string is false too).
/// - `request.scheme`, `host`, `port` (the scheme's default without one), `baseUrl` (no port when
///   it is the scheme's default), `body` (missing when empty), and WireMock 3's `bodyAsBase64`,
///   `clientIp` (`127.0.0.1`: the stubs answer in-process) and `id` (a random UUID from the
///   environment's random source).
/// - `request.requestLine`: `method`, `scheme`, `host`, `port`, `baseUrl`, `path`,
///   `pathSegments`, `query`, `url`.
///
/// The model is lazy: a field is built when a template first reads it (then kept for the rest of
/// the render), so a template reading `request.path.[1]` does not pay for the headers, cookies,
/// query or base64 body. Printing or iterating the whole map builds every field, in WireMock's order.
final class TemplateRequestModel: Sendable {
    private let request: InterceptedRequest
    private let pathTemplate: URITemplate?
    /// `request.id`, drawn when the model is made (before any helper draws) when the template may
    /// read it.
    private let id: String?
    /// The fields built so far, by key.
    private let built = Locked<[String: TemplateValue]>([:])

    /// The keys of `request.requestLine`, in WireMock's order.
    private static let requestLineKeys = [
        "method", "scheme", "host", "port", "baseUrl", "path", "pathSegments", "query", "url",
    ]

    private init(_ request: InterceptedRequest, environment: TemplateEnvironment, includeID: Bool) {
        self.request = request
        self.pathTemplate = environment.pathTemplate
        self.id = includeID ? Self.uuid(environment.random) : nil
    }

    /// The root context of a template: `{request: …, parameters: …}`; `includeID` draws
    /// `request.id` (16 random numbers: left out when the template cannot read it).
    static func context(
        for request: InterceptedRequest,
        environment: TemplateEnvironment,
        parameters: TemplateObject = TemplateObject(),
        includeID: Bool = true
    ) -> TemplateValue {
        let model = TemplateRequestModel(request, environment: environment, includeID: includeID)
        return .object(
            TemplateObject([
                ("request", .object(TemplateObject(lazy: TemplateLazyObject(keys: model.keys, value: model.field)))),
                ("parameters", .object(parameters)),
            ])
        )
    }

    /// The keys of the `request` map, in WireMock's order: `id` when it was drawn, `body` and
    /// `bodyAsBase64` when there is a body.
    private var keys: [String] {
        let body = request.body.map { !$0.isEmpty } ?? false
        return Self.keys[(id == nil ? 0 : 2) + (body ? 1 : 0)]
    }

    /// The four lists ``keys`` chooses from, made once.
    private static let keys: [[String]] = [false, true].flatMap { id in
        [false, true].map { body in
            ["url", "path", "pathSegments", "query", "method", "scheme", "host", "port", "baseUrl", "headers"]
                + ["cookies", "clientIp"] + (id ? ["id"] : []) + (body ? ["body", "bodyAsBase64"] : [])
                + ["requestLine"]
        }
    }

    /// The field `key` of the `request` map, built the first time it is read.
    private func field(_ key: String) -> TemplateValue? {
        switch key {
        case "url": return .string(request.pathAndQuery)
        case "path", "pathSegments": return kept("path", path)
        case "query": return kept(key, query)
        case "method": return .javaObject(TemplateJavaObject(printed: request.method.rawValue))
        case "scheme": return .string(scheme)
        case "host": return .string(request.host)
        case "port": return .integer(port)
        case "baseUrl": return kept(key, baseURL)
        case "headers": return kept(key, headers)
        case "cookies": return kept(key, cookies)
        case "clientIp": return .string("127.0.0.1")
        case "id": return id.map(TemplateValue.string)
        case "body", "bodyAsBase64":
            guard let body = request.body, !body.isEmpty else { return nil }
            if key == "bodyAsBase64" { return kept(key) { .safe(body.base64EncodedString()) } }
            return kept(key) { .string(self.request.bodyText ?? String(bytes: body, encoding: .isoLatin1) ?? "") }
        case "requestLine":
            // Not kept: the map refers to the model, which would then keep itself alive.
            return .object(TemplateObject(lazy: TemplateLazyObject(keys: Self.requestLineKeys, value: self.field)))
        default: return nil
        }
    }

    /// The field `key`, built by `build` the first time it is asked for.
    private func kept(_ key: String, _ build: () -> TemplateValue) -> TemplateValue {
        if let value = built.withLock({ $0[key] }) { return value }
        let value = build()
        built.withLock { $0[key] = value }
        return value
    }

    private var scheme: String { request.scheme.isEmpty ? "http" : request.scheme }

    private var port: Int { request.port ?? (scheme == "https" ? 443 : 80) }

    private func baseURL() -> TemplateValue {
        let defaultPort = scheme == "https" ? 443 : 80
        return .string("\(scheme)://\(request.host)" + (port == defaultPort ? "" : ":\(port)"))
    }

    /// `request.path`: the decoded path, a list of its decoded segments, with the path template's
    /// named variables.
    private func path() -> TemplateValue {
        let path = request.path
        // An ASCII path (as URLs are) splits on its bytes, sparing the grapheme breaking of
        // `String.split`; they cut in the same places.
        let pieces =
            path.utf8.allSatisfy { $0 < 0x80 }
            ? path.utf8.split(separator: UInt8(ascii: "/")).map { Substring($0) } : path.split(separator: "/")
        let segments = pieces.map { TemplateValue.string(Self.decoded($0)) }
        var named = TemplateObject()
        let parameters = pathTemplate?.match(path) ?? request.pathParameters
        for name in pathTemplate?.variables ?? parameters.keys.sorted() {
            if let value = parameters[name] { named[name] = .string(value) }
        }
        return .javaObject(
            TemplateJavaObject(printed: Self.decoded(path), items: segments, properties: named)
        )
    }

    /// `text` with its percent-escapes decoded; as written when it has none, or when they do not
    /// decode (Foundation's `removingPercentEncoding`, which runs through `NSString` on Linux, is
    /// only asked when there is a `%`).
    private static func decoded(_ text: some StringProtocol) -> String {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return String(text) }
        return text.removingPercentEncoding ?? String(text)
    }

    /// A `ListOrSingle` of `values`: prints the first, indexes as a list.
    static func listOrSingle(_ values: [String]) -> TemplateValue {
        .javaObject(TemplateJavaObject(printed: values.first ?? "", items: values.map { .string($0) }))
    }

    private func query() -> TemplateValue {
        var names: [String] = []
        var values: [String: [String]] = [:]
        for (name, value) in request.queryParameters {
            if values[name] == nil { names.append(name) }
            values[name, default: []].append(value)
        }
        return .object(TemplateObject(names.map { ($0, Self.listOrSingle(values[$0] ?? [])) }))
    }

    private func headers() -> TemplateValue {
        var names: [String] = []
        var values: [String: [String]] = [:]
        var fields = request.headers.map { ($0.name, $0.value) }
        if !request.headers.contains("Host"), let host = request.header("Host") { fields.insert(("Host", host), at: 0) }
        for (name, value) in fields {
            let key = names.first { $0.caseInsensitiveCompare(name) == .orderedSame } ?? name
            if values[key] == nil { names.append(key) }
            values[key, default: []].append(key.lowercased() == "content-type" ? Self.jettyContentType(value) : value)
        }
        // WireMock keeps headers in a case-insensitive sorted map.
        names.sort { $0.caseInsensitiveCompare($1) == .orderedAscending }
        let properties = TemplateObject(names.map { ($0, Self.listOrSingle(values[$0] ?? [])) })
        return .javaObject(
            TemplateJavaObject(
                printed: "{" + names.map { "\($0)=\(values[$0]?.first ?? "")" }.joined(separator: ", ") + "}",
                properties: properties,
                caseInsensitive: true
            )
        )
    }

    /// A `Content-Type` as Jetty hands it to WireMock: the charset's value upper-cased.
    private static func jettyContentType(_ value: String) -> String {
        guard let range = value.range(of: "charset=", options: .caseInsensitive) else { return value }
        let rest = value[range.upperBound...]
        let end = rest.firstIndex(of: ";") ?? rest.endIndex
        return value[..<range.upperBound] + rest[..<end].uppercased() + rest[end...]
    }

    private func cookies() -> TemplateValue {
        var names: [String] = []
        var values: [String: [String]] = [:]
        for header in request.headers.values(for: "Cookie") {
            for pair in header.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let name = parts[0].trimmingCharacters(in: .whitespaces)
                guard !name.isEmpty else { continue }
                let value = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : ""
                if values[name] == nil { names.append(name) }
                values[name, default: []].append(value)
            }
        }
        return .object(TemplateObject(names.map { ($0, Self.listOrSingle(values[$0] ?? [])) }))
    }

    /// A version-4 UUID from `random`, lower-case as Java prints it.
    private static func uuid(_ random: (Int) -> Int) -> String {
        var bytes = (0..<16).map { _ in UInt8(truncatingIfNeeded: min(max(random(256), 0), 255)) }
        bytes[6] = bytes[6] & 0x0f | 0x40
        bytes[8] = bytes[8] & 0x3f | 0x80
        let hex = bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }
        return hex[0..<4].joined() + "-" + hex[4..<6].joined() + "-" + hex[6..<8].joined() + "-"
            + hex[8..<10].joined() + "-" + hex[10..<16].joined()
    }
}
