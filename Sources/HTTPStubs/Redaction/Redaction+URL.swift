import Foundation

extension Redaction {
    /// A header's value as it may be written: replaced whole when the header's name is secret or
    /// the value holds a credential; otherwise redacted as a value (see
    /// ``redactedValue(_:with:nesting:)``), so a URL-valued header (`Location`, `Content-Location`,
    /// `Referer`, `Link: <…>; rel="next"`, `Refresh: 0; url=…`, any header holding a URL) has its
    /// URLs' secrets replaced as in a request URL: an OAuth redirect carries its code and tokens in
    /// the query or the fragment.
    package func redactedHeader(
        _ name: String,
        _ value: String,
        with replacement: SecretReplacement = .placeholder
    ) -> String {
        if isSecret(name, at: .header) || isSecretValue(value) { return replacement.replacing(value) }
        return redactedValue(value, with: replacement)
    }

    /// `url` with its secrets replaced (see ``redactedURLText(_:with:nesting:)``).
    package func redactedURL(_ url: URL) -> URL {
        // Only whole values are replaced, by letters, or encoded again, so the text stays a URL.
        URL(string: redactedURLText(url.absoluteString, with: .placeholder)) ?? url
    }

    /// URL text with its secrets replaced and everything else kept exactly as written: the
    /// password of its user info (or the whole user info when it has no password); path segments
    /// that are credentials (`/verify/eyJ…`), or hold one, and the values of secret matrix
    /// parameters (`;api_key=…`); the values of secret parameters in its query and in its fragment
    /// (`#access_token=…&state=…`), every other value redacted as a value (a URL in a
    /// `redirect_uri`, JSON, base64).
    func redactedURLText(_ text: String, with replacement: SecretReplacement, nesting: Int = 0) -> String {
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
        if let pathStart = Self.pathStart(in: result) {
            result = result[..<pathStart] + redactedPath(result[pathStart...], with: replacement, nesting: nesting)
        }
        if let query { result += "?" + redactedPairs(query, at: .query, with: replacement, nesting: nesting) }
        if let fragment { result += "#" + redactedPairs(fragment, at: .query, with: replacement, nesting: nesting) }
        return result
    }

    /// Where the path of URL text starts: after `scheme://authority`, or at the start of a
    /// relative reference that starts with `/`.
    private static func pathStart(in text: String) -> String.Index? {
        guard let schemeEnd = text.range(of: "://") else { return text.hasPrefix("/") ? text.startIndex : nil }
        return text[schemeEnd.upperBound...].firstIndex(of: "/")
    }

    /// A path with each segment's secrets replaced: a segment that is a credential (percent-decoded
    /// or not) whole, credentials inside one, and the values of secret matrix parameters.
    private func redactedPath(_ path: Substring, with replacement: SecretReplacement, nesting: Int) -> String {
        path.split(separator: "/", omittingEmptySubsequences: false).map { segment -> String in
            var parameters = segment.split(separator: ";", omittingEmptySubsequences: false)
            guard let first = parameters.first else { return String(segment) }
            var name = String(first)
            let decoded = PercentDecoding.decode(first) ?? name
            if isWholeCredential(decoded) {
                name = replacement.replacing(decoded)
            } else if redactsCredentialValues {
                name = LooseTextRedaction.redacted(name, by: self, with: replacement)
            }
            parameters.removeFirst()
            let matrix = parameters.map { redactedPairs($0, at: .query, with: replacement, nesting: nesting) }
            return ([name] + matrix).joined(separator: ";")
        }.joined(separator: "/")
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

    /// `a=1&b=2` (a query, a fragment, a form body, matrix parameters) with the values of secret
    /// names, and credentials, replaced whole, and every other value redacted as a value (percent-
    /// encoded again when that replaced something); pairs without `=` are redacted as values too,
    /// and everything else is kept as written.
    func redactedPairs(
        _ text: Substring,
        at place: Place,
        with replacement: SecretReplacement,
        nesting: Int = 0
    ) -> String {
        text.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            guard let equals = pair.firstIndex(of: "=") else {
                let value = PercentDecoding.decodeForm(pair)
                let redacted = redactedValue(value, with: replacement, nesting: nesting + 1)
                return redacted == value ? String(pair) : Self.percentEncoded(redacted)
            }
            let name = PercentDecoding.decodeForm(pair[..<equals])
            let value = PercentDecoding.decodeForm(pair[pair.index(after: equals)...])
            if isSecret(name, at: place) || isSecretValue(value) {
                return "\(pair[...equals])\(replacement.replacing(value))"
            }
            let redacted = redactedValue(value, with: replacement, nesting: nesting + 1)
            return redacted == value ? String(pair) : "\(pair[...equals])\(Self.percentEncoded(redacted))"
        }.joined(separator: "&")
    }
}
