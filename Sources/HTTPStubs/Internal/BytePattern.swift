/// A run of bytes to find in texts, found by Knuth–Morris–Pratt: the time is linear in the text
/// whatever the input, so a hostile text such as "aaa…a" searched for "aa…ab" costs no more than
/// any other. (Foundation's `Data.range(of:in:)` on Linux also copies the rest of the data for each
/// search, which made splitting a body at each of its delimiters quadratic.)
struct BytePattern {
    /// The bytes to find.
    let bytes: [UInt8]
    /// `fallback[i]`: the length of the longest proper prefix of `bytes[...i]` that is also its suffix.
    private let fallback: [Int]

    init(_ bytes: some Sequence<UInt8>) {
        let bytes = Array(bytes)
        var fallback = [Int](repeating: 0, count: bytes.count)
        var matched = 0
        for index in bytes.indices.dropFirst() {
            while matched > 0, bytes[index] != bytes[matched] { matched = fallback[matched - 1] }
            if bytes[index] == bytes[matched] { matched += 1 }
            fallback[index] = matched
        }
        self.bytes = bytes
        self.fallback = fallback
    }

    /// Where the bytes first occur in `text` at or after offset `start`, as offsets into `text`;
    /// `nil` when they do not (an empty pattern occurs at `start`).
    func firstRange(in text: UnsafeRawBufferPointer, from start: Int = 0) -> Range<Int>? {
        guard !bytes.isEmpty else { return start..<start }
        guard start <= text.count, bytes.count <= text.count - start else { return nil }
        var matched = 0
        for offset in start..<text.count {
            let byte = text[offset]
            while matched > 0, byte != bytes[matched] { matched = fallback[matched - 1] }
            if byte == bytes[matched] { matched += 1 }
            if matched == bytes.count { return (offset + 1 - matched)..<(offset + 1) }
        }
        return nil
    }
}
