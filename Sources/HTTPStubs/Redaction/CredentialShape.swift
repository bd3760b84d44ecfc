/// Values that are credentials whatever they are called: a JSON Web Token (`eyJ….….…`), an HTTP
/// credential (`Bearer <token>`, `Basic <base64>`), and a token with the prefix one of the usual
/// services gives its keys (`ghp_…`, `github_pat_…`, `glpat-…`, `xoxb-…`, `sk_live_…`, `AKIA…`,
/// `AIza…`).
///
/// A `Bearer` or `Basic` value counts only when its token has eight characters or more and a digit,
/// a mix of upper- and lower-case letters, or one of `-._~+/=`: `Basic plan` and
/// `Bearer authentication` are prose, not credentials. A prefixed token counts only with enough
/// characters after its prefix (16 or more, 20 for the short `sk-`), so `sk-learn` is a word.
enum CredentialShape {
    /// Whether `value` holds a credential: a JWT or a prefixed token anywhere in it, or a
    /// `Bearer` or `Basic` credential as the whole value.
    static func matches(_ value: String) -> Bool {
        // The shortest credential is a `Basic` or `Bearer` token of eight characters.
        guard value.utf8.count >= minimumLength else { return false }
        return isSchemeCredential(value) || !tokens(in: Array(value.utf8)).isEmpty
    }

    /// The fewest bytes a credential takes: a token of eight characters.
    static let minimumLength = 8

    /// Where the credentials in `bytes` are: JWTs, prefixed tokens, and the tokens of `Bearer`
    /// and `Basic` credentials (the scheme itself is not included), in order, without overlaps.
    static func tokens(in bytes: [UInt8]) -> [Range<Int>] {
        var found: [Range<Int>] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            guard tokenBytes[Int(byte)] else {
                index += 1
                continue
            }
            // A JWT counts wherever it starts (after `%3D` too); the others at the start of a word.
            let startsWord = index == 0 || !tokenBytes[Int(bytes[index - 1])]
            let jwtToken = byte == UInt8(ascii: "e") ? jwt(in: bytes, from: index) : nil
            if let token = jwtToken ?? (startsWord ? credential(in: bytes, from: index) : nil) {
                found.append(token)
                index = token.upperBound
            } else {
                index += 1
            }
        }
        return found
    }

    /// The prefixed token, or the token after `Bearer ` or `Basic `, that starts at `start`.
    private static func credential(in bytes: [UInt8], from start: Int) -> Range<Int>? {
        if let prefixed = prefixedToken(in: bytes, from: start) { return prefixed }
        var end = start
        while end < bytes.count, end - start <= 6, isTokenByte(bytes[end]) { end += 1 }
        guard end - start == 5 || end - start == 6,
            ["bearer", "basic"].contains(String(decoding: bytes[start..<end], as: UTF8.self).lowercased())
        else { return nil }
        var tokenStart = end
        while tokenStart < bytes.count, bytes[tokenStart] == UInt8(ascii: " ") { tokenStart += 1 }
        guard tokenStart > end else { return nil }
        var tokenEnd = tokenStart
        while tokenEnd < bytes.count, isSchemeTokenByte(bytes[tokenEnd]) { tokenEnd += 1 }
        guard looksGenerated(bytes[tokenStart..<tokenEnd]) else { return nil }
        return tokenStart..<tokenEnd
    }

    /// A JWT starting at `start`: base64url segments separated by dots, the first starting `eyJ`
    /// (a JSON object's `{"`) with 10 characters or more, the second with 2 or more, the third
    /// (the signature) possibly empty.
    private static func jwt(in bytes: [UInt8], from start: Int) -> Range<Int>? {
        guard bytes.count - start >= 16, bytes[start] == UInt8(ascii: "e"), bytes[start + 1] == UInt8(ascii: "y"),
            bytes[start + 2] == UInt8(ascii: "J")
        else { return nil }
        var segments = [0]
        var index = start
        while index < bytes.count, isTokenByte(bytes[index]) || bytes[index] == UInt8(ascii: ".") {
            if bytes[index] == UInt8(ascii: ".") {
                // A fourth dot ends the token (JWE, with five segments, has four).
                if segments.count == 5 { break }
                segments.append(0)
            } else {
                segments[segments.count - 1] += 1
            }
            index += 1
        }
        guard segments.count >= 3, segments[0] >= 10, segments[1] >= 2 else { return nil }
        return start..<index
    }

    /// The prefixes services give their keys, each with the fewest characters that must follow it.
    private static let prefixes: [(prefix: [UInt8], minimumRest: Int)] = [
        ("ghp_", 16), ("gho_", 16), ("ghu_", 16), ("ghs_", 16), ("ghr_", 16), ("github_pat_", 16), ("glpat-", 16),
        ("xoxa-", 16), ("xoxb-", 16), ("xoxp-", 16), ("xoxr-", 16), ("xoxs-", 16), ("xapp-", 16),
        ("sk_live_", 16), ("sk_test_", 16), ("rk_live_", 16), ("rk_test_", 16), ("whsec_", 16),
        ("sk-", 20), ("AKIA", 16), ("ASIA", 16), ("AIza", 30), ("npm_", 30), ("pypi-", 30), ("SG.", 30),
    ].map { (Array($0.0.utf8), $0.1) }

    /// The first bytes of ``prefixes``: most words start with none of them.
    private static let prefixStarts = Set(prefixes.map { $0.prefix[0] })

    /// A token that starts at `start` with one of ``prefixes``.
    private static func prefixedToken(in bytes: [UInt8], from start: Int) -> Range<Int>? {
        guard prefixStarts.contains(bytes[start]) else { return nil }
        for (prefix, minimumRest) in prefixes
        where bytes.count - start > prefix.count && bytes[start..<(start + prefix.count)].elementsEqual(prefix) {
            var end = start + prefix.count
            while end < bytes.count, isTokenByte(bytes[end]) || bytes[end] == UInt8(ascii: ".") { end += 1 }
            while end > start, bytes[end - 1] == UInt8(ascii: ".") { end -= 1 }
            if end - start - prefix.count >= minimumRest { return start..<end }
        }
        return nil
    }

    /// Whether `value` is `Bearer <token>` or `Basic <token>` (any case) with a token that looks
    /// generated.
    static func isSchemeCredential(_ value: String) -> Bool {
        let parts = value.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 2, ["bearer", "basic"].contains(parts[0].lowercased()) else { return false }
        let token = Array(parts[1].utf8)
        return token.allSatisfy(isSchemeTokenByte) && looksGenerated(token[...])
    }

    /// Whether a `Bearer` or `Basic` token has eight characters or more and a digit, upper- and
    /// lower-case letters, or one of `-._~+/=`.
    private static func looksGenerated(_ token: ArraySlice<UInt8>) -> Bool {
        guard token.count >= 8 else { return false }
        let mixedCase =
            token.contains { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }
            && token.contains { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) }
        return mixedCase || token.contains { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
            || token.contains { Array("-._~+/=".utf8).contains($0) }
    }

    /// `A-Z`, `a-z`, `0-9`, `-` and `_`: base64url.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        tokenBytes[Int(byte)]
    }

    /// Whether each byte is a token byte: a table, because every byte of every body is asked.
    private static let tokenBytes: [Bool] = (0...255).map { value in
        let byte = UInt8(value)
        return (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: "_")
    }

    /// The characters of a `Bearer` or `Basic` token (RFC 7235's token68).
    private static func isSchemeTokenByte(_ byte: UInt8) -> Bool {
        isTokenByte(byte) || Array(".~+/=".utf8).contains(byte)
    }
}
