extension String {
    /// Whether the code points of `needle` occur in a row in this string: a search on UTF-8 bytes,
    /// which (UTF-8 being self-synchronising) finds exactly the code-point substrings, as Java's
    /// `String.contains` does. Unlike `String.contains`, no two spellings of a character are
    /// treated as equal.
    ///
    /// Knuth–Morris–Pratt, so the time is linear in both lengths whatever the input: a hostile
    /// body such as "aaa…a" searched for "aa…ab" costs no more than any other.
    func containsCodePoints(of needle: String) -> Bool {
        var haystack = self
        var needle = needle
        return haystack.withUTF8 { haystack in
            needle.withUTF8 { needle in
                guard !needle.isEmpty else { return true }
                guard needle.count <= haystack.count else { return false }
                // fallback[i]: the length of the longest proper prefix of needle[...i] that is also its suffix.
                var fallback = [Int](repeating: 0, count: needle.count)
                var matched = 0
                for index in 1..<needle.count {
                    while matched > 0, needle[index] != needle[matched] { matched = fallback[matched - 1] }
                    if needle[index] == needle[matched] { matched += 1 }
                    fallback[index] = matched
                }
                matched = 0
                for byte in haystack {
                    while matched > 0, byte != needle[matched] { matched = fallback[matched - 1] }
                    if byte == needle[matched] { matched += 1 }
                    if matched == needle.count { return true }
                }
                return false
            }
        }
    }
}
