/// Values that are credentials whatever they are called: a JSON Web Token (`eyJ….….…`) anywhere in
/// the value, and an HTTP credential (`Bearer <token>`, `Basic <base64>`) as the whole value.
///
/// A `Bearer` or `Basic` value counts only when its token has eight characters or more and a digit,
/// a mix of upper- and lower-case letters, or one of `-._~+/=`: `Basic plan` and
/// `Bearer authentication` are prose, not credentials.
enum CredentialShape {
    /// Whether `value` holds a credential.
    static func matches(_ value: String) -> Bool {
        containsJWT(value) || isSchemeCredential(value)
    }

    /// Whether `value` contains three base64url segments the first of which starts `eyJ` (a JSON
    /// object's `{"`), separated by dots: the shape of a JWT (its signature may be empty).
    private static func containsJWT(_ value: String) -> Bool {
        var rest = Substring(value)
        while let start = rest.range(of: "eyJ") {
            let candidate = rest[start.lowerBound...].prefix { isBase64URL($0) || $0 == "." }
            let segments = candidate.split(separator: ".", omittingEmptySubsequences: false)
            if segments.count >= 3, segments[0].count >= 10, segments[1].count >= 2 { return true }
            rest = rest[start.upperBound...]
        }
        return false
    }

    /// Whether `value` is `Bearer <token>` or `Basic <token>` (any case) with a token that looks
    /// generated.
    private static func isSchemeCredential(_ value: String) -> Bool {
        let parts = value.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 2, ["bearer", "basic"].contains(parts[0].lowercased()) else { return false }
        let token = parts[1]
        guard token.count >= 8, token.allSatisfy({ isBase64URL($0) || "~+/=".contains($0) }) else { return false }
        let mixedCase = token.contains(where: \.isUppercase) && token.contains(where: \.isLowercase)
        return mixedCase || token.contains(where: \.isNumber) || token.contains(where: { "-._~+/=".contains($0) })
    }

    /// `A-Z`, `a-z`, `0-9`, `-` and `_`.
    private static func isBase64URL(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber || character == "-" || character == "_")
    }
}
