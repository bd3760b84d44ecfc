/// A position in a JSON document.
package struct JSONSourceLocation: Hashable, Sendable, CustomStringConvertible {
    /// The 1-based line.
    package let line: Int
    /// The 1-based column, counted in Unicode scalars.
    package let column: Int
    /// The 0-based byte offset.
    let offset: Int

    /// The location as `line:column`.
    package var description: String {
        "\(line):\(column)"
    }
}

/// Converts byte offsets of a UTF-8 document into lines and columns.
///
/// Line 1 starts after a byte order mark, so editors and messages agree on columns. Building the
/// table reads the document once; a location then costs a binary search over the line starts and
/// a scan of at most ``checkpointInterval`` bytes, whatever the length of its line, so locating
/// every value of a minified (single-line) document stays linear in its size.
struct JSONLineTable: Sendable {
    /// How many bytes apart the column checkpoints are: the most bytes one location scans.
    static let checkpointInterval = 256

    /// The byte offset at which each line starts.
    private let lineStarts: [Int]
    /// The column of the byte at each multiple of ``checkpointInterval``: entry `k` is the column
    /// of offset `k * checkpointInterval`.
    private let checkpointColumns: [Int]

    /// Indexes the line breaks and column checkpoints of `bytes`.
    init(_ bytes: UnsafeRawBufferPointer) {
        let firstLineStart = JSONParser.byteOrderMarkLength(bytes)
        var lineStarts = [firstLineStart]
        var checkpointColumns: [Int] = []
        checkpointColumns.reserveCapacity(bytes.count / Self.checkpointInterval + 1)
        var column = 1
        var untilCheckpoint = 0
        for index in bytes.indices {
            if untilCheckpoint == 0 {
                checkpointColumns.append(column)
                untilCheckpoint = Self.checkpointInterval
            }
            untilCheckpoint -= 1
            let byte = bytes[index]
            if byte == UInt8(ascii: "\n") {
                lineStarts.append(index + 1)
                column = 1
            } else if index >= firstLineStart, byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        self.lineStarts = lineStarts
        self.checkpointColumns = checkpointColumns
    }

    /// The location of the byte at `offset` (or of the end, when `offset` is `bytes.count`).
    /// The column counts the Unicode scalars (UTF-8 lead bytes) between the line start and `offset`.
    func location(ofOffset offset: Int, in bytes: UnsafeRawBufferPointer) -> JSONSourceLocation {
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        let end = min(offset, bytes.count)
        var index = lineStarts[low]
        var column = 1
        let checkpoint = min(end / Self.checkpointInterval, checkpointColumns.count - 1)
        if checkpoint >= 0, checkpoint * Self.checkpointInterval > index {
            index = checkpoint * Self.checkpointInterval
            column = checkpointColumns[checkpoint]
        }
        while index < end {
            if bytes[index] & 0xC0 != 0x80 { column += 1 }
            index += 1
        }
        return JSONSourceLocation(line: low + 1, column: column, offset: offset)
    }
}
