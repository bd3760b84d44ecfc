import Foundation
import HTTPStubs

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
/// The model is lazy: it is the backing of a lazy ``TemplateObject``, and builds a field when a
/// template first reads it (then keeps it for the rest of the render), so a template reading
/// `request.path.[1]` does not pay for the headers, cookies, query or base64 body. Printing or
/// iterating the whole map builds every field, in WireMock's order.
///
/// `@unchecked Sendable`, invariant: a model is made by ``context(for:environment:parameters:includeID:)``
/// for one render, and only the thread running that render reaches it (a render runs on one
/// thread, and returns text: nothing made from the context outlives it), so the kept fields are
/// never touched by two threads.
final class TemplateRequestModel: @unchecked Sendable {
    /// The keys of the map, in WireMock's order: each of which ``value(of:)`` answers.
    let keys: [String]
    private let request: InterceptedRequest
    private let pathTemplate: URITemplate?
    /// `request.id`, drawn when the model is made (before any helper draws) when the template may
    /// read it.
    private let id: String?

    // The fields built so far, each the first time it is read.
    private var path: TemplateValue?
    private var query: TemplateValue?
    private var baseURL: TemplateValue?
    private var headers: TemplateValue?
    private var cookies: TemplateValue?
    private var body: TemplateValue?
    private var bodyAsBase64: TemplateValue?
    private var parts: TemplateValue?
    /// `request.requestLine`: a model of the same request with the request line's keys.
    private var requestLine: TemplateRequestModel?

    /// The keys of `request.requestLine`, in WireMock's order.
    private static let requestLineKeys = [
        "method", "scheme", "host", "port", "baseUrl", "path", "pathSegments", "query", "url",
    ]

    private init(_ request: InterceptedRequest, keys: [String], pathTemplate: URITemplate?, id: String?) {
        self.request = request
        self.keys = keys
        self.pathTemplate = pathTemplate
        self.id = id
    }

    /// The root context of a template: `{request: …, parameters: …}`; `includeID` draws
    /// `request.id` (16 random numbers: left out when the template cannot read it).
    static func context(
        for request: InterceptedRequest,
        environment: TemplateEnvironment,
        parameters: TemplateObject = TemplateObject(),
        includeID: Bool = true
    ) -> TemplateValue {
        let body = request.body.map { !$0.isEmpty } ?? false
        let model = TemplateRequestModel(
            request,
            keys: keys[(includeID ? 2 : 0) + (body ? 1 : 0)],
            pathTemplate: environment.pathTemplate,
            id: includeID ? uuid(environment.random) : nil
        )
        return .object(
            TemplateObject([("request", .object(TemplateObject(lazy: model))), ("parameters", .object(parameters))])
        )
    }

    /// The keys of the `request` map, in WireMock's order, made once: `id` when it is drawn (the
    /// last two lists), `body` and `bodyAsBase64` when there is a body (the odd ones).
    private static let keys: [[String]] = [false, true].flatMap { id in
        [false, true].map { body in
            ["url", "path", "pathSegments", "query", "method", "scheme", "host", "port", "baseUrl", "headers"]
                + ["cookies", "clientIp"] + (id ? ["id"] : []) + (body ? ["body", "bodyAsBase64"] : [])
                + ["multipart", "parts", "requestLine"]
        }
    }

    /// The field `key` of the map, built the first time it is read; `nil` for a key the map does
    /// not have.
    func value(of key: String) -> TemplateValue? {
        // The fields templates read most come first: a switch on strings compares them in order.
        switch key {
        case "body", "bodyAsBase64":
            guard let data = request.body, !data.isEmpty else { return nil }
            if key == "bodyAsBase64" { return kept(&bodyAsBase64) { .safe(data.base64EncodedString()) } }
            return kept(&body) { .string(self.request.bodyText ?? String(bytes: data, encoding: .isoLatin1) ?? "") }
        case "path", "pathSegments": return kept(&path, buildPath)
        case "url": return .string(request.pathAndQuery)
        case "query": return kept(&query, buildQuery)
        case "method": return .javaObject(TemplateJavaObject(printed: request.method.rawValue))
        case "scheme": return .string(scheme)
        case "host": return .string(request.host)
        case "port": return .integer(port)
        case "baseUrl": return kept(&baseURL, buildBaseURL)
        case "headers": return kept(&headers, buildHeaders)
        case "cookies": return kept(&cookies, buildCookies)
        case "clientIp": return .string("127.0.0.1")
        case "id": return id.map(TemplateValue.string)
        case "multipart": return .bool(Self.isMultipart(request))
        case "parts": return kept(&parts, buildParts)
        case "requestLine":
            if requestLine == nil {
                requestLine = TemplateRequestModel(
                    request,
                    keys: Self.requestLineKeys,
                    pathTemplate: pathTemplate,
                    id: nil
                )
            }
            return requestLine.map { .object(TemplateObject(lazy: $0)) }
        default: return nil
        }
    }

