import HTTPStubs

/// A search for text within text, character for character, in time linear in both
/// (Knuth–Morris–Pratt over UTF-8 bytes): what the helpers that find text (`contains`, `replace`,
/// `cut`, `regexExtract`) use, as Java's `String.contains`, `indexOf` and `replace` find it.
///
/// Foundation's `contains`, `range(of:)` and `replacingOccurrences(of:with:)` compare canonically
/// equivalent characters as equal (`e` and a combining accent matches `é`), which Java does not, and
/// on Linux take time proportional to the text times the pattern: a 1,000-character pattern in a
/// 1 MB body took 20 seconds. A match of valid UTF-8 bytes starts and ends on character boundaries,
/// so it is a match of the characters.
struct LiteralSearch {
    /// The work budget's units for a byte of text searched (about twice reading it).
    static let costPerByte = 2

    private let pattern: [UInt8]
    /// For each prefix of the pattern, the length of its longest proper prefix that is also its
    /// suffix: where the search resumes after a mismatch.
    private let fallback: [Int]

    /// A search for `pattern`.
    init(_ pattern: String) {
        let bytes = Array(pattern.utf8)
        var fallback = [Int](repeating: 0, count: bytes.count)
        var length = 0
        for index in bytes.indices.dropFirst() {
            while length > 0 && bytes[index] != bytes[length] { length = fallback[length - 1] }
            if bytes[index] == bytes[length] { length += 1 }
            fallback[index] = length
        }
        self.pattern = bytes
        self.fallback = fallback
    }

    /// The UTF-8 offsets of the occurrences of the pattern in `text` that do not overlap, from the
    /// left, as `replace` finds them; at most `limit`. An empty pattern occurs nowhere.
    func occurrences(in text: String, limit: Int = .max) -> [Range<Int>] {
        guard !pattern.isEmpty, limit > 0 else { return [] }
        var found: [Range<Int>] = []
        var matched = 0
        for (index, byte) in text.utf8.enumerated() {
            while matched > 0 && byte != pattern[matched] { matched = fallback[matched - 1] }
            if byte == pattern[matched] { matched += 1 }
            guard matched == pattern.count else { continue }
            found.append((index + 1 - matched)..<(index + 1))
            if found.count == limit { break }
            // Occurrences do not overlap: the next starts after this one.
            matched = 0
        }
        return found
    }

    /// Whether `text` contains the pattern; it contains the empty pattern, as in Java.
    func isFound(in text: String) -> Bool {
        pattern.isEmpty || !occurrences(in: text, limit: 1).isEmpty
    }

    /// `text` with `occurrences` (from ``occurrences(in:limit:)``) replaced by `replacement`.
    static func replacing(_ occurrences: [Range<Int>], in text: String, with replacement: String) -> String {
        guard !occurrences.isEmpty else { return text }
        let bytes = Array(text.utf8)
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count + occurrences.count * replacement.utf8.count)
        var start = 0
        for occurrence in occurrences {
            result.append(contentsOf: bytes[start..<occurrence.lowerBound])
            result.append(contentsOf: replacement.utf8)
            start = occurrence.upperBound
        }
        result.append(contentsOf: bytes[start...])
        return String(decoding: result, as: UTF8.self)
    }
}
