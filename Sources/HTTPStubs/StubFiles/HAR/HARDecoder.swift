import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Reads HAR 1.2 captures (browser exports, Charles, mitmproxy, Insomnia, Polly.JS recordings)
/// into stubs that replay them.
///
/// A request matches an entry on its method, scheme, host, port, percent-encoded path and query,
/// the query compared as a multiset of decoded name/value pairs (order-insensitive, every pair
/// as often as recorded, nothing else). Among entries that tie on all of that, the request body
/// decides only when their bodies differ: then each distinct body gets its own stub (JSON bodies
/// compared semantically, others as exact text); otherwise the body is not looked at.
///
/// Identical requests are answered in recorded order — by `startedDateTime` when every entry has
/// one, else in file order, and by Polly.JS's `_order` where present — and the last answer then
/// repeats. Each distinct request becomes one ``Stub`` with its responses in that order.
///
/// Tolerated deviations: a byte order mark, `status: 0` entries (replayed as a `URLError`, see
/// ``HARReader/urlErrorCode(forBrowserError:)``), empty or odd `httpVersion`, custom `_` fields and
/// Insomnia's `settingEncodeUrl`, `postData` without `text`, Polly.JS's array-valued header values,
/// HTTP/2 pseudo-headers, and bodies on `304` responses.
extension StubFileDecoder {
    /// The stubs that replay the HAR log at `root` (the document's root by default), with every
    /// problem reported as a located diagnostic. Entries with errors are left out.
    func harStubs(at root: JSONPath = .root) -> [Stub] {
        harRecording(at: root).map { request in
            let first = request.exchanges[0]
            let location = self.location(of: first.jsonPath)
            return Stub(
                request.pattern,
                responses: request.exchanges.map(\.outcome.stubResponse),
                afterLast: .repeatLast,
                source: .file(path, index: first.entryIndex, line: location?.line, column: location?.column)
            )
        }
    }

    /// The distinct requests of the HAR log at `root`, in order of first replay, each with its
    /// exchanges in replay order. Problems are reported through the decoder.
    func harRecording(at root: JSONPath = .root) -> [HARDistinctRequest] {
        HARReader(decoder: self).recording(at: root)
    }
}

/// A request that a HAR log recorded at least once, and every exchange that answered it.
struct HARDistinctRequest: Sendable {
    /// The request as first recorded.
    let request: HARRequest
    /// Whether the body tells this request apart from others with the same method, URL and query.
    let matchesBody: Bool
    /// The recorded exchanges, in the order they are replayed; never empty.
    let exchanges: [HARExchange]

    /// What a request must satisfy to be this one.
    var pattern: RequestPattern {
        let recorded = request.stubRequest
        var matchers: [RequestMatcher] = [
            .method(recorded.method),
            .scheme(recorded.scheme),
            .host(.equal(recorded.host)),
        ]
        if let port = recorded.port {
            matchers.append(.port(port))
        }
        matchers.append(.path(.equal(recorded.path)))
        matchers.append(.queryPairs(exactly: recorded.queryParameters))
        if matchesBody {
            switch request.body?.key {
            case let .json(value)?: matchers.append(.body(.json(value)))
            case let .text(text)?: matchers.append(.body(.equal(text)))
            case nil: matchers.append(.body(.absent))
            }
        }
        return RequestPattern(matchers)
    }
}

/// One HAR entry: a request and what answered it.
struct HARExchange: Sendable {
    /// The entry's index in `log.entries`.
    let entryIndex: Int
    /// The entry's JSON path.
    let jsonPath: JSONPath
    /// The request.
    let request: HARRequest
    /// The response, or the failure.
    let outcome: HAROutcome
    /// When the request started, in nanoseconds since 1970, if the entry says.
    let startedAt: Int64?
    /// Polly.JS's `_order`: the index among identical requests.
    let order: Int?
}

/// A recorded request.
struct HARRequest: Sendable {
    /// The URL exactly as recorded (without a fragment).
    let url: String
    /// The method and URL as matchers see them, so the recorded side is normalised exactly as
    /// requests are (lower-cased scheme and host, default port, percent-encoded path, decoded query).
    let stubRequest: StubRequest
    /// The body, when the request had a non-empty one.
    let body: HARBody?

    /// What identifies the request apart from its body: method, scheme, host, port, path and the
    /// query multiset.
    var key: HARRequestKey {
        HARRequestKey(
            method: stubRequest.method.rawValue,
            scheme: stubRequest.scheme,
            host: stubRequest.host,
            port: stubRequest.port,
            path: stubRequest.path,
            query: stubRequest.queryParameters.map { HARQueryPair(name: $0.name, value: $0.value) }.sorted()
        )
    }
}

/// The parts of a request that must agree for a recorded entry to answer it, body aside.
struct HARRequestKey: Hashable, Sendable {
    /// The upper-cased method.
    let method: String
    /// The lower-cased scheme.
    let scheme: String
    /// The lower-cased host.
    let host: String
    /// The explicit or default port.
    let port: Int?
    /// The percent-encoded path.
    let path: String
    /// The decoded query pairs, sorted.
    let query: [HARQueryPair]
}

/// A decoded query parameter.
struct HARQueryPair: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The decoded name.
    let name: String
    /// The decoded value.
    let value: String

    /// Orders by name, then value.
    static func < (lhs: HARQueryPair, rhs: HARQueryPair) -> Bool {
        (lhs.name, lhs.value) < (rhs.name, rhs.value)
    }

    /// `name=value`.
    var description: String { "\(name)=\(value)" }
}

