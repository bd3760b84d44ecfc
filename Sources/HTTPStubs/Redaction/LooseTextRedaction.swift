/// Replaces secrets in text that no structured reader took: plain text, JSON that does not parse
/// (a trailing comma, nesting past the parser's limit, a byte that is not UTF-8, a cut), a line of
/// newline-delimited JSON that is not JSON, binary bodies. A body that cannot be parsed is not
/// "not secret": its bytes are scanned, left to right and without recursion, for
///
/// - values shaped like credentials (see ``CredentialShape``), wherever they are;
/// - values after a secret name: `"name": value` and `name: value` (a member or a header line, its
///   value to the end of the line), `name=value` (a query, a form or a cookie pair) and
///   `name="value"` (an attribute), the name read as ``SecretName`` reads it (percent-escapes
///   decoded), a value in quotes or brackets taken whole, to its end or to the end of the text;
/// - the text of an XML element with a secret name (`<password>…`, a CDATA section too);
/// - the password of a URL's user info (`scheme://user:password@`).
///
/// Every other byte is kept as it is, UTF-8 or not.
struct LooseTextRedaction {
    private let bytes: [UInt8]
    private let redaction: Redaction
    /// Where secrets are, and whether each is a bare JSON value (an object, an array, a number)
    /// that must be written back as a JSON string.
    private var secrets: [(range: Range<Int>, isJSONValue: Bool)] = []

    private init(_ bytes: [UInt8], redaction: Redaction) {
        self.bytes = bytes
        self.redaction = redaction
    }

