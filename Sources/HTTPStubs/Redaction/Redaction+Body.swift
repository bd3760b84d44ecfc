import Foundation

extension Redaction {
    /// A request or response body as it may be written, with its secrets replaced and everything
    /// else kept as written:
    ///
    /// - JSON (an object, an array or a single value; newline-delimited JSON line by line; JSON
    ///   behind the `)]}'` prefix), every string value redacted as a value (see
    ///   ``redactedValue(_:with:nesting:)``: JSON in a string, URLs, base64);
    /// - `multipart/form-data`, field by field, each part's body redacted as a body of its own type;
    /// - XML, elements and attributes with secret names, then as loose text;
    /// - `application/x-www-form-urlencoded` (see ``isForm(_:)``), field by field, read as bytes,
    ///   so one byte that is not UTF-8 does not keep the other fields from being redacted;
    /// - gzip bytes (`1f 8b`, as an upload), inflated: replaced whole when they held a secret;
    /// - any other body, and JSON that does not parse (a trailing comma, nesting past the
    ///   parser's limit, a byte that is not UTF-8, a line of newline-delimited JSON that is not
    ///   JSON), as a value and, failing that, scanned loosely for credentials and secret names
    ///   (see ``LooseTextRedaction``): a body that cannot be parsed is not "not secret".
    ///
    /// A body sent with a `Content-Encoding` is redacted by ``redactedBody(_:contentType:contentEncoding:)``.
    package func redactedBody(
        _ body: Data,
        contentType: String?,
        with replacement: SecretReplacement = .placeholder,
        nesting: Int = 0
    ) -> Data {
        guard redactsAnything, !body.isEmpty else { return body }
        let mediaType = Self.mediaType(contentType)
        if mediaType.hasPrefix("multipart/"), let boundary = Self.boundary(contentType) {
            return redactedMultipart(body, boundary: boundary, with: replacement, nesting: nesting)
        }
        if let text = String(data: body, encoding: .utf8) {
            if let redacted = redactedJSONText(text, with: replacement, nesting: nesting) {
                return redacted == text ? body : Data(redacted.utf8)
            }
            if mediaType.contains("xml") || text.drop(while: \.isWhitespace).hasPrefix("<?xml") {
                let redacted = LooseTextRedaction.redacted(
                    XMLTextRedaction.redacted(text, by: self, with: replacement, nesting: nesting),
                    by: self,
                    with: replacement
                )
                return redacted == text ? body : Data(redacted.utf8)
            }
            guard Self.isForm(contentType), text.contains("="), !text.contains(where: \.isWhitespace) else {
                let redacted = redactedValue(text, with: replacement, nesting: nesting)
                return redacted == text ? body : Data(redacted.utf8)
            }
        } else if let inflated = Self.inflatedGzip(body) {
            let redacted = redactedBytes(inflated, with: .placeholder, nesting: nesting + 1)
            return redacted == inflated ? body : Data(replacement.replacing(body.base64EncodedString()).utf8)
        } else if !Self.isForm(contentType) {
            return LooseTextRedaction.redacted([UInt8](body), by: self, with: replacement).map { Data($0) } ?? body
        }
        return redactedForm(body, with: replacement, nesting: nesting)
    }

    /// What ``redactedBody(_:contentType:contentEncoding:)`` makes of a body.
    package enum EncodedBody: Equatable {
        /// The body as sent, redacted in place (it had no `Content-Encoding`, or no secret).
        case asSent(Data)
        /// The body decoded from its `Content-Encoding` and redacted: it held a secret, which the
        /// compressed bytes cannot have replaced in place.
        case decoded(Data)
        /// The body was encoded in a way that cannot be decoded here (`br`, `zstd`, damaged gzip)
        /// and is not text: nothing says it holds no secret, so it is withheld.
        case withheld
    }

    /// A body sent with `contentEncoding` (`gzip`, `deflate`, …), redacted: decoded, then redacted
    /// as ``redactedBody(_:contentType:with:nesting:)`` redacts the decoded body.
    package func redactedBody(_ body: Data, contentType: String?, contentEncoding: String?) -> EncodedBody {
        guard redactsAnything, !body.isEmpty, let contentEncoding, Self.isEncoding(contentEncoding) else {
            return .asSent(redactedBody(body, contentType: contentType))
        }
        guard case let .success(decoded) = Inflate.decompress(body, contentEncoding: contentEncoding) else {
            // Text that is no gzip was decoded already (URLSession decodes what it receives, and
            // keeps the header); anything else is nothing this can read.
            let isDecoded = String(data: body, encoding: .utf8) != nil && !body.starts(with: [0x1F, 0x8B])
            return isDecoded ? .asSent(redactedBody(body, contentType: contentType)) : .withheld
        }
        let redacted = redactedBody(decoded, contentType: contentType)
        return redacted == decoded ? .asSent(body) : .decoded(redacted)
    }