    /// The field in `field`, built by `build` and kept there the first time it is asked for.
    private func kept(_ field: inout TemplateValue?, _ build: () -> TemplateValue) -> TemplateValue {
        if let kept = field { return kept }
        let value = build()
        field = value
        return value
    }

    private var scheme: String { request.scheme.isEmpty ? "http" : request.scheme }

    private var port: Int { request.port ?? (scheme == "https" ? 443 : 80) }

    private func buildBaseURL() -> TemplateValue {
        let defaultPort = scheme == "https" ? 443 : 80
        return .string("\(scheme)://\(request.host)" + (port == defaultPort ? "" : ":\(port)"))
    }

    /// `request.path`: the decoded path, a list of its decoded segments, with the path template's
    /// named variables.
    private func buildPath() -> TemplateValue {
        let path = request.path
        // An ASCII path (as URLs are) splits on its bytes, sparing the grapheme breaking of
        // `String.split`; they cut in the same places.
        let segments =
            Self.asciiSegments(of: path) ?? path.split(separator: "/").map { TemplateValue.string(Self.decoded($0)) }
        var named = TemplateObject()
        let parameters = pathTemplate?.match(path) ?? request.pathParameters
        for name in pathTemplate?.variables ?? parameters.keys.sorted() {
            if let value = parameters[name] { named[name] = .string(value) }
        }
        return .javaObject(
            TemplateJavaObject(printed: Self.decoded(path), items: segments, properties: named)
        )
    }

    /// The non-empty segments between the `/`s of `path`, decoded; `nil` when the path is not
    /// ASCII. One pass over the bytes finds the separators and whether anything needs decoding.
    private static func asciiSegments(of path: String) -> [TemplateValue]? {
        var path = path
        return path.withUTF8 { bytes -> [TemplateValue]? in
            var slashes = 0
            var escaped = false
            for byte in bytes {
                if byte >= 0x80 { return nil }
                if byte == UInt8(ascii: "/") { slashes += 1 }
                if byte == UInt8(ascii: "%") { escaped = true }
            }
            var segments: [TemplateValue] = []
            segments.reserveCapacity(slashes + 1)
            forEachSegment(of: bytes) { segment in
                let text = String(decoding: segment, as: UTF8.self)
                segments.append(.string(escaped ? decoded(text) : text))
                return true
            }
            return segments
        }
    }

    /// Calls `body` with each non-empty run of bytes between the `/`s of an ASCII path, in order,
    /// until it returns `false`: how `request.path` splits into its segments.
    static func forEachSegment(of path: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> Bool) {
        var start = 0
        for index in 0...path.count where index == path.count || path[index] == UInt8(ascii: "/") {
            defer { start = index + 1 }
            guard index > start else { continue }
            guard body(UnsafeBufferPointer(rebasing: path[start..<index])) else { return }
        }
    }

    /// `text` with its percent-escapes decoded; as written when they do not decode.
    static func decoded(_ text: some StringProtocol) -> String {
        PercentDecoding.decode(text) ?? String(text)
    }

    /// Whether WireMock 3 takes the request for multipart: its `Content-Type` starts with
    /// `multipart/` (ignoring case and leading blanks).
    private static func isMultipart(_ request: InterceptedRequest) -> Bool {
        guard let contentType = request.header("Content-Type") else { return false }
        return contentType.drop { $0 == " " || $0 == "\t" }.lowercased().hasPrefix("multipart/")
    }

    /// WireMock 3's `request.parts`: each part by its name (`multipart/related` parts without one
    /// are `part-0`, `part-1`, …), in the order of the Java `HashMap` WireMock collects them in
    /// (a repeated name keeps its first part); empty when the request is not multipart.
    private func buildParts() -> TemplateValue {
        guard Self.isMultipart(request) else { return .object(TemplateObject()) }
        let related = request.header("Content-Type")?.contains("multipart/related") ?? false
        var named: [(key: String, value: TemplateValue)] = []
        var unnamed = 0
        for part in MultipartBody.parts(of: request) {
            var name = Self.partName(part)
            if name == nil, related {
                name = "part-\(unnamed)"
                unnamed += 1
            }
            guard let name, !named.contains(where: { $0.0 == name }) else { continue }
            named.append((name, Self.partModel(part, name: name)))
        }
        return .object(TemplateObject(Self.javaHashMapOrder(named)))
    }

