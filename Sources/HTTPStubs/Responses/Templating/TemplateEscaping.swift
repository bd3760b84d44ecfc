/// The HTML escaping of `{{ }}` tags: handlebars.java's `EscapingStrategy.HTML_ENTITY`, which
/// WireMock uses by default.
enum TemplateEscaping {
    /// `text` with `&` `<` `>` `"` `'` `` ` `` `=` replaced by `&amp;` `&lt;` `&gt;` `&quot;`
    /// `&#x27;` `&#x60;` `&#x3D;`; everything else (non-ASCII included) is kept.
    static func html(_ text: String) -> String {
        guard text.utf8.contains(where: needsEscaping) else { return text }
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

    /// The bytes below 64 that are escaped, as a bit set: `"` `&` `'` `<` `=` `>`.
    private static let escapedBelow64: UInt64 =
        (1 << 0x22) | (1 << 0x26) | (1 << 0x27) | (1 << 0x3C) | (1 << 0x3D)
        | (1 << 0x3E)

    /// Whether `byte` is one that ``html(_:)`` replaces: one bit test for most bytes.
    private static func needsEscaping(_ byte: UInt8) -> Bool {
        byte < 64 ? escapedBelow64 & (1 << UInt64(byte)) != 0 : byte == 0x60
    }
}
