import Foundation

/// Masks secrets in what the toolkit prints into test logs and CI output (the near-miss report,
/// `stubs match`, `stubs list`, test failures), by the policy of ``Redaction/default``: each
/// secret becomes `<redacted:1a2b3c>` (see ``SecretReplacement``), so two different secrets still
/// read differently and a mismatch between the token a stub expects and the one a request carries
/// stays visible.
///
/// Masking works at three levels, so that a secret is masked whatever message quotes it:
///
/// - **by structure**: a URL, a header, a body, a quoted JSON or form value is masked as the
///   redaction policy redacts it (secret names, credentials, values encoded in values);
/// - **by name**: every value a matcher quotes is masked when it tests a secret header, query
///   parameter, form field, cookie, JSON path (`$.password`, `$..token`, a filter on `@.secret`)
///   or XPath, and so is every value in a difference at a secret member or element
///   (`$.credentials.value: expected "…", got "…"`, `/login/password: …`);
/// - **by value**: while a report is built (see ``masking(_:_:)``), every value found secret in
///   the request, or in a stub's description, is masked wherever else it shows, and every value a
///   message quotes is masked before the message cuts it short (``quoted(_:)``, the abbreviations
///   of JSON differences and schema failures), so a cut never leaves half a secret readable.
package enum LogMasking {
    /// The policy: what the default redaction keeps off disk is masked in logs.
    private static let policy = Redaction.default

    /// The values masked wherever they show while a report or listing is built; `nil` outside.
    @TaskLocal private static var scope: Scope?

    /// Values to mask wherever they show.
    private final class Scope: Sendable {
        /// The secrets of four characters or more, longest first (a shorter secret inside a longer
        /// one must not split it); shorter ones are masked by structure and name only.
        let secrets: [String]

        init(_ secrets: Set<String>) {
            self.secrets = secrets.filter { $0.count >= 4 }.sorted { $0.count > $1.count }
        }
    }

    /// Runs `body` with every value of `secrets` masked wherever it shows, and every value
    /// ``quoted(_:)`` quotes masked by structure before it is cut short.
    package static func masking<Result>(_ secrets: Set<String> = [], _ body: () throws -> Result) rethrows -> Result {
        try $scope.withValue(Scope(secrets)) { try body() }
    }

    /// `text`, a value some message is about to quote or cut short, masked by structure and by
    /// value while a report is built (see ``masking(_:_:)``); unchanged outside one. Text over
    /// 64 KiB, which a message only ever shows the start of, is masked in its first 16 KiB when
    /// `cut` (loosely, since the cut may leave no structure to read).
    package static func beforeCutting(_ text: String, cut: Bool = true) -> String {
        guard let scope else { return text }
        var masked: String
        if cut, text.utf8.count > 64 << 10 {
            let head = String(decoding: text.utf8.prefix(16 << 10), as: UTF8.self)
            masked = LooseTextRedaction.redacted(head, by: policy, with: .mask) + text.dropFirst(head.count)
        } else {
            masked = policy.redactedValue(text, with: .mask)
        }
        return replacingSecrets(masked, scope.secrets)
    }

    /// `text` with every occurrence of one of `secrets` masked.
    private static func replacingSecrets(_ text: String, _ secrets: [String]) -> String {
        var text = text
        for secret in secrets where text.contains(secret) {
            text = text.replacingOccurrences(of: secret, with: SecretReplacement.mask.replacing(secret))
        }
        return text
    }

    /// `text` with every value of the current scope's secrets masked (see ``masking(_:_:)``).
    package static func maskingSecrets(_ text: String) -> String {
        guard let scope else { return text }
        return replacingSecrets(text, scope.secrets)
    }

    /// The values of `request` that the policy finds secret: in its URL, its headers and its body
    /// (decoded from its `Content-Encoding`).
    package static func secrets(of request: InterceptedRequest) -> Set<String> {
        masked(request).secrets
    }

    /// The secrets of `request` (see ``secrets(of:)``), and its body masked, in one pass.
    static func masked(_ request: InterceptedRequest) -> (secrets: Set<String>, body: Data?) {
        let collector = SecretCollector()
        _ = policy.redactedURLText(request.url.absoluteString, with: .noting(collector))
        for field in request.headers {
            _ = policy.redactedHeader(field.name, field.value, with: .noting(collector))
        }
        if let body = request.body, !body.isEmpty {
            var bodies = [body]
            if let encoding = request.header("Content-Encoding"), Redaction.isEncoding(encoding),
                case let .success(decoded) = Inflate.decompress(body, contentEncoding: encoding)
            {
                bodies.append(decoded)
            }
            let masked = bodies.map {
                policy.redactedBody($0, contentType: request.header("Content-Type"), with: .noting(collector))
            }
            return (collector.all, masked[0])
        }
        return (collector.all, request.body)
    }

    /// A URL with the secrets of its user info, path, query and fragment masked.
    package static func url(_ text: String) -> String {
        policy.redactedURLText(text, with: .mask)
    }

    /// A header value, masked when the header is secret or the value is a credential.
    package static func header(_ name: String, _ value: String) -> String {
        policy.redactedHeader(name, value, with: .mask)
    }

    /// A body with its secrets masked, as recording would redact them.
    package static func body(_ body: Data, contentType: String?) -> Data {
        policy.redactedBody(body, contentType: contentType, with: .mask)
    }

    /// A matcher's description as listings print it, masked (see ``text(_:part:describedAs:noting:)``).
    package static func description(of matcher: RequestMatcher) -> String {
        text(matcher.description, part: matcher.part)
    }

    /// The values `pattern` expects at secret names (a header, a query parameter, a JSON path…),
    /// to be masked wherever else they show (a file name made from a path, say).
    package static func secrets(expectedBy pattern: RequestPattern) -> Set<String> {
        let collector = SecretCollector()
        _ = pattern.maskedDescription(noting: collector)
        return collector.all
    }

    /// A matcher's description or verdict detail, masked: every quoted value when the matcher
    /// tests a secret header, query parameter, form field, any cookie, or a JSON path or XPath
    /// through a secret name; otherwise quoted values that are credentials, URLs, JSON or form
    /// text with secrets, `JSON {…}` values, differences at or below a secret JSON member or XML
    /// element (`$.password: expected "…", got "…"`), secret attributes (`password="…"`), form
    /// fields with secret names (`field password: …`) and secret `name=value` pairs of a whole
    /// query; then the values of the current scope (see ``masking(_:_:)``). The values masked by
    /// name are noted in `collector`, when given, to be masked wherever else they show.
    /// - Parameters:
    ///   - text: The description or verdict.
    ///   - part: The part of the request the matcher tests.
    ///   - description: The matcher's description, when `text` is its verdict (which does not
    ///     repeat the JSON path or XPath it is about).
    ///   - collector: Where the values masked by name are noted.
    static func text(
        _ text: String,
        part: RequestMatcher.Part,
        describedAs description: String? = nil,
        noting collector: SecretCollector? = nil
    ) -> String {
        let replacement: SecretReplacement = collector.map { .noting($0) } ?? .mask
        let words = part.name.split(separator: " ", maxSplits: 1).map(String.init)
        if words.count == 2, isSecret(kind: words[0], name: words[1]) {
            return maskingSecrets(maskingQuoted(text) { replacement.replacing($0) })
        }
        if mentionsSecretPath(description ?? text) {
            return maskingSecrets(maskingQuoted(maskingSingleQuoted(text, replacement)) { replacement.replacing($0) })
        }
        var masked = maskingJSONValues(text, replacement)
        masked = maskingQuoted(masked) { value($0, replacement) }
        masked = masked.components(separatedBy: "; ").map { maskingSecretSegment($0, replacement) }.joined(
            separator: "; "
        )
        if part.name == "query (all)" {
            masked = masked.split(separator: " ", omittingEmptySubsequences: false).map { word in
                word.contains("=") ? policy.redactedPairs(word, at: .query, with: replacement) : String(word)
            }.joined(separator: " ")
        }
        return maskingSecrets(masked)
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

    /// One quoted value, masked by what it holds: whole when it is a credential, else as a value
    /// (see ``Redaction/redactedValue(_:with:nesting:)``: a URL, JSON, form text, base64).
    private static func value(_ content: String, _ replacement: SecretReplacement) -> String {
        if policy.isSecretValue(content) { return replacement.replacing(content) }
        return policy.redactedValue(content, with: replacement)
    }

    /// Whether `text` (a matcher's description or verdict) names a JSON path or XPath that goes
    /// through a secret name (`JSON path $.password`, `$..token`, `$[?(@.secret == 'x')]`,
    /// `XPath //login/password`, `/login/@password`): then every value it quotes is that name's.
    private static func mentionsSecretPath(_ text: String) -> Bool {
        for marker in ["JSON path ", "XPath "] {
            guard let range = text.range(of: marker) else { continue }
            // The expression and the words after it, up to the first quoted value.
            let expression = text[range.upperBound...].prefix { $0 != "\"" }
            if pathNames(expression).contains(where: { policy.isSecret($0, at: .jsonMember) }) { return true }
        }
        return false
    }

    /// The names in a JSON path or XPath (`$.a['b c'].d[0]`, `//a/b/@c`): every run of name
    /// characters between its punctuation.
    private static func pathNames(_ path: Substring) -> [String] {
        path.split { !($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == ":") }.map(String.init)
    }

    /// `text` with each `'…'` literal (as JSON path filters and XPath predicates write them)
    /// replaced.
    private static func maskingSingleQuoted(_ text: String, _ replacement: SecretReplacement) -> String {
        let pieces = text.split(separator: "'", omittingEmptySubsequences: false)
        guard pieces.count >= 3 else { return text }
        return pieces.enumerated().map { index, piece in
            index.isMultiple(of: 2) || index == pieces.count - 1 ? String(piece) : replacement.replacing(String(piece))
        }.joined(separator: "'")
    }

    /// A `; `-separated part of a detail, every quoted value masked when it speaks of a secret
    /// JSON member at any depth of its path (`$.user.password: …`, `$.credentials.value: …`), a
    /// secret XML element or attribute (`/login/password: …`, `attribute password="…"`), or a
    /// secret form field (`field password: …`).
    private static func maskingSecretSegment(_ segment: String, _ replacement: SecretReplacement) -> String {
        // The first difference of a JSON or XML body comes after one of these.
        var difference = Substring(segment)
        for marker in ["JSON differs: ", "XML differs: ", "not valid against the JSON schema: "]
        where difference.hasPrefix(marker) {
            difference = difference.dropFirst(marker.count)
        }
        var names: [String] = []
        var place = Redaction.Place.jsonMember
        if difference.hasPrefix("$") || difference.hasPrefix("/"), let colon = difference.range(of: ": ") {
            names = pathNames(difference[..<colon.lowerBound])
            // `attribute password="…"`, `attribute password: expected …`.
            for word in difference[colon.upperBound...].split(separator: " ") where word.contains("=") {
                names.append(contentsOf: pathNames(word.prefix { $0 != "=" }))
            }
            if let attribute = difference.range(of: "attribute ") {
                names.append(
                    contentsOf: pathNames(difference[attribute.upperBound...].prefix { $0 != ":" && $0 != "=" })
                )
            }
        } else if segment.hasPrefix("field ") {
            names = segment.dropFirst("field ".count).split { $0 == ":" || $0 == " " }.first.map { [String($0)] } ?? []
            place = .formField
        }
        guard names.contains(where: { policy.isSecret($0, at: place) }) else { return segment }
        return maskingQuoted(segment) { replacement.replacing($0) }
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
            result += transformed == content ? String(rest[open...index]) : quoted(transformed, limit: nil)
            rest = rest[rest.index(after: index)...]
        }
        return result + rest
    }

    /// `text` with each `JSON {…}`, `JSON […]` or `JSON schema {…}` value (as body matchers
    /// describe them) masked.
    private static func maskingJSONValues(_ text: String, _ replacement: SecretReplacement) -> String {
        var result = ""
        var rest = Substring(text)
        while let marker = rest.range(of: "JSON ") {
            result += rest[..<marker.upperBound]
            rest = rest[marker.upperBound...]
            if rest.hasPrefix("schema ") {
                result += "schema "
                rest = rest.dropFirst("schema ".count)
            }
            guard let end = balancedEnd(of: rest) else { continue }
            let json = rest[..<end]
            result += JSONTextRedaction.redacted(json, by: policy, with: replacement) ?? String(json)
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