    /// `bytes` with their secrets replaced; `nil` when there were none.
    static func redacted(
        _ bytes: [UInt8],
        by redaction: Redaction,
        with replacement: SecretReplacement
    ) -> [UInt8]? {
        guard redaction.redactsAnything, !bytes.isEmpty else { return nil }
        var scan = LooseTextRedaction(bytes, redaction: redaction)
        if redaction.redactsCredentialValues, bytes.count >= CredentialShape.minimumLength {
            scan.secrets = CredentialShape.tokens(in: bytes).map { ($0, false) }
        }
        // Names and URLs need a separator or a tag: most text has none to look at.
        if bytes.contains(where: { $0 == UInt8(ascii: "=") || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: "<") }) {
            scan.scanNamesAndURLs()
        }
        guard !scan.secrets.isEmpty else { return nil }
        return scan.replaced(with: replacement)
    }

    /// `text` with its secrets replaced (see ``redacted(_:by:with:)``).
    static func redacted(_ text: String, by redaction: Redaction, with replacement: SecretReplacement) -> String {
        redacted(Array(text.utf8), by: redaction, with: replacement).map { String(decoding: $0, as: UTF8.self) }
            ?? text
    }

    /// The bytes, each secret replaced; where secrets overlap, the one that starts first is replaced.
    private func replaced(with replacement: SecretReplacement) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var copied = 0
        for secret in secrets.sorted(by: { $0.range.lowerBound < $1.range.lowerBound })
        where secret.range.lowerBound >= copied {
            output += bytes[copied..<secret.range.lowerBound]
            let text = Self.decodedSecret(bytes[secret.range])
            let written = replacement.replacing(text)
            output += secret.isJSONValue ? Array(JSONValue.string(written).serialized().utf8) : Array(written.utf8)
            copied = secret.range.upperBound
        }
        output += bytes[copied...]
        return output
    }

    /// The secret as text: JSON escapes decoded when it was a JSON string's contents, so a secret
    /// has the same mask wherever it is.
    private static func decodedSecret(_ bytes: ArraySlice<UInt8>) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        guard bytes.contains(UInt8(ascii: "\\")) else { return text }
        return (try? JSONValue(parsing: "\"\(text)\""))?.stringValue ?? text
    }

    // MARK: Names

    /// The longest name looked at; a longer run of name characters is no name.
    private static let maximumNameLength = 128

    /// Finds the values of secret names, the text of secret XML elements and URL passwords.
    private mutating func scanNamesAndURLs() {
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\\"):
                // An escape (`\n`, `\"`) inside JSON-escaped text: the next name starts after it.
                index += 2
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                index = quotedName(at: index) ?? index + 1
            case UInt8(ascii: "<"):
                xmlElement(at: index)
                index += 1
            case UInt8(ascii: ":"):
                if redaction.redactsCredentialValues { userInfo(after: index) }
                index += 1
            case _ where Self.isNameByte(byte):
                // A name starts a word, or follows an escape (`\npassword: …`).
                let startsName =
                    index == 0 || !Self.isNameByte(bytes[index - 1])
                    || (index >= 2 && bytes[index - 2] == UInt8(ascii: "\\"))
                index = bareName(at: index, startsName: startsName)
            default:
                index += 1
            }
        }
    }

    /// Reads `"name"` or `'name'` at `start` followed by `:` or `=`; records the value when the
    /// name is secret. Returns where scanning goes on (after the separator), or `nil` when there
    /// is no quoted name there.
    private mutating func quotedName(at start: Int) -> Int? {
        let quote = bytes[start]
        var end = start + 1
        while end < bytes.count, end - start <= Self.maximumNameLength, bytes[end] != quote {
            if bytes[end] == UInt8(ascii: "\n") || bytes[end] == UInt8(ascii: "\\") { return nil }
            end += 1
        }
        guard end < bytes.count, bytes[end] == quote, end > start + 1 else { return nil }
        var separator = skipBlanks(from: end + 1)
        guard separator < bytes.count, bytes[separator] == UInt8(ascii: ":") || bytes[separator] == UInt8(ascii: "=")
        else { return nil }
        let name = String(decoding: bytes[(start + 1)..<end], as: UTF8.self)
        separator += 1
        if redaction.isSecret(name, at: .jsonMember) {
            value(at: skipBlanks(from: separator), stoppingAtLineEnd: false, inJSON: true)
        }
        return separator
    }

    /// Reads the bare name at `start` (letters, digits, `_-.[]%`); when `:` or `=` follows and the
    /// name is secret, records the value. Returns where scanning goes on.
    private mutating func bareName(at start: Int, startsName: Bool) -> Int {
        var end = start
        while end < bytes.count, Self.isNameByte(bytes[end]) { end += 1 }
        guard startsName, end - start <= Self.maximumNameLength else { return end }
        let separator = skipBlanks(from: end)
        guard separator < bytes.count else { return end }
        let name = PercentDecoding.decodeForm(String(decoding: bytes[start..<end], as: UTF8.self))
        let valueStart = skipBlanks(from: separator + 1)
        switch bytes[separator] {
        case UInt8(ascii: ":"):
            // `https://` is a scheme, not a name.
            guard
                !(separator + 2 < bytes.count && bytes[separator + 1] == UInt8(ascii: "/")
                    && bytes[separator + 2] == UInt8(ascii: "/"))
            else { return end }
            if redaction.isSecret(name, at: .jsonMember) || redaction.isSecret(name, at: .header) {
                value(at: valueStart, stoppingAtLineEnd: true, inJSON: false)
            }
        case UInt8(ascii: "="):
            let isQuoted =
                valueStart < bytes.count
                && (bytes[valueStart] == UInt8(ascii: "\"") || bytes[valueStart] == UInt8(ascii: "'"))
            let secret =
                isQuoted
                ? redaction.isSecret(name, at: .jsonMember)
                : redaction.isSecret(name, at: .query) || redaction.isSecret(name, at: .formField)
            if secret { value(at: valueStart, stoppingAtLineEnd: false, inJSON: false) }
        default:
            return end
        }
        return separator + 1
    }

    /// Records the value that starts at `start`: a quoted string's contents, a bracketed JSON
    /// value whole (when `inJSON`), or a bare value up to the end of the line (header lines) or
    /// to the next delimiter.
    private mutating func value(at start: Int, stoppingAtLineEnd: Bool, inJSON: Bool) {
        guard start < bytes.count else { return }
        let first = bytes[start]
        if first == UInt8(ascii: "\"") || first == UInt8(ascii: "'") {
            var end = start + 1
            while end < bytes.count, bytes[end] != first, bytes[end] != UInt8(ascii: "\n") {
                end += bytes[end] == UInt8(ascii: "\\") && first == UInt8(ascii: "\"") ? 2 : 1
            }
            record(start + 1..<min(end, bytes.count), isJSONValue: false)
            return
        }
        if inJSON, first == UInt8(ascii: "{") || first == UInt8(ascii: "[") {
            record(start..<balancedEnd(from: start), isJSONValue: true)
            return
        }
        var end = start
        let stops = stoppingAtLineEnd ? Self.lineEnd : inJSON ? Self.jsonValueEnd : Self.pairValueEnd
        while end < bytes.count, !stops.contains(bytes[end]) { end += 1 }
        while end > start, bytes[end - 1] == UInt8(ascii: " ") || bytes[end - 1] == UInt8(ascii: "\t") { end -= 1 }
        record(start..<end, isJSONValue: inJSON)
    }

    /// Where the JSON object or array at `start` ends (brackets counted outside strings), or the
    /// end of the text when it does not.
    private func balancedEnd(from start: Int) -> Int {
        var depth = 0
        var index = start
        var inString = false
        while index < bytes.count {
            let byte = bytes[index]
            if inString {
                if byte == UInt8(ascii: "\\") {
                    index += 1
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
            } else if byte == UInt8(ascii: "\"") {
                inString = true
            } else if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                depth += 1
            } else if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
                depth -= 1
                if depth == 0 { return index + 1 }
            }
            index += 1
        }
        return bytes.count
    }

    // MARK: XML and URLs

    /// At `<name …>`: when the element's local name is secret, records its text (or its CDATA
    /// section), up to the next `<` or the end. Its attributes are scanned as names afterwards.
    private mutating func xmlElement(at start: Int) {
        var end = start + 1
        while end < bytes.count, Self.isNameByte(bytes[end]) || bytes[end] == UInt8(ascii: ":") { end += 1 }
        guard end > start + 1, end - start <= Self.maximumNameLength else { return }
        let name = String(decoding: bytes[(start + 1)..<end], as: UTF8.self)
        guard redaction.isSecret(name, at: .jsonMember) else { return }
        var close = end
        while close < bytes.count, bytes[close] != UInt8(ascii: ">"), bytes[close] != UInt8(ascii: "<") { close += 1 }
        guard close < bytes.count, bytes[close] == UInt8(ascii: ">"), bytes[close - 1] != UInt8(ascii: "/") else {
            return
        }
        var textStart = close + 1
        let cdata = Array("<![CDATA[".utf8)
        var terminator = UInt8(ascii: "<")
        if bytes.count - textStart >= cdata.count, bytes[textStart..<(textStart + cdata.count)].elementsEqual(cdata) {
            textStart += cdata.count
            terminator = UInt8(ascii: "]")
        }
        var textEnd = textStart
        while textEnd < bytes.count, bytes[textEnd] != terminator { textEnd += 1 }
        record(textStart..<textEnd, isJSONValue: false)
    }

    /// At the `:` of `scheme://user:password@host`: records the password, or the whole user info
    /// when it has none (a token is often sent as the user name).
    private mutating func userInfo(after colon: Int) {
        guard colon + 2 < bytes.count, bytes[colon + 1] == UInt8(ascii: "/"), bytes[colon + 2] == UInt8(ascii: "/")
        else { return }
        let start = colon + 3
        var end = start
        var at: Int?
        while end < bytes.count, !Self.authorityEnd.contains(bytes[end]) {
            if bytes[end] == UInt8(ascii: "@") { at = end }
            end += 1
        }
        guard let at, at > start else { return }
        let password = bytes[start..<at].firstIndex(of: UInt8(ascii: ":")).map { $0 + 1 } ?? start
        record(password..<at, isJSONValue: false)
    }

    // MARK: Helpers

    /// Notes a secret, unless it is empty.
    private mutating func record(_ range: Range<Int>, isJSONValue: Bool) {
        guard !range.isEmpty else { return }
        secrets.append((range, isJSONValue))
    }

    /// The first index from `index` on that is not a space or a tab.
    private func skipBlanks(from index: Int) -> Int {
        var index = index
        while index < bytes.count, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") {
            index += 1
        }
        return index
    }

    /// What ends a bare value after `name:` (a header line's value runs to the end of the line).
    private static let lineEnd = Array("\n\r\"<\\".utf8)
    /// What ends a bare JSON value (a number, a literal, an unquoted word).
    private static let jsonValueEnd = Array(",}] \t\n\r".utf8)
    /// What ends a bare value after `name=` (in a query, a form, a cookie, a tag).
    private static let pairValueEnd = Array("&;, \t\n\r\"'<>)}]\\".utf8)
    /// What ends a URL's authority.
    private static let authorityEnd = Array("/?#\"'<> \t\n\r\\".utf8)

    /// Letters, digits and `_-.[]%`: what a bare name is made of.
    private static func isNameByte(_ byte: UInt8) -> Bool {
        nameBytes[Int(byte)]
    }

    /// Whether each byte is a name byte: a table, because every byte of every body is asked.
    private static let nameBytes: [Bool] = (0...255).map { value in
        let byte = UInt8(value)
        return CredentialShape.isTokenByte(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "[")
            || byte == UInt8(ascii: "]") || byte == UInt8(ascii: "%")
    }
}