/// A recorded request body.
struct HARBody: Sendable {
    /// The body text (rebuilt from `params` when the entry had no `text`).
    let text: String
    /// What two bodies must share to be the same body: the JSON value for a JSON object or array
    /// (compared semantically), else the text.
    let key: Key

    /// A body with this text.
    init(text: String) {
        self.text = text
        if let value = try? JSONValue(parsing: text), value.objectValue != nil || value.arrayValue != nil {
            self.key = .json(value)
        } else {
            self.key = .text(text)
        }
    }

    /// A body's identity for telling requests apart.
    enum Key: Hashable, Sendable {
        /// A JSON object or array, compared semantically.
        case json(JSONValue)
        /// Any other text, compared exactly.
        case text(String)
    }
}

/// What answered a recorded request.
enum HAROutcome: Sendable {
    /// An HTTP response.
    case response(HARResponse)
    /// A request that failed (`status: 0`), with the browser's error name (`net::ERR_…`) if recorded.
    case failure(errorName: String?)

    /// The stub response that replays it.
    var stubResponse: StubResponse {
        switch self {
        case let .response(response):
            let answer = StubResponse.http(
                status: response.status,
                headers: response.headers,
                body: response.body.isEmpty ? .empty : .data(response.body)
            )
            return response.reason.isEmpty ? answer : answer.reason(response.reason)
        case let .failure(errorName):
            return .error(HARReader.urlErrorCode(forBrowserError: errorName))
        }
    }
}

/// A recorded HTTP response, ready to replay.
struct HARResponse: Sendable {
    /// The status code.
    let status: Int
    /// The reason phrase (`statusText`), possibly empty.
    let reason: String
    /// The header fields, without pseudo-headers and without `Content-Encoding`,
    /// `Content-Length` and `Transfer-Encoding` (the recorded text is already decoded).
    let headers: HTTPHeaders
    /// The decoded body.
    let body: Data
    /// The media type: the `Content-Type` header, else `content.mimeType`; empty when unknown.
    let contentType: String
}

/// Reads a HAR log through a ``StubFileDecoder``, which collects the diagnostics.
struct HARReader {
    /// Collects diagnostics and locates values.
    let decoder: StubFileDecoder

    /// Response headers that describe the bytes on the wire, not the decoded `content.text`.
    private static let wireHeaders: Set<String> = ["content-encoding", "content-length", "transfer-encoding"]

    /// The `URLError` code that replays a failed request, from the error name a browser recorded
    /// (Chrome's `_error`; the `net::` prefix is optional):
    ///
    /// | recorded error | `URLError.Code` |
    /// |---|---|
    /// | `ERR_CONNECTION_REFUSED` | `.cannotConnectToHost` |
    /// | `ERR_NAME_NOT_RESOLVED` | `.cannotFindHost` |
    /// | `ERR_INTERNET_DISCONNECTED` | `.notConnectedToInternet` |
    /// | `ERR_TIMED_OUT`, `ERR_CONNECTION_TIMED_OUT` | `.timedOut` |
    /// | `ERR_ABORTED`, `ERR_BLOCKED_BY_CLIENT` | `.cancelled` |
    /// | `ERR_CERT_*` | `.serverCertificateUntrusted` |
    /// | `ERR_SSL_*` | `.secureConnectionFailed` |
    /// | anything else, or none | `.networkConnectionLost` |
    static func urlErrorCode(forBrowserError name: String?) -> URLError.Code {
        guard var name else { return .networkConnectionLost }
        if name.hasPrefix("net::") { name.removeFirst(5) }
        switch name {
        case "ERR_CONNECTION_REFUSED": return .cannotConnectToHost
        case "ERR_NAME_NOT_RESOLVED": return .cannotFindHost
        case "ERR_INTERNET_DISCONNECTED": return .notConnectedToInternet
        case "ERR_TIMED_OUT", "ERR_CONNECTION_TIMED_OUT": return .timedOut
        case "ERR_ABORTED", "ERR_BLOCKED_BY_CLIENT": return .cancelled
        case _ where name.hasPrefix("ERR_CERT_"): return .serverCertificateUntrusted
        case _ where name.hasPrefix("ERR_SSL_"): return .secureConnectionFailed
        default: return .networkConnectionLost
        }
    }

    /// The distinct requests of the log at `root`, in replay order.
    func recording(at root: JSONPath) -> [HARDistinctRequest] {
        guard let document = value(at: root),
              let top = decoder.object(document, at: root, "a HAR document") else { return [] }
        guard let logValue = top["log"] else {
            decoder.error("a HAR document needs a 'log' object holding 'version', 'creator' and 'entries'", at: root)
            return []
        }
        let logPath = root.appending(.key("log"))
        guard let log = decoder.object(logValue, at: logPath, "'log'") else { return [] }
        checkVersion(log, at: logPath)
        checkSoftware("creator", in: log, at: logPath, required: true)
        checkSoftware("browser", in: log, at: logPath, required: false)
        checkPages(log, at: logPath)
        guard let entriesValue = log["entries"] else {
            decoder.error("'log' has no 'entries'; a HAR log lists its requests in an 'entries' array", at: logPath)
            return []
        }
        let entriesPath = logPath.appending(.key("entries"))
        guard let entries = entriesValue.arrayValue else {
            decoder.error("'entries' must be an array of entries, found \(entriesValue.article)", at: entriesPath)
            return []
        }
        if entries.isEmpty {
            decoder.warning("the log has no entries, so it makes no stubs", at: entriesPath)
        }
        let exchanges = entries.enumerated().compactMap { index, entry in
            exchange(entry, index: index, at: entriesPath.appending(.index(index)))
        }
        return Self.distinctRequests(exchanges)
    }

