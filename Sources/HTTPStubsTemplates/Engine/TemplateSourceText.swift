import HTTPStubs

/// A template's source as Unicode scalars, with the line starts needed to turn an offset into a
/// ``TemplateSourceLocation``.
struct TemplateSourceText: Sendable {
    /// The source, one element per Unicode scalar.
    let scalars: [Unicode.Scalar]
    /// The offset of the first scalar of each line.
    private let lineStarts: [Int]
    /// Added to every line (a template cut out of a larger text starts at `firstLine`).
    private let firstLine: Int
    /// Added to the columns of the first line.
    private let firstColumn: Int

    /// The source `text`, whose first scalar is at `line`:`column` of the enclosing text.
    init(_ text: String, line: Int = 1, column: Int = 1) {
        let scalars = Array(text.unicodeScalars)
        var starts = [0]
        var index = 0
        while index < scalars.count {
            if scalars[index] == "\r" {
                if index + 1 < scalars.count, scalars[index + 1] == "\n" { index += 1 }
                starts.append(index + 1)
            } else if scalars[index] == "\n" {
                starts.append(index + 1)
            }
            index += 1
        }
        self.scalars = scalars
        self.lineStarts = starts
        self.firstLine = line
        self.firstColumn = column
    }

    /// The location of the scalar at `offset` (the end of the text for `offset == scalars.count`).
    func location(_ offset: Int) -> TemplateSourceLocation {
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        let column = offset - lineStarts[low] + 1
        return TemplateSourceLocation(line: firstLine + low, column: low == 0 ? column + firstColumn - 1 : column)
    }

    /// The scalars in `range` as a string.
    func text(_ range: Range<Int>) -> String {
        var result = String.UnicodeScalarView()
        result.append(contentsOf: scalars[range])
        return String(result)
    }

    /// Whether `literal` is at `offset`.
    func has(_ literal: String, at offset: Int) -> Bool {
        var index = offset
        for scalar in literal.unicodeScalars {
            guard index < scalars.count, scalars[index] == scalar else { return false }
            index += 1
        }
        return true
    }
}
