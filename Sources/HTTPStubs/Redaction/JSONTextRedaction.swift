/// Replaces secrets in JSON text and keeps every other byte as written, so a redacted body still
/// reads like the original and, for newline-delimited JSON, still matches requests written the
/// same way: the values of members with secret names (whole: a secret object goes too) and string
/// values shaped like credentials become a string, the replacement.
///
/// Only text that parsed as JSON is scanned (``redacted(_:by:with:)`` checks), so the scanner can
/// rely on its structure.
struct JSONTextRedaction {
    private let bytes: [UInt8]
    private let redaction: Redaction
    private let replacement: SecretReplacement
    private var index = 0
    /// Where the bytes not yet copied to `output` start.
    private var copied = 0
    private var output: [UInt8] = []

    private init(_ text: Substring, redaction: Redaction, replacement: SecretReplacement) {
        self.bytes = Array(text.utf8)
        self.redaction = redaction
        self.replacement = replacement
    }

    /// `text` redacted when it is a JSON object or array; `nil` when it is not.
    static func redacted(_ text: Substring, by redaction: Redaction, with replacement: SecretReplacement) -> String? {
        guard let value = try? JSONValue(parsing: String(text)),
            value.objectValue != nil || value.arrayValue != nil
        else { return nil }
        var scanner = JSONTextRedaction(text, redaction: redaction, replacement: replacement)
        scanner.value()
        scanner.output.append(contentsOf: scanner.bytes[scanner.copied...])
        return String(decoding: scanner.output, as: UTF8.self)
    }

    /// Scans the value at `index`, redacting inside it.
    private mutating func value() {
        skipWhitespace()
        guard index < bytes.count else { return }
        switch bytes[index] {
        case UInt8(ascii: "{"):
            index += 1
            while true {
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { break }
                let key = string()
                skipWhitespace()
                index += 1  // ':'
                skipWhitespace()
                if redaction.isSecret(key, at: .jsonMember) {
                    let start = index
                    skipValue()
                    let raw = String(decoding: bytes[start..<index], as: UTF8.self)
                    let secret = (try? JSONValue(parsing: raw))?.stringValue ?? raw
                    replace(start..<index, secret: secret)
                } else {
                    value()
                }
                if !separator() { break }
            }
            index += 1  // '}'
        case UInt8(ascii: "["):
            index += 1
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                index += 1
                return
            }
            repeat { value() } while separator()
            index += 1  // ']'
        case UInt8(ascii: "\""):
            let start = index
            let text = string()
            if redaction.isSecretValue(text) { replace(start..<index, secret: text) }
        default:
            skipValue()
        }
    }

    /// Skips white space and, when there is one, a `,`; returns whether there was.
    private mutating func separator() -> Bool {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ",") else { return false }
        index += 1
        return true
    }

    /// Copies what comes before `range` and writes the replacement as a JSON string in its place.
    private mutating func replace(_ range: Range<Int>, secret: String) {
        output.append(contentsOf: bytes[copied..<range.lowerBound])
        output.append(contentsOf: JSONValue.string(replacement.replacing(secret)).serialized().utf8)
        copied = range.upperBound
    }

    /// Reads the string at `index` (its opening quote) and returns it decoded.
    private mutating func string() -> String {
        let start = index
        index += 1
        while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
            index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
        }
        index += 1
        let raw = String(decoding: bytes[start..<min(index, bytes.count)], as: UTF8.self)
        return (try? JSONValue(parsing: raw))?.stringValue ?? raw
    }

    /// Moves past the value at `index`: a string, a literal, or a whole object or array.
    private mutating func skipValue() {
        guard index < bytes.count else { return }
        if bytes[index] == UInt8(ascii: "\"") {
            _ = string()
            return
        }
        var depth = 0
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""):
                _ = string()
                continue
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if depth == 0 { return }
                depth -= 1
                if depth == 0 {
                    index += 1
                    return
                }
            case UInt8(ascii: ","), UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"):
                if depth == 0 { return }
            default:
                break
            }
            index += 1
        }
    }

    private mutating func skipWhitespace() {
        let whitespace = [UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t")]
        while index < bytes.count, whitespace.contains(bytes[index]) {
            index += 1
        }
    }
}