    /// Groups exchanges into distinct requests, each with its exchanges in replay order.
    ///
    /// Entries are ordered by `startedDateTime` when every entry has a usable one (ties keep file
    /// order), else by file order; within identical requests Polly.JS's `_order` then decides when
    /// every one of them has it.
    static func distinctRequests(_ exchanges: [HARExchange]) -> [HARDistinctRequest] {
        var ordered = exchanges
        if exchanges.allSatisfy({ $0.startedAt != nil }) {
            ordered.sort { ($0.startedAt ?? 0, $0.entryIndex) < ($1.startedAt ?? 0, $1.entryIndex) }
        }
        var keys: [HARRequestKey] = []
        var byKey: [HARRequestKey: [HARExchange]] = [:]
        for exchange in ordered {
            let key = exchange.request.key
            if byKey[key] == nil { keys.append(key) }
            byKey[key, default: []].append(exchange)
        }
        return keys.flatMap { key -> [HARDistinctRequest] in
            var tied = byKey[key] ?? []
            if tied.allSatisfy({ $0.order != nil }) {
                tied = tied.enumerated()
                    .sorted { ($0.element.order ?? 0, $0.offset) < ($1.element.order ?? 0, $1.offset) }
                    .map(\.element)
            }
            var bodies: [HARBody.Key?] = []
            var byBody: [HARBody.Key?: [HARExchange]] = [:]
            for exchange in tied {
                let body = exchange.request.body?.key
                if byBody[body] == nil { bodies.append(body) }
                byBody[body, default: []].append(exchange)
            }
            guard bodies.count > 1 else {
                return [HARDistinctRequest(request: tied[0].request, matchesBody: false, exchanges: tied)]
            }
            return bodies.map { body in
                let group = byBody[body] ?? []
                return HARDistinctRequest(request: group[0].request, matchesBody: true, exchanges: group)
            }
        }
    }

    // MARK: Log

    /// The value at `path` in the document, if there is one.
    private func value(at path: JSONPath) -> JSONValue? {
        var current: JSONValue? = decoder.document.root
        for component in path.components {
            switch component {
            case let .key(key): current = current?.objectValue?[key]
            case let .index(index): current = current?.arrayValue.flatMap { index < $0.count ? $0[index] : nil }
            }
        }
        return current
    }

    /// Checks `log.version`: a string, `1.x`.
    private func checkVersion(_ log: JSONObject, at logPath: JSONPath) {
        guard log["version"] != nil else {
            decoder.warning("'log' has no 'version'; it is read as HAR 1.2", at: logPath)
            return
        }
        guard let version = decoder.string("version", in: log, at: logPath) else { return }
        let parts = version.split(separator: ".", omittingEmptySubsequences: false)
        if parts.count != 2 || parts[0] != "1" || Int(parts[1]) == nil {
            decoder.warning("HAR version \(quoted(version)) is not 1.x; it is read as HAR 1.2", at: logPath.appending(.key("version")))
        }
    }

    /// Checks `log.creator` or `log.browser`: an object whose `name` and `version` are strings.
    private func checkSoftware(_ key: String, in log: JSONObject, at logPath: JSONPath, required: Bool) {
        let path = logPath.appending(.key(key))
        guard let value = log[key] else {
            if required {
                decoder.warning("'log' has no '\(key)'; HAR 1.2 requires one naming the exporting tool", at: logPath)
            }
            return
        }
        guard let software = decoder.object(value, at: path, "'\(key)'") else { return }
        for field in ["name", "version"] {
            if software[field] == nil {
                decoder.warning("'\(key)' has no '\(field)'; HAR 1.2 requires it", at: path)
            }
            _ = decoder.string(field, in: software, at: path)
        }
    }

    /// Checks the `startedDateTime` of each of `log.pages`.
    private func checkPages(_ log: JSONObject, at logPath: JSONPath) {
        guard let pagesValue = log["pages"] else { return }
        let pagesPath = logPath.appending(.key("pages"))
        guard let pages = pagesValue.arrayValue else {
            decoder.error("'pages' must be an array, found \(pagesValue.article)", at: pagesPath)
            return
        }
        for (index, page) in pages.enumerated() {
            let pagePath = pagesPath.appending(.index(index))
            guard let object = decoder.object(page, at: pagePath, "a page") else { continue }
            _ = startedDateTime(in: object, at: pagePath)
        }
    }

    /// The `startedDateTime` of a page or entry in nanoseconds since 1970; an error when it is not
    /// an ISO 8601 date and time with a time zone.
    private func startedDateTime(in object: JSONObject, at path: JSONPath) -> Int64? {
        guard let text = decoder.string("startedDateTime", in: object, at: path) else { return nil }
        let datePath = path.appending(.key("startedDateTime"))
        switch HARTimestamp(text) {
        case let .instant(nanoseconds):
            return nanoseconds
        case .missingTimeZone:
            decoder.error("'startedDateTime' \(quoted(text)) has no time zone; HAR 1.2 requires ISO 8601 with one, such as \(quoted(text + "Z")) or \(quoted(text + "+02:00"))", at: datePath)
        case .invalid:
            decoder.error("'startedDateTime' \(quoted(text)) is not an ISO 8601 date and time such as \"2024-05-01T12:30:00.000Z\"", at: datePath)
        }
        return nil
    }

