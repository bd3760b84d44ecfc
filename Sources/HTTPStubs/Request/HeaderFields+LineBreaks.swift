extension HeaderFields {
    /// The fields as a server writes them on the wire, when one of them holds a character that
    /// would end its header line there and make the rest of it a header of its own (a `Set-Cookie`
    /// rendered from a request's `%0D%0A`); `nil` when none does, so that the fields keep their
    /// storage.
    ///
    /// As WireMock's Jetty does, a carriage return or line feed in a value becomes a space; so does
    /// a NUL, as RFC 9110 §5.5 lets a recipient replace CR, LF and NUL (Jetty sends it raw, which
    /// clients refuse). In a name, those characters and `:` become `?`, as Jetty writes them.
    var withLineBreaksReplaced: HeaderFields? {
        guard fields.contains(where: { Self.breaksLine($0.name, orColon: true) || Self.breaksLine($0.value) }) else {
            return nil
        }
        return HeaderFields(
            fields.map { field in
                Field(
                    name: Self.replacing(field.name, orColon: true, with: "?"),
                    value: Self.replacing(field.value, with: " ")
                )
            }
        )
    }

    /// Whether `text` holds a CR, LF or NUL (or, `orColon`, a `:`).
    private static func breaksLine(_ text: String, orColon: Bool = false) -> Bool {
        text.utf8.contains { isLineBreaking($0, orColon: orColon) }
    }

    /// `text` with each CR, LF and NUL (and, `orColon`, `:`) replaced by `replacement`.
    private static func replacing(_ text: String, orColon: Bool = false, with replacement: Unicode.Scalar) -> String {
        guard breaksLine(text, orColon: orColon) else { return text }
        var result = ""
        result.unicodeScalars.append(
            contentsOf: text.unicodeScalars.map { scalar in
                scalar.isASCII && isLineBreaking(UInt8(scalar.value), orColon: orColon) ? replacement : scalar
            }
        )
        return result
    }

    private static func isLineBreaking(_ byte: UInt8, orColon: Bool) -> Bool {
        byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\n") || byte == 0 || (orColon && byte == UInt8(ascii: ":"))
    }
}
