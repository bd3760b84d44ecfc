import HTTPStubs

/// The HTML escaping of `{{ }}` tags: handlebars.java's `EscapingStrategy.HTML_ENTITY`, which
/// WireMock uses by default.
enum TemplateEscaping {
    /// `text` with `&` `<` `>` `"` `'` `` ` `` `=` replaced by `&amp;` `&lt;` `&gt;` `&quot;`
    /// `&#x27;` `&#x60;` `&#x3D;`; everything else (non-ASCII included) is kept.
    static func html(_ text: String) -> String {
        guard text.utf8.contains(where: needsEscaping) else { return text }
        var result: [UInt8] = []
        result.reserveCapacity(text.utf8.count + 16)
        var text = text
        text.withUTF8 { appendHTML($0, to: &result) }
        return String(decoding: result, as: UTF8.self)
    }

    /// Appends the UTF-8 `bytes` to `output` escaped as ``html(_:)`` escapes text: the replaced
    /// characters are ASCII, so the bytes of everything else are copied as they are.
    static func appendHTML(_ bytes: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
        guard bytes.contains(where: needsEscaping) else {
            output.append(contentsOf: bytes)
            return
        }
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "&"): output.append(contentsOf: "&amp;".utf8)
            case UInt8(ascii: "<"): output.append(contentsOf: "&lt;".utf8)
            case UInt8(ascii: ">"): output.append(contentsOf: "&gt;".utf8)
            case UInt8(ascii: "\""): output.append(contentsOf: "&quot;".utf8)
            case UInt8(ascii: "'"): output.append(contentsOf: "&#x27;".utf8)
            case UInt8(ascii: "`"): output.append(contentsOf: "&#x60;".utf8)
            case UInt8(ascii: "="): output.append(contentsOf: "&#x3D;".utf8)
            default: output.append(byte)
            }
        }
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
