/// Edit distance between strings, for ranking near misses.
enum Levenshtein {
    /// The Levenshtein distance divided by the longer length: 0 for equal strings, 1 for nothing in common.
    ///
    /// Long values are compared on their first 2,000 characters so that a huge body cannot make
    /// diagnostics slow.
    static func normalisedDistance(_ a: String, _ b: String) -> Double {
        let left = Array(a.unicodeScalars.prefix(2_000))
        let right = Array(b.unicodeScalars.prefix(2_000))
        let longest = max(left.count, right.count)
        guard longest > 0 else { return 0 }
        return Double(distance(left, right)) / Double(longest)
    }

    private static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
