import Foundation
import HTTPStubs

/// An XMLUnit placeholder in the expected document of WireMock's `equalToXml` with
/// `"enablePlaceholders": true`: a text or attribute value that stands for a kind of value.
///
/// | placeholder | the actual text or attribute value |
/// |---|---|
/// | `${xmlunit.ignore}` | anything, or none |
/// | `${xmlunit.isNumber}` | a decimal number, such as `-1.5e3` (surrounding whitespace ignored) |
/// | `${xmlunit.matchesRegex(PATTERN)}` | text in which the regular expression finds a match |
///
/// `${xmlunit.isDateTime}` (lenient Java date parsing) is not supported: a stub using it is a load
/// error. The placeholder must be the whole value.
enum XMLUnitPlaceholder: Sendable, CustomStringConvertible {
    /// `${xmlunit.ignore}`.
    case ignore
    /// `${xmlunit.isNumber}`.
    case isNumber
    /// `${xmlunit.matchesRegex(PATTERN)}`.
    case matchesRegex(CompiledRegex)

    /// XMLUnit's `IsNumberPlaceholderHandler` pattern (a constant that compiles, which the
    /// placeholder tests show).
    private static let number = try? CompiledRegex("^[-+]?[0-9]*\\.?[0-9]+([eE][-+]?[0-9]+)?$", extent: .anywhere)

    /// Whether the actual value passes; `nil` when the element has no text or lacks the attribute.
    func accepts(_ actual: String?) -> Bool {
        switch self {
        case .ignore:
            return true
        case .isNumber:
            return actual.map { Self.number?.matches(javaTrimmed($0)) ?? false } ?? false
        case let .matchesRegex(pattern):
            return actual.map { pattern.matches(javaTrimmed($0)) } ?? false
        }
    }

    /// What the placeholder accepts, for messages.
    var description: String {
        switch self {
        case .ignore: "anything (${xmlunit.ignore})"
        case .isNumber: "a number (${xmlunit.isNumber})"
        case let .matchesRegex(pattern): "text matching /\(pattern.pattern)/ (${xmlunit.matchesRegex})"
        }
    }
}

