import Foundation
import HTTPStubs

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
struct HARReader {
    /// The HAR file: collects diagnostics and locates values.
    let file: StubFileReader

    /// The stubs that replay the HAR log at `root` (the document's root by default), with every
    /// problem reported as a located diagnostic. Entries with errors are left out.
    func stubs(at root: JSONPath = .root) -> [Stub] {
        recording(at: root).map { request in
            let first = request.exchanges[0]
            let location = file.location(of: first.jsonPath)
            return Stub(
                request.pattern,
                responses: request.exchanges.map(\.outcome.stubResponse),
                afterLast: .repeatLast,
                source: .file(file.path, index: first.entryIndex, line: location?.line, column: location?.column)
            )
        }
    }

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
    func recording(at root: JSONPath = .root, redaction: Redaction = .none) -> [HARDistinctRequest] {
        guard let document = value(at: root),
            let top = file.object(document, at: root, "a HAR document")
        else { return [] }
        guard let logValue = top["log"] else {
            file.error("a HAR document needs a 'log' object holding 'version', 'creator' and 'entries'", at: root)
            return []
        }
        let logPath = root.appending(.key("log"))
        guard let log = file.object(logValue, at: logPath, "'log'") else { return [] }
        checkVersion(log, at: logPath)
        checkSoftware("creator", in: log, at: logPath, required: true)
        checkSoftware("browser", in: log, at: logPath, required: false)
        checkPages(log, at: logPath)
        guard let entriesValue = log["entries"] else {
            file.error("'log' has no 'entries'; a HAR log lists its requests in an 'entries' array", at: logPath)
            return []
        }
        let entriesPath = logPath.appending(.key("entries"))
        guard let entries = entriesValue.arrayValue else {
            file.error("'entries' must be an array of entries, found \(entriesValue.article)", at: entriesPath)
            return []
        }
        if entries.isEmpty {
            file.warning("the log has no entries, so it makes no stubs", at: entriesPath)
        }
        let exchanges = entries.enumerated().compactMap { index, entry in
            exchange(entry, index: index, at: entriesPath.appending(.index(index))).map { redaction.redacted($0) }
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
        var current: JSONValue? = file.document.root
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
            file.warning("'log' has no 'version'; it is read as HAR 1.2", at: logPath)
            return
        }
        guard let version = file.string("version", in: log, at: logPath) else { return }
        let parts = version.split(separator: ".", omittingEmptySubsequences: false)
        if parts.count != 2 || parts[0] != "1" || Int(parts[1]) == nil {
            file.warning(
                "HAR version \(quoted(version)) is not 1.x; it is read as HAR 1.2",
                at: logPath.appending(.key("version"))
            )
        }
    }

    /// Checks `log.creator` or `log.browser`: an object whose `name` and `version` are strings.
    private func checkSoftware(_ key: String, in log: JSONObject, at logPath: JSONPath, required: Bool) {
        let path = logPath.appending(.key(key))
        guard let value = log[key] else {
            if required {
                file.warning("'log' has no '\(key)'; HAR 1.2 requires one naming the exporting tool", at: logPath)
            }
            return
        }
        guard let software = file.object(value, at: path, "'\(key)'") else { return }
        for field in ["name", "version"] {
            if software[field] == nil {
                file.warning("'\(key)' has no '\(field)'; HAR 1.2 requires it", at: path)
            }
            _ = file.string(field, in: software, at: path)
        }
    }

    /// Checks the `startedDateTime` of each of `log.pages`.
    private func checkPages(_ log: JSONObject, at logPath: JSONPath) {
        guard let pagesValue = log["pages"] else { return }
        let pagesPath = logPath.appending(.key("pages"))
        guard let pages = pagesValue.arrayValue else {
            file.error("'pages' must be an array, found \(pagesValue.article)", at: pagesPath)
            return
        }
        for (index, page) in pages.enumerated() {
            let pagePath = pagesPath.appending(.index(index))
            guard let object = file.object(page, at: pagePath, "a page") else { continue }
            _ = startedDateTime(in: object, at: pagePath)
        }
    }

