import Foundation

extension JSONDocument {
    /// Where, in the file, the character at `line`:`column` of the string value at `path` is
    /// written (both counted as ``TemplateSourceLocation`` counts them: Unicode scalars, `\n`,
    /// `\r\n` and a lone `\r` ending a line), reading the string's escapes; `nil` when there is no
    /// string there. A position just past the last character is the closing quote.
    package func location(inString path: JSONPath, line: Int, column: Int) -> JSONSourceLocation? {
        guard let start = offset(of: path) else { return nil }
        return withRawBytes { bytes -> Int? in
            guard start < bytes.count, bytes[start] == UInt8(ascii: "\"") || bytes[start] == UInt8(ascii: "'")
            else { return nil }
            let quote = bytes[start]
            var offset = start + 1
            var current = (line: 1, column: 1)
            var afterCR = false
            while offset < bytes.count {
                if current == (line, column) { return offset }
                let byte = bytes[offset]
                if byte == quote { return nil }
                var scalar: UInt32
                var length: Int
                if byte == UInt8(ascii: "\\"), offset + 1 < bytes.count {
                    length = 2
                    switch bytes[offset + 1] {
                    case UInt8(ascii: "n"): scalar = 0x0A
                    case UInt8(ascii: "r"): scalar = 0x0D
                    case UInt8(ascii: "u"):
                        length = 6
                        scalar = Self.hex(bytes, offset + 2) ?? 0
                        if (0xD800..<0xDC00).contains(scalar), offset + 11 < bytes.count,
                            bytes[offset + 6] == UInt8(ascii: "\\"), bytes[offset + 7] == UInt8(ascii: "u")
                        {
                            length = 12  // a surrogate pair is one scalar
                        }
                    default: scalar = UInt32(bytes[offset + 1])
                    }
                } else {
                    scalar = UInt32(byte)
                    length = byte < 0x80 ? 1 : byte < 0xE0 ? 2 : byte < 0xF0 ? 3 : 4
                }
                offset += length
                switch scalar {
                case 0x0A where afterCR:
                    afterCR = false
                case 0x0A, 0x0D:
                    current = (current.line + 1, 1)
                    afterCR = scalar == 0x0D
                default:
                    current.column += 1
                    afterCR = false
                }
            }
            return nil
        }.map(location(ofOffset:))
    }

    private static func hex(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> UInt32? {
        guard offset + 4 <= bytes.count else { return nil }
        return UInt32(String(decoding: bytes[offset..<offset + 4], as: UTF8.self), radix: 16)
    }
}