    // MARK: Entries

    /// Reads one entry; `nil` (with an error reported) when it cannot be replayed.
    private func exchange(_ value: JSONValue, index: Int, at path: JSONPath) -> HARExchange? {
        guard let entry = decoder.object(value, at: path, "a HAR entry") else { return nil }
        let start = decoder.mark
        let startedAt = startedDateTime(in: entry, at: path)
        let request: HARRequest?
        if let requestValue = entry["request"] {
            request = self.request(requestValue, at: path.appending(.key("request")))
        } else {
            decoder.error("the entry has no 'request'", at: path)
            request = nil
        }
        let outcome: HAROutcome?
        if let responseValue = entry["response"] {
            outcome = self.outcome(responseValue, in: entry, method: request?.stubRequest.method, at: path.appending(.key("response")))
        } else {
            decoder.error("the entry has no 'response'", at: path)
            outcome = nil
        }
        let order = entry["_order"]?.numberValue?.int64Value.map(Int.init)
        guard let request, let outcome, !decoder.hasErrors(since: start) else { return nil }
        return HARExchange(entryIndex: index, jsonPath: path, request: request, outcome: outcome, startedAt: startedAt, order: order)
    }

    /// Reads `request`: method, absolute URL and body.
    private func request(_ value: JSONValue, at path: JSONPath) -> HARRequest? {
        guard let request = decoder.object(value, at: path, "'request'") else { return nil }
        let method = requiredString("method", in: request, at: path, what: "the request method, such as \"GET\"")
        let urlText = requiredString("url", in: request, at: path, what: "the absolute URL")
        let body = request["postData"].flatMap { postData($0, at: path.appending(.key("postData"))) }
        guard let method, let urlText else { return nil }
        guard let url = Self.absoluteURL(urlText) else {
            decoder.error("'url' \(quoted(urlText)) is not an absolute URL with a scheme and a host", at: path.appending(.key("url")))
            return nil
        }
        return HARRequest(
            url: url.absoluteString,
            stubRequest: StubRequest(method: HTTPMethod(rawValue: method), url: url),
            body: body
        )
    }

    /// A non-empty string member that HAR requires; an error when it is missing or empty.
    private func requiredString(_ key: String, in object: JSONObject, at path: JSONPath, what: String) -> String? {
        guard object[key] != nil else {
            decoder.error("the request has no '\(key)'; give \(what)", at: path)
            return nil
        }
        guard let text = decoder.string(key, in: object, at: path) else { return nil }
        guard !text.isEmpty else {
            decoder.error("'\(key)' is empty; give \(what)", at: path.appending(.key(key)))
            return nil
        }
        return text
    }

    /// `text` as a URL with a scheme and a host, without its fragment. Characters that are not
    /// allowed in URLs (as some exporters leave them) are percent-encoded first.
    private static func absoluteURL(_ text: String) -> URL? {
        var allowed = CharacterSet.urlQueryAllowed
        allowed.insert(charactersIn: "%#[]")
        guard var components = URLComponents(string: text)
                ?? text.addingPercentEncoding(withAllowedCharacters: allowed).flatMap(URLComponents.init(string:)),
              let scheme = components.scheme, !scheme.isEmpty,
              let host = components.host, !host.isEmpty else { return nil }
        components.fragment = nil
        return components.url
    }

    /// Reads `postData`: its `text`, else a form body rebuilt from `params`; `nil` for no body.
    private func postData(_ value: JSONValue, at path: JSONPath) -> HARBody? {
        guard let postData = decoder.object(value, at: path, "'postData'") else { return nil }
        if let text = decoder.string("text", in: postData, at: path), !text.isEmpty {
            return HARBody(text: text)
        }
        guard let paramsValue = postData["params"] else { return nil }
        let paramsPath = path.appending(.key("params"))
        guard let params = paramsValue.arrayValue else {
            decoder.error("'params' must be an array of {\"name\", \"value\"} objects, found \(paramsValue.article)", at: paramsPath)
            return nil
        }
        guard !params.isEmpty else { return nil }
        if let mimeType = postData["mimeType"]?.stringValue, mimeType.lowercased().contains("multipart") {
            decoder.warning("a multipart body recorded only as 'params' cannot be rebuilt; requests are matched without their body", at: paramsPath)
            return nil
        }
        var fields: [String] = []
        for (index, param) in params.enumerated() {
            let paramPath = paramsPath.appending(.index(index))
            guard let object = decoder.object(param, at: paramPath, "a parameter") else { continue }
            guard let name = decoder.string("name", in: object, at: paramPath) else {
                if object["name"] == nil { decoder.error("the parameter has no 'name'", at: paramPath) }
                continue
            }
            let value = decoder.string("value", in: object, at: paramPath) ?? ""
            fields.append(Self.formEncoded(name) + "=" + Self.formEncoded(value))
        }
        return HARBody(text: fields.joined(separator: "&"))
    }

    /// `text` encoded as `application/x-www-form-urlencoded` does: spaces become `+`, and
    /// everything but letters, digits and `-._~` is percent-encoded.
    private static func formEncoded(_ text: String) -> String {
        let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~ ")
        return (text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text)
            .replacingOccurrences(of: " ", with: "+")
    }

