extension JSONValue: CustomStringConvertible {
    /// The value as compact JSON text.
    public var description: String {
        serialized()
    }

    /// The value as JSON text.
    ///
    /// - Parameters:
    ///   - pretty: Whether to break lines and indent nested values by two spaces.
    ///   - sortedKeys: Whether to write object members ordered by key instead of as stored.
    /// - Returns: Valid JSON; numbers are written exactly as their literal text.
    package func serialized(pretty: Bool = false, sortedKeys: Bool = false) -> String {
        var writer = JSONWriter(pretty: pretty, sortedKeys: sortedKeys)
        writer.write(self, depth: 0)
        return String(decoding: writer.output, as: UTF8.self)
    }
}

/// Accumulates the UTF-8 text of a JSON value.
private struct JSONWriter {
    /// Whether to break lines and indent.
    let pretty: Bool
    /// Whether to order object members by key.
    let sortedKeys: Bool
    /// The text written so far.
    var output: [UInt8] = []

    /// Writes `value`, nested `depth` levels deep.
    mutating func write(_ value: JSONValue, depth: Int) {
        switch value {
        case .null:
            output.append(contentsOf: "null".utf8)
        case .bool(let bool):
            output.append(contentsOf: (bool ? "true" : "false").utf8)
        case .number(let number):
            output.append(contentsOf: number.text.utf8)
        case .string(let string):
            write(string)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                writeSeparator(isFirst: index == 0, depth: depth + 1)
                write(element, depth: depth + 1)
            }
            writeClosing(UInt8(ascii: "]"), isEmpty: elements.isEmpty, depth: depth)
        case .object(let object):
            let members =
                sortedKeys
                ? object.members.enumerated().sorted { ($0.element.key, $0.offset) < ($1.element.key, $1.offset) }.map(
                    \.element
                )
                : object.members
            output.append(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                writeSeparator(isFirst: index == 0, depth: depth + 1)
                write(member.key)
                output.append(UInt8(ascii: ":"))
                if pretty {
                    output.append(UInt8(ascii: " "))
                }
                write(member.value, depth: depth + 1)
            }
            writeClosing(UInt8(ascii: "}"), isEmpty: members.isEmpty, depth: depth)
        }
    }

    /// Writes the comma (unless first) and, when pretty, the line break and indentation before a child.
    private mutating func writeSeparator(isFirst: Bool, depth: Int) {
        if !isFirst {
            output.append(UInt8(ascii: ","))
        }
        writeLineBreak(depth: depth)
    }

    /// Writes the closing bracket or brace of a container, on its own line when pretty and non-empty.
    private mutating func writeClosing(_ bracket: UInt8, isEmpty: Bool, depth: Int) {
        if !isEmpty {
            writeLineBreak(depth: depth)
        }
        output.append(bracket)
    }

    /// When pretty, writes a line break and two spaces per level of `depth`.
    private mutating func writeLineBreak(depth: Int) {
        guard pretty else { return }
        output.append(UInt8(ascii: "\n"))
        output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * depth))
    }

    /// Writes `string` quoted, escaping quotes, backslashes and control characters.
    private mutating func write(_ string: String) {
        output.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): output.append(contentsOf: #"\\"#.utf8)
            case 0x08: output.append(contentsOf: #"\b"#.utf8)
            case 0x09: output.append(contentsOf: #"\t"#.utf8)
            case 0x0A: output.append(contentsOf: #"\n"#.utf8)
            case 0x0C: output.append(contentsOf: #"\f"#.utf8)
            case 0x0D: output.append(contentsOf: #"\r"#.utf8)
            case 0x00..<0x20:
                let hexDigits = Array("0123456789abcdef".utf8)
                output.append(contentsOf: #"\u00"#.utf8)
                output.append(hexDigits[Int(byte >> 4)])
                output.append(hexDigits[Int(byte & 0x0F)])
            default:
                output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}
