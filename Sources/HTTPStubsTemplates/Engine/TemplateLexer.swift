import HTTPStubs

/// Splits a template into text, comments and tags as handlebars.java 4.x's ANTLR lexer
/// (`HbsLexer.g4`) does, then applies whitespace control (`WhiteSpaceControl.java`).
///
/// Tag openers are tried in the lexer's rule order: `{{!` comment, `{{&`, `{{{{/`, `{{{{`, `{{{`,
/// `{{^`, `{{#>`, `{{#`, `{{=`, `{{>`, `{{/`, then `{{`; each may carry a `~` after `{{`. Inside a
/// tag, `}}}}`, `}}}` and `}}` are tried in that order, so `{{x}}}` is an error in handlebars.java
/// (as it is here), not `x` followed by `}`.
struct TemplateLexer {
    /// The source being split.
    let source: TemplateSourceText

    private var scalars: [Unicode.Scalar] { source.scalars }

    /// The tokens of the whole source, whitespace control applied.
    func tokens() throws(TemplateSyntaxError) -> [TemplateToken] {
        var tokens: [TemplateToken] = []
        var usesWhitespaceControl = false
        var offset = 0
        let count = scalars.count
        while offset < count {
            if source.has("\\{{", at: offset) {
                tokens.append(try escapedTag(at: offset))
                offset = tokens[tokens.count - 1].end
                continue
            }
            if source.has("{{", at: offset) {
                let token = try tag(at: offset)
                if token.trimsBefore || token.trimsAfter { usesWhitespaceControl = true }
                tokens.append(token)
                offset = token.end
                continue
            }
            var end = offset + 1
            while end < count, !source.has("{{", at: end), !source.has("\\{{", at: end) { end += 1 }
            tokens.append(
                TemplateToken(
                    kind: .text(source.text(offset..<end)),
                    offset: offset,
                    end: end,
                    trimsBefore: false,
                    trimsAfter: false
                )
            )
            offset = end
        }
        if usesWhitespaceControl { Self.controlWhitespace(&tokens) }
        return tokens
    }

    /// Trims the text next to tags marked with `~`. As in handlebars.java this only runs when some
    /// tag uses `~`, and then a comment containing `~` anywhere trims both of its sides (the Java
    /// code looks for `~` in the comment's whole text).
    private static func controlWhitespace(_ tokens: inout [TemplateToken]) {
        for index in tokens.indices {
            var before = tokens[index].trimsBefore
            var after = tokens[index].trimsAfter
            if case .comment(let text) = tokens[index].kind, let tilde = text.firstIndex(of: "~") {
                before = tilde > text.startIndex
                after = true
            }
            if before, index > 0, case .text(let text) = tokens[index - 1].kind {
                tokens[index - 1].kind = .text(
                    String(
                        String.UnicodeScalarView(
                            text.unicodeScalars.reversed().drop(while: isJavaWhitespace).reversed()
                        )
                    )
                )
            }
            if after, index + 1 < tokens.count, case .text(let text) = tokens[index + 1].kind {
                tokens[index + 1].kind = .text(
                    String(String.UnicodeScalarView(text.unicodeScalars.drop(while: isJavaWhitespace)))
                )
            }
        }
    }

