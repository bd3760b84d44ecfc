import Foundation

/// A test on the request body.
///
/// On Linux the body of an upload task is read from URLSession's task (see the README's Linux
/// notes); when a body cannot be read at all, body matchers do not match and say why.
public struct BodyMatcher: Sendable, CustomStringConvertible {
    enum Kind: Sendable {
        case bytes(Data)
        case text(StringMatcher)
        case json(JSONValue, JSONComparisonOptions)
        case form([(name: String, matcher: StringMatcher)])
        case absent
        /// A matcher that could not be built; it never matches.
        case broken
    }

    let kind: Kind
    let problems: [String]

    init(_ kind: Kind, problems: [String] = []) {
        self.kind = kind
        self.problems = problems
    }

    /// The body is exactly these bytes.
    public static func equal(_ data: Data) -> BodyMatcher { BodyMatcher(.bytes(data)) }

    /// The body, as UTF-8 text, equals `text`.
    public static func equal(_ text: String) -> BodyMatcher { BodyMatcher(.text(.equal(text))) }

    /// The body, as UTF-8 text, contains `text`.
    public static func contains(_ text: String) -> BodyMatcher { BodyMatcher(.text(.contains(text))) }

    /// The body, as UTF-8 text, satisfies a string matcher (for example
    /// ``StringMatcher/matches(_:fileID:line:column:)``).
    public static func text(_ matcher: StringMatcher) -> BodyMatcher {
        BodyMatcher(.text(matcher), problems: matcher.problems)
    }

    /// The whole body, as UTF-8 text, matches a regular expression (ICU syntax).
    public static func matches(
        _ pattern: String,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        column: UInt = #column
    ) -> BodyMatcher {
        text(.matches(pattern, fileID: fileID, line: line, column: column))
    }

    /// The body is JSON semantically equal to `expected`: member order and number spelling do not
    /// matter; array order and extra members matter unless the options say otherwise.
    public static func json(
        _ expected: JSONValue,
        ignoreArrayOrder: Bool = false,
        ignoreExtraMembers: Bool = false
    ) -> BodyMatcher {
        BodyMatcher(
            .json(
                expected,
                JSONComparisonOptions(ignoreArrayOrder: ignoreArrayOrder, ignoreExtraMembers: ignoreExtraMembers)
            )
        )
    }

    /// The body is JSON semantically equal to the JSON text `expected`.
    ///
    /// Text that is not JSON makes a matcher that never matches, reported with the place it was written.
    public static func json(
        text expected: String,
        ignoreArrayOrder: Bool = false,
        ignoreExtraMembers: Bool = false,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        column: UInt = #column
    ) -> BodyMatcher {
        json(
            { try JSONValue(parsing: expected) },
            ignoreArrayOrder: ignoreArrayOrder,
            ignoreExtraMembers: ignoreExtraMembers,
            writtenAt: "\(fileID):\(line):\(column)"
        ) { "is not JSON (\($0)); fix the text or use .equal(_:) for a literal body" }
    }

    /// The body is JSON semantically equal to an `Encodable` value encoded with `encoder`.
    public static func json(
        encoding value: some Encodable,
        encoder: JSONEncoder = JSONEncoder(),
        ignoreArrayOrder: Bool = false,
        ignoreExtraMembers: Bool = false,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        column: UInt = #column
    ) -> BodyMatcher {
        json(
            { try JSONValue(encoding: value, encoder: encoder) },
            ignoreArrayOrder: ignoreArrayOrder,
            ignoreExtraMembers: ignoreExtraMembers,
            writtenAt: "\(fileID):\(line):\(column)"
        ) { "could not be encoded (\($0))" }
    }

    /// A JSON matcher on the value `expected` makes of the caller's text or value; when it throws, a
    /// matcher that never matches, whose problem names the place it was written and `failure`'s reason.
    private static func json(
        _ expected: () throws -> JSONValue,
        ignoreArrayOrder: Bool,
        ignoreExtraMembers: Bool,
        writtenAt place: String,
        failure: (any Error) -> String
    ) -> BodyMatcher {
        do {
            return json(try expected(), ignoreArrayOrder: ignoreArrayOrder, ignoreExtraMembers: ignoreExtraMembers)
        } catch {
            return BodyMatcher(.broken, problems: ["the expected JSON body at \(place) " + failure(error)])
        }
    }

    /// The body is `application/x-www-form-urlencoded` and each named field has some value
    /// satisfying its matcher; other fields may be present.
    public static func form(_ fields: [String: StringMatcher]) -> BodyMatcher {
        let sorted = fields.sorted { $0.key < $1.key }.map { (name: $0.key, matcher: $0.value) }
        return BodyMatcher(.form(sorted), problems: sorted.flatMap(\.matcher.problems))
    }

    /// A form body (`application/x-www-form-urlencoded`) whose decoded fields equal these values
    /// (other fields may be present too).
    public static func form(_ fields: [String: String]) -> BodyMatcher {
        form(fields.mapValues { StringMatcher.equal($0) })
    }

