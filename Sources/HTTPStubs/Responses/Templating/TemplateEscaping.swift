/// The HTML escaping of `{{ }}` tags: handlebars.java's `EscapingStrategy.HTML_ENTITY`, which
/// WireMock uses by default.
enum TemplateEscaping {
    /// `text` with `&` `<` `>` `"` `'` `` ` `` `=` replaced by `&amp;` `&lt;` `&gt;` `&quot;`
    /// `&#x27;` `&#x60;` `&#x3D;`; everything else (non-ASCII included) is kept.
    static func html(_ text: String) -> String {
        guard
            text.utf8.contains(where: {
                $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27 || $0 == 0x60 || $0 == 0x3D
            })
        else {
            return text
        }
        var result = ""
        result.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#x27;"
            case "`": result += "&#x60;"
            case "=": result += "&#x3D;"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
