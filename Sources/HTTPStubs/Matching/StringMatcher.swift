/// A test on one text value: a header value, a query parameter, a host, a path, a body.
///
/// A string literal means equality: `.header("Accept", "application/json")`.
public struct StringMatcher: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringInterpolation {
    package indirect enum Kind: Sendable, Hashable {
        case equal(String, caseInsensitive: Bool)
        case contains(String)
        case doesNotContain(String)
        case hasPrefix(String)
        case hasSuffix(String)
        case matches(RegularExpression)
        case doesNotMatch(RegularExpression)
        case anything
        case allOf([StringMatcher])
        case anyOf([StringMatcher])
        case not(StringMatcher)
    }

    package let kind: Kind

    init(_ kind: Kind) {
        self.kind = kind
    }

    /// Equality with a string literal.
    public init(stringLiteral value: String) {
        self.kind = .equal(value, caseInsensitive: false)
    }

    /// The value equals `expected` (optionally ignoring case).
    public static func equal(_ expected: String, caseInsensitive: Bool = false) -> StringMatcher {
        StringMatcher(.equal(expected, caseInsensitive: caseInsensitive))
    }

    /// The value contains `text`: its code points in a row, as Java's `String.contains` (and so
    /// WireMock) finds them, without Unicode normalisation.
    public static func contains(_ text: String) -> StringMatcher { StringMatcher(.contains(text)) }

    /// The value does not contain `text`.
    public static func doesNotContain(_ text: String) -> StringMatcher { StringMatcher(.doesNotContain(text)) }

    /// The value starts with `prefix`.
    public static func hasPrefix(_ prefix: String) -> StringMatcher { StringMatcher(.hasPrefix(prefix)) }

    /// The value ends with `suffix`.
    public static func hasSuffix(_ suffix: String) -> StringMatcher { StringMatcher(.hasSuffix(suffix)) }

    /// The whole value matches a regular expression (ICU syntax).
    ///
    /// A pattern that does not compile never matches, and the stub that uses it is reported as
    /// broken, at the line that wrote the pattern, when it is added to a registry.
    public static func matches(
        _ pattern: String,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        column: UInt = #column
    ) -> StringMatcher {
        StringMatcher(.matches(RegularExpression(pattern, fileID: fileID, line: line, column: column)))
    }

    /// The whole value matches a compiled regular expression.
    public static func matches(_ expression: RegularExpression) -> StringMatcher {
        StringMatcher(.matches(expression))
    }

    /// The whole value does not match a regular expression (ICU syntax).
    public static func doesNotMatch(
        _ pattern: String,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        column: UInt = #column
    ) -> StringMatcher {
        StringMatcher(.doesNotMatch(RegularExpression(pattern, fileID: fileID, line: line, column: column)))
    }

    /// The whole value does not match a compiled regular expression.
    public static func doesNotMatch(_ expression: RegularExpression) -> StringMatcher {
        StringMatcher(.doesNotMatch(expression))
    }

    /// Any value, as long as there is one.
    public static let anything = StringMatcher(.anything)

    /// Every matcher matches.
    public static func allOf(_ matchers: [StringMatcher]) -> StringMatcher { StringMatcher(.allOf(matchers)) }

    /// At least one matcher matches.
    public static func anyOf(_ matchers: [StringMatcher]) -> StringMatcher { StringMatcher(.anyOf(matchers)) }

    /// The matcher does not match.
    public static func not(_ matcher: StringMatcher) -> StringMatcher { StringMatcher(.not(matcher)) }

    /// Whether `value` satisfies the matcher.
    public func matches(_ value: String) -> Bool {
        switch kind {
        case let .equal(expected, caseInsensitive):
            return caseInsensitive ? value.lowercased() == expected.lowercased() : value == expected
        case let .contains(text): return value.containsCodePoints(of: text)
        case let .doesNotContain(text): return !value.containsCodePoints(of: text)
        case let .hasPrefix(prefix): return value.hasPrefix(prefix)
        case let .hasSuffix(suffix): return value.hasSuffix(suffix)
        case let .matches(expression): return expression.matches(value)
        case let .doesNotMatch(expression): return expression.problem == nil && !expression.matches(value)
        case .anything: return true
        case let .allOf(matchers): return matchers.allSatisfy { $0.matches(value) }
        case let .anyOf(matchers): return matchers.contains { $0.matches(value) }
        case let .not(matcher): return !matcher.matches(value)
        }
    }

    /// How far `value` is from satisfying the matcher, from 0 (it does) to 1; equality uses the
    /// normalised Levenshtein distance, as WireMock's near-miss ranking does.
    func distance(to value: String) -> Double {
        matches(value) ? 0 : distance(toMismatch: value)
    }

    /// ``distance(to:)`` for a value already known not to match, without testing it again.
    package func distance(toMismatch value: String) -> Double {
        switch kind {
        case let .equal(expected, caseInsensitive):
            return caseInsensitive
                ? Levenshtein.normalisedDistance(expected.lowercased(), value.lowercased())
                : Levenshtein.normalisedDistance(expected, value)
        case let .hasPrefix(prefix):
            return Levenshtein.normalisedDistance(prefix, String(value.prefix(prefix.count)))
        case let .anyOf(matchers):
            return matchers.map { $0.distance(to: value) }.min() ?? 1
        case let .allOf(matchers):
            let distances = matchers.map { $0.distance(to: value) }
            return distances.isEmpty ? 0 : distances.reduce(0, +) / Double(distances.count)
        default:
            return 1
        }
    }

    /// Problems that make this matcher unusable (regular expressions that do not compile).
    var problems: [String] {
        switch kind {
        case let .matches(expression), let .doesNotMatch(expression):
            return expression.problem.map { [$0] } ?? []
        case let .allOf(matchers), let .anyOf(matchers):
            return matchers.flatMap(\.problems)
        case let .not(matcher):
            return matcher.problems
        default:
            return []
        }
    }

    /// What a report says was expected: the quoted value for equality (`"/users/42"`), so that
    /// `expected "/users/42"` does not read `expected = "/users/42"`; the description otherwise.
    package var expectation: String {
        if case let .equal(expected, caseInsensitive) = kind {
            return caseInsensitive ? "\(quoted(expected)) (ignoring case)" : quoted(expected)
        }
        return description
    }

    /// A readable form such as `= "application/json"` or `matches /[0-9]+/`.
    public var description: String {
        switch kind {
        case let .equal(expected, caseInsensitive):
            return caseInsensitive ? "= \(quoted(expected)) (ignoring case)" : "= \(quoted(expected))"
        case let .contains(text): return "contains \(quoted(text))"
        case let .doesNotContain(text): return "does not contain \(quoted(text))"
        case let .hasPrefix(prefix): return "starts with \(quoted(prefix))"
        case let .hasSuffix(suffix): return "ends with \(quoted(suffix))"
        case let .matches(expression): return "matches \(expression)"
        case let .doesNotMatch(expression): return "does not match \(expression)"
        case .anything: return "is present"
        case let .allOf(matchers): return "(" + matchers.map(\.description).joined(separator: " and ") + ")"
        case let .anyOf(matchers): return "(" + matchers.map(\.description).joined(separator: " or ") + ")"
        case let .not(matcher): return "not (\(matcher))"
        }
    }
}
