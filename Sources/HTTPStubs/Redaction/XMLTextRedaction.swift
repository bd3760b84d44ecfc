import Foundation

/// Replaces secrets in XML text and keeps everything else as written: the text of elements with
/// secret names (`<password>…</password>`, `<wsse:Password Type="…">…</wsse:Password>`), the
/// values of attributes with secret names (`<login password="…"/>`), and element text shaped like
/// a credential. An element with child elements is left to its children.
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
    static func redacted(_ text: String, by redaction: Redaction, with replacement: SecretReplacement) -> String {
        guard let element, let tag, let attribute else { return text }
        let whole = NSRange(text.startIndex..., in: text)
        var secrets: [NSRange] = []
        for match in element.matches(in: text, range: whole) {
            let contents = match.range(at: 4)
            guard contents.length > 0, let name = substring(match.range(at: 2), in: text),
                let value = substring(contents, in: text)
            else { continue }
            if redaction.isSecret(name, at: .jsonMember) || redaction.isSecretValue(value) { secrets.append(contents) }
        }
        for tagMatch in tag.matches(in: text, range: whole) {
            for match in attribute.matches(in: text, range: tagMatch.range) {
                let value = match.range(at: 2).location != NSNotFound ? match.range(at: 2) : match.range(at: 3)
                guard value.length > 0, let name = substring(match.range(at: 1), in: text),
                    let secret = substring(value, in: text)
                else { continue }
                if redaction.isSecret(name, at: .jsonMember) || redaction.isSecretValue(secret) {
                    secrets.append(value)
                }
            }
        }
        var result = text
        for range in secrets.sorted(by: { $0.location > $1.location }) {
            guard let bounds = Range(range, in: result) else { continue }
            result.replaceSubrange(bounds, with: replacement.replacing(String(result[bounds])))
        }
        return result
    }

    private static func substring(_ range: NSRange, in text: String) -> String? {
        Range(range, in: text).map { String(text[$0]) }
    }
}
