import Foundation

/// Masks secrets in what the toolkit prints into test logs and CI output (the near-miss report,
/// `stubs match`, test failures), by the policy of ``Redaction/default``: each secret becomes
/// `<redacted:1a2b3c>` (see ``SecretReplacement``), so two different secrets still read
/// differently and a mismatch between the token a stub expects and the one a request carries
/// stays visible.
enum LogMasking {
    /// The policy: what the default redaction keeps off disk is masked in logs.
    private static let policy = Redaction.default

    /// A URL with its query and fragment secrets and user-info password masked.
    static func url(_ text: String) -> String {
        policy.redactedURLText(text, with: .mask)
    }

    /// A header value, masked when the header is secret or the value is a credential.
    static func header(_ name: String, _ value: String) -> String {
        policy.redactedHeader(name, value, with: .mask)
    }

    /// A body with its secrets masked, as recording would redact them.
    static func body(_ body: Data, contentType: String?) -> Data {
        policy.redactedBody(body, contentType: contentType, with: .mask)
    }

    /// A matcher's description or verdict detail, masked: every quoted value when the matcher
    /// tests a secret header, query parameter, form field or any cookie; otherwise quoted values
    /// that are credentials, URLs, JSON or form text with secrets, `JSON {…}` values, JSON
    /// differences at a secret member (`$.password: expected "…", got "…"`), form fields with
    /// secret names (`field password: …`) and secret `name=value` pairs of a whole query.
    static func text(_ text: String, part: RequestMatcher.Part) -> String {
        let words = part.name.split(separator: " ", maxSplits: 1).map(String.init)
        if words.count == 2, isSecret(kind: words[0], name: words[1]) {
            return maskingQuoted(text) { SecretReplacement.mask.replacing($0) }
        }
        var masked = maskingJSONValues(text)
        masked = maskingQuoted(masked, value)
        masked = masked.components(separatedBy: "; ").map(maskingSecretSegment).joined(separator: "; ")
        if part.name == "query (all)" {
            masked = masked.split(separator: " ", omittingEmptySubsequences: false).map { word in
                word.contains("=") ? policy.redactedPairs(word, at: .query, with: .mask) : String(word)
            }.joined(separator: " ")
        }
        return masked
    }

    /// Whether a matcher on the part `kind name` (`header Authorization`) tests a secret.
    private static func isSecret(kind: String, name: String) -> Bool {
        switch kind {
        case "header": policy.isSecret(name, at: .header)
        case "query": name != "(all)" && policy.isSecret(name, at: .query)
        case "form": policy.isSecret(name, at: .formField)
        case "cookie": true
        default: false
        }
    }

    /// One quoted value, masked by what it holds.
    private static func value(_ content: String) -> String {
        if policy.isSecretValue(content) { return SecretReplacement.mask.replacing(content) }
        if content.contains("://") || (content.hasPrefix("/") && (content.contains("?") || content.contains("#"))) {
            return url(content)
        }
        if let json = policy.redactedJSONText(content, with: .mask) { return json }
        if content.contains("="), !content.contains(" ") {
            return policy.redactedPairs(Substring(content), at: .query, with: .mask)
        }
        return content
    }

    /// A `; `-separated part of a detail, every quoted value masked when it speaks of a secret
    /// JSON member (`$.user.password: …`) or form field (`field password: …`).
    private static func maskingSecretSegment(_ segment: String) -> String {
        // The first difference of a JSON body comes after this.
        let marker = "JSON differs: "
        let difference = segment.hasPrefix(marker) ? segment.dropFirst(marker.count) : Substring(segment)
        var name: String?
        if difference.hasPrefix("$"), let colon = difference.range(of: ": ") {
            name = lastKey(of: String(difference[..<colon.lowerBound]))
        } else if segment.hasPrefix("field ") {
            name = segment.dropFirst("field ".count).split { $0 == ":" || $0 == " " }.first.map(String.init)
        }
        let place: Redaction.Place = difference.hasPrefix("$") ? .jsonMember : .formField
        guard let name, policy.isSecret(name, at: place) else { return segment }
        return maskingQuoted(segment) { SecretReplacement.mask.replacing($0) }
    }

    /// The last member name of a JSON path as reports print it (`$.a.b`, `$['a b']`).
    private static func lastKey(of path: String) -> String? {
        if path.hasSuffix("']"), let open = path.range(of: "['", options: .backwards) {
            return String(path[open.upperBound..<path.index(path.endIndex, offsetBy: -2)])
        }
        guard !path.hasSuffix("]"), let dot = path.lastIndex(of: ".") else { return nil }
        return String(path[path.index(after: dot)...])
    }

    /// `text` with each `"…"` literal (as ``quoted(_:)`` writes them) replaced by `transform` of
    /// its unescaped contents, quoted again.
    private static func maskingQuoted(_ text: String, _ transform: (String) -> String) -> String {
        var result = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "\"") {
            result += rest[..<open]
            var index = rest.index(after: open)
            var content = ""
            var closed = false
            while index < rest.endIndex {
                let character = rest[index]
                if character == "\"" {
                    closed = true
                    break
                }
                if character == "\\", rest.index(after: index) < rest.endIndex {
                    index = rest.index(after: index)
                    switch rest[index] {
                    case "n": content += "\n"
                    case "r": content += "\r"
                    case "t": content += "\t"
                    default: content.append(rest[index])
                    }
                } else {
                    content.append(character)
                }
                index = rest.index(after: index)
            }
            guard closed else {
                result += rest[open...]
                return result
            }
            let transformed = transform(content)
            result += transformed == content ? String(rest[open...index]) : quoted(transformed)
            rest = rest[rest.index(after: index)...]
        }
        return result + rest
    }

    /// `text` with each `JSON {…}` or `JSON […]` value (as body matchers describe them) masked.
    private static func maskingJSONValues(_ text: String) -> String {
        var result = ""
        var rest = Substring(text)
        while let marker = rest.range(of: "JSON ") {
            result += rest[..<marker.upperBound]
            rest = rest[marker.upperBound...]
            guard let end = balancedEnd(of: rest) else { continue }
            let json = rest[..<end]
            result += JSONTextRedaction.redacted(json, by: policy, with: .mask) ?? String(json)
            rest = rest[end...]
        }
        return result + rest
    }

    /// Where the JSON object or array at the start of `text` ends, brackets balanced outside
    /// strings; `nil` when `text` does not start with one or it does not end.
    private static func balancedEnd(of text: Substring) -> Substring.Index? {
        guard let first = text.first, first == "{" || first == "[" else { return nil }
        var depth = 0
        var inString = false
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if inString {
                if character == "\\" {
                    index = text.index(after: index)
                    if index == text.endIndex { return nil }
                } else if character == "\"" {
                    inString = false
                }
            } else if character == "\"" {
                inString = true
            } else if character == "{" || character == "[" {
                depth += 1
            } else if character == "}" || character == "]" {
                depth -= 1
                if depth == 0 { return text.index(after: index) }
            }
            index = text.index(after: index)
        }
        return nil
    }
}
