import Foundation
import HTTPStubs

/// Turns a HAR capture into a WireMock stub root: `mappings/*.json` and `__files/*`, which the
/// toolkit's loader and WireMock 3 can serve (WireMock 2 also can, unless a mapping needs
/// `hasExactly` or an origin field, which it does not know).
///
/// Each distinct request (as ``HARReader/stubs(at:)`` groups them) becomes one mapping
/// file, `mappings/<method>-<path-slug>-<hash>.json`: the lower-cased method, a slug of the path
/// (`[a-z0-9-]`, at most 40 characters) and 8 hex digits of an FNV-1a hash of method, URL and body,
/// so names are readable and the same capture always gives the same files. Bodies go to
/// `__files/<same stem>[-N].<ext>`, JSON pretty-printed.
///
/// The request is matched on `method`, `urlPath`, `queryParameters` (`equalTo` each, `hasExactly`
/// for a repeated name) and, when the body tells tied entries apart, `bodyPatterns` (`equalToJson`
/// for JSON, `binaryEqualTo` for bytes that are not UTF-8 text, else `equalTo`; a form body with
/// redacted fields as `formParameters`, the redacted ones matching any value). Only when requests
/// to different origins would otherwise get the same pattern does a mapping also match the
/// `scheme`, `host` or `port` that differ, so a stub root stays servable from any address.
///
/// Repeated identical requests become a scenario, as WireMock's recorder writes them, but named
/// after the mapping file: `scenario-<stem>` moves from `Started` through `scenario-<stem>-2`,
/// `-3`, … and its last response keeps answering. (WireMock numbers them, `scenario-<n>-<slug>`;
/// the numbers restart with every recording, so two recordings into one stub root would share a
/// scenario's state.) Failed entries (`status: 0`) get the `CONNECTION_RESET_BY_PEER` fault for
/// WireMock and, in `swiftHTTPStubs.urlError`, the `URLError` the capture itself replays (chosen
/// from the browser's `_error` name), which this toolkit serves.
package struct HARImporter: Sendable {
    /// The distinct requests, in replay order.
    private let requests: [HARDistinctRequest]

    /// Reads the HAR log at `root` (the document's root by default); problems are reported
    /// through `file`, and entries with errors are left out.
    init(file: StubFileReader, at root: JSONPath = .root, redaction: Redaction = .none) {
        self.requests = HARReader(file: file).recording(at: root, redaction: redaction)
    }

    /// Writes these distinct requests (recorded live rather than read from a HAR file).
    init(requests: [HARDistinctRequest]) {
        self.requests = requests
    }

    /// A file of a stub root: its path relative to the root, and its bytes.
    typealias File = (relativePath: String, contents: Data)

    /// The files written for one distinct request.
    struct RequestFiles {
        /// The name of its mapping file without `.json`.
        let stem: String
        /// `mappings/<stem>.json`.
        let mapping: File
        /// The `__files/` bodies the mapping names, in order.
        let bodies: [File]
    }

    /// The files of the stub root, sorted by path: for each distinct request a mapping file, and a
    /// body file for each non-empty response body. Paths are relative to the stub root; file names
    /// never take one of the `avoiding` stems.
    func mappingFiles(avoiding taken: Set<String> = []) -> [File] {
        layout(avoiding: taken).flatMap { $0.bodies + [$0.mapping] }.sorted { $0.relativePath < $1.relativePath }
    }

    /// The files of each distinct request, in order. Stems are never one of `taken`, nor one whose
    /// scenario name would be one of `takenScenarios`.
    func layout(avoiding taken: Set<String> = [], scenarios takenScenarios: Set<String> = []) -> [RequestFiles] {
        var layout: [RequestFiles] = []
        var usedStems = taken
        let origins = distinguishingOrigins()
        for (index, request) in requests.enumerated() {
            let slug = Self.slug(request.request.stubRequest.path)
            let stem = Self.uniqueStem(for: request, slug: slug, avoiding: usedStems, scenarios: takenScenarios)
            usedStems.insert(stem)
            var bodies: [File] = []
            let isSequence = request.exchanges.count > 1
            let scenario = Self.scenarioName(stem: stem)
            var mappings: [JSONValue] = []
            for (position, exchange) in request.exchanges.enumerated() {
                var mapping = JSONObject()
                mapping["request"] = Self.requestPattern(request, origin: origins[index])
                switch exchange.outcome {
                case let .failure(errorName):
                    // The fault keeps the root servable by WireMock; the extension, which WireMock
                    // ignores and this toolkit prefers, keeps the URLError the capture replays.
                    let code = HARReader.urlErrorCode(forBrowserError: errorName)
                    mapping["response"] = [
                        "fault": "CONNECTION_RESET_BY_PEER",
                        WireMockMappingReader.extensionKey: ["urlError": .string(URLErrorNames.name(of: code))],
                    ]
                case let .urlError(code):
                    mapping["response"] = [
                        WireMockMappingReader.extensionKey: ["urlError": .string(URLErrorNames.name(of: code))]
                    ]
                case let .response(response):
                    var bodyFileName: String?
                    if !response.body.isEmpty {
                        let name =
                            "\(stem)\(isSequence ? "-\(position + 1)" : "").\(Self.fileExtension(response.contentType))"
                        bodies.append((relativePath: "__files/\(name)", contents: Self.bodyFile(response)))
                        bodyFileName = name
                    }
                    mapping["response"] = Self.response(response, bodyFileName: bodyFileName)
                }
                if request.matchesBody, Self.isWithheld(request.request.body) {
                    mapping["metadata"] = ["redaction": .string(Self.withheldBodyNote)]
                }
                if isSequence {
                    mapping["scenarioName"] = .string(scenario)
                    mapping["requiredScenarioState"] = .string(
                        position == 0 ? StubScenario.started : "\(scenario)-\(position + 1)"
                    )
                    if position + 1 < request.exchanges.count {
                        mapping["newScenarioState"] = .string("\(scenario)-\(position + 2)")
                    }
                }
                mappings.append(.object(mapping))
            }
            let document: JSONValue = mappings.count == 1 ? mappings[0] : ["mappings": .array(mappings)]
            let mapping: File = (
                relativePath: "mappings/\(stem).json", contents: Data((document.serialized(pretty: true) + "\n").utf8)
            )
            layout.append(RequestFiles(stem: stem, mapping: mapping, bodies: bodies))
        }
        return layout
    }

    // MARK: Mapping JSON

    /// For each request, which of `scheme`, `host` and `port` its mapping must match: those that
    /// differ among the requests whose mappings would otherwise be the same.
    private func distinguishingOrigins() -> [Set<String>] {
        let routes = requests.map(Route.init)
        var keysByRoute: [Route: [HARRequestKey]] = [:]
        for (route, request) in zip(routes, requests) {
            keysByRoute[route, default: []].append(request.request.key)
        }
        return routes.map { route in
            let keys = keysByRoute[route] ?? []
            var fields: Set<String> = []
            if Set(keys.map(\.scheme)).count > 1 { fields.insert("scheme") }
            if Set(keys.map(\.host)).count > 1 { fields.insert("host") }
            if Set(keys.map(\.port)).count > 1 { fields.insert("port") }
            return fields
        }
    }

    /// What a mapping matches apart from the origin: method, path, query and, when it matters, body.
    private struct Route: Hashable {
        /// The upper-cased method.
        let method: String
        /// The percent-encoded path.
        let path: String
        /// The sorted query pairs.
        let query: [QueryPair]
        /// The body identity, when the mapping matches the body.
        let body: HARBody.Key?

        /// The route of a distinct request.
        init(_ request: HARDistinctRequest) {
            let key = request.request.key
            method = key.method
            path = key.path
            query = key.query
            body = request.matchesBody ? request.request.body?.key : nil
        }
    }

    /// The WireMock `request` object of a distinct request, matching the `origin` fields named.
    private static func requestPattern(_ request: HARDistinctRequest, origin: Set<String>) -> JSONValue {
        let recorded = request.request.stubRequest
        var pattern: JSONObject = ["method": .string(recorded.method.rawValue)]
        if origin.contains("scheme") { pattern["scheme"] = .string(recorded.scheme) }
        if origin.contains("host") { pattern["host"] = .string(recorded.host) }
        if origin.contains("port"), let port = recorded.port { pattern["port"] = .number(JSONNumber(port)) }
        if recorded.path.contains(Redaction.placeholder) {
            // A redacted segment (a token in the path) matches any segment.
            pattern["urlPathPattern"] = .string(Self.patternMatchingRedactions(recorded.path, within: "/"))
        } else {
            pattern["urlPath"] = .string(recorded.path)
        }
        if !recorded.queryParameters.isEmpty {
            pattern["queryParameters"] = Self.parameterPatterns(recorded.queryParameters)
        }
        if request.matchesBody, Self.isWithheld(request.request.body) {
            // Nothing of the body is left to match.
        } else if request.matchesBody {
            if let fields = Self.redactedFormFields(request.request.body) {
                // A redacted field matches any value, as a redacted query parameter does.
                pattern["formParameters"] = Self.parameterPatterns(fields)
            } else {
                let bodyPattern: JSONValue =
                    switch request.request.body?.key {
                    case let .json(value)? where Self.containsRedaction(value):
                        ["equalToJson": Self.removingRedactions(value), "ignoreExtraElements": true]
                    case let .json(value)?: ["equalToJson": value]
                    case let .text(text)? where text.contains(Redaction.placeholder):
                        ["matches": .string(Self.patternMatchingRedactions(text))]
                    case let .text(text)?: ["equalTo": .string(text)]
                    case let .bytes(bytes)?: ["binaryEqualTo": .string(bytes.base64EncodedString())]
                    case nil: ["equalTo": ""]
                    }
                pattern["bodyPatterns"] = [bodyPattern]
            }
        }
        return .object(pattern)
    }

    /// `queryParameters` or `formParameters`: `equalTo` each value, `hasExactly` for a name given
    /// more than once, in the order the names first appear.
    private static func parameterPatterns(_ pairs: [(name: String, value: String)]) -> JSONValue {
        var names: [String] = []
        var valuesByName: [String: [String]] = [:]
        for pair in pairs {
            if valuesByName[pair.name] == nil { names.append(pair.name) }
            valuesByName[pair.name, default: []].append(pair.value)
        }
        var patterns = JSONObject()
        for name in names {
            let values = valuesByName[name] ?? []
            patterns[name] =
                values.count == 1
                ? Self.valuePattern(values[0])
                : ["hasExactly": .array(values.map(Self.valuePattern))]
        }
        return .object(patterns)
    }

    /// The fields of a form body that had some of them redacted, to be matched one by one; `nil`
    /// for any other body, which is matched whole.
    private static func redactedFormFields(_ body: HARBody?) -> [(name: String, value: String)]? {
        guard let body, body.isForm, case let .text(text) = body.key else { return nil }
        let fields = FormURLEncoding.decode(text)
        return fields.contains { $0.value == Redaction.placeholder } ? fields : nil
    }

    /// `equalTo` the value; any value when it was redacted, or any value with the same text
    /// around what was redacted inside it (a token in a `redirect_uri`).
    private static func valuePattern(_ value: String) -> JSONValue {
        if value == Redaction.placeholder { return ["matches": ".*"] }
        if value.contains(Redaction.placeholder) { return ["matches": .string(patternMatchingRedactions(value))] }
        return ["equalTo": .string(value)]
    }

    /// Whether a body was replaced whole, because it was a credential or its secrets could not be
    /// replaced alone (it was compressed, or its encoding cannot be read): it is not matched.
    static func isWithheld(_ body: HARBody?) -> Bool {
        if case .text(Redaction.placeholder)? = body?.key { return true }
        return false
    }

    /// What a mapping whose request body was withheld says about it, in its `metadata`.
    static let withheldBodyNote =
        "The request body was replaced whole by REDACTED: it was a credential, or it held secrets that could "
        + "not be replaced on their own (it was compressed, or encoded in a way that cannot be read). Requests "
        + "are matched without their body."

    /// Whether a JSON body had values redacted.
    private static func containsRedaction(_ value: JSONValue) -> Bool {
        switch value {
        case let .string(text): return text.contains(Redaction.placeholder)
        case let .array(items): return items.contains(where: containsRedaction)
        case let .object(object): return object.members.contains { containsRedaction($0.value) }
        default: return false
        }
    }

    /// A regular expression for a text body with redacted values (newline-delimited JSON, XML,
    /// multipart): the text as written, each `REDACTED` matching any run of characters up to the
    /// character that follows it (a quote, a `<`, a line break), so matching never backtracks.
    static func patternMatchingRedactions(_ text: String, within boundary: Character? = nil) -> String {
        let pieces = text.components(separatedBy: Redaction.placeholder)
        var pattern = NSRegularExpression.escapedPattern(for: pieces[0])
        let bound = boundary.map { "\\\($0)" } ?? ""
        for piece in pieces.dropFirst() {
            if let next = piece.unicodeScalars.first, next != "\n", next != "\r" {
                let literal = next.properties.isAlphabetic || ("0"..."9").contains(next) ? "\(next)" : "\\\(next)"
                pattern += "[^\(literal)\(bound)\\n\\r]*"
            } else {
                pattern += "[^\(bound)\\n\\r]*"
            }
            pattern += NSRegularExpression.escapedPattern(for: piece)
        }
        return pattern
    }

    /// A JSON body without its redacted members, to be matched ignoring extra members: a redacted
    /// array element becomes `${json-unit.ignore}`, and a string with a redacted part (a URL with
    /// a token in it) `${json-unit.regex}` of the text around it.
    private static func removingRedactions(_ value: JSONValue) -> JSONValue {
        switch value {
        case let .array(items):
            return .array(
                items.map { $0 == .string(Redaction.placeholder) ? "${json-unit.ignore}" : removingRedactions($0) }
            )
        case let .object(object):
            return .object(
                JSONObject(
                    members: object.members
                        .filter { $0.value != .string(Redaction.placeholder) }
                        .map { JSONMember(key: $0.key, value: removingRedactions($0.value)) }
                )
            )
        case let .string(text) where text.contains(Redaction.placeholder):
            return .string("${json-unit.regex}" + patternMatchingRedactions(text))
        default: return value
        }
    }

    /// The WireMock `response` object of a recorded response.
    private static func response(_ response: HARResponse, bodyFileName: String?) -> JSONValue {
        var object: JSONObject = ["status": .number(JSONNumber(response.status))]
        if !response.reason.isEmpty {
            object["statusMessage"] = .string(response.reason)
        }
        var names: [String] = []
        var valuesByName: [String: (name: String, values: [String])] = [:]
        for field in response.headers {
            let key = field.name.lowercased()
            if valuesByName[key] == nil {
                names.append(key)
                valuesByName[key] = (field.name, [])
            }
            valuesByName[key]?.values.append(field.value)
        }
        if !names.isEmpty {
            var headers = JSONObject()
            for key in names {
                guard let header = valuesByName[key] else { continue }
                headers[header.name] =
                    header.values.count == 1
                    ? .string(header.values[0])
                    : .array(header.values.map(JSONValue.string))
            }
            object["headers"] = .object(headers)
        }
        if let bodyFileName {
            object["bodyFileName"] = .string(bodyFileName)
        }
        return .object(object)
    }

    /// The body file's bytes: JSON pretty-printed, anything else as recorded.
    private static func bodyFile(_ response: HARResponse) -> Data {
        guard fileExtension(response.contentType) == "json", let value = try? JSONValue(parsing: response.body) else {
            return response.body
        }
        return Data((value.serialized(pretty: true) + "\n").utf8)
    }

    // MARK: Names

    /// The body file extension for a media type: `json`, `html`, `xml`, `txt`, `png`, `jpg`, `gif`,
    /// or `bin` for anything else.
    static func fileExtension(_ contentType: String) -> String {
        let mediaType =
            contentType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        switch mediaType {
        case _ where mediaType.contains("json"): return "json"
        case _ where mediaType.contains("html"): return "html"
        case _ where mediaType.contains("xml"): return "xml"
        case _ where mediaType.hasPrefix("text/"): return "txt"
        case "image/png": return "png"
        case "image/jpeg", "image/jpg", "image/pjpeg": return "jpg"
        case "image/gif": return "gif"
        default: return "bin"
        }
    }

    /// The `__files/` paths (relative to the stub root) that the mapping file `contents` names as
    /// `bodyFileName`s; none when it does not parse.
    package static func bodyFiles(referencedBy contents: Data) -> Set<String> {
        guard let value = try? JSONValue(parsing: contents) else { return [] }
        let mappings = value.objectValue?["mappings"]?.arrayValue ?? [value]
        return Set(
            mappings.compactMap { $0.objectValue?["response"]?.objectValue?["bodyFileName"]?.stringValue }.map {
                "__files/\($0)"
            }
        )
    }

    /// A file-name slug of a path (or any text): decoded, lower-cased, runs of anything but
    /// `[a-z0-9]` turned into one `-`, trimmed, at most 40 characters; `empty` when nothing is left
    /// (`root` for the path `/`). The only alphabet the toolkit's file names are made of.
    static func slug(_ path: String, empty: String = "root") -> String {
        var slug = ""
        for scalar in (PercentDecoding.decode(path) ?? path).lowercased().unicodeScalars {
            if ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) {
                slug.unicodeScalars.append(scalar)
            } else if !slug.isEmpty, !slug.hasSuffix("-") {
                slug += "-"
            }
        }
        slug = String(slug.prefix(40))
        while slug.hasSuffix("-") { slug.removeLast() }
        return slug.isEmpty ? empty : slug
    }

    /// The scenario of the mapping file `mappings/<stem>.json`: `scenario-<stem>`. Stems are unique
    /// in a stub root, so scenarios written into one never share their state by accident, however
    /// many recordings or imports wrote it.
    static func scenarioName(stem: String) -> String {
        "scenario-\(stem)"
    }

    /// `<method>-<slug>-<hash>`, rehashed with a counter in the rare case the name is taken, or its
    /// scenario name is.
    private static func uniqueStem(
        for request: HARDistinctRequest,
        slug: String,
        avoiding used: Set<String>,
        scenarios takenScenarios: Set<String>
    ) -> String {
        // Only what the mapping matches goes into the name, so a capture from another host or port
        // of the same API gives the same files.
        let recorded = request.request.stubRequest
        let method = recorded.method.rawValue
        let query = recorded.queryParameters.map { "\($0.name)=\($0.value)" }.sorted().joined(separator: "&")
        let identity = "\(method) \(recorded.path)?\(query)\n\(request.request.body?.text ?? "")"
        // The method is input too (a capture or a recorded request may carry any text there): it
        // goes through the same file-name alphabet as the path.
        let methodName = Self.slug(method, empty: "request")
        var stem = "\(methodName)-\(slug)-\(hexHash(identity))"
        var attempt = 1
        while used.contains(stem) || takenScenarios.contains(scenarioName(stem: stem)) {
            stem = "\(methodName)-\(slug)-\(hexHash("\(identity)\n\(attempt)"))"
            attempt += 1
        }
        return stem
    }

    /// The 32-bit FNV-1a hash of the UTF-8 bytes of `text`, as 8 lower-case hex digits.
    static func hexHash(_ text: String) -> String {
        var hash: UInt32 = 0x811C_9DC5
        for byte in text.utf8 {
            hash ^= UInt32(byte)
            hash = hash &* 0x0100_0193
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }
}
