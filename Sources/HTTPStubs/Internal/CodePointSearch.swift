extension String {
    /// Whether the code points of `needle` occur in a row in this string: a search on UTF-8 bytes,
    /// which (UTF-8 being self-synchronising) finds exactly the code-point substrings, as Java's
    /// `String.contains` does. Unlike `String.contains`, no two spellings of a character are
    /// treated as equal.
    ///
    /// Linear in both lengths whatever the input (see ``BytePattern``).
    func containsCodePoints(of needle: String) -> Bool {
        var haystack = self
        return haystack.withUTF8 { haystack in
            BytePattern(needle.utf8).firstRange(in: UnsafeRawBufferPointer(haystack)) != nil
        }
    }
}
