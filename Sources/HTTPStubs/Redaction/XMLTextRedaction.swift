import Foundation

/// Replaces secrets in XML text and keeps everything else as written: the text of elements with
/// secret names (`<password>…</password>`, `<wsse:Password Type="…">…</wsse:Password>`), the
/// values of attributes with secret names (`<login password="…"/>`); every other element text and
/// attribute value is redacted as a value (see ``Redaction/redactedValue(_:with:nesting:)``). An
/// element with child elements is left to its children.
enum XMLTextRedaction {
    /// An element whose content is text: its name (with any prefix), local name, attributes, text.
    private static let element = try? NSRegularExpression(
        pattern: #"<((?:[A-Za-z_][\w.-]*:)?([A-Za-z_][\w.-]*))(\s[^<>]*)?>([^<]*)</\1\s*>"#
    )
    /// A start tag or empty-element tag.
    private static let tag = try? NSRegularExpression(pattern: #"<[A-Za-z_][^<>]*>"#)
    /// An attribute in a tag: its name and its value in double or single quotes.
    private static let attribute = try? NSRegularExpression(
        pattern: #"([A-Za-z_][\w.:-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')"#
    )

    /// `text` with its secrets replaced.
    static func redacted(
        _ text: String,
        by redaction: Redaction,
        with replacement: SecretReplacement,
        nesting: Int = 0
    ) -> String {
        guard let element, let tag, let attribute else { return text }
        let whole = NSRange(text.startIndex..., in: text)
        // Each value to replace, and whether it is secret whole (else it is redacted as a value).
        var secrets: [(range: NSRange, isWhole: Bool)] = []
        for match in element.matches(in: text, range: whole) {
            let contents = match.range(at: 4)
            guard contents.length > 0, let name = substring(match.range(at: 2), in: text) else { continue }
            secrets.append((contents, redaction.isSecret(name, at: .jsonMember)))
        }
        for tagMatch in tag.matches(in: text, range: whole) {
            for match in attribute.matches(in: text, range: tagMatch.range) {
                let value = match.range(at: 2).location != NSNotFound ? match.range(at: 2) : match.range(at: 3)
                guard value.length > 0, let name = substring(match.range(at: 1), in: text) else { continue }
                secrets.append((value, redaction.isSecret(name, at: .jsonMember)))
            }
        }
        var result = text
        for (range, isWhole) in secrets.sorted(by: { $0.range.location > $1.range.location }) {
            guard let bounds = Range(range, in: result) else { continue }
            let value = String(result[bounds])
            let redacted =
                isWhole
                ? replacement.replacing(value) : redaction.redactedValue(value, with: replacement, nesting: nesting + 1)
            if redacted != value { result.replaceSubrange(bounds, with: redacted) }
        }
        return result
    }

    private static func substring(_ range: NSRange, in text: String) -> String? {
        Range(range, in: text).map { String(text[$0]) }
    }
}
