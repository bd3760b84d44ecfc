import Foundation

extension Redaction {
    /// How many encodings deep a value is followed into (JSON in a JSON string, a URL in a query
    /// value, base64 of JSON in a header): deeper text is only scanned loosely.
    static let maximumNesting = 4

    /// A value whose name is not secret (a JSON string, a query or form value, a header value, an
    /// XML text, a plain-text body) with the secrets it holds replaced, the rest kept as written:
    ///
    /// - a credential as the whole value is replaced whole;
    /// - JSON text (a JSON string holding JSON) is redacted as JSON;
    /// - a URL (`scheme://…`, or a path with a query, fragment or matrix parameters) as a URL;
    /// - `name=value&…` pairs as a query;
    /// - base64 (standard or URL-safe, 16 characters to 1 MiB) of bytes that hold a secret (text,
    ///   binary, gzip) is replaced whole: it cannot be redacted in place;
    /// - percent-encoded text is decoded, redacted, and encoded again when it held a secret;
    /// - anything else is scanned loosely (see ``LooseTextRedaction``).
    func redactedValue(_ value: String, with replacement: SecretReplacement, nesting: Int = 0) -> String {
        guard redactsAnything, !value.isEmpty else { return value }
        // Shorter than any credential, and with nothing that could name or hold a value.
        if value.utf8.count < CredentialShape.minimumLength, !value.utf8.contains(where: Self.structuralBytes.contains)
        {
            return value
        }
        if isWholeCredential(value) { return replacement.replacing(value) }
        guard nesting < Self.maximumNesting else {
            return LooseTextRedaction.redacted(value, by: self, with: replacement)
        }
        let first = value.utf8.first { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\n") }
        if first == UInt8(ascii: "{") || first == UInt8(ascii: "["),
            let json = JSONTextRedaction.redacted(Substring(value), by: self, with: replacement, nesting: nesting + 1)
        {
            return json
        }
        if Self.looksLikeURL(value) { return redactedURLText(value, with: replacement, nesting: nesting + 1) }
        if let decoded = Self.base64Decoded(value),
            redactedBytes(decoded, with: .placeholder, nesting: nesting + 1) != decoded
        {
            return replacement.replacing(value)
        }
        if Self.looksLikePairs(value) {
            return redactedPairs(Substring(value), at: .query, with: replacement, nesting: nesting + 1)
        }
        if value.utf8.contains(UInt8(ascii: "%")), let decoded = PercentDecoding.decode(value), decoded != value {
            let redacted = redactedValue(decoded, with: replacement, nesting: nesting + 1)
            return redacted == decoded ? value : Self.percentEncoded(redacted)
        }
        return LooseTextRedaction.redacted(value, by: self, with: replacement)
    }

    /// Bytes whose kind nothing says (base64's contents, a body without a known type), redacted:
    /// gzip inflated and, when it held a secret, replaced whole; UTF-8 text as a value; other
    /// bytes scanned loosely.
    func redactedBytes(_ bytes: Data, with replacement: SecretReplacement, nesting: Int) -> Data {
        if let inflated = Self.inflatedGzip(bytes) {
            let redacted = redactedBytes(inflated, with: .placeholder, nesting: nesting + 1)
            return redacted == inflated ? bytes : Data(replacement.replacing(bytes.base64EncodedString()).utf8)
        }
        if let text = String(data: bytes, encoding: .utf8) {
            let redacted = redactedValue(text, with: replacement, nesting: nesting)
            return redacted == text ? bytes : Data(redacted.utf8)
        }
        return LooseTextRedaction.redacted([UInt8](bytes), by: self, with: replacement).map { Data($0) } ?? bytes
    }

    /// The bytes a value needs to hold another value: a separator (`=`, `:`), a tag, an escape,
    /// JSON or quotes.
    private static let structuralBytes = Set("=:<%{[\"'".utf8)

    /// Whether `value` is one credential and nothing else: a `Bearer` or `Basic` credential, or
    /// a JWT or prefixed token (see ``CredentialShape``), space around it aside, in 64 KiB or less.
    func isWholeCredential(_ value: String) -> Bool {
        // A credential is short: a JWT carrying many claims is a few KiB.
        guard redactsCredentialValues, value.utf8.count >= CredentialShape.minimumLength, value.utf8.count <= 64 << 10
        else { return false }
        let bytes = Array(
            value.utf8.drop { $0 == UInt8(ascii: " ") }.reversed().drop { $0 == UInt8(ascii: " ") }.reversed()
        )
        return CredentialShape.tokens(in: bytes) == [0..<bytes.count]
            || CredentialShape.isSchemeCredential(String(decoding: bytes, as: UTF8.self))
    }

    /// `scheme://…`, or a path (`/…`) with a query, a fragment or matrix parameters.
    static func looksLikeURL(_ value: String) -> Bool {
        if value.hasPrefix("/") {
            return !value.hasPrefix("//") && value.contains { $0 == "?" || $0 == "#" || $0 == ";" }
                && !value.contains(where: \.isNewline)
        }
        guard let colon = value.range(of: "://") else { return false }
        let scheme = value[..<colon.lowerBound]
        return !scheme.isEmpty && scheme.count <= 20
            && scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
            && !value.contains(where: \.isWhitespace)
    }

    /// `name=value` pairs joined by `&`, without white space, the first name made of name characters.
    private static func looksLikePairs(_ value: String) -> Bool {
        let utf8 = value.utf8
        guard let equals = utf8.firstIndex(of: UInt8(ascii: "=")), equals > utf8.startIndex,
            !utf8.contains(where: { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\t") })
        else { return false }
        return utf8[..<equals].allSatisfy { CredentialShape.isTokenByte($0) || Array("_.[]%+".utf8).contains($0) }
    }

    /// The longest base64 value that is decoded to be looked into: larger ones are files (images,
    /// documents), not credentials.
    static let maximumBase64Length = 1 << 20

    /// The bytes `value` encodes when it is base64 (standard or URL-safe, padded or not) of 16
    /// characters to ``maximumBase64Length``; `nil` otherwise.
    static func base64Decoded(_ value: String) -> Data? {
        let utf8 = value.utf8
        guard utf8.count >= 16, utf8.count <= maximumBase64Length else { return nil }
        var body = Substring(value)
        while body.hasSuffix("=") { body = body.dropLast() }
        guard value.count - body.count <= 2,
            body.utf8.allSatisfy({
                CredentialShape.isTokenByte($0) || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "/")
            })
        else { return nil }
        var standard = body.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        standard += String(repeating: "=", count: (4 - standard.utf8.count % 4) % 4)
        return Data(base64Encoded: standard)
    }

    /// The payload of gzip `bytes` (magic `1f 8b`), inflated within ``Inflate``'s limits; `nil`
    /// for other bytes, or gzip that does not inflate.
    static func inflatedGzip(_ bytes: Data) -> Data? {
        guard bytes.starts(with: [0x1F, 0x8B]),
            case let .success(inflated) = Inflate.decompress(bytes, contentEncoding: "gzip")
        else { return nil }
        return inflated
    }

    /// `text` percent-encoded as a query value: everything but unreserved characters and `/:@!$'()*,`.
    static func percentEncoded(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: "\u{0}"..."\u{7F}"))
        allowed.insert(charactersIn: "-._~/:@!$'()*,")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}
