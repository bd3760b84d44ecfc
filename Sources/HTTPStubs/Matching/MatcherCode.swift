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

    /// A value test as Swift (`"text"`, `.contains("json")`), its text passed through `mask`; `nil`
    /// for text longer than 500 characters, which a report does not paste whole.
    private static func literal(_ matcher: StringMatcher, mask: (String) -> String) -> String? {
        switch matcher.kind {
        case let .equal(text, _), let .contains(text), let .doesNotContain(text), let .hasPrefix(text),
            let .hasSuffix(text):
            guard text.count <= 500 else { return nil }
        case .matches, .doesNotMatch, .anything, .allOf, .anyOf, .not: return nil
        }
        switch matcher.kind {
        case let .equal(text, caseInsensitive: false): return quoted(mask(text), limit: nil)
        case let .equal(text, caseInsensitive: true):
            return ".equal(\(quoted(mask(text), limit: nil)), caseInsensitive: true)"
        case let .contains(text): return ".contains(\(quoted(mask(text), limit: nil)))"
        case let .doesNotContain(text): return ".doesNotContain(\(quoted(mask(text), limit: nil)))"
        case let .hasPrefix(text): return ".hasPrefix(\(quoted(mask(text), limit: nil)))"
        case let .hasSuffix(text): return ".hasSuffix(\(quoted(mask(text), limit: nil)))"
        case .matches, .doesNotMatch, .anything, .allOf, .anyOf, .not: return nil
        }
    }
}
