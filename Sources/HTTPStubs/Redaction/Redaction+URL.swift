import Foundation

extension Redaction {
    /// A header's value as it may be written: replaced when the header's name is secret or the
    /// value is shaped like a credential; a URL (`Location`, `Content-Location`, `Referer`, any
    /// value starting `http://`, `https://` or `/`) with its secrets replaced as in a request URL
    /// (an OAuth redirect carries its code and tokens in the query or the fragment).
    func redactedHeader(_ name: String, _ value: String, with replacement: SecretReplacement = .placeholder) -> String {
        if isSecret(name, at: .header) || isSecretValue(value) { return replacement.replacing(value) }
        let isURL =
            ["location", "content-location", "referer"].contains(name.lowercased())
            || value.hasPrefix("http://") || value.hasPrefix("https://") || value.hasPrefix("/")
        return isURL ? redactedURLText(value, with: replacement) : value
    }

    /// `url` with its secrets replaced (see ``redactedURLText(_:with:)``).
    func redactedURL(_ url: URL) -> URL {
        // Only whole values are replaced, by letters, so the text stays a URL.
        URL(string: redactedURLText(url.absoluteString, with: .placeholder)) ?? url
    }

    /// URL text with the password of its user info (or the whole user info when it has no
    /// password), and the values of secret or credential-shaped parameters in its query and in its
    /// fragment (`#access_token=…&state=…`), replaced; everything else is kept exactly as written.
    func redactedURLText(_ text: String, with replacement: SecretReplacement) -> String {
        guard redactsAnything else { return text }
        var rest = Substring(text)
        var fragment: Substring?
        if let hash = rest.firstIndex(of: "#") {
            fragment = rest[rest.index(after: hash)...]
            rest = rest[..<hash]
        }
        var query: Substring?
        if let mark = rest.firstIndex(of: "?") {
            query = rest[rest.index(after: mark)...]
            rest = rest[..<mark]
        }
        var result = redactedUserInfo(rest, with: replacement)
        if let query { result += "?" + redactedPairs(query, at: .query, with: replacement) }
        if let fragment { result += "#" + redactedPairs(fragment, at: .query, with: replacement) }
        return result
    }

    /// `scheme://user:password@host/path` with the password replaced, or the user info when it has
    /// none, when this redaction replaces credential-shaped values.
    private func redactedUserInfo(_ text: Substring, with replacement: SecretReplacement) -> String {
        guard redactsCredentialValues, let schemeEnd = text.range(of: "://") else { return String(text) }
        let authorityEnd = text[schemeEnd.upperBound...].firstIndex(of: "/") ?? text.endIndex
        let authority = text[schemeEnd.upperBound..<authorityEnd]
        guard let at = authority.lastIndex(of: "@") else { return String(text) }
        let userInfo = authority[..<at]
        let redacted =
            if let colon = userInfo.firstIndex(of: ":") {
                "\(userInfo[...colon])\(replacement.replacing(String(userInfo[userInfo.index(after: colon)...])))"
            } else {
                replacement.replacing(String(userInfo))
            }
        return "\(text[..<schemeEnd.upperBound])\(redacted)\(text[at...])"
    }

    /// `a=1&b=2` (a query, a fragment, a form body) with the values of secret names, and values
    /// shaped like credentials, replaced; pairs without `=` and everything else are kept as written.
    func redactedPairs(_ text: Substring, at place: Place, with replacement: SecretReplacement) -> String {
        text.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            guard let equals = pair.firstIndex(of: "=") else { return String(pair) }
            let name = PercentDecoding.decodeForm(pair[..<equals])
            let value = PercentDecoding.decodeForm(pair[pair.index(after: equals)...])
            guard isSecret(name, at: place) || isSecretValue(value) else { return String(pair) }
            return "\(pair[...equals])\(replacement.replacing(value))"
        }.joined(separator: "&")
    }
}