/// How placeholders are found in expected values: XMLUnit's `PlaceholderDifferenceEvaluator`,
/// with the delimiters WireMock's `placeholderOpeningDelimiterRegex` and
/// `placeholderClosingDelimiterRegex` give (`${` and `}` by default).
///
/// As in XMLUnit, a value holding `OPEN xmlunit.KEYWORD CLOSE` or `OPEN xmlunit.KEYWORD(ARGS) CLOSE`
/// is a placeholder when the keyword is one XMLUnit knows; anything else is compared literally.
package struct XMLUnitPlaceholderSyntax: Sendable {
    /// XMLUnit's placeholder pattern built from the delimiters.
    private let placeholder: CompiledRegex
    /// Where the pattern was written (`file:line:column`), for messages about regular expressions.
    private let place: String
    /// XMLUnit's argument-list pattern (`KEYWORD(ARGS)`; a constant that compiles, which the
    /// placeholder tests show).
    private static let arguments = try? CompiledRegex("((.*)\\s*\\Q(\\E(.+)\\s*\\Q)\\E\\s*)", extent: .anywhere)

    /// The syntax with these delimiters (regular expressions); `nil` or blank means the default.
    /// `place` (`file:line:column`) is where the pattern was written, for messages.
    /// - Throws: `XMLPatternError` when the delimiters do not make a pattern that compiles.
    package init(opening: String?, closing: String?, writtenAt place: String) throws(XMLPatternError) {
        self.place = place
        func delimiter(_ given: String?, default quoted: String) -> String {
            guard let given, !javaTrimmed(given).isEmpty else { return quoted }
            return given
        }
        let open = delimiter(opening, default: "\\Q${\\E")
        let close = delimiter(closing, default: "\\Q}\\E")
        let pattern = "(\\s*" + open + "\\s*\\Qxmlunit.\\E(.+)\\s*" + close + "\\s*)"
        do {
            placeholder = try CompiledRegex(pattern, extent: .anywhere)
        } catch .invalid {
            throw XMLPatternError(
                message:
                    "the placeholder delimiters \(quoted(opening ?? "${")) and "
                    + "\(quoted(closing ?? "}")) do not form a regular expression that compiles "
                    + "(XMLUnit joins them as OPENING xmlunit.KEYWORD CLOSING); check their escaping"
            )
        } catch {
            let delimiters = "\(quoted(opening ?? "${")) and \(quoted(closing ?? "}"))"
            throw XMLPatternError(
                message: "the placeholder delimiters \(delimiters) form a regular expression that \(error.explanation)"
            )
        }
    }

    /// The placeholder `value` is, or `nil` when XMLUnit compares it literally.
    /// - Throws: `XMLPatternError` for a placeholder that could never match: one XMLUnit does not
    ///   know (a typo), one this toolkit does not support, one with text around it, or a bad pattern.
    func placeholder(in value: String) throws(XMLPatternError) -> XMLUnitPlaceholder? {
        guard let found = placeholder.groups(in: value) else { return nil }
        let content = javaTrimmed(found[2])
        let keyword: String
        var firstArgument: String?
        if let arguments = Self.arguments?.groups(in: content) {
            keyword = javaTrimmed(arguments[2])
            // Java's split(",") keeps what comes before the first comma, unless nothing but commas follow.
            let list = arguments[3]
            firstArgument = list.allSatisfy { $0 == "," } ? nil : String(list.prefix { $0 != "," })
        } else {
            keyword = content
        }
        let shown = quoted(value.count > 60 ? String(value.prefix(60)) + "…" : value)
        let result: XMLUnitPlaceholder
        switch keyword {
        case "ignore":
            result = .ignore
        case "isNumber":
            result = .isNumber
        case "matchesRegex":
            guard let argument = firstArgument.map(javaTrimmed), !argument.isEmpty else {
                throw XMLPatternError(
                    message:
                        "\(shown): ${xmlunit.matchesRegex(…)} needs a regular "
                        + "expression between the parentheses, or it never matches"
                )
            }
            let pattern: CompiledRegex
            do {
                pattern = try CompiledRegex(argument, extent: .anywhere)
            } catch {
                throw XMLPatternError(
                    message:
                        "\(shown): the pattern of ${xmlunit.matchesRegex(…)} "
                        + "cannot be used, so the placeholder would never match: "
                        + error.message(pattern: argument, at: place)
                )
            }
            result = .matchesRegex(pattern)
        case "isDateTime":
            throw XMLPatternError(
                message:
                    "\(shown): ${xmlunit.isDateTime} is not supported by swift-http-stubs "
                    + "(it depends on Java's lenient, locale-specific date parsing); "
                    + "use ${xmlunit.matchesRegex(…)} with the date format you expect, "
                    + "such as ${xmlunit.matchesRegex(^\\d{4}-\\d{2}-\\d{2})}"
            )
        default:
            throw XMLPatternError(
                message:
                    "\(shown) is not an XMLUnit placeholder (the keyword "
                    + "\(quoted(keyword)) is unknown), so WireMock would compare it "
                    + "literally and the stub would never match; use ${xmlunit.ignore}, "
                    + "${xmlunit.isNumber} or ${xmlunit.matchesRegex(PATTERN)}, alone in the value"
            )
        }
        guard javaTrimmed(found[1]) == javaTrimmed(value) else {
            throw XMLPatternError(
                message:
                    "\(shown): a placeholder must be the whole text or "
                    + "attribute value (XMLUnit fails the comparison otherwise); "
                    + "move the other text out, or use ${xmlunit.matchesRegex(…)} for the whole value"
            )
        }
        return result
    }
}

/// `text` without the leading and trailing characters up to U+0020, as Java's `String.trim()`.
private func javaTrimmed(_ text: String) -> String {
    let scalars = text.unicodeScalars
    guard let first = scalars.firstIndex(where: { $0.value > 0x20 }),
        let last = scalars.lastIndex(where: { $0.value > 0x20 })
    else { return "" }
    return String(scalars[first...last])
}