    /// Whether a `Content-Encoding` encodes the body: any but `identity` and an empty one.
    static func isEncoding(_ contentEncoding: String) -> Bool {
        let encoding = contentEncoding.trimmingCharacters(in: .whitespaces).lowercased()
        return !encoding.isEmpty && encoding != "identity"
    }

    /// Whether a body with this `Content-Type` is `application/x-www-form-urlencoded`: when it says
    /// so, or when there is none, because URLSession sends a body without one as a form.
    package static func isForm(_ contentType: String?) -> Bool {
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

    /// JSON text redacted: one JSON text, newline-delimited JSON (its first non-empty line a JSON
    /// object or array; a line that is not JSON scanned loosely), or either behind the `)]}'`
    /// line that guards JSON against cross-site script inclusion; `nil` for any other text.
    func redactedJSONText(_ text: String, with replacement: SecretReplacement, nesting: Int = 0) -> String? {
        if let redacted = JSONTextRedaction.redacted(Substring(text), by: self, with: replacement, nesting: nesting) {
            return redacted
        }
        if text.hasPrefix(")]}'") {
            let rest = text.dropFirst(4).drop { $0 == "," }
            let prefix = text[..<rest.startIndex]
            return redactedJSONText(String(rest), with: replacement, nesting: nesting).map { prefix + $0 }
        }
        // The first line decides, before the whole text is split.
        let start = text.utf8.firstIndex { !Self.isJSONWhitespace($0) } ?? text.utf8.endIndex
        guard start < text.utf8.endIndex,
            text.utf8[start] == UInt8(ascii: "{") || text.utf8[start] == UInt8(ascii: "["),
            let end = text.utf8[start...].firstIndex(of: UInt8(ascii: "\n")),
            (try? JSONValue(parsing: String(text[start..<end]))) != nil
        else { return nil }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count(where: { !$0.allSatisfy(\.isWhitespace) }) > 1 else { return nil }
        return lines.map { line in
            if line.allSatisfy(\.isWhitespace) { return String(line) }
            return JSONTextRedaction.redacted(line, by: self, with: replacement, nesting: nesting)
                ?? LooseTextRedaction.redacted(String(line), by: self, with: replacement)
        }.joined(separator: "\n")
    }

    /// A space, tab, line feed or carriage return.
    private static func isJSONWhitespace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n")
            || byte == UInt8(ascii: "\r")
    }

    /// Form bytes (`a=1&password=x`) with the values of secret fields replaced, and every other
    /// value redacted as a value (see ``redactedValue(_:with:nesting:)``); every other byte is kept
    /// as written, UTF-8 or not.
    private func redactedForm(_ body: Data, with replacement: SecretReplacement, nesting: Int) -> Data {
        let pairs = body.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: false)
        var output = Data()
        for (position, pair) in pairs.enumerated() {
            if position > 0 { output.append(UInt8(ascii: "&")) }
            guard let equals = pair.firstIndex(of: UInt8(ascii: "=")) else {
                output.append(contentsOf: redactedBytes(Data(pair), with: replacement, nesting: nesting))
                continue
            }
            let name = PercentDecoding.decodeForm(String(decoding: pair[..<equals], as: UTF8.self))
            let value = PercentDecoding.decodeForm(String(decoding: pair[(equals + 1)...], as: UTF8.self))
            output.append(contentsOf: pair[...equals])
            if isSecret(name, at: .formField) {
                output.append(contentsOf: replacement.replacing(value).utf8)
            } else if isWholeCredential(value) {
                output.append(contentsOf: replacement.replacing(value).utf8)
            } else {
                let redacted = redactedValue(value, with: replacement, nesting: nesting + 1)
                if redacted == value {
                    output.append(contentsOf: pair[(equals + 1)...])
                } else {
                    output.append(contentsOf: Self.percentEncoded(redacted).utf8)
                }
            }
        }
        return output
    }

    /// A `multipart/form-data` body with the contents of fields with secret names, and of fields
    /// shaped like credentials, replaced, and every other part's contents redacted as a body of
    /// its own `Content-Type`; delimiters, part headers and file parts are kept as written.
    private func redactedMultipart(
        _ body: Data,
        boundary: String,
        with replacement: SecretReplacement,
        nesting: Int
    ) -> Data {
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
            output += [UInt8](redactedPart(contents, headers: headers, with: replacement, nesting: nesting))
            output += bytes[max(start, end)..<next]
        }
        return Data(output)
    }

    /// One multipart part's contents, redacted as its headers say.
    private func redactedPart(
        _ contents: Data,
        headers: String,
        with replacement: SecretReplacement,
        nesting: Int
    ) -> Data {
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
        if let name, !isFile, isSecret(name, at: .formField) || text.map(isWholeCredential) == true {
            return Data(replacement.replacing(text ?? contents.base64EncodedString()).utf8)
        }
        guard nesting < Self.maximumNesting else {
            return LooseTextRedaction.redacted([UInt8](contents), by: self, with: replacement).map { Data($0) }
                ?? contents
        }
        return redactedBody(contents, contentType: contentType ?? "text/plain", with: replacement, nesting: nesting + 1)
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