    /// Java's `Character.isWhitespace`, which `StringUtils.strip` uses: ASCII whitespace, the
    /// separators U+001C…U+001F, and Unicode space, line and paragraph separators other than the
    /// no-break spaces.
    static func isJavaWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09...0x0D, 0x1C...0x1F, 0x20: return true
        case 0xA0, 0x2007, 0x202F: return false
        default:
            switch scalar.properties.generalCategory {
            case .spaceSeparator, .lineSeparator, .paragraphSeparator: return true
            default: return false
            }
        }
    }

    /// `\{{…}}`: printed literally without the backslash, up to the first `}}` (or the end of the
    /// source). A `{{` before that `}}` is an error, as in handlebars.java.
    private func escapedTag(at offset: Int) throws(TemplateSyntaxError) -> TemplateToken {
        var end = offset + 2
        while end < scalars.count {
            if source.has("}}", at: end) {
                end += 2
                break
            }
            if source.has("{{", at: end) {
                throw TemplateSyntaxError(
                    location: source.location(offset),
                    message:
                        "'\\{{' escapes a tag, but another '{{' starts before its '}}': "
                        + "close the escaped tag with '}}' first"
                )
            }
            end += 1
        }
        end = min(end, scalars.count)
        return TemplateToken(
            kind: .escapedTag(source.text(offset + 1..<end)),
            offset: offset,
            end: end,
            trimsBefore: false,
            trimsAfter: false
        )
    }

    /// A comment or a tag starting at `offset` (which holds `{{`).
    private func tag(at offset: Int) throws(TemplateSyntaxError) -> TemplateToken {
        if source.has("{{!", at: offset) { return try comment(at: offset) }
        let openers: [(String, TemplateTagKind?, String)] = [
            ("&", .ampersand, ""), ("{{/", nil, "raw blocks ('{{{{/') are not supported: remove the extra braces"),
            ("{{", nil, "raw blocks ('{{{{') are not supported: use '{{{x}}}' to print without escaping"),
            ("{", .triple, ""), ("^", .inverted, ""),
            ("#>", nil, "partial blocks ('{{#>') are not supported: WireMock templates have no partials"),
            ("#", .block, ""),
            ("=", nil, "changing the delimiters ('{{=') is not supported: keep '{{' and '}}'"),
            (">", nil, "partials ('{{>') are not supported: WireMock templates have no partials"),
            ("/", .close, ""),
        ]
        for (subtype, kind, unsupported) in openers {
            for tilde in [false, true] {
                let opener = "{{" + (tilde ? "~" : "") + subtype
                guard source.has(opener, at: offset) else { continue }
                guard let kind else {
                    throw TemplateSyntaxError(location: source.location(offset), message: unsupported)
                }
                return try tagBody(at: offset, opener: opener.unicodeScalars.count, kind: kind, trimsBefore: tilde)
            }
        }
        let tilde = source.has("{{~", at: offset)
        return try tagBody(at: offset, opener: tilde ? 3 : 2, kind: .variable, trimsBefore: tilde)
    }

    /// `{{! … }}` or `{{!-- … --}}`.
    private func comment(at offset: Int) throws(TemplateSyntaxError) -> TemplateToken {
        let close = source.has("{{!--", at: offset) ? "--}}" : "}}"
        var index = offset + (close == "}}" ? 3 : 5)
        while index < scalars.count {
            if source.has(close, at: index) {
                let end = index + close.unicodeScalars.count
                return TemplateToken(
                    kind: .comment(source.text(offset..<end)),
                    offset: offset,
                    end: end,
                    trimsBefore: false,
                    trimsAfter: false
                )
            }
            index += 1
        }
        throw TemplateSyntaxError(
            location: source.location(offset),
            message: "this comment is never closed: end it with '\(close)'"
        )
    }

    /// The tokens of a tag after its opener, up to and including its closer.
    private func tagBody(
        at offset: Int,
        opener: Int,
        kind: TemplateTagKind,
        trimsBefore: Bool
    ) throws(TemplateSyntaxError) -> TemplateToken {
        var lexemes: [TemplateTagLexeme] = []
        var index = offset + opener
        while true {
            while index < scalars.count, [" ", "\t", "\r", "\n"].contains(scalars[index]) { index += 1 }
            guard index < scalars.count else {
                let closer = kind == .triple ? "}}}" : "}}"
                throw TemplateSyntaxError(
                    location: source.location(offset),
                    message: "this tag is never closed: end it with '\(closer)'"
                )
            }
            if let (length, closer, tilde) = closer(at: index) {
                let expected = kind == .triple ? "}}}" : "}}"
                guard closer == expected else {
                    let message =
                        switch (kind, closer) {
                        case (.triple, _): "'{{{' must be closed by '}}}', found '\(closer)'"
                        case (_, "}}}"):
                            "found '}}}' where this tag ends with '}}': "
                                + "to print a '}' right after the tag, put a space before it ('{{x}} }'); "
                                + "to print without escaping, use '{{{x}}}'"
                        default:
                            "found '}}}}' where this tag ends with '}}': "
                                + "put a space between the tag and the extra braces"
                        }
                    throw TemplateSyntaxError(location: source.location(index), message: message)
                }
                let end = index + length
                return TemplateToken(
                    kind: .tag(kind, lexemes),
                    offset: offset,
                    end: end,
                    trimsBefore: trimsBefore,
                    trimsAfter: tilde
                )
            }
            let lexeme = try self.lexeme(at: index)
            lexemes.append(lexeme)
            index += lexeme.text.unicodeScalars.count
        }
    }

    /// A closing delimiter at `index`: `}}}}`, `}}}` or `}}`, each possibly with a `~` before its
    /// last `}}`; returns its length, its form without `~`, and whether it has `~`.
    private func closer(at index: Int) -> (Int, String, Bool)? {
        for closer in ["}}}}", "}}}", "}}"] {
            if source.has(closer, at: index) { return (closer.count, closer, false) }
            let tilded = String(closer.dropLast(2)) + "~}}"
            if source.has(tilded, at: index) { return (tilded.count, closer, true) }
        }
        return nil
    }

    /// The longest token at `index` inside a tag; on a tie the rule listed first in `HbsLexer.g4`
    /// wins (`*`, `as`, `|`, strings, `=`, numbers, booleans, `else`, names, partial paths, `(`, `)`).
    private func lexeme(at index: Int) throws(TemplateSyntaxError) -> TemplateTagLexeme {
        let candidates: [(TemplateTagLexeme.Kind, Int)] = [
            (.star, fixed("*", at: index)), (.asKeyword, fixed("as", at: index)), (.pipe, fixed("|", at: index)),
            (.doubleQuoted, quoted("\"", at: index)), (.singleQuoted, quoted("'", at: index)),
            (.equals, fixed("=", at: index)), (.number, number(at: index)),
            (.boolean, max(fixed("true", at: index), fixed("false", at: index))),
            (.elseKeyword, fixed("else", at: index)), (.name, name(at: index)), (.partialPath, partialPath(at: index)),
            (.openParen, fixed("(", at: index)), (.closeParen, fixed(")", at: index)),
        ]
        var best: (TemplateTagLexeme.Kind, Int) = (.name, 0)
        for candidate in candidates where candidate.1 > best.1 { best = candidate }
        guard best.1 > 0 else {
            let found = String(scalars[index])
            let hint =
                switch found {
                case "\"", "'": "this string is never closed: end it with \(found)"
                case "#", "/", "^", "!", "&", ">":
                    "put '\(found)' right after '{{', without spaces ('{{\(found)name}}')"
                default:
                    "a tag holds a helper name or path, then parameters (paths, \"strings\", numbers, true/false, "
                        + "(subexpressions)) and key=value arguments"
                }
            throw TemplateSyntaxError(
                location: source.location(index),
                message: "unexpected '\(found)' in a tag: \(hint)"
            )
        }
        return TemplateTagLexeme(kind: best.0, text: source.text(index..<index + best.1), offset: index)
    }

    private func fixed(_ literal: String, at index: Int) -> Int {
        source.has(literal, at: index) ? literal.unicodeScalars.count : 0
    }

    /// `"…"` or `'…'`, where a backslash before the quote keeps the string open.
    private func quoted(_ quote: Unicode.Scalar, at index: Int) -> Int {
        guard scalars[index] == quote else { return 0 }
        var end = index + 1
        while end < scalars.count {
            if scalars[end] == "\\", end + 1 < scalars.count, scalars[end + 1] == quote {
                end += 2
            } else if scalars[end] == quote {
                return end + 1 - index
            } else {
                end += 1
            }
        }
        return 0
    }

    /// `'-'? [0-9]* '.'? [0-9]+`.
    private func number(at index: Int) -> Int {
        var start = index
        if scalars[start] == "-" { start += 1 }
        let integer = digits(from: start)
        let afterInteger = start + integer
        if afterInteger < scalars.count, scalars[afterInteger] == ".", digits(from: afterInteger + 1) > 0 {
            return afterInteger + 1 + digits(from: afterInteger + 1) - index
        }
        return integer > 0 ? afterInteger - index : 0
    }

    private func digits(from index: Int) -> Int {
        var end = index
        while end < scalars.count, ("0"..."9").contains(scalars[end]) { end += 1 }
        return end - index
    }

    /// handlebars.java's `PATH` rule (only partials use it): `[a-zA-Z0-9_$'/.:-]+`, possibly in
    /// brackets. When it is longer than a name (`a'b`, `/x`, `1a`), the tag is an error.
    private func partialPath(at index: Int) -> Int {
        func isPathCharacter(_ scalar: Unicode.Scalar) -> Bool {
            ("0"..."9").contains(scalar) || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
                || "_$'/.:-".unicodeScalars.contains(scalar)
        }
        guard index < scalars.count else { return 0 }
        var end = index
        if scalars[index] == "[" { end += 1 }
        while end < scalars.count, isPathCharacter(scalars[end]) { end += 1 }
        if scalars[index] == "[" {
            guard end > index + 1, end < scalars.count, scalars[end] == "]" else { return 0 }
            return end + 1 - index
        }
        return end - index
    }

    /// handlebars.java's `QID` rule: `../` or `./` then a name, `..`, `.`, or a name made of
    /// identifier characters, digits, `.`, `/`, `-` and `[literal]` segments (after `.`, `/` or `-`,
    /// or at the start).
    private func name(at index: Int) -> Int {
        guard index < scalars.count else { return 0 }  // `../` or `./` at the very end
        if source.has("../", at: index) {
            let rest = name(at: index + 3)
            return rest > 0 ? 3 + rest : 2
        }
        if source.has("..", at: index) { return 2 }
        if source.has("./", at: index) {
            let rest = name(at: index + 2)
            return rest > 0 ? 2 + rest : 1
        }
        if scalars[index] == "." { return 1 }
        var end: Int
        if scalars[index] == "[" {
            guard let close = literalSegment(at: index) else { return 0 }
            end = close
        } else if Self.isIdentifierStart(scalars[index]) {
            end = index + 1
        } else {
            return 0
        }
        while end < scalars.count {
            let scalar = scalars[end]
            if Self.isIdentifierStart(scalar) || ("0"..."9").contains(scalar) || scalar == "." || scalar == "/"
                || scalar == "-"
            {
                end += 1
            } else if scalar == "[", [".", "/", "-"].contains(scalars[end - 1]), let close = literalSegment(at: end) {
                end = close
            } else {
                break
            }
        }
        return end - index
    }

    /// The offset after the `]` of a `[literal]` segment starting at `index`, which holds `[`.
    private func literalSegment(at index: Int) -> Int? {
        var end = index + 2
        while end < scalars.count {
            if scalars[end] == "]" { return end + 1 }
            end += 1
        }
        return nil
    }

    /// `ID_START` of `HbsLexer.g4`: ASCII letters, `_`, `$`, `@`, `:`, the Cyrillic letters А…я,
    /// Latin-1 letters U+00C0…U+00FF and some control characters.
    static func isIdentifierStart(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x61...0x7A, 0x41...0x5A, 0x5F, 0x24, 0x40, 0x3A: true
        case 0x0410...0x044F, 0xC0...0xFF: true
        case 0x01...0x08, 0x0B, 0x0C, 0x0E...0x1E: true
        default: false
        }
    }
}