    // MARK: Responses

    /// Reads `response`: a failure for `status: 0`, else status, reason, headers and body.
    private func outcome(_ value: JSONValue, in entry: JSONObject, method: HTTPMethod?, at path: JSONPath) -> HAROutcome? {
        guard let response = decoder.object(value, at: path, "'response'") else { return nil }
        guard response["status"] != nil else {
            decoder.error("the response has no 'status'; give the status code, or 0 for a request that failed", at: path)
            return nil
        }
        guard let status = decoder.integer("status", in: response, at: path, in: 0...999) else { return nil }
        if status == 0 {
            let errorName = response["_error"]?.stringValue ?? entry["_error"]?.stringValue
            return .failure(errorName: errorName)
        }
        let reason = decoder.string("statusText", in: response, at: path) ?? ""
        guard var headers = self.headers(response, at: path) else { return nil }
        var body = Data()
        var stillEncoded = false
        var mimeType = ""
        if let contentValue = response["content"] {
            let contentPath = path.appending(.key("content"))
            guard let content = decoder.object(contentValue, at: contentPath, "'content'"),
                  let decoded = self.body(content, contentEncoding: headers["Content-Encoding"], at: contentPath) else { return nil }
            mimeType = decoder.string("mimeType", in: content, at: contentPath) ?? ""
            (body, stillEncoded) = decoded
        } else {
            decoder.warning("the response has no 'content'; it is replayed with an empty body", at: path)
        }
        for name in Self.wireHeaders where !(stillEncoded && name == "content-encoding") {
            headers.remove(name)
        }
        return .response(HARResponse(
            status: status,
            reason: reason,
            headers: headers,
            body: method == .head ? Data() : body,
            contentType: headers["Content-Type"] ?? mimeType
        ))
    }

    /// The recorded response headers: repeated names kept, Polly.JS's array values expanded,
    /// HTTP/2 pseudo-headers dropped. `nil` after an error.
    private func headers(_ response: JSONObject, at path: JSONPath) -> HTTPHeaders? {
        guard let listValue = response["headers"] else { return HTTPHeaders() }
        let listPath = path.appending(.key("headers"))
        guard let list = listValue.arrayValue else {
            decoder.error("'headers' must be an array of {\"name\", \"value\"} objects, found \(listValue.article)", at: listPath)
            return nil
        }
        let start = decoder.mark
        var headers = HTTPHeaders()
        for (index, item) in list.enumerated() {
            let itemPath = listPath.appending(.index(index))
            guard let field = decoder.object(item, at: itemPath, "a header") else { continue }
            guard field["name"] != nil, field["value"] != nil else {
                decoder.error("a header needs a 'name' and a 'value'", at: itemPath)
                continue
            }
            guard let name = decoder.string("name", in: field, at: itemPath) else { continue }
            let values = headerValues(field["value"] ?? .null, at: itemPath.appending(.key("value")))
            guard !name.hasPrefix(":") else { continue }
            guard !name.isEmpty else {
                decoder.warning("a header with an empty name is dropped", at: itemPath)
                continue
            }
            for value in values {
                headers.add(name, value)
            }
        }
        return decoder.hasErrors(since: start) ? nil : headers
    }

    /// A header's values: one string, or (Polly.JS) an array of strings.
    private func headerValues(_ value: JSONValue, at path: JSONPath) -> [String] {
        switch value {
        case let .string(text):
            return [text]
        case let .array(elements):
            return elements.enumerated().compactMap { index, element in
                guard let text = element.stringValue else {
                    decoder.error("a header value must be a string, found \(element.article)", at: path.appending(.index(index)))
                    return nil
                }
                return text
            }
        default:
            decoder.error("a header value must be a string (or an array of strings), found \(value.article)", at: path)
            return []
        }
    }

    /// The decoded `content.text`: base64-decoded when `encoding` is `base64`, else UTF-8; empty
    /// when absent; `nil` after an error. `stillEncoded` is true when the bytes are still
    /// compressed as the response's `Content-Encoding` says (see ``pollyChunks(_:)``).
    private func body(_ content: JSONObject, contentEncoding: String?, at path: JSONPath) -> (data: Data, stillEncoded: Bool)? {
        let encoding = decoder.string("encoding", in: content, at: path) ?? ""
        guard let text = decoder.string("text", in: content, at: path) else { return (Data(), false) }
        switch encoding.lowercased() {
        case "base64":
            guard let data = Data(base64Encoded: text, options: .ignoreUnknownCharacters) else {
                decoder.error("'text' is not valid base64, although 'encoding' is \"base64\"", at: path.appending(.key("text")))
                return nil
            }
            return (data, false)
        case "":
            guard let contentEncoding, let compressed = Self.pollyChunks(text) else { return (Data(text.utf8), false) }
            if let data = Inflate.decompress(compressed, contentEncoding: contentEncoding) {
                return (data, false)
            }
            decoder.warning("the body is Polly.JS's hex-encoded chunks compressed as \(quoted(contentEncoding)), which cannot be decompressed here; it is replayed compressed, with its Content-Encoding header", at: path.appending(.key("text")))
            return (compressed, true)
        default:
            decoder.warning("unknown 'encoding' \(quoted(encoding)); the text is replayed as UTF-8", at: path.appending(.key("encoding")))
            return (Data(text.utf8), false)
        }
    }

