/// Percent-decoding (`%2F` → `/`) on UTF-8 bytes, with the answers of Foundation's
/// `removingPercentEncoding`, without its round trip through `NSString` on Linux (which made it
/// the costliest step of matching a path template or reading a query).
package enum PercentDecoding {
    /// `text` with each `%XX` replaced by the byte it stands for; `nil` when a `%` is not followed
    /// by two hexadecimal digits, or when the decoded bytes are not UTF-8.
    package static func decode(_ text: some StringProtocol) -> String? {
        let utf8 = text.utf8
        // Most text has no escape: looked for in the contiguous bytes when there are some, since
        // the generic search steps through the view one code unit at a time.
        let hasEscape =
            utf8.withContiguousStorageIfAvailable { $0.contains(UInt8(ascii: "%")) } ?? utf8.contains(UInt8(ascii: "%"))
        // A `String` is handed back as it is: `String(text)` goes through a generic initializer.
        guard hasEscape else { return text as? String ?? String(text) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var iterator = utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next()?.hexDigitValue, let low = iterator.next()?.hexDigitValue else {
                return nil
            }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// A name or value of form text (`application/x-www-form-urlencoded`, a URL query) decoded:
    /// `+` is a space, and the percent-escapes are decoded, or all kept as written when one of them
    /// is invalid (as Java's lenient readers and WireMock do).
    package static func decodeForm(_ text: some StringProtocol) -> String {
        guard text.utf8.contains(UInt8(ascii: "+")) else { return decode(text) ?? String(text) }
        let spaced = String(decoding: text.utf8.map { $0 == UInt8(ascii: "+") ? UInt8(ascii: " ") : $0 }, as: UTF8.self)
        return decode(spaced) ?? spaced
    }
}
