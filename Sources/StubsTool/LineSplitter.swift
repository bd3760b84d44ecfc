/// Cuts a byte stream that arrives in chunks into lines, handing each line over as soon as its
/// line break has arrived. Only the line being read is held, and it may not grow past
/// `maximumLength` bytes, so memory stays bounded whatever the size of the stream.
struct LineSplitter {
    /// A line longer than the limit, by its 1-based number.
    struct LineTooLong: Error {
        let lineNumber: Int
    }

    /// The most bytes a line may hold, line break excluded.
    let maximumLength: Int
    /// The start of the line not yet ended by a line break.
    private var partial: [UInt8] = []
    /// The 1-based number of the line `partial` belongs to.
    private var lineNumber = 1

    init(maximumLength: Int) {
        self.maximumLength = maximumLength
    }

    /// The lines that `chunk` completes, each without its `\n` and with its number.
    mutating func lines(
        completedBy chunk: some Collection<UInt8>
    ) throws(LineTooLong) -> [(bytes: [UInt8], number: Int)] {
        var lines: [(bytes: [UInt8], number: Int)] = []
        var rest = chunk[...]
        while let breakIndex = rest.firstIndex(of: UInt8(ascii: "\n")) {
            try append(rest[..<breakIndex])
            lines.append((partial, lineNumber))
            partial = []
            lineNumber += 1
            rest = rest[rest.index(after: breakIndex)...]
        }
        try append(rest)
        return lines
    }

    /// The last line, when the stream ends without a line break after it.
    mutating func finish() -> (bytes: [UInt8], number: Int)? {
        defer { partial = [] }
        return partial.isEmpty ? nil : (partial, lineNumber)
    }

    /// Adds bytes to the current line, refusing it once it is too long.
    private mutating func append(_ bytes: some Collection<UInt8>) throws(LineTooLong) {
        guard partial.count + bytes.count <= maximumLength else { throw LineTooLong(lineNumber: lineNumber) }
        partial += bytes
    }
}