    /// The `startedDateTime` of a page or entry in nanoseconds since 1970; an error when it is not
    /// an ISO 8601 date and time with a time zone.
    private func startedDateTime(in object: JSONObject, at path: JSONPath) -> Int64? {
        guard let text = file.string("startedDateTime", in: object, at: path) else { return nil }
        let datePath = path.appending(.key("startedDateTime"))
        switch HARTimestamp(text) {
        case let .instant(nanoseconds):
            return nanoseconds
        case .missingTimeZone:
            file.error(
                "'startedDateTime' \(quoted(text)) has no time zone; HAR 1.2 requires "
                    + "ISO 8601 with one, such as \(quoted(text + "Z")) or \(quoted(text + "+02:00"))",
                at: datePath
            )
        case .invalid:
            file.error(
                "'startedDateTime' \(quoted(text)) is not an ISO 8601 date "
                    + "and time such as \"2024-05-01T12:30:00.000Z\"",
                at: datePath
            )
        }
        return nil
    }

    // MARK: Entries

    /// Reads one entry; `nil` (with an error reported) when it cannot be replayed.
    private func exchange(_ value: JSONValue, index: Int, at path: JSONPath) -> HARExchange? {
        guard let entry = file.object(value, at: path, "a HAR entry") else { return nil }
        let start = file.mark
        let startedAt = startedDateTime(in: entry, at: path)
        let request: HARRequest?
        if let requestValue = entry["request"] {
            request = self.request(requestValue, at: path.appending(.key("request")))
        } else {
            file.error("the entry has no 'request'", at: path)
            request = nil
        }
        let outcome: HAROutcome?
        if let responseValue = entry["response"] {
            outcome = self.outcome(
                responseValue,
                in: entry,
                method: request?.stubRequest.method,
                at: path.appending(.key("response"))
            )
        } else {
            file.error("the entry has no 'response'", at: path)
            outcome = nil
        }
        let order = entry["_order"]?.numberValue?.int64Value.map(Int.init)
        guard let request, let outcome, !file.hasErrors(since: start) else { return nil }
        return HARExchange(
            entryIndex: index,
            jsonPath: path,
            request: request,
            outcome: outcome,
            startedAt: startedAt,
            order: order
        )
    }

    /// Reads `request`: method, absolute URL and body.
    private func request(_ value: JSONValue, at path: JSONPath) -> HARRequest? {
        guard let request = file.object(value, at: path, "'request'") else { return nil }
        let method = requiredString("method", in: request, at: path, what: "the request method, such as \"GET\"")
        let urlText = requiredString("url", in: request, at: path, what: "the absolute URL")
        let body = request["postData"].flatMap { postData($0, at: path.appending(.key("postData"))) }
        guard let method, let urlText else { return nil }
        guard InterceptedRequest.Method(rawValue: method).isToken else {
            file.error(
                "'method' \(quoted(method)) is not an HTTP method: "
                    + "a method is one word of letters, digits and !#$%&'*+-.^_`|~, such as \"GET\"",
                at: path.appending(.key("method"))
            )
            return nil
        }
        guard let url = Self.absoluteURL(urlText) else {
            file.error(
                "'url' \(quoted(urlText)) is not an absolute URL with a scheme and a host",
                at: path.appending(.key("url"))
            )
            return nil
        }
        return HARRequest(
            url: url.absoluteString,
            stubRequest: InterceptedRequest(method: InterceptedRequest.Method(rawValue: method), url: url),
            body: body
        )
    }

    /// A non-empty string member that HAR requires; an error when it is missing or empty.
    private func requiredString(_ key: String, in object: JSONObject, at path: JSONPath, what: String) -> String? {
        guard object[key] != nil else {
            file.error("the request has no '\(key)'; give \(what)", at: path)
            return nil
        }
        guard let text = file.string(key, in: object, at: path) else { return nil }
        guard !text.isEmpty else {
            file.error("'\(key)' is empty; give \(what)", at: path.appending(.key(key)))
            return nil
        }
        return text
    }

    /// `text` as a URL with a scheme and a host, without its fragment. Characters that are not
    /// allowed in URLs (as some exporters leave them) are percent-encoded first.
    private static func absoluteURL(_ text: String) -> URL? {
        var allowed = CharacterSet.urlQueryAllowed
        allowed.insert(charactersIn: "%#[]")
        guard
            var components = URLComponents(string: text)
                ?? text.addingPercentEncoding(withAllowedCharacters: allowed).flatMap(URLComponents.init(string:)),
            let scheme = components.scheme, !scheme.isEmpty,
            let host = components.host, !host.isEmpty
        else { return nil }
        components.fragment = nil
        return components.url
    }

