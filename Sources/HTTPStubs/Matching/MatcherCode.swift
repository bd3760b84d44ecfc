/// How a matcher is written in Swift on a ``RequestPattern``, for the matchers a near-miss report
/// can write back into a stub to paste (`.header("Accept", "application/json")`); other matchers
/// (closures, regular expressions, bodies, combinations) have none.
enum MatcherCode: Sendable {
    case header(String, StringMatcher)
    case headerAbsent(String)
    case query(String, StringMatcher)
    case queryAbsent(String)

    /// The modifier, with what it quotes of secrets masked as reports mask them; `nil` when the
    /// value test has no literal spelling here (a regular expression, a combination).
    var maskedCode: String? {
        switch self {
        case let .header(name, matcher):
            return Self.literal(matcher) { LogMasking.header(name, $0) }.map {
                ".header(\(quoted(name, limit: nil)), \($0))"
            }
        case let .headerAbsent(name):
            return ".headerAbsent(\(quoted(name, limit: nil)))"
        case let .query(name, matcher):
            return Self.literal(matcher) { LogMasking.text($0, part: .query(name)) }.map {
                ".query(\(quoted(name, limit: nil)), \($0))"
            }
        case let .queryAbsent(name):
            return ".queryAbsent(\(quoted(name, limit: nil)))"
        }
    }

    /// The most characters of a value a stub to paste spells out whole.
    static let pastedLength = 500
    /// How many characters of a longer value the stub to paste keeps, in a test that still accepts it.
    static let excerptLength = 200

    /// A value test as Swift (`"text"`, `.contains("json")`), its text passed through `mask`; `nil`
    /// when it has no literal spelling. Text longer than ``pastedLength`` characters is not pasted
    /// whole: the test becomes one on its first (or, for `.hasSuffix`, last) ``excerptLength``
    /// characters that accepts every value the original accepts (`.hasPrefix("yyy…")` for
    /// `"yyy…"`), or `nil` when none does (`.doesNotContain`, a case-insensitive equality).
    private static func literal(_ matcher: StringMatcher, mask: (String) -> String) -> String? {
        func code(_ text: String) -> String { quoted(mask(text), limit: nil) }
        func start(_ text: String) -> String { code(String(text.prefix(excerptLength))) }
        switch matcher.kind {
        case let .equal(text, caseInsensitive: false) where text.count > pastedLength,
            let .hasPrefix(text) where text.count > pastedLength:
            return ".hasPrefix(\(start(text)))"
        case let .contains(text) where text.count > pastedLength: return ".contains(\(start(text)))"
        case let .hasSuffix(text) where text.count > pastedLength:
            return ".hasSuffix(\(code(String(text.suffix(excerptLength)))))"
        case let .equal(text, _) where text.count > pastedLength,
            let .doesNotContain(text) where text.count > pastedLength:
            return nil
        case let .equal(text, caseInsensitive: false): return code(text)
        case let .equal(text, caseInsensitive: true): return ".equal(\(code(text)), caseInsensitive: true)"
        case let .contains(text): return ".contains(\(code(text)))"
        case let .doesNotContain(text): return ".doesNotContain(\(code(text)))"
        case let .hasPrefix(text): return ".hasPrefix(\(code(text)))"
        case let .hasSuffix(text): return ".hasSuffix(\(code(text)))"
        case .matches, .doesNotMatch, .anything, .allOf, .anyOf, .not: return nil
        }
    }
}
