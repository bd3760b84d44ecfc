/// `"text"` with quotes and backslashes escaped: the one way messages quote a value, in the library
/// and in the `stubs` tool. Text longer than 200 characters is
/// cut there, with its size in bytes after, so that a huge header or body cannot swamp a report.
package func quoted(_ text: String) -> String {
    var result = "\""
    var written = 0
    for character in text {
        guard written < 200 else { return result + "\"… (\(text.utf8.count) bytes)" }
        written += 1
        switch character {
        case "\"": result += "\\\""
        case "\\": result += "\\\\"
        case "\n": result += "\\n"
        case "\r": result += "\\r"
        case "\t": result += "\\t"
        default:
            // Other control characters (a NUL, an escape sequence) are written as \u{…}, never raw:
            // messages end up in terminals and CI logs.
            if character.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
                for scalar in character.unicodeScalars {
                    result += scalar.properties.generalCategory == .control ? "\\u{\(String(scalar.value, radix: 16, uppercase: true))}" : String(scalar)
                }
            } else {
                result.append(character)
            }
        }
    }
    return result + "\""
}
