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
enum TemplateRequestModel {
    /// The root context of a template: `{request: …, parameters: …}`.
    static func context(
        for request: InterceptedRequest,
        environment: TemplateEnvironment,
        parameters: TemplateObject = TemplateObject(),
        includeID: Bool = true
    ) -> TemplateValue {
        .object(
            TemplateObject([
                ("request", .object(model(of: request, environment: environment, includeID: includeID))),
                ("parameters", .object(parameters)),
            ])
        )
    }

    /// The `request` map; `includeID` draws `request.id` (16 random numbers: left out when the
    /// template cannot read it).
    static func model(
        of request: InterceptedRequest,
        environment: TemplateEnvironment,
        includeID: Bool = true
    ) -> TemplateObject {
        let url = request.pathAndQuery
        let decodedPath = request.path.removingPercentEncoding ?? request.path
        let segments = request.path.split(separator: "/").map { segment -> TemplateValue in
            .string(String(segment).removingPercentEncoding ?? String(segment))
        }
        var named = TemplateObject()
        let parameters = environment.pathTemplate?.match(request.path) ?? request.pathParameters
        for name in environment.pathTemplate?.variables ?? parameters.keys.sorted() {
            if let value = parameters[name] { named[name] = .string(value) }
        }
        let path = TemplateValue.javaObject(
            TemplateJavaObject(printed: decodedPath, items: segments, properties: named)
        )
        let scheme = request.scheme.isEmpty ? "http" : request.scheme
        let port = request.port ?? (scheme == "https" ? 443 : 80)
        let defaultPort = scheme == "https" ? 443 : 80
        let baseURL = "\(scheme)://\(request.host)" + (port == defaultPort ? "" : ":\(port)")
        let method = TemplateValue.javaObject(TemplateJavaObject(printed: request.method.rawValue))
        let query = queryModel(request)
        var model = TemplateObject([
            ("url", .string(url)),
            ("path", path),
            ("pathSegments", path),
            ("query", query),
            ("method", method),
            ("scheme", .string(scheme)),
            ("host", .string(request.host)),
            ("port", .integer(port)),
            ("baseUrl", .string(baseURL)),
            ("headers", headersModel(request)),
            ("cookies", cookiesModel(request)),
            ("clientIp", .string("127.0.0.1")),
        ])
        if includeID { model["id"] = .string(uuid(environment.random)) }
        if let body = request.body, !body.isEmpty {
            model["body"] = .string(request.bodyText ?? String(bytes: body, encoding: .isoLatin1) ?? "")
            model["bodyAsBase64"] = .safe(body.base64EncodedString())
        }
        model["requestLine"] = .object(
            TemplateObject([
                ("method", method), ("scheme", .string(scheme)), ("host", .string(request.host)),
                ("port", .integer(port)), ("baseUrl", .string(baseURL)), ("path", path),
                ("pathSegments", path), ("query", query), ("url", .string(url)),
            ])
        )
        return model
    }

    /// A `ListOrSingle` of `values`: prints the first, indexes as a list.
    static func listOrSingle(_ values: [String]) -> TemplateValue {
        .javaObject(TemplateJavaObject(printed: values.first ?? "", items: values.map { .string($0) }))
    }

    private static func queryModel(_ request: InterceptedRequest) -> TemplateValue {
        var names: [String] = []
        var values: [String: [String]] = [:]
        for (name, value) in request.queryParameters {
            if values[name] == nil { names.append(name) }
            values[name, default: []].append(value)
        }
        return .object(TemplateObject(names.map { ($0, listOrSingle(values[$0] ?? [])) }))
    }

    private static func headersModel(_ request: InterceptedRequest) -> TemplateValue {
        var names: [String] = []
        var values: [String: [String]] = [:]
        var fields = request.headers.map { ($0.name, $0.value) }
        if !request.headers.contains("Host"), let host = request.header("Host") { fields.insert(("Host", host), at: 0) }
        for (name, value) in fields {
            let key = names.first { $0.caseInsensitiveCompare(name) == .orderedSame } ?? name
            if values[key] == nil { names.append(key) }
            values[key, default: []].append(key.lowercased() == "content-type" ? jettyContentType(value) : value)
        }
        // WireMock keeps headers in a case-insensitive sorted map.
        names.sort { $0.caseInsensitiveCompare($1) == .orderedAscending }
        let properties = TemplateObject(names.map { ($0, listOrSingle(values[$0] ?? [])) })
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

    private static func cookiesModel(_ request: InterceptedRequest) -> TemplateValue {
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
        return .object(TemplateObject(names.map { ($0, listOrSingle(values[$0] ?? [])) }))
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
