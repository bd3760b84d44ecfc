/// `"text"` with quotes, backslashes and control characters escaped: the one way messages quote a
/// value, in the library and in the `stubs` tool, and the Swift string literal a report suggests.
///
/// Other control characters (a NUL, an escape sequence) are written as `\u{…}`, never raw:
/// messages end up in terminals and CI logs. Text longer than 200 characters is cut there, with its
/// size in bytes after, so that a huge header or body cannot swamp a report.
package func quoted(_ text: String) -> String {
    quoted(text, limit: 200)
}

/// `text` quoted as ``quoted(_:)`` quotes it, cut after `limit` characters; with no limit, the
/// Swift string literal spelling `text` exactly. While a report is built, the secrets in `text`
/// are masked first, before it is cut (see ``LogMasking/masking(_:_:)``).
package func quoted(_ text: String, limit: Int?) -> String {
    let text = LogMasking.beforeCutting(text, cut: limit != nil)
    // Most text (a path, a header value) is printable ASCII with nothing to escape, one character
    // per byte: written as it is, without splitting it into characters (which showed when loading
    // thousands of mapping files, every matcher of which quotes its value in its description).
    if text.utf8.count <= limit ?? .max,
        text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") })
    {
        return "\"" + text + "\""
    }
    var result = "\""
    var written = 0
    for character in text {
        if let limit, written == limit { return result + "\"… (\(text.utf8.count) bytes)" }
        written += 1
        for scalar in character.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.properties.generalCategory == .control:
                result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default: result.unicodeScalars.append(scalar)
            }
        }
    }
    return result + "\""
}
