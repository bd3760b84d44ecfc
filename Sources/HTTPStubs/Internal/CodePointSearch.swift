extension String {
    /// Whether the code points of `needle` occur in a row in this string: a search on UTF-8 bytes,
    /// which (UTF-8 being self-synchronising) finds exactly the code-point substrings, as Java's
    /// `String.contains` does. Unlike `String.contains`, no two spellings of a character are
    /// treated as equal, and a 10 MB body is searched in milliseconds.
    func containsCodePoints(of needle: String) -> Bool {
        var haystack = self
        var needle = needle
        return haystack.withUTF8 { haystack in
            needle.withUTF8 { needle in
                guard let first = needle.first else { return true }
                guard needle.count <= haystack.count else { return false }
                var start = 0
                let lastStart = haystack.count - needle.count
                while start <= lastStart {
                    if haystack[start] == first, needle.indices.allSatisfy({ haystack[start + $0] == needle[$0] }) {
                        return true
                    }
                    start += 1
                }
                return false
            }
        }
    }
}
