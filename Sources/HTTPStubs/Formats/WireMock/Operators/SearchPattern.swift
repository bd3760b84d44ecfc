import Foundation

/// An unanchored regular expression (Java's `Matcher.find()`), compiled once.
struct SearchPattern: @unchecked Sendable {
    /// The pattern as written.
    let pattern: String
    // Invariant (why `@unchecked Sendable` holds): `expression` is an immutable NSRegularExpression,
    // documented as safe to use from several threads, and never exposed.
    private let expression: NSRegularExpression

    /// Compiles `pattern`; `nil` when it does not compile.
    init?(_ pattern: String) {
        guard let expression = try? NSRegularExpression(pattern: pattern) else { return nil }
        self.pattern = pattern
        self.expression = expression
    }

    /// Whether the pattern matches somewhere in `text`.
    func found(in text: String) -> Bool {
        expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }

    /// The groups of the first match in `text` (group 0 is the whole match; an unmatched group
    /// is empty), or `nil` when there is none.
    func groups(in text: String) -> [String]? {
        guard let match = expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) else { return nil }
        return (0..<match.numberOfRanges).map { index in
            Range(match.range(at: index), in: text).map { String(text[$0]) } ?? ""
        }
    }
}
