import HTTPStubs
import HTTPStubsLanguages

/// Finds the value a list of ``JSONPathKey``s leads to in a JSON document by reading its bytes once,
/// without building the document: for a response template that prints one scalar of the request
/// body (``TemplateShortcut``), where building the tree cost more than the rest of the render.
///
/// It checks the whole text against the grammar ``JSONParser`` applies in its strict dialect (and
/// that it is UTF-8, as a `String` made from the bytes would then hold the same bytes), and
/// follows the keys as ``JSONPathExpression/evaluate(_:)`` does on the parsed document (a member
/// name reads its object's member, an index its array's element, anything else finds nothing), so
/// what it finds is what parsing then evaluating finds. It answers ``Outcome/unsure``, and the
/// caller parses, for whatever it does not follow to the byte: text the parser would refuse (the
/// parser's error decides what then happens), bytes that are not UTF-8, a byte order mark, nesting deeper than
/// ``maximumDepth``, a member name written with escapes or non-ASCII characters in an object the
/// keys pass through (such a name may equal the key without the same bytes), a name the keys read
/// twice in one object (the parser keeps the last), and a value found that is an object, an array, a
/// number with a fraction or exponent, or a string with escapes.
struct JSONKeyPathScanner {
    /// A key as the scanner compares it: a member name's bytes, or an index.
    enum Key: Sendable, Equatable {
        case member([UInt8])
        case element(Int)
    }

    /// What the keys lead to.
    enum Outcome: Sendable, Equatable {
        /// A string without escapes: the offsets of its bytes, between the quotes.
        case string(Range<Int>)
        /// A number without fraction or exponent: the offsets of its text.
        case integer(Range<Int>)
        /// `true` or `false`.
        case bool(Bool)
        /// `null`.
        case null
        /// Nothing: a member is missing, an index is out of range, or a value has the wrong type.
        case notFound
        /// Not decided here: parse the text.
        case unsure
    }

    /// The deepest nesting of arrays and objects followed; deeper text is ``Outcome/unsure``.
    static let maximumDepth = 64

    private let bytes: UnsafeBufferPointer<UInt8>
    private let keys: [Key]
    private var position = 0
    private var found: Outcome?

    private init(bytes: UnsafeBufferPointer<UInt8>, keys: [Key]) {
        self.bytes = bytes
        self.keys = keys
    }

    /// `path` as keys to find, `nil` when a member name is not ASCII (a name with other characters
    /// may equal a member's name that has other bytes).
    static func keys(_ path: [JSONPathKey]) -> [Key]? {
        var keys: [Key] = []
        for key in path {
            switch key {
            case .member(let name):
                guard name.utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
                keys.append(.member(Array(name.utf8)))
            case .element(let index):
                keys.append(.element(index))
            }
        }
        return keys
    }

    /// What `keys` lead to in the JSON document `bytes`.
    static func find(_ keys: [Key], in bytes: UnsafeBufferPointer<UInt8>) -> Outcome {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { return .unsure }
        var scanner = JSONKeyPathScanner(bytes: bytes, keys: keys)
        guard scanner.value(depth: 0, level: 0) else { return .unsure }
        scanner.skipWhitespace()
        guard scanner.position == bytes.count else { return .unsure }
        return scanner.found ?? .notFound
    }

    /// Reads one value and what follows it up to the next token; `level` is how many keys led to it
    /// when it is on the keys' way, `nil` otherwise. `false` when the text is not followed.
    private mutating func value(depth: Int, level: Int?) -> Bool {
        skipWhitespace()
        guard position < bytes.count else { return false }
        let isTarget = level == keys.count
        switch bytes[position] {
        case UInt8(ascii: "{"):
            guard !isTarget, depth < Self.maximumDepth else { return false }
            var name: [UInt8]?
            if let level, case .member(let key) = keys[level] { name = key }
            return object(depth: depth + 1, name: name, childLevel: name == nil ? nil : level.map { $0 + 1 })
        case UInt8(ascii: "["):
            guard !isTarget, depth < Self.maximumDepth else { return false }
            var index: Int?
            if let level, case .element(let key) = keys[level] { index = key }
            return array(depth: depth + 1, index: index, childLevel: index == nil ? nil : level.map { $0 + 1 })
        case UInt8(ascii: "\""):
            let start = position + 1
            guard let escaped = string() else { return false }
            if isTarget {
                guard !escaped else { return false }
                found = .string(start..<position - 1)
            }
            return true
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let start = position
            guard let integral = number() else { return false }
            if isTarget {
                guard integral else { return false }
                found = .integer(start..<position)
            }
            return true
        default:
            let start = position
            while position < bytes.count, Self.isLetter(bytes[position]) { position += 1 }
            let word = bytes[start..<position]
            let literal: Outcome
            if word.elementsEqual("true".utf8) {
                literal = .bool(true)
            } else if word.elementsEqual("false".utf8) {
                literal = .bool(false)
            } else if word.elementsEqual("null".utf8) {
                literal = .null
            } else {
                return false
            }
            if isTarget { found = literal }
            return true
        }
    }