    /// The request has no body, or an empty one.
    public static let absent = BodyMatcher(.absent)

    /// Tests the body of a request.
    func evaluate(_ request: InterceptedRequest) -> MatchVerdict {
        if case .broken = kind {
            return MatchVerdict(
                isMatch: false,
                detail: "this body matcher is broken: " + problems.joined(separator: "; ")
            )
        }
        if let reason = request.bodyUnavailableReason, request.body == nil {
            return MatchVerdict(isMatch: false, detail: "the body could not be read: \(reason)")
        }
        let body = request.body ?? Data()
        switch kind {
        case let .bytes(expected):
            if body == expected { return MatchVerdict(isMatch: true, detail: "\(body.count) bytes") }
            return MatchVerdict(
                isMatch: false,
                distance: Levenshtein.normalisedDistance(Self.preview(expected), Self.preview(body)),
                detail: "expected \(Self.describe(expected)), got \(Self.describe(body))"
            )
        case let .text(matcher):
            guard let text = request.body == nil ? "" : request.bodyText else {  // no body is empty text
                return MatchVerdict(
                    isMatch: false,
                    detail: "expected text \(matcher.expectation), got \(body.count) bytes that are not UTF-8"
                )
            }
            if matcher.matches(text) { return MatchVerdict(isMatch: true, detail: Self.describe(body)) }
            return MatchVerdict(
                isMatch: false,
                distance: matcher.distance(toMismatch: text),
                detail: "expected \(matcher.expectation), got \(Self.describe(body))"
            )
        case let .json(expected, options):
            guard let actual = try? JSONValue(parsing: body) else {
                return MatchVerdict(
                    isMatch: false,
                    detail: "expected JSON \(expected), got \(Self.describe(body)), which is not JSON"
                )
            }
            if expected.matches(actual, options: options) { return MatchVerdict(isMatch: true, detail: "JSON equal") }
            let differences = expected.differences(from: actual, options: options)
            return MatchVerdict(
                isMatch: false,
                distance: expected.distance(to: actual, options: options),
                detail: "JSON differs: " + differences.joined(separator: "; ")
            )
        case let .form(fields):
            let actual = FormURLEncoding.decode(String(decoding: body, as: UTF8.self))
            var failures: [String] = []
            for field in fields {
                let values = actual.filter { $0.name == field.name }.map(\.value)
                if !values.contains(where: field.matcher.matches) {
                    let expected = "expected field \(field.name) \(field.matcher.expectation)"
                    failures.append(
                        values.isEmpty
                            ? "\(expected), but it is missing"
                            : "\(expected), got " + values.map(quoted).joined(separator: ", ")
                    )
                }
            }
            if failures.isEmpty { return MatchVerdict(isMatch: true, detail: "form fields matched") }
            return MatchVerdict(
                isMatch: false,
                distance: Double(failures.count) / Double(max(fields.count, 1)),
                detail: failures.joined(separator: "; ")
            )
        case .absent:
            return body.isEmpty
                ? MatchVerdict(isMatch: true, detail: "no body")
                : MatchVerdict(isMatch: false, detail: "expected no body, got \(Self.describe(body))")
        case .broken:
            return MatchVerdict(isMatch: false, detail: "this body matcher is broken")
        }
    }

    /// A readable form such as `JSON {"a":1}` or `contains "x"`.
    public var description: String {
        switch kind {
        case let .bytes(data): return "= \(Self.describe(data))"
        case let .text(matcher): return "\(matcher)"
        case let .json(value, options):
            var text = "= JSON \(value)"
            if options.ignoreArrayOrder { text += " (ignoring array order)" }
            if options.ignoreExtraMembers { text += " (ignoring extra members)" }
            return text
        case let .form(fields): return "form " + fields.map { "\($0.name) \($0.matcher)" }.joined(separator: ", ")
        case .absent: return "absent"
        case .broken: return "broken (" + problems.joined(separator: "; ") + ")"
        }
    }

    /// The body as quoted text (cut at 200 characters), or its size when it is not UTF-8.
    static func describe(_ data: Data) -> String {
        if data.isEmpty { return "an empty body" }
        // Only the start is decoded, so describing a huge body stays cheap; a cut may split a UTF-8
        // sequence, so up to 3 trailing bytes are dropped until it decodes.
        let head = data.prefix(1_024)
        let cut = data.count > head.count ? 3 : 0
        guard let decoded = (0...cut).lazy.compactMap({ String(data: head.dropLast($0), encoding: .utf8) }).first else {
            return "\(data.count) bytes of binary data"
        }
        // Masked before the cut while a report is built (a cut would leave half a secret readable).
        let text = LogMasking.beforeCutting(decoded)
        if data.count == head.count, text.count <= 200 { return quoted(text) }
        return quoted(String(text.prefix(200))) + "… (\(data.count) bytes)"
    }

    private static func preview(_ data: Data) -> String {
        String(decoding: data.prefix(2_000), as: UTF8.self)
    }
}