    /// Reads `postData`: its `text`, else a form body rebuilt from `params`; `nil` for no body.
    private func postData(_ value: JSONValue, at path: JSONPath) -> HARBody? {
        guard let postData = file.object(value, at: path, "'postData'") else { return nil }
        if let text = file.string("text", in: postData, at: path), !text.isEmpty {
            return HARBody(text: text, isForm: Redaction.isForm(postData["mimeType"]?.stringValue))
        }
        guard let paramsValue = postData["params"] else { return nil }
        let paramsPath = path.appending(.key("params"))
        guard let params = nameValueList(paramsValue, "params", at: paramsPath) else { return nil }
        guard !params.isEmpty else { return nil }
        if let mimeType = postData["mimeType"]?.stringValue, mimeType.lowercased().contains("multipart") {
            file.warning(
                "a multipart body recorded only as 'params' cannot be rebuilt; requests are matched without their body",
                at: paramsPath
            )
            return nil
        }
        var fields: [String] = []
        for (index, param) in params.enumerated() {
            let paramPath = paramsPath.appending(.index(index))
            guard let object = file.object(param, at: paramPath, "a parameter") else { continue }
            guard let name = file.string("name", in: object, at: paramPath) else {
                if object["name"] == nil { file.error("the parameter has no 'name'", at: paramPath) }
                continue
            }
            let value = file.string("value", in: object, at: paramPath) ?? ""
            fields.append(Self.formEncoded(name) + "=" + Self.formEncoded(value))
        }
        return HARBody(text: fields.joined(separator: "&"), isForm: true)
    }

