import Foundation

extension String {
    /// Whether the two texts are the same UTF-8 bytes. `==` also calls canonically equivalent texts
    /// equal (`é` as one scalar, or as `e` and a combining accent); a request or a response must keep
    /// the bytes it was given. Compared in place with `memcmp` where both are stored contiguously,
    /// as native strings are.
    func hasSameUTF8(as other: String) -> Bool {
        guard utf8.count == other.utf8.count else { return false }
        let compared = utf8.withContiguousStorageIfAvailable { mine in
            other.utf8.withContiguousStorageIfAvailable { theirs in
                mine.isEmpty || memcmp(mine.baseAddress!, theirs.baseAddress!, mine.count) == 0
            }
        }
        return (compared ?? nil) ?? utf8.elementsEqual(other.utf8)
    }
}
