import Foundation

/// An RFC 8259 parser that works on raw bytes, strict by default or in ``Dialect/wireMock``.
///
/// Containers are tracked on an explicit stack, so deeply nested input yields an
/// error instead of overflowing the call stack, and every byte is visited a
/// bounded number of times, so parsing is linear.
package struct JSONParser {
    /// What the parser accepts beyond RFC 8259.
    package enum Dialect {
        /// RFC 8259 exactly: one value, double-quoted strings, no comments.
        case strict
        /// JSON as WireMock reads stub mappings (Jackson with `ALLOW_COMMENTS` and
        /// `ALLOW_SINGLE_QUOTES`): `//` and `/* */` comments, single-quoted strings and names (in
        /// which `\'` is an escape), and nothing read after the first value. Everything else
        /// (`#` comments, unquoted names, trailing commas, raw control characters) is refused, as
        /// WireMock 2.35.1 refuses it.
        case wireMock
    }

    /// The deepest nesting of arrays and objects accepted.
    static let maximumDepth = 512

    /// The input.
    private let bytes: UnsafeBufferPointer<UInt8>
    /// The offset of the next byte to read.
    private var position: Int
    /// Collects locations when parsing a `JSONDocument`.
    private var recorder: JSONLocationRecorder?
    /// What is accepted beyond RFC 8259.
    private let dialect: Dialect

    /// An array or object whose contents are being parsed.
    private struct Frame {
        /// Whether this is an object rather than an array.
        let isObject: Bool
        /// The offset of the opening bracket or brace.
        let openOffset: Int
        /// The elements parsed so far, for an array.
        var elements: [JSONValue] = []
        /// The members parsed so far, for an object.
        var members: [JSONMember] = []
        /// The key of the member whose value is being parsed, for an object.
        var key = ""
        /// Whether `key` is complete, so that a problem belongs to its value.
        var hasKey = true
    }

    /// Creates a parser positioned after any byte order mark.
    private init(bytes: UnsafeBufferPointer<UInt8>, dialect: Dialect, recorder: JSONLocationRecorder?) {
        self.bytes = bytes
        self.position = Self.byteOrderMarkLength(UnsafeRawBufferPointer(bytes))
        self.dialect = dialect
        self.recorder = recorder
    }

    /// Parses one JSON document from `data`, filling `recorder` when it is not `nil`. Returns the
    /// value and, in the WireMock dialect, the offset of anything after it that was not read.
    static func parse(
        _ data: Data,
        dialect: Dialect = .strict,
        recorder: inout JSONLocationRecorder?
    ) throws(JSONParseError) -> (value: JSONValue, unreadOffset: Int?) {
        let result = data.withUnsafeBytes { raw -> Result<(JSONValue, Int?), JSONParseError> in
            Result { () throws(JSONParseError) -> (JSONValue, Int?) in
                try parse(bytes: raw.bindMemory(to: UInt8.self), dialect: dialect, recorder: &recorder)
            }
        }
        return try result.get()
    }

    /// ``parse(_:dialect:recorder:)`` of bytes the caller holds.
    static func parse(
        bytes: UnsafeBufferPointer<UInt8>,
        dialect: Dialect = .strict,
        recorder: inout JSONLocationRecorder?
    ) throws(JSONParseError) -> (value: JSONValue, unreadOffset: Int?) {
        var parser = JSONParser(bytes: bytes, dialect: dialect, recorder: recorder)
        defer { recorder = parser.recorder }
        return try parser.parseDocument()
    }

    /// The length of the UTF-8 byte order mark at the start of `bytes`: 3 or 0.
    static func byteOrderMarkLength(_ bytes: UnsafeRawBufferPointer) -> Int {
        bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    }

    /// Parses the single value that makes up the whole input; in the WireMock dialect, the first
    /// value, and the offset of what follows it (`nil` when nothing does).
    private mutating func parseDocument() throws(JSONParseError) -> (JSONValue, Int?) {
        let value = try parseValue()
        try skipWhitespace()
        guard position == bytes.count else {
            if dialect == .wireMock { return (value, position) }
            throw error(
                "extra data after the JSON value, found \(token(at: position)); a document holds exactly one value",
                at: position
            )
        }
        return (value, nil)
    }

    /// Parses a value, including everything nested in it; a problem is placed at the JSON path of
    /// the innermost value being read.
    private mutating func parseValue() throws(JSONParseError) -> JSONValue {
        var stack: [Frame] = []
        do {
            return try parseValue(stack: &stack)
        } catch {
            throw error.placed(at: Self.path(of: stack))
        }
    }

    /// The JSON path of the value the innermost open container is reading.
    private static func path(of stack: [Frame]) -> JSONPath {
        JSONPath(
            stack.compactMap { frame in
                if frame.isObject { return frame.hasKey ? .key(frame.key) : nil }
                return .index(frame.elements.count)
            }
        )
    }

    private mutating func parseValue(stack: inout [Frame]) throws(JSONParseError) -> JSONValue {
        parsing: while true {
            try skipWhitespace()
            recorder?.recordValue(at: position)
            guard position < bytes.count else { throw stack.last.map(unclosed) ?? unexpected("a value") }
            var value: JSONValue
            switch bytes[position] {
            case .leftBrace:
                guard stack.count < Self.maximumDepth else { throw tooDeep() }
                let openOffset = position
                position += 1
                try skipWhitespace()
                if next(is: .rightBrace) {
                    position += 1
                    value = .object(JSONObject())
                } else {
                    recorder?.enterObject()
                    var frame = Frame(isObject: true, openOffset: openOffset, key: try parseMemberKey())
                    // Room for a small object's members at once, rather than growing one by one.
                    frame.members.reserveCapacity(4)
                    stack.append(frame)
                    continue parsing
                }
            case .leftBracket:
                guard stack.count < Self.maximumDepth else { throw tooDeep() }
                let openOffset = position
                position += 1
                try skipWhitespace()
                if next(is: .rightBracket) {
                    position += 1
                    value = .array([])
                } else {
                    recorder?.enterArray()
                    stack.append(Frame(isObject: false, openOffset: openOffset))
                    continue parsing
                }
            case .quote:
                value = .string(try parseString())
            case .apostrophe where dialect == .wireMock:
                value = .string(try parseString())
            case .minus, .digitZero...UInt8(ascii: "9"):
                value = .number(try parseNumber())
            default:
                value = try parseLiteral()
            }

            // Add the finished value to its container; close containers that end here.
            while let top = stack.indices.last {
                try skipWhitespace()
                if stack[top].isObject {
                    let member = JSONMember(key: stack[top].key, value: value)
                    stack[top].members.append(member)
                    guard position < bytes.count else { throw unclosed(stack[top]) }
                    switch bytes[position] {
                    case .comma:
                        let commaOffset = position
                        position += 1
                        try skipWhitespace()
                        stack[top].hasKey = false
                        guard !next(is: .rightBrace) else {
                            throw error("trailing comma before '}'; remove the ','", at: commaOffset)
                        }
                        stack[top].key = try parseMemberKey()
                        stack[top].hasKey = true
                        continue parsing
                    case .rightBrace:
                        position += 1
                        let members = stack.removeLast().members
                        // A repeated key keeps its first place and its last value, as Jackson reads it for WireMock.
                        value = .object(
                            JSONObject(
                                members: dialect == .wireMock ? JSONObject(members: members).uniqueMembers : members
                            )
                        )
                        recorder?.leaveObject()
                    default:
                        throw unexpected("',' or '}' after object member", commaMayBeMissing: true)
                    }
                } else {
                    stack[top].elements.append(value)
                    guard position < bytes.count else { throw unclosed(stack[top]) }
                    switch bytes[position] {
                    case .comma:
                        let commaOffset = position
                        position += 1
                        try skipWhitespace()
                        guard !next(is: .rightBracket) else {
                            throw error("trailing comma before ']'; remove the ','", at: commaOffset)
                        }
                        recorder?.enterElement(stack[top].elements.count)
                        continue parsing
                    case .rightBracket:
                        position += 1
                        value = .array(stack.removeLast().elements)
                        recorder?.leaveArray()
                    default:
                        throw unexpected("',' or ']' after array element", commaMayBeMissing: true)
                    }
                }
            }
            return value
        }
    }

    /// Parses `"key":` at the current position and records the key.
    private mutating func parseMemberKey() throws(JSONParseError) -> String {
        guard next(is: .quote) || (dialect == .wireMock && next(is: .apostrophe)) else {
            throw unexpected(dialect == .wireMock ? "a member name in quotes" : "a member name in double quotes")
        }
        let keyOffset = position
        let key = try parseString()
        recorder?.enterMember(key, at: keyOffset)
        try skipWhitespace()
        guard next(is: .colon) else { throw unexpected("':' after member name") }
        position += 1
        return key
    }

    /// Parses a string starting at its opening quote (an apostrophe in the WireMock dialect), which
    /// also closes it.
    private mutating func parseString() throws(JSONParseError) -> String {
        let openOffset = position
        let closing = bytes[position]
        position += 1
        let start = position
        while position < bytes.count {
            let byte = bytes[position]
            if byte == closing {
                let string = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
                position += 1
                return string
            }
            if byte == .backslash {
                return try parseEscapedString(openOffset: openOffset, start: start, closing: closing)
            }
            try skipCharacter(byte)
        }
        throw unterminatedString(openOffset)
    }

    /// Finishes a string that contains escapes; the current position is its first backslash.
    private mutating func parseEscapedString(
        openOffset: Int,
        start: Int,
        closing: UInt8
    ) throws(JSONParseError) -> String {
        var utf8 = Array(bytes[start..<position])
        while position < bytes.count {
            let byte = bytes[position]
            switch byte {
            case closing:
                position += 1
                return String(decoding: utf8, as: UTF8.self)
            case .backslash:
                try parseEscape(into: &utf8, openOffset: openOffset)
            default:
                let characterStart = position
                try skipCharacter(byte)
                utf8.append(contentsOf: bytes[characterStart..<position])
            }
        }
        throw unterminatedString(openOffset)
    }

    /// Steps over one unescaped character inside a string, validating it.
    private mutating func skipCharacter(_ byte: UInt8) throws(JSONParseError) {
        if byte < 0x20 {
            throw error(
                "control character \(Self.scalarName(UInt32(byte))) must be escaped in strings; "
                    + "write \(Self.escape(forControl: byte))",
                at: position
            )
        }
        if byte < 0x80 {
            position += 1
            return
        }
        guard let length = utf8SequenceLength(at: position) else { throw invalidUTF8(at: position) }
        position += length
    }

    /// Decodes the escape sequence at the current backslash and appends its UTF-8 bytes.
    private mutating func parseEscape(into utf8: inout [UInt8], openOffset: Int) throws(JSONParseError) {
        let escapeOffset = position
        position += 1
        guard position < bytes.count else { throw unterminatedString(openOffset) }
        let byte = bytes[position]
        position += 1
        switch byte {
        case .quote, .backslash, .slash: utf8.append(byte)
        case .apostrophe where dialect == .wireMock: utf8.append(byte)
        case UInt8(ascii: "b"): utf8.append(0x08)
        case UInt8(ascii: "f"): utf8.append(0x0C)
        case UInt8(ascii: "n"): utf8.append(0x0A)
        case UInt8(ascii: "r"): utf8.append(0x0D)
        case UInt8(ascii: "t"): utf8.append(0x09)
        case UInt8(ascii: "u"):
            guard let unit = hexQuad(at: position) else {
                throw error("invalid \\u escape; expected four hexadecimal digits", at: escapeOffset)
            }
            position += 4
            var scalar = UInt32(unit)
            switch unit {
            case 0xD800...0xDBFF:
                if next(is: .backslash), position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: "u"),
                    let low = hexQuad(at: position + 2), (0xDC00...0xDFFF).contains(low)
                {
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (UInt32(low) - 0xDC00)
                    position += 6
                } else {
                    scalar = 0xFFFD
                }
            case 0xDC00...0xDFFF:
                scalar = 0xFFFD
            default:
                break
            }
            Unicode.UTF8.encode(Unicode.Scalar(scalar) ?? "\u{FFFD}") { utf8.append($0) }
        default:
            let valid = #"valid escapes are \" \\ \/ \b \f \n \r \t and \uXXXX"#
            let escaped = position - 1
            if (0x21...0x7E).contains(byte) {
                throw error(
                    "invalid escape '\\\(Character(Unicode.Scalar(byte)))' in string; \(valid)",
                    at: escapeOffset
                )
            }
            throw error("invalid escape in string: '\\' followed by \(token(at: escaped)); \(valid)", at: escapeOffset)
        }
    }

    /// The value of the four hexadecimal digits at `index`, or `nil`.
    private func hexQuad(at index: Int) -> UInt16? {
        guard index + 4 <= bytes.count else { return nil }
        var value: UInt16 = 0
        for byte in bytes[index..<index + 4] {
            let digit: UInt8
            switch byte {
            case .digitZero...UInt8(ascii: "9"): digit = byte - .digitZero
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt16(digit)
        }
        return value
    }

    /// Parses a number, validating the RFC 8259 grammar and keeping its text.
    private mutating func parseNumber() throws(JSONParseError) -> JSONNumber {
        let start = position
        if bytes[position] == .minus {
            position += 1
        }
        guard nextIsDigit() else { throw unexpected("a digit after '-'") }
        if bytes[position] == .digitZero {
            position += 1
            if nextIsDigit() { throw error("leading zeros are not allowed in numbers", at: start) }
        } else {
            skipDigits()
        }
        if next(is: .period) {
            position += 1
            guard nextIsDigit() else { throw unexpected("a digit after the decimal point") }
            skipDigits()
        }
        if next(is: UInt8(ascii: "e")) || next(is: UInt8(ascii: "E")) {
            position += 1
            if next(is: .plus) || next(is: .minus) {
                position += 1
            }
            guard nextIsDigit() else { throw unexpected("a digit in the exponent") }
            skipDigits()
        }
        return JSONNumber(
            uncheckedText: String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        )
    }

    /// Parses `true`, `false` or `null`.
    private mutating func parseLiteral() throws(JSONParseError) -> JSONValue {
        var end = position
        while end < bytes.count, Self.isLetter(bytes[end]) {
            end += 1
        }
        let word = bytes[position..<end]
        let value: JSONValue
        if word.elementsEqual("true".utf8) {
            value = .bool(true)
        } else if word.elementsEqual("false".utf8) {
            value = .bool(false)
        } else if word.elementsEqual("null".utf8) {
            value = .null
        } else {
            throw unexpected("a value")
        }
        position = end
        return value
    }

    /// Whether the next byte is `byte`.
    private func next(is byte: UInt8) -> Bool {
        position < bytes.count && bytes[position] == byte
    }

    /// Whether the next byte is an ASCII digit.
    private func nextIsDigit() -> Bool {
        position < bytes.count && (UInt8.digitZero...UInt8(ascii: "9")).contains(bytes[position])
    }

    /// Steps over ASCII digits.
    private mutating func skipDigits() {
        while nextIsDigit() {
            position += 1
        }
    }

    /// Steps over spaces, tabs and line breaks, and in the WireMock dialect over comments.
    private mutating func skipWhitespace() throws(JSONParseError) {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D:
                position += 1
            case .slash where dialect == .wireMock && position + 1 < bytes.count && bytes[position + 1] == .slash:
                while position < bytes.count, bytes[position] != 0x0A, bytes[position] != 0x0D { position += 1 }
            case .slash where dialect == .wireMock && position + 1 < bytes.count && bytes[position + 1] == .asterisk:
                let openOffset = position
                position += 2
                while position + 1 < bytes.count, !(bytes[position] == .asterisk && bytes[position + 1] == .slash) {
                    position += 1
                }
                guard position + 1 < bytes.count else {
                    throw error("a '/*' comment is not closed; end it with '*/'", at: openOffset)
                }
                position += 2
            default:
                return
            }
        }
    }

    /// The length of the well-formed UTF-8 sequence starting at `index`, or `nil`.
    private func utf8SequenceLength(at index: Int) -> Int? {
        let length: Int
        var secondByteRange: ClosedRange<UInt8> = 0x80...0xBF
        switch bytes[index] {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: length = 2
        case 0xE0:
            length = 3
            secondByteRange = 0xA0...0xBF
        case 0xED:
            length = 3
            secondByteRange = 0x80...0x9F
        case 0xE1...0xEF: length = 3
        case 0xF0:
            length = 4
            secondByteRange = 0x90...0xBF
        case 0xF4:
            length = 4
            secondByteRange = 0x80...0x8F
        case 0xF1...0xF3: length = 4
        default: return nil
        }
        guard index + length <= bytes.count, secondByteRange.contains(bytes[index + 1]) else { return nil }
        for continuation in index + 2..<index + length where bytes[continuation] & 0xC0 != 0x80 {
            return nil
        }
        return length
    }

    // MARK: - Errors

    /// An error at `offset`, with its line and column.
    private func error(_ message: String, at offset: Int) -> JSONParseError {
        let raw = UnsafeRawBufferPointer(bytes)
        let location = JSONLineTable(raw).location(ofOffset: offset, in: raw)
        return JSONParseError(message: message, line: location.line, column: location.column, offset: offset)
    }

    /// An error for something other than `expected` at the current position.
    private func unexpected(_ expected: String, commaMayBeMissing: Bool = false) -> JSONParseError {
        guard position < bytes.count else {
            return error("unexpected end of input; expected \(expected)", at: position)
        }
        let byte = bytes[position]
        if byte >= 0x80, utf8SequenceLength(at: position) == nil {
            return invalidUTF8(at: position)
        }
        let found = token(at: position)
        var hint = Self.hint(for: found)
        if hint.isEmpty, commaMayBeMissing,
            byte == .quote || byte == .leftBrace || byte == .leftBracket || byte == .minus
                || (UInt8.digitZero...UInt8(ascii: "9")).contains(byte) || Self.isLetter(byte)
        {
            hint = "; is a comma missing?"
        }
        return error("expected \(expected), found \(found)\(hint)", at: position)
    }

    /// Advice for common mistakes, given the offending token as shown by `token(at:)`.
    private static func hint(for token: String) -> String {
        switch token {
        case "'NaN'", "'Infinity'": "; NaN and Infinity are not valid JSON numbers"
        case "'True'", "'False'", "'TRUE'", "'FALSE'", "'None'", "'Null'", "'NULL'":
            "; JSON literals are lowercase: true, false, null"
        case "'''": "; strings must use double quotes"
        case "'/'": "; JSON does not allow comments"
        case "'+'": "; numbers must not start with '+'"
        default: ""
        }
    }

    /// An error for the end of input inside an unclosed container.
    private func unclosed(_ frame: Frame) -> JSONParseError {
        let raw = UnsafeRawBufferPointer(bytes)
        let open = JSONLineTable(raw).location(ofOffset: frame.openOffset, in: raw)
        let kind = frame.isObject ? "object" : "array"
        return error(
            "unexpected end of input; the \(kind) opened at line \(open.line), column \(open.column) is not closed",
            at: position
        )
    }

    /// An error for a string without its closing quote.
    private func unterminatedString(_ openOffset: Int) -> JSONParseError {
        error("unterminated string; add the closing '\"'", at: openOffset)
    }

    /// An error for a container opened beyond `maximumDepth`.
    private func tooDeep() -> JSONParseError {
        error("nesting deeper than \(Self.maximumDepth) levels", at: position)
    }

    /// An error for the malformed UTF-8 starting at `index`.
    private func invalidUTF8(at index: Int) -> JSONParseError {
        let byte = bytes[index]
        let problem = (0xC2...0xF4).contains(byte) ? "invalid UTF-8 sequence starting with byte" : "invalid UTF-8 byte"
        return error("\(problem) \(Self.hex(byte)); the file must be UTF-8 encoded", at: index)
    }

    /// The token at `index` as shown in messages: a quoted word or character, or a code point.
    private func token(at index: Int) -> String {
        let byte = bytes[index]
        if Self.isLetter(byte) {
            var end = index
            while end < bytes.count, end - index < 32,
                Self.isLetter(bytes[end]) || (UInt8.digitZero...UInt8(ascii: "9")).contains(bytes[end])
            {
                end += 1
            }
            return "'" + String(decoding: UnsafeBufferPointer(rebasing: bytes[index..<end]), as: UTF8.self) + "'"
        }
        if (0x21...0x7E).contains(byte) {
            return "'\(Character(Unicode.Scalar(byte)))'"
        }
        guard let length = utf8SequenceLength(at: index) else { return "byte \(Self.hex(byte))" }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[index..<index + length]), as: UTF8.self)
        let name = Self.scalarName(text.unicodeScalars.first?.value ?? 0xFFFD)
        return byte < 0x80 ? name : "'\(text)' (\(name))"
    }

    /// Whether `byte` is an ASCII letter.
    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }

    /// The escape sequence that writes the control character `byte` in a string.
    private static func escape(forControl byte: UInt8) -> String {
        switch byte {
        case 0x08: #"\b"#
        case 0x09: #"\t"#
        case 0x0A: #"\n"#
        case 0x0C: #"\f"#
        case 0x0D: #"\r"#
        default: #"\u"# + String(scalarName(UInt32(byte)).dropFirst(2))
        }
    }

    /// `U+XXXX` for a code point.
    private static func scalarName(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// `0xXX` for a byte.
    private static func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return "0x" + (digits.count == 1 ? "0" : "") + digits
    }
}

/// Bytes of the JSON grammar.
extension UInt8 {
    fileprivate static let quote = UInt8(ascii: "\"")
    fileprivate static let apostrophe = UInt8(ascii: "'")
    fileprivate static let asterisk = UInt8(ascii: "*")
    fileprivate static let backslash = UInt8(ascii: "\\")
    fileprivate static let slash = UInt8(ascii: "/")
    fileprivate static let comma = UInt8(ascii: ",")
    fileprivate static let colon = UInt8(ascii: ":")
    fileprivate static let period = UInt8(ascii: ".")
    fileprivate static let plus = UInt8(ascii: "+")
    fileprivate static let minus = UInt8(ascii: "-")
    fileprivate static let digitZero = UInt8(ascii: "0")
    fileprivate static let leftBrace = UInt8(ascii: "{")
    fileprivate static let rightBrace = UInt8(ascii: "}")
    fileprivate static let leftBracket = UInt8(ascii: "[")
    fileprivate static let rightBracket = UInt8(ascii: "]")
}
