/// A position in a JSON document.
struct JSONSourceLocation: Hashable, Sendable, CustomStringConvertible {
    /// The 1-based line.
    let line: Int
    /// The 1-based column, counted in Unicode scalars.
    let column: Int
    /// The 0-based byte offset.
    let offset: Int

    /// The location as `line:column`.
    var description: String {
        "\(line):\(column)"
    }
}

/// Converts byte offsets of a UTF-8 document into lines and columns.
///
/// Line 1 starts after a byte order mark, so editors and messages agree on columns.
struct JSONLineTable: Sendable {
    /// The byte offset at which each line starts.
    private let lineStarts: [Int]

    /// Indexes the line breaks of `bytes`.
    init(_ bytes: UnsafeRawBufferPointer) {
        var lineStarts = [JSONParser.byteOrderMarkLength(bytes)]
        for index in bytes.indices where bytes[index] == UInt8(ascii: "\n") {
            lineStarts.append(index + 1)
        }
        self.lineStarts = lineStarts
    }

    /// The location of the byte at `offset` (or of the end, when `offset` is `bytes.count`).
    func location(ofOffset offset: Int, in bytes: UnsafeRawBufferPointer) -> JSONSourceLocation {
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        let lineStart = lineStarts[low]
        var column = 1
        var index = lineStart
        while index < min(offset, bytes.count) {
            if bytes[index] & 0xC0 != 0x80 { column += 1 }
            index += 1
        }
        return JSONSourceLocation(line: low + 1, column: column, offset: offset)
    }
}
