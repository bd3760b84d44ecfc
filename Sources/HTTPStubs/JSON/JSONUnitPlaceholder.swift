import Foundation

/// A JsonUnit placeholder in the expected JSON of WireMock's `equalToJson`: a string value that
/// stands for a kind of value rather than for itself.
///
/// WireMock compares `equalToJson` with JsonUnit, which reads placeholders in string values of the
/// expected JSON (never in keys); the placeholder must be the whole string:
///
/// | placeholder | the actual value |
/// |---|---|
/// | `${json-unit.ignore}`, `#{json-unit.ignore}` | anything, `null` included; a member must be present |
/// | `${json-unit.ignore-element}` (`$` only) | anything; a member may be missing |
/// | `${json-unit.any-string}`, `-number`, `-boolean`, `-array` | a value of that JSON type |
/// | `${json-unit.missing-or-null}` | `null`, or a missing member |
/// | `${json-unit.regex}PATTERN` | a string the regular expression matches whole |
///
/// As in JsonUnit, the `any-…`, `missing-or-null` and `regex` forms also take `#` for `$`, and the
/// `.` after `json-unit` may be any one character (JsonUnit's pattern leaves it unescaped).
/// `any-array` and `missing-or-null` are WireMock 3's (JsonUnit 3 and later); WireMock 2 compares
/// them literally. A string that looks like a placeholder but is none of these (a typo, text
/// around it, `${json-unit.matches:…}`) is refused, since it would silently never match.
package enum JSONUnitPlaceholder: Sendable, Hashable, CustomStringConvertible {
    /// `${json-unit.ignore}`: any value.
    case ignore
    /// `${json-unit.ignore-element}`: any value, or none.
    case ignoreElement
    /// `${json-unit.missing-or-null}`: `null`, or no value.
    case missingOrNull
    /// `${json-unit.any-string}`.
    case anyString
    /// `${json-unit.any-number}`.
    case anyNumber
    /// `${json-unit.any-boolean}`.
    case anyBoolean
    /// `${json-unit.any-array}`.
    case anyArray
    /// `${json-unit.regex}PATTERN`: a string matching the whole pattern.
    case regex(RegularExpression)

    /// Why a string that looks like a placeholder cannot be used, and how to fix it.
    package struct Problem: Error, Sendable {
        /// The message.
        package let message: String
    }

    /// The placeholders a file may use, for messages.
    static let forms =
        "${json-unit.ignore}, ${json-unit.ignore-element}, ${json-unit.any-string}, ${json-unit.any-number}, "
        + "${json-unit.any-boolean}, ${json-unit.any-array}, ${json-unit.missing-or-null} or ${json-unit.regex}PATTERN"

    /// Reads an expected string value as JsonUnit does.
    /// - Parameters:
    ///   - text: The string value.
    ///   - place: Where it was written (`file:line:column`), for a regular expression's problems.
    /// - Returns: The placeholder, or `nil` for an ordinary string.
    /// - Throws: ``Problem`` for a string that looks like a placeholder but is not one WireMock honours.
    package static func parse(_ text: String, writtenAt place: String) throws(Problem) -> JSONUnitPlaceholder? {
        if text == "${json-unit.ignore}" || text == "#{json-unit.ignore}" { return .ignore }
        if text == "${json-unit.ignore-element}" { return .ignoreElement }
        guard text.contains("${json-unit") || text.contains("#{json-unit") else { return nil }
        let shown = quoted(text.count > 60 ? String(text.prefix(60)) + "…" : text)
        guard let form = Self.form(of: text) else {
            throw Problem(
                message:
                    "\(shown) looks like a JsonUnit placeholder but is not one: "
                    + "WireMock would compare it literally, so the stub "
                    + "would never match; a placeholder is the whole string, one of \(forms)"
            )
        }
        switch form.name {
        case "any-string" where form.rest.isEmpty: return .anyString
        case "any-number" where form.rest.isEmpty: return .anyNumber
        case "any-boolean" where form.rest.isEmpty: return .anyBoolean
        case "any-array" where form.rest.isEmpty: return .anyArray
        case "missing-or-null" where form.rest.isEmpty: return .missingOrNull
        case "ignore-element":
            throw Problem(
                message:
                    "\(shown): JsonUnit knows the ignore-element placeholder "
                    + "only as \"${json-unit.ignore-element}\" and would compare "
                    + "this string literally; write \"${json-unit.ignore-element}\" (with '$'), alone in the string"
            )
        case "regex":
            guard !form.rest.unicodeScalars.contains(where: isLineTerminator) else {
                throw Problem(
                    message:
                        "\(shown): the pattern after ${json-unit.regex} "
                        + "holds a line break, which makes JsonUnit compare the "
                        + "string literally; write the line break as \\n in the pattern"
                )
            }
            let expression = RegularExpression(form.rest, writtenAt: place)
            if let problem = expression.problem { throw Problem(message: "${json-unit.regex}: \(problem)") }
            return .regex(expression)
        case let name where name.hasPrefix("matches:"):
            throw Problem(
                message:
                    "\(shown): ${json-unit.matches:…} needs a matcher "
                    + "registered with JsonUnit in Java code, which WireMock "
                    + "does not do, so the stub would never match; "
                    + "use ${json-unit.regex}PATTERN or another placeholder (\(forms))"
            )
        default:
            throw Problem(
                message:
                    "\(shown) is not a JsonUnit placeholder WireMock knows, "
                    + "so it would be compared literally and the stub "
                    + "would never match; a placeholder is the whole string, one of \(forms)"
            )
        }
    }

    /// Splits `[$#]{json-unit?NAME}REST` (`?` any one code point but a line terminator, as Java's
    /// `.`) into its name and the text after the brace; `nil` when `text` has another shape.
    private static func form(of text: String) -> (name: String, rest: String)? {
        let scalars = text.unicodeScalars
        guard let sigil = scalars.first, sigil == "$" || sigil == "#" else { return nil }
        let afterSigil = scalars.dropFirst()
        guard afterSigil.starts(with: "{json-unit".unicodeScalars) else { return nil }
        let separatorAndRest = afterSigil.dropFirst("{json-unit".unicodeScalars.count)
        guard let separator = separatorAndRest.first, !isLineTerminator(separator) else { return nil }
        let nameAndRest = separatorAndRest.dropFirst()
        // `matches:NAME}` ends at the first brace, as JsonUnit's lazy `(.+?)\}` does; so do the others.
        guard let close = nameAndRest.firstIndex(of: "}") else { return nil }
        return (String(nameAndRest[..<close]), String(nameAndRest[nameAndRest.index(after: close)...]))
    }

    /// Whether Java's `.` refuses `scalar`: `\n`, `\r`, U+0085, U+2028 and U+2029.
    private static func isLineTerminator(_ scalar: Unicode.Scalar) -> Bool {
        ["\n", "\r", "\u{85}", "\u{2028}", "\u{2029}"].contains(scalar)
    }

    /// Whether `actual` passes; `nil` stands for a missing object member.
    func accepts(_ actual: JSONValue?) -> Bool {
        switch (self, actual) {
        case (.ignoreElement, _), (.missingOrNull, nil), (.missingOrNull, .null?), (.ignore, _?),
            (.anyString, .string?), (.anyNumber, .number?), (.anyBoolean, .bool?), (.anyArray, .array?):
            return true
        case let (.regex(expression), .string(text)?):
            return expression.matches(text)
        default:
            return false
        }
    }

    /// What the placeholder accepts, for messages: `any string`, `a string matching /[0-9]+/`.
    package var description: String {
        switch self {
        case .ignore: "any value (${json-unit.ignore})"
        case .ignoreElement: "any value or none (${json-unit.ignore-element})"
        case .missingOrNull: "null or nothing (${json-unit.missing-or-null})"
        case .anyString: "any string"
        case .anyNumber: "any number"
        case .anyBoolean: "any boolean"
        case .anyArray: "any array"
        case let .regex(expression): "a string matching \(expression)"
        }
    }
}