    /// The elements of HAR's list of `{"name", "value"}` objects called `key` (`headers`, `params`),
    /// or `nil` after an error saying what was found instead of an array.
    private func nameValueList(_ value: JSONValue, _ key: String, at path: JSONPath) -> [JSONValue]? {
        guard let list = value.arrayValue else {
            file.error(
                "'\(key)' must be an array of {\"name\", \"value\"} objects, found \(value.article)",
                at: path
            )
            return nil
        }
        return list
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
    private func outcome(
        _ value: JSONValue,
        in entry: JSONObject,
        method: InterceptedRequest.Method?,
        at path: JSONPath
    ) -> HAROutcome? {
        guard let response = file.object(value, at: path, "'response'") else { return nil }
        guard response["status"] != nil else {
            file.error("the response has no 'status'; give the status code, or 0 for a request that failed", at: path)
            return nil
        }
        guard let status = file.integer("status", in: response, at: path, in: 0...999) else { return nil }
        if status == 0 {
            let errorName = response["_error"]?.stringValue ?? entry["_error"]?.stringValue
            return .failure(errorName: errorName)
        }
        let reason = file.string("statusText", in: response, at: path) ?? ""
        guard var headers = self.headers(response, at: path) else { return nil }
        var body = Data()
        var stillEncoded = false
        var mimeType = ""
        if let contentValue = response["content"] {
            let contentPath = path.appending(.key("content"))
            guard let content = file.object(contentValue, at: contentPath, "'content'"),
                let decoded = self.body(content, contentEncoding: headers["Content-Encoding"], at: contentPath)
            else { return nil }
            mimeType = file.string("mimeType", in: content, at: contentPath) ?? ""
            (body, stillEncoded) = decoded
        } else {
            file.warning("the response has no 'content'; it is replayed with an empty body", at: path)
        }
        for name in Self.wireHeaders where !(stillEncoded && name == "content-encoding") {
            headers.remove(name)
        }
        return .response(
            HARResponse(
                status: status,
                reason: reason,
                headers: headers,
                body: method == .head ? Data() : body,
                contentType: headers["Content-Type"] ?? mimeType
            )
        )
    }

    /// The recorded response headers: repeated names kept, Polly.JS's array values expanded,
    /// HTTP/2 pseudo-headers dropped. `nil` after an error.
    private func headers(_ response: JSONObject, at path: JSONPath) -> HeaderFields? {
        guard let listValue = response["headers"] else { return HeaderFields() }
        let listPath = path.appending(.key("headers"))
        guard let list = nameValueList(listValue, "headers", at: listPath) else { return nil }
        let start = file.mark
        var headers = HeaderFields()
        for (index, item) in list.enumerated() {
            let itemPath = listPath.appending(.index(index))
            guard let field = file.object(item, at: itemPath, "a header") else { continue }
            guard field["name"] != nil, field["value"] != nil else {
                file.error("a header needs a 'name' and a 'value'", at: itemPath)
                continue
            }
            guard let name = file.string("name", in: field, at: itemPath) else { continue }
            let values = headerValues(field["value"] ?? .null, at: itemPath.appending(.key("value")))
            guard !name.hasPrefix(":") else { continue }
            guard !name.isEmpty else {
                file.warning("a header with an empty name is dropped", at: itemPath)
                continue
            }
            for value in values {
                headers.add(name, value)
            }
        }
        return file.hasErrors(since: start) ? nil : headers
    }

    /// A header's values: one string, or (Polly.JS) an array of strings.
    private func headerValues(_ value: JSONValue, at path: JSONPath) -> [String] {
        switch value {
        case let .string(text):
            return [text]
        case let .array(elements):
            return elements.enumerated().compactMap { index, element in
                guard let text = element.stringValue else {
                    file.error(
                        "a header value must be a string, found \(element.article)",
                        at: path.appending(.index(index))
                    )
                    return nil
                }
                return text
            }
        default:
            file.error("a header value must be a string (or an array of strings), found \(value.article)", at: path)
            return []
        }
    }

    /// The decoded `content.text`: base64-decoded when `encoding` is `base64`, else UTF-8; empty
    /// when absent; `nil` after an error. `stillEncoded` is true when the bytes are still
    /// compressed as the response's `Content-Encoding` says (see ``pollyChunks(_:)``).
    private func body(
        _ content: JSONObject,
        contentEncoding: String?,
        at path: JSONPath
    ) -> (data: Data, stillEncoded: Bool)? {
        let encoding = file.string("encoding", in: content, at: path) ?? ""
        guard let text = file.string("text", in: content, at: path) else { return (Data(), false) }
        switch encoding.lowercased() {
        case "base64":
            guard let data = Data(base64Encoded: text, options: .ignoreUnknownCharacters) else {
                file.error(
                    "'text' is not valid base64, although 'encoding' is \"base64\"",
                    at: path.appending(.key("text"))
                )
                return nil
            }
            return (data, false)
        case "":
            guard let contentEncoding, let compressed = Self.pollyChunks(text) else { return (Data(text.utf8), false) }
            let textPath = path.appending(.key("text"))
            switch Inflate.decompress(compressed, contentEncoding: contentEncoding) {
            case let .success(data):
                return (data, false)
            case .failure(.unsupportedEncoding), .failure(.malformed):
                file.warning(
                    "the body is Polly.JS's hex-encoded chunks compressed as "
                        + "\(quoted(contentEncoding)), which cannot be decompressed here; "
                        + "it is replayed compressed, with its Content-Encoding header",
                    at: textPath
                )
                return (compressed, true)
            case let .failure(.tooLarge(limit)):
                file.error(
                    "the \(compressed.count)-byte body compressed as "
                        + "\(quoted(contentEncoding)) inflates to more than \(limit) bytes "
                        + "(a body may inflate to at most \(Inflate.maximumOutputSize >> 20) MiB, and past "
                        + "\(Inflate.ratioFloor >> 20) MiB to at most "
                        + "\(Inflate.maximumRatio) times its compressed size), "
                        + "which is how a decompression bomb looks; if the body is genuine, record it uncompressed",
                    at: textPath
                )
                return nil
            case let .failure(.checksumMismatch(what)):
                file.error(
                    "the body compressed as \(quoted(contentEncoding)) is corrupted: \(what); "
                        + "record the response again (it would otherwise be served damaged)",
                    at: textPath
                )
                return nil
            }
        default:
            file.warning(
                "unknown 'encoding' \(quoted(encoding)); the text is replayed as UTF-8",
                at: path.appending(.key("encoding"))
            )
            return (Data(text.utf8), false)
        }
    }

    /// The bytes of a body that Polly.JS's Node adapter recorded still content-encoded, as a JSON
    /// array of hex strings (one per chunk, `["1f8b08…"]`); `nil` when `text` is not of that form.
    static func pollyChunks(_ text: String) -> Data? {
        guard text.hasPrefix("["), let chunks = (try? JSONValue(parsing: text))?.arrayValue, !chunks.isEmpty else {
            return nil
        }
        var bytes: [UInt8] = []
        for chunk in chunks {
            guard let hex = chunk.stringValue, hex.utf8.count.isMultiple(of: 2) else { return nil }
            var high: UInt8?
            for character in hex.utf8 {
                guard let nibble = character.hexDigitValue else { return nil }
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
}