    /// Reads an object from its `{`; `name` is the member the keys read in it, whose value is then
    /// at `childLevel`.
    private mutating func object(depth: Int, name: [UInt8]?, childLevel: Int?) -> Bool {
        position += 1
        skipWhitespace()
        if next(is: UInt8(ascii: "}")) {
            position += 1
            return true
        }
        var matched = false
        while true {
            guard next(is: UInt8(ascii: "\"")) else { return false }
            let start = position + 1
            guard let escaped = string() else { return false }
            var onPath = false
            if let name {
                let written = UnsafeBufferPointer(rebasing: bytes[start..<position - 1])
                guard !escaped, written.allSatisfy({ $0 < 0x80 }) else { return false }
                if written.elementsEqual(name) {
                    guard !matched else { return false }
                    matched = true
                    onPath = true
                }
            }
            skipWhitespace()
            guard next(is: UInt8(ascii: ":")) else { return false }
            position += 1
            guard value(depth: depth, level: onPath ? childLevel : nil) else { return false }
            skipWhitespace()
            if next(is: UInt8(ascii: "}")) {
                position += 1
                return true
            }
            guard next(is: UInt8(ascii: ",")) else { return false }
            position += 1
            skipWhitespace()
        }
    }

    /// Reads an array from its `[`; `index` is the element the keys read in it, which is then at
    /// `childLevel`.
    private mutating func array(depth: Int, index: Int?, childLevel: Int?) -> Bool {
        position += 1
        skipWhitespace()
        if next(is: UInt8(ascii: "]")) {
            position += 1
            return true
        }
        var element = 0
        while true {
            guard value(depth: depth, level: element == index ? childLevel : nil) else { return false }
            element += 1
            skipWhitespace()
            if next(is: UInt8(ascii: "]")) {
                position += 1
                return true
            }
            guard next(is: UInt8(ascii: ",")) else { return false }
            position += 1
        }
    }

    /// Steps over a string from its opening quote: whether it has escapes, `nil` when the parser
    /// would refuse it (a control character, an invalid escape, no closing quote, bytes that are
    /// not UTF-8).
    private mutating func string() -> Bool? {
        position += 1
        var escaped = false
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            if byte == UInt8(ascii: "\"") { return escaped }
            if byte < 0x20 { return nil }
            if byte >= 0x80 {
                guard let length = utf8SequenceLength(at: position - 1) else { return nil }
                position += length - 1
                continue
            }
            guard byte == UInt8(ascii: "\\") else { continue }
            escaped = true
            guard position < bytes.count else { return nil }
            let escape = bytes[position]
            position += 1
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                continue
            case UInt8(ascii: "u"):
                guard position + 4 <= bytes.count,
                    bytes[position..<position + 4].allSatisfy({ $0.hexDigitValue != nil })
                else { return nil }
                position += 4
            default:
                return nil
            }
        }
        return nil
    }

    /// Steps over a number by RFC 8259's grammar: whether it has neither fraction nor exponent,
    /// `nil` when the parser would refuse it.
    private mutating func number() -> Bool? {
        if next(is: UInt8(ascii: "-")) { position += 1 }
        guard nextIsDigit() else { return nil }
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
            if nextIsDigit() { return nil }
        } else {
            skipDigits()
        }
        var integral = true
        if next(is: UInt8(ascii: ".")) {
            position += 1
            guard nextIsDigit() else { return nil }
            skipDigits()
            integral = false
        }
        if next(is: UInt8(ascii: "e")) || next(is: UInt8(ascii: "E")) {
            position += 1
            if next(is: UInt8(ascii: "+")) || next(is: UInt8(ascii: "-")) { position += 1 }
            guard nextIsDigit() else { return nil }
            skipDigits()
            integral = false
        }
        return integral
    }

    /// The length of the well-formed UTF-8 sequence starting at `index` (a byte of at least
    /// `0x80`), `nil` when it is not one: the parser's test.
    private func utf8SequenceLength(at index: Int) -> Int? {
        let length: Int
        var second: ClosedRange<UInt8> = 0x80...0xBF
        switch bytes[index] {
        case 0xC2...0xDF: length = 2
        case 0xE0:
            length = 3
            second = 0xA0...0xBF
        case 0xED:
            length = 3
            second = 0x80...0x9F
        case 0xE1...0xEF: length = 3
        case 0xF0:
            length = 4
            second = 0x90...0xBF
        case 0xF4:
            length = 4
            second = 0x80...0x8F
        case 0xF1...0xF3: length = 4
        default: return nil
        }
        guard index + length <= bytes.count, second.contains(bytes[index + 1]) else { return nil }
        for continuation in index + 2..<index + length where bytes[continuation] & 0xC0 != 0x80 { return nil }
        return length
    }

    private func next(is byte: UInt8) -> Bool {
        position < bytes.count && bytes[position] == byte
    }

    private func nextIsDigit() -> Bool {
        position < bytes.count && (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position])
    }

    private mutating func skipDigits() {
        while nextIsDigit() { position += 1 }
    }

    /// Steps over spaces, tabs and line breaks (no comments: the strict dialect).
    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }
}