    /// The `name` parameter of a part's `Content-Disposition`.
    private static func partName(_ part: MultipartBody.Part) -> String? {
        guard let disposition = part.headers.values(for: "Content-Disposition").first else { return nil }
        for parameter in disposition.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "name" else {
                continue
            }
            var value = pair[1].trimmingCharacters(in: .whitespaces)
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                value = String(value.dropFirst().dropLast())
            }
            return value
        }
        return nil
    }

    /// WireMock 3's `RequestPartTemplateModel`: `name`, `headers` (names lower-cased as its
    /// multipart parser gives them, read ignoring case, printed sorted), `body`, `bodyAsBase64` and
    /// `binary` (the part's type is not text, JSON, XML, HTML, YAML, CSV or a form); it prints as
    /// `[name='…', headers={…}, body=…]`.
    private static func partModel(_ part: MultipartBody.Part, name: String) -> TemplateValue {
        var names: [String] = []
        var values: [String: [String]] = [:]
        for field in part.headers {
            let key = field.name.lowercased()
            if values[key] == nil { names.append(key) }
            values[key, default: []].append(field.value)
        }
        names.sort()
        let printedHeaders =
            "{" + names.map { "\($0)=\(values[$0]?.first ?? "")" }.joined(separator: ", ") + "}"
        let headers = TemplateValue.javaObject(
            TemplateJavaObject(
                printed: printedHeaders,
                properties: TemplateObject(names.map { ($0, listOrSingle(values[$0] ?? [])) }),
                caseInsensitive: true
            )
        )
        let body = String(decoding: part.body, as: UTF8.self)
        let mimeType = part.headers.values(for: "Content-Type").first.map {
            String($0.prefix { $0 != ";" }).lowercased()
        }
        let textual = ["text", "json", "xml", "html", "yaml", "csv", "x-www-form-urlencoded"]
        let binary = !(mimeType.map { type in textual.contains { type.contains($0) } } ?? false)
        return .javaObject(
            TemplateJavaObject(
                printed: "[name='\(name)', headers=\(printedHeaders), body=\(body)]",
                properties: TemplateObject([
                    ("name", .string(name)), ("headers", headers), ("body", .string(body)),
                    ("bodyAsBase64", .safe(part.body.base64EncodedString())), ("binary", .bool(binary)),
                ])
            )
        )
    }

    /// `entries` in the order a Java `HashMap` of their keys iterates: by bucket of the spread
    /// `String.hashCode` in a table of 16 (doubled while more than three quarters full), then in
    /// insertion order within a bucket.
    private static func javaHashMapOrder(
        _ entries: [(key: String, value: TemplateValue)]
    ) -> [(key: String, value: TemplateValue)] {
        var capacity = 16
        while entries.count > capacity * 3 / 4 { capacity *= 2 }
        func bucket(_ key: String) -> Int {
            var hash: Int32 = 0
            for unit in key.utf16 { hash = hash &* 31 &+ Int32(unit) }
            let bits = UInt32(bitPattern: hash)
            return Int((bits ^ (bits >> 16)) & UInt32(capacity - 1))
        }
        return entries.enumerated().sorted { (bucket($0.element.0), $0.offset) < (bucket($1.element.0), $1.offset) }
            .map(\.element)
    }

    /// A `ListOrSingle` of `values`: prints the first, indexes as a list.
    static func listOrSingle(_ values: [String]) -> TemplateValue {
        .javaObject(TemplateJavaObject(printed: values.first ?? "", items: values.map { .string($0) }))
    }

    private func buildQuery() -> TemplateValue {
        var names: [String] = []
        var values: [String: [String]] = [:]
        for (name, value) in request.queryParameters {
            if values[name] == nil { names.append(name) }
            values[name, default: []].append(value)
        }
        return .object(TemplateObject(names.map { ($0, Self.listOrSingle(values[$0] ?? [])) }))
    }

    private func buildHeaders() -> TemplateValue {
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

    private func buildCookies() -> TemplateValue {
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

    /// A version-4 UUID from `random` (16 draws below 256), lower-case as Java prints it.
    static func uuid(_ random: (Int) -> Int) -> String {
        var bytes = (0..<16).map { _ in UInt8(truncatingIfNeeded: min(max(random(256), 0), 255)) }
        bytes[6] = bytes[6] & 0x0f | 0x40
        bytes[8] = bytes[8] & 0x3f | 0x80
        let hex = bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }
        return hex[0..<4].joined() + "-" + hex[4..<6].joined() + "-" + hex[6..<8].joined() + "-"
            + hex[8..<10].joined() + "-" + hex[10..<16].joined()
    }
}
