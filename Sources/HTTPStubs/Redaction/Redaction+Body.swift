import Foundation

extension Redaction {
    /// A request or response body as it may be written, with its secrets replaced: a JSON object or
    /// array, newline-delimited JSON and JSON behind the `)]}'` prefix (their text kept as written
    /// around the replaced values), a `multipart/form-data` body (field by field, each part's body
    /// redacted as a body of its own type), an XML body (elements and attributes with secret names)
    /// and a form body (see ``isForm(_:)``; read as bytes, so one byte that is not UTF-8 does not
    /// keep the other fields from being redacted). Anything else is unchanged.
    func redactedBody(_ body: Data, contentType: String?, with replacement: SecretReplacement = .placeholder) -> Data {
        guard redactsAnything, !body.isEmpty else { return body }
        let mediaType = Self.mediaType(contentType)
        if mediaType.hasPrefix("multipart/"), let boundary = Self.boundary(contentType) {
            return redactedMultipart(body, boundary: boundary, with: replacement)
        }
        if let text = String(data: body, encoding: .utf8) {
            if let redacted = redactedJSONText(text, with: replacement) {
                return redacted == text ? body : Data(redacted.utf8)
            }
            if mediaType.contains("xml") || text.drop(while: \.isWhitespace).hasPrefix("<?xml") {
                let redacted = XMLTextRedaction.redacted(text, by: self, with: replacement)
                return redacted == text ? body : Data(redacted.utf8)
            }
        }
        guard Self.isForm(contentType) else { return body }
        return redactedForm(body, with: replacement)
    }

    /// Whether a body with this `Content-Type` is `application/x-www-form-urlencoded`: when it says
    /// so, or when there is none, because URLSession sends a body without one as a form.
    static func isForm(_ contentType: String?) -> Bool {
        guard let contentType else { return true }
        return mediaType(contentType) == "application/x-www-form-urlencoded"
    }

    /// The lower-cased media type of a `Content-Type` (`multipart/form-data`), without parameters.
    private static func mediaType(_ contentType: String?) -> String {
        let first = (contentType ?? "").split(separator: ";", maxSplits: 1).first ?? ""
        return first.trimmingCharacters(in: .whitespaces).lowercased()
    }