    /// The bytes of a body that Polly.JS's Node adapter recorded still content-encoded, as a JSON
    /// array of hex strings (one per chunk, `["1f8b08…"]`); `nil` when `text` is not of that form.
    static func pollyChunks(_ text: String) -> Data? {
        guard text.hasPrefix("["), let chunks = (try? JSONValue(parsing: text))?.arrayValue, !chunks.isEmpty else { return nil }
        var bytes: [UInt8] = []
        for chunk in chunks {
            guard let hex = chunk.stringValue, hex.utf8.count.isMultiple(of: 2) else { return nil }
            var high: UInt8?
            for character in hex.utf8 {
                guard let nibble = Self.hexValue(character) else { return nil }
                if let first = high {
                    bytes.append(first << 4 | nibble)
                    high = nil
                } else {
                    high = nibble
                }
            }
        }
        return Data(bytes)
    }

    /// The value of a hexadecimal digit.
    private static func hexValue(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

/// A HAR `startedDateTime`: ISO 8601 date and time, which HAR requires to carry a time zone
/// (`2023-03-29T17:37:42.482-07:00`, `2023-03-30T00:00:54.250Z`).
enum HARTimestamp: Equatable {
    /// A valid timestamp, in nanoseconds since 1970-01-01T00:00:00Z.
    case instant(Int64)
    /// A date and time without a time zone, which HAR does not allow.
    case missingTimeZone
    /// Not an ISO 8601 date and time.
    case invalid

    /// Reads `YYYY-MM-DDThh:mm[:ss[.fraction]]` followed by `Z` or `±hh[:mm]`.
    init(_ text: String) {
        var scanner = DigitScanner(bytes: Array(text.utf8))
        guard let year = scanner.number(digits: 4), scanner.skip("-"),
              let month = scanner.number(digits: 2), (1...12).contains(month), scanner.skip("-"),
              let day = scanner.number(digits: 2), (1...31).contains(day),
              scanner.skip("T") || scanner.skip("t") || scanner.skip(" "),
              let hour = scanner.number(digits: 2), hour <= 24, scanner.skip(":"),
              let minute = scanner.number(digits: 2), minute <= 59 else {
            self = .invalid
            return
        }
        var second = 0
        var nanoseconds = 0
        if scanner.skip(":") {
            guard let value = scanner.number(digits: 2), value <= 60 else {
                self = .invalid
                return
            }
            second = value
            if scanner.skip(".") || scanner.skip(",") {
                var digits = 0
                while let digit = scanner.number(digits: 1) {
                    if digits < 9 { nanoseconds = nanoseconds * 10 + digit }
                    digits += 1
                }
                guard digits > 0 else {
                    self = .invalid
                    return
                }
                if digits < 9 {
                    for _ in digits..<9 { nanoseconds *= 10 }
                }
            }
        }
        var offset = 0
        if scanner.isAtEnd {
            self = .missingTimeZone
            return
        } else if scanner.skip("Z") || scanner.skip("z") {
            offset = 0
        } else if let sign = scanner.skip("+") ? 1 : (scanner.skip("-") ? -1 : nil),
                  let hours = scanner.number(digits: 2), hours <= 23 {
            _ = scanner.skip(":")
            let minutes = scanner.isAtEnd ? 0 : scanner.number(digits: 2) ?? 60
            guard minutes <= 59 else {
                self = .invalid
                return
            }
            offset = sign * (hours * 3_600 + minutes * 60)
        } else {
            self = .invalid
            return
        }
        guard scanner.isAtEnd else {
            self = .invalid
            return
        }
        let seconds = Self.daysSinceEpoch(year: year, month: month, day: day) * 86_400
            + hour * 3_600 + minute * 60 + second - offset
        self = .instant(Int64(seconds) * 1_000_000_000 + Int64(nanoseconds))
    }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (Howard Hinnant's algorithm).
    private static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * ((month + 9) % 12) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// Reads fixed-width numbers and single characters from ASCII bytes.
    private struct DigitScanner {
        /// The text.
        let bytes: [UInt8]
        /// The next byte to read.
        var index = 0

        /// Whether every byte was read.
        var isAtEnd: Bool { index == bytes.count }

        /// Reads exactly `digits` decimal digits; `nil` (reading nothing) otherwise.
        mutating func number(digits: Int) -> Int? {
            guard index + digits <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[index..<index + digits] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            index += digits
            return value
        }

        /// Reads `character` if it comes next.
        mutating func skip(_ character: Unicode.Scalar) -> Bool {
            guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
            index += 1
            return true
        }
    }
}

extension RequestMatcher {
    /// The decoded query parameters are exactly `expected` as a multiset: in any order, each
    /// name/value pair as many times as in `expected`, and no other pair.
    static func queryPairs(exactly expected: [(name: String, value: String)]) -> RequestMatcher {
        let wanted = Self.multiset(expected)
        let rendered = Self.render(wanted)
        return RequestMatcher(
            part: .query("(all)"),
            description: wanted.isEmpty ? "no query parameters" : "query exactly \(rendered) (any order)"
        ) { request in
            let actual = Self.multiset(request.queryParameters)
            if actual == wanted {
                return MatchVerdict(isMatch: true, detail: actual.isEmpty ? "no query" : Self.render(actual))
            }
            let missing = wanted.reduce(into: [HARQueryPair: Int]()) { result, item in
                let shortfall = item.value - (actual[item.key] ?? 0)
                if shortfall > 0 { result[item.key] = shortfall }
            }
            let extra = actual.reduce(into: [HARQueryPair: Int]()) { result, item in
                let surplus = item.value - (wanted[item.key] ?? 0)
                if surplus > 0 { result[item.key] = surplus }
            }
            var parts: [String] = []
            if !missing.isEmpty { parts.append("missing \(Self.render(missing))") }
            if !extra.isEmpty { parts.append("unexpected \(Self.render(extra))") }
            let total = wanted.values.reduce(0, +) + actual.values.reduce(0, +)
            let differing = missing.values.reduce(0, +) + extra.values.reduce(0, +)
            return MatchVerdict(
                isMatch: false,
                distance: Double(differing) / Double(max(total, 1)),
                detail: parts.joined(separator: "; ")
            )
        }
    }

    /// How many times each pair occurs.
    private static func multiset(_ pairs: [(name: String, value: String)]) -> [HARQueryPair: Int] {
        pairs.reduce(into: [:]) { counts, pair in
            counts[HARQueryPair(name: pair.name, value: pair.value), default: 0] += 1
        }
    }

    /// `a=1&b=2 (×2)`, sorted.
    private static func render(_ counts: [HARQueryPair: Int]) -> String {
        counts.sorted { $0.key < $1.key }
            .map { $0.value > 1 ? "\($0.key) (×\($0.value))" : "\($0.key)" }
            .joined(separator: "&")
    }
}

/// Decompression of `gzip` (RFC 1952) and `deflate` (RFC 1950 zlib, or raw RFC 1951) bodies, for
/// captures that kept a body as it was sent on the wire. Checksums are not verified.
enum Inflate {
    /// `data` decoded as a `Content-Encoding` says (`gzip`, `x-gzip`, `deflate` or `identity`);
    /// `nil` for other encodings and for data that does not decode.
    static func decompress(_ data: Data, contentEncoding: String) -> Data? {
        let bytes = [UInt8](data)
        switch contentEncoding.trimmingCharacters(in: .whitespaces).lowercased() {
        case "identity":
            return data
        case "gzip", "x-gzip":
            return gzipPayloadStart(bytes).flatMap { inflate(bytes, from: $0) }.map { Data($0) }
        case "deflate":
            let isZlib = bytes.count >= 2 && bytes[0] & 0x0F == 8 && (Int(bytes[0]) << 8 | Int(bytes[1])) % 31 == 0
            return inflate(bytes, from: isZlib ? 2 : 0).map { Data($0) }
        default:
            return nil
        }
    }

    /// Where the deflate stream of a gzip member starts, past its header.
    private static func gzipPayloadStart(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 18, bytes[0] == 0x1F, bytes[1] == 0x8B, bytes[2] == 8 else { return nil }
        let flags = bytes[3]
        var position = 10
        if flags & 0x04 != 0 {
            guard position + 2 <= bytes.count else { return nil }
            position += 2 + (Int(bytes[position]) | Int(bytes[position + 1]) << 8)
        }
        for flag: UInt8 in [0x08, 0x10] where flags & flag != 0 {
            while position < bytes.count, bytes[position] != 0 { position += 1 }
            position += 1
        }
        if flags & 0x02 != 0 { position += 2 }
        return position < bytes.count ? position : nil
    }

    /// The base length of each length symbol 257…285.
    private static let lengthBase = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
    /// The number of extra bits after each length symbol 257…285.
    private static let lengthExtraBits = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    /// The base distance of each distance symbol 0…29.
    private static let distanceBase = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577]
    /// The number of extra bits after each distance symbol 0…29.
    private static let distanceExtraBits = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]
    /// The order in which a dynamic block lists the code lengths of the code-length alphabet.
    private static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    /// Inflates the raw deflate stream starting at `start`; `nil` when it is malformed or truncated.
    static func inflate(_ bytes: [UInt8], from start: Int) -> [UInt8]? {
        var reader = BitReader(bytes: bytes, position: start)
        var output: [UInt8] = []
        var isLast = false
        while !isLast {
            guard let last = reader.bits(1), let type = reader.bits(2) else { return nil }
            isLast = last == 1
            switch type {
            case 0:
                reader.alignToByte()
                guard let length = reader.bytes(2), let complement = reader.bytes(2),
                      length ^ complement == 0xFFFF, let stored = reader.take(length) else { return nil }
                output += stored
            case 1:
                let fixedLengths = [Int](repeating: 8, count: 144) + [Int](repeating: 9, count: 112)
                    + [Int](repeating: 7, count: 24) + [Int](repeating: 8, count: 8)
                guard let literals = Huffman(lengths: fixedLengths),
                      let distances = Huffman(lengths: [Int](repeating: 5, count: 30)),
                      decodeBlock(&reader, literals: literals, distances: distances, into: &output) else { return nil }
            case 2:
                guard let (literals, distances) = dynamicCodes(&reader),
                      decodeBlock(&reader, literals: literals, distances: distances, into: &output) else { return nil }
            default:
                return nil
            }
        }
        return output
    }

    /// Reads the literal/length and distance codes of a dynamic block.
    private static func dynamicCodes(_ reader: inout BitReader) -> (Huffman, Huffman)? {
        guard let literalCount = reader.bits(5).map({ $0 + 257 }),
              let distanceCount = reader.bits(5).map({ $0 + 1 }),
              let codeLengthCount = reader.bits(4).map({ $0 + 4 }) else { return nil }
        var codeLengthLengths = [Int](repeating: 0, count: 19)
        for index in 0..<codeLengthCount {
            guard let length = reader.bits(3) else { return nil }
            codeLengthLengths[codeLengthOrder[index]] = length
        }
        guard let codeLengths = Huffman(lengths: codeLengthLengths) else { return nil }
        var lengths: [Int] = []
        while lengths.count < literalCount + distanceCount {
            guard let symbol = codeLengths.decode(&reader) else { return nil }
            switch symbol {
            case 0...15:
                lengths.append(symbol)
            case 16:
                guard let previous = lengths.last, let repeats = reader.bits(2) else { return nil }
                lengths += [Int](repeating: previous, count: repeats + 3)
            case 17:
                guard let repeats = reader.bits(3) else { return nil }
                lengths += [Int](repeating: 0, count: repeats + 3)
            default:
                guard let repeats = reader.bits(7) else { return nil }
                lengths += [Int](repeating: 0, count: repeats + 11)
            }
        }
        guard lengths.count == literalCount + distanceCount,
              let literals = Huffman(lengths: Array(lengths[..<literalCount])),
              let distances = Huffman(lengths: Array(lengths[literalCount...])) else { return nil }
        return (literals, distances)
    }

    /// Decodes the symbols of one compressed block; `false` when they are malformed.
    private static func decodeBlock(_ reader: inout BitReader, literals: Huffman, distances: Huffman, into output: inout [UInt8]) -> Bool {
        while true {
            guard let symbol = literals.decode(&reader) else { return false }
            if symbol < 256 {
                output.append(UInt8(symbol))
                continue
            }
            if symbol == 256 { return true }
            let lengthIndex = symbol - 257
            guard lengthIndex < lengthBase.count, let lengthExtra = reader.bits(lengthExtraBits[lengthIndex]),
                  let distanceSymbol = distances.decode(&reader), distanceSymbol < distanceBase.count,
                  let distanceExtra = reader.bits(distanceExtraBits[distanceSymbol]) else { return false }
            let length = lengthBase[lengthIndex] + lengthExtra
            let distance = distanceBase[distanceSymbol] + distanceExtra
            guard distance <= output.count else { return false }
            for _ in 0..<length {
                output.append(output[output.count - distance])
            }
        }
    }

    /// Reads a byte array least-significant bit first, as deflate packs it.
    private struct BitReader {
        /// The input.
        let bytes: [UInt8]
        /// The next byte to load.
        var position: Int
        /// Loaded bits not yet consumed, lowest first.
        private var buffer: UInt32 = 0
        /// How many bits `buffer` holds.
        private var count = 0

        /// Creates a reader starting at byte `position`.
        init(bytes: [UInt8], position: Int) {
            self.bytes = bytes
            self.position = position
        }

        /// The next `width` bits (at most 16) as a number, or `nil` at the end of the input.
        mutating func bits(_ width: Int) -> Int? {
            while count < width {
                guard position < bytes.count else { return nil }
                buffer |= UInt32(bytes[position]) << UInt32(count)
                position += 1
                count += 8
            }
            let value = Int(buffer & ((1 << UInt32(width)) - 1))
            buffer >>= UInt32(width)
            count -= width
            return value
        }

        /// Drops the bits left in the current byte.
        mutating func alignToByte() {
            buffer = 0
            count = 0
        }

        /// A little-endian number of `width` whole bytes, after ``alignToByte()``.
        mutating func bytes(_ width: Int) -> Int? {
            guard let slice = take(width) else { return nil }
            return slice.reversed().reduce(0) { $0 << 8 | Int($1) }
        }

        /// The next `length` whole bytes, after ``alignToByte()``.
        mutating func take(_ length: Int) -> ArraySlice<UInt8>? {
            guard position + length <= bytes.count else { return nil }
            defer { position += length }
            return bytes[position..<position + length]
        }
    }

    /// A canonical Huffman code, decoded bit by bit (as zlib's `puff` does).
    private struct Huffman {
        /// How many codes have each length 0…15.
        private var counts = [Int](repeating: 0, count: 16)
        /// The symbols ordered by code.
        private var symbols: [Int]

        /// The code whose symbol `i` has code length `lengths[i]` (0 for unused); `nil` when the
        /// lengths over-subscribe the code space.
        init?(lengths: [Int]) {
            for length in lengths { counts[length] += 1 }
            var left = 1
            for length in 1...15 {
                left = left << 1 - counts[length]
                if left < 0 { return nil }
            }
            var offsets = [Int](repeating: 0, count: 16)
            for length in 1..<15 { offsets[length + 1] = offsets[length] + counts[length] }
            symbols = [Int](repeating: 0, count: lengths.count)
            for (symbol, length) in lengths.enumerated() where length != 0 {
                symbols[offsets[length]] = symbol
                offsets[length] += 1
            }
        }

        /// The next symbol, or `nil` for an invalid code or the end of the input.
        func decode(_ reader: inout BitReader) -> Int? {
            var code = 0
            var first = 0
            var index = 0
            for length in 1...15 {
                guard let bit = reader.bits(1) else { return nil }
                code |= bit
                let count = counts[length]
                if code - first < count { return symbols[index + code - first] }
                index += count
                first = (first + count) << 1
                code <<= 1
            }
            return nil
        }
    }
}
