/// Replaces secrets in JSON text and keeps every other byte as written, so a redacted body still
/// reads like the original and, for newline-delimited JSON, still matches requests written the
/// same way: the values of members with secret names (whole: a secret object goes too) become a
/// string, the replacement, and every other string value is redacted as a value of its own (see
/// ``Redaction/redactedValue(_:with:nesting:)``: a credential, JSON in the string, a URL, base64).
///
/// Only text that parsed as JSON is scanned (``redacted(_:by:with:nesting:)`` checks), so the
/// scanner can rely on its structure.
struct JSONTextRedaction {
    private let bytes: [UInt8]
    private let redaction: Redaction
    private let replacement: SecretReplacement
    /// How many encodings deep this JSON is (see ``Redaction/maximumNesting``).
    private let nesting: Int
    private var index = 0
    /// Where the bytes not yet copied to `output` start.
    private var copied = 0
    private var output: [UInt8] = []
    /// Whether each member name met so far is secret: the objects of a large array share their
    /// names, which are then read once.
    private var secretNames: [String: Bool] = [:]

    private init(_ text: Substring, redaction: Redaction, replacement: SecretReplacement, nesting: Int) {
        self.bytes = Array(text.utf8)
        self.redaction = redaction
        self.replacement = replacement
        self.nesting = nesting
    }

    /// `text` redacted when it is JSON (an object, an array or a single value); `nil` when it is not.
    static func redacted(
        _ text: Substring,
        by redaction: Redaction,
        with replacement: SecretReplacement,
        nesting: Int = 0
    ) -> String? {
        // Most text that is no JSON says so by its first character, without a parse.
        let first = text.utf8.first { !Array(" \t\r\n".utf8).contains($0) }
        guard let first, Array("{[\"-0123456789tfn".utf8).contains(first),
            (try? JSONValue(parsing: String(text))) != nil
        else { return nil }
        var scanner = JSONTextRedaction(text, redaction: redaction, replacement: replacement, nesting: nesting)
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
                let isSecret = secretNames[key] ?? redaction.isSecret(key, at: .jsonMember)
                secretNames[key] = isSecret
                if isSecret {
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
            let redacted = redaction.redactedValue(text, with: replacement, nesting: nesting)
            if redacted != text { write(start..<index, as: redacted) }
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
        write(range, as: replacement.replacing(secret))
    }

    /// Copies what comes before `range` and writes `text` as a JSON string in its place.
    private mutating func write(_ range: Range<Int>, as text: String) {
        output.append(contentsOf: bytes[copied..<range.lowerBound])
        output.append(contentsOf: JSONValue.string(text).serialized().utf8)
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