    /// The `boundary` parameter of a multipart `Content-Type`, without quotes.
    private static func boundary(_ contentType: String?) -> String? {
        for parameter in (contentType ?? "").split(separator: ";").dropFirst() {
            let parts = parameter.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces).lowercased() == "boundary" else {
                continue
            }
            let value = parts[1].trimmingCharacters(in: .whitespaces).trimmingCharacters(
                in: CharacterSet(charactersIn: "\"")
            )
            return value.isEmpty ? nil : value
        }
        return nil
    }

    /// JSON text redacted: one object or array, newline-delimited JSON (every non-empty line one),
    /// or either behind the `)]}'` line that guards JSON against cross-site script inclusion;
    /// `nil` for any other text.
    func redactedJSONText(_ text: String, with replacement: SecretReplacement) -> String? {
        if let redacted = JSONTextRedaction.redacted(Substring(text), by: self, with: replacement) { return redacted }
        if text.hasPrefix(")]}'") {
            let rest = text.dropFirst(4).drop { $0 == "," }
            let prefix = text[..<rest.startIndex]
            return redactedJSONText(String(rest), with: replacement).map { prefix + $0 }
        }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count(where: { !$0.allSatisfy(\.isWhitespace) }) > 1 else { return nil }
        var redactedLines: [String] = []
        for line in lines {
            if line.allSatisfy(\.isWhitespace) {
                redactedLines.append(String(line))
            } else if let redacted = JSONTextRedaction.redacted(line, by: self, with: replacement) {
                redactedLines.append(redacted)
            } else {
                return nil
            }
        }
        return redactedLines.joined(separator: "\n")
    }

    /// Form bytes (`a=1&password=x`) with the values of secret fields, and values shaped like
    /// credentials, replaced; every other byte is kept as written, UTF-8 or not.
    private func redactedForm(_ body: Data, with replacement: SecretReplacement) -> Data {
        let pairs = body.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: false)
        var output = Data()
        for (position, pair) in pairs.enumerated() {
            if position > 0 { output.append(UInt8(ascii: "&")) }
            guard let equals = pair.firstIndex(of: UInt8(ascii: "=")) else {
                output.append(contentsOf: pair)
                continue
            }
            let name = PercentDecoding.decodeForm(String(decoding: pair[..<equals], as: UTF8.self))
            let value = PercentDecoding.decodeForm(String(decoding: pair[(equals + 1)...], as: UTF8.self))
            if isSecret(name, at: .formField) || isSecretValue(value) {
                output.append(contentsOf: pair[...equals])
                output.append(contentsOf: replacement.replacing(value).utf8)
            } else {
                output.append(contentsOf: pair)
            }
        }
        return output
    }

    /// A `multipart/form-data` body with the contents of fields with secret names, and of fields
    /// shaped like credentials, replaced, and every other part's contents redacted as a body of
    /// its own `Content-Type`; delimiters, part headers and file parts are kept as written.
    private func redactedMultipart(_ body: Data, boundary: String, with replacement: SecretReplacement) -> Data {
        let bytes = [UInt8](body)
        let delimiter = Array("--\(boundary)".utf8)
        let headerEnd = Array("\r\n\r\n".utf8)
        var starts = Self.occurrences(of: delimiter, in: bytes)
        guard !starts.isEmpty else { return body }
        starts.append(bytes.count)
        var output = [UInt8](bytes[..<starts[0]])
        for (start, next) in zip(starts, starts.dropFirst()) {
            // A part's contents end at the CRLF before the next delimiter.
            let end = next < bytes.count && next >= 2 && bytes[(next - 2)..<next] == [13, 10] ? next - 2 : next
            let part = Array(bytes[start..<max(start, end)])
            guard let split = Self.occurrences(of: headerEnd, in: part).first else {
                output += bytes[start..<next]
                continue
            }
            let headers = String(decoding: part[..<split], as: UTF8.self)
            let contents = Data(part[(split + headerEnd.count)...])
            output += part[..<(split + headerEnd.count)]
            output += [UInt8](redactedPart(contents, headers: headers, with: replacement))
            output += bytes[max(start, end)..<next]
        }
        return Data(output)
    }

    /// One multipart part's contents, redacted as its headers say.
    private func redactedPart(_ contents: Data, headers: String, with replacement: SecretReplacement) -> Data {
        var name: String?
        var contentType: String?
        var isFile = false
        for line in headers.split(whereSeparator: \.isNewline) {
            let lower = line.lowercased()
            if lower.hasPrefix("content-disposition:") {
                name = Self.parameter("name", in: String(line))
                isFile = Self.parameter("filename", in: String(line)) != nil
            } else if lower.hasPrefix("content-type:") {
                contentType = String(line.dropFirst("content-type:".count)).trimmingCharacters(in: .whitespaces)
            }
        }
        let text = String(data: contents, encoding: .utf8)
        if let name, !isFile, isSecret(name, at: .formField) || text.map(isSecretValue) == true {
            return Data(replacement.replacing(text ?? contents.base64EncodedString()).utf8)
        }
        return redactedBody(contents, contentType: contentType ?? "text/plain", with: replacement)
    }

    /// The value of `name="…"` (or unquoted) in a `Content-Disposition` line.
    private static func parameter(_ name: String, in line: String) -> String? {
        for parameter in line.split(separator: ";").dropFirst() {
            let parts = parameter.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces).lowercased() == name else { continue }
            return parts[1].trimmingCharacters(in: .whitespaces).trimmingCharacters(
                in: CharacterSet(charactersIn: "\"")
            )
        }
        return nil
    }

    /// Where `pattern` starts in `bytes`, every time, left to right without overlaps.
    private static func occurrences(of pattern: [UInt8], in bytes: [UInt8]) -> [Int] {
        guard !pattern.isEmpty, bytes.count >= pattern.count else { return [] }
        var found: [Int] = []
        var index = 0
        while index <= bytes.count - pattern.count {
            if bytes[index] == pattern[0], bytes[index..<(index + pattern.count)].elementsEqual(pattern) {
                found.append(index)
                index += pattern.count
            } else {
                index += 1
            }
        }
        return found
    }
}
