import HTTPStubs

/// Parses Handlebars templates with handlebars.java 4.x's grammar (`HbsParser.g4`), as WireMock
/// configures it: no standalone-line removal (WireMock leaves `prettyPrint` off, so a line holding
/// only `{{#if x}}` keeps its newline), whitespace control with `~`, comments, `\{{` escapes,
/// `{{{ }}}` and `{{& }}`, blocks with `{{else}}`, `{{^}}` and `{{else if …}}` chains, inverted
/// sections `{{^name}}`, paths, literals, hash arguments and subexpressions.
///
/// Block parameters (`{{#each items as |item index|}}`) are supported. Partials, partial blocks,
/// decorators, raw blocks and delimiter changes are rejected with a located error: WireMock
/// registers no partials, and none of the rest appears in stub files.
///
/// Parsing is bounded: blocks and subexpressions may nest at most ``maximumNesting`` levels, so a
/// hostile template cannot exhaust the stack.
struct TemplateParser {
    /// The deepest nesting of blocks and subexpressions a template may have.
    static let maximumNesting = 100

    /// Parses `text`. With `literalOuterText`, the text before the first `{{` and after the last
    /// `}}` is kept literally and only what lies between is parsed, as WireMock's
    /// `HandlebarsOptimizedTemplate` does (so a `~` cannot trim that outer text, a `\` before the
    /// first `{{` stays, and a text with `{{` but no `}}` is all literal). `line` and `column` place
    /// `text` in its file, for error locations. Without `escapesHTML`, `{{ }}` tags print unescaped
    /// like `{{{ }}}` (handlebars.java's `EscapingStrategy.NOOP`, WireMock 3's default).
    static func parse(
        _ text: String,
        literalOuterText: Bool = false,
        escapesHTML: Bool = true,
        line: Int = 1,
        column: Int = 1
    ) throws(TemplateSyntaxError) -> Template {
        guard literalOuterText else {
            return try parseWhole(TemplateSourceText(text, line: line, column: column), escapesHTML: escapesHTML)
        }
        let whole = TemplateSourceText(text, line: line, column: column)
        let scalars = whole.scalars
        guard let first = (0..<scalars.count).first(where: { whole.has("{{", at: $0) }),
            let last = (0..<scalars.count).last(where: { whole.has("}}", at: $0) })
        else {
            return Template(nodes: text.isEmpty ? [] : [.text(text)])
        }
        guard last + 2 >= first else {
            throw TemplateSyntaxError(
                location: whole.location(last),
                message:
                    "'}}' comes before the first '{{': "
                    + "WireMock cannot cut this template; remove the stray '}}' or escape it"
            )
        }
        let start = whole.location(first)
        let middle = TemplateSourceText(whole.text(first..<last + 2), line: start.line, column: start.column)
        var nodes = try parseWhole(middle, escapesHTML: escapesHTML).nodes
        if first > 0 { nodes.insert(.text(whole.text(0..<first)), at: 0) }
        if last + 2 < scalars.count { nodes.append(.text(whole.text(last + 2..<scalars.count))) }
        return Template(nodes: nodes)
    }

    private static func parseWhole(
        _ source: TemplateSourceText,
        escapesHTML: Bool
    ) throws(TemplateSyntaxError) -> Template {
        var parser = TemplateParser(
            source: source,
            tokens: try TemplateLexer(source: source).tokens(),
            escapesHTML: escapesHTML
        )
        let (nodes, end) = try parser.nodes(depth: 0)
        switch end {
        case .endOfText:
            return Template(nodes: nodes)
        case .close(let name, let offset):
            throw TemplateSyntaxError(
                location: source.location(offset),
                message:
                    "'{{/\(name)}}' closes a block that was never opened: remove it, or open it with '{{#\(name)}}'"
            )
        case .plainElse(let offset), .elseChain(_, _, let offset):
            throw TemplateSyntaxError(
                location: source.location(offset),
                message: "'{{else}}' is only allowed inside a block ('{{#if x}}…{{else}}…{{/if}}')"
            )
        }
    }

    /// What ended a run of nodes.
    private enum End {
        case endOfText
        case close(name: String, offset: Int)
        case plainElse(offset: Int)
        case elseChain(TemplateExpression, blockParams: [String], offset: Int)
    }

    private let source: TemplateSourceText
    private let tokens: [TemplateToken]
    /// Whether `{{ }}` tags HTML-escape what they print.
    private let escapesHTML: Bool
    private var position = 0
    /// The names of the blocks being parsed, innermost last.
    private var blockNames: [String] = []
    /// The first parameter of each enclosing block that has parameters, innermost last (a path's
    /// text; empty for other parameters).
    private var firstParams: [String] = []

    private init(source: TemplateSourceText, tokens: [TemplateToken], escapesHTML: Bool) {
        self.source = source
        self.tokens = tokens
        self.escapesHTML = escapesHTML
    }

    /// Nodes up to the end of the text, a `{{/…}}` or an `{{else}}`, which is consumed.
    private mutating func nodes(depth: Int) throws(TemplateSyntaxError) -> ([TemplateNode], End) {
        var nodes: [TemplateNode] = []
        while position < tokens.count {
            let token = tokens[position]
            position += 1
            switch token.kind {
            case .text(let text), .escapedTag(let text):
                if text.isEmpty { continue }
                if case .text(let previous)? = nodes.last {
                    nodes[nodes.count - 1] = .text(previous + text)
                } else {
                    nodes.append(.text(text))
                }
            case .comment:
                nodes.append(.comment(source.location(token.offset)))
            case .tag(let kind, let lexemes):
                switch kind {
                case .variable:
                    if lexemes.first?.kind == .elseKeyword {
                        if lexemes.count == 1 { return (nodes, .plainElse(offset: token.offset)) }
                        var index = 1
                        let expression = try self.expression(lexemes, &index, depth: depth, tagOffset: token.offset)
                        let names = try blockParams(lexemes, &index)
                        try expectEnd(lexemes, index)
                        return (nodes, .elseChain(expression, blockParams: names, offset: token.offset))
                    }
                    nodes.append(
                        .mustache(
                            qualifiedInWith(try wholeExpression(lexemes, depth: depth, tagOffset: token.offset)),
                            escaped: escapesHTML
                        )
                    )
                case .triple, .ampersand:
                    nodes.append(
                        .mustache(
                            qualifiedInWith(try wholeExpression(lexemes, depth: depth, tagOffset: token.offset)),
                            escaped: false
                        )
                    )
                case .inverted where lexemes.isEmpty:
                    return (nodes, .plainElse(offset: token.offset))
                case .block, .inverted:
                    nodes.append(.block(try block(kind == .inverted, lexemes, token: token, depth: depth + 1)))
                case .close:
                    guard lexemes.count == 1, lexemes[0].kind == .name else {
                        throw TemplateSyntaxError(
                            location: source.location(token.offset),
                            message: "a closing tag holds only the block's name: '{{/name}}'"
                        )
                    }
                    return (nodes, .close(name: lexemes[0].text, offset: lexemes[0].offset))
                }
            }
        }
        return (nodes, .endOfText)
    }

    /// handlebars.java's "HACK to qualified 'with'" (`TemplateBuilder.newVar`): directly inside
    /// `{{#with person}}`, a bare `{{person}}` or `{{person.name}}` reads `this.person…`, that is
    /// `person` inside the current value, never the outer `person`.
    private func qualifiedInWith(_ expression: TemplateExpression) -> TemplateExpression {
        let name = expression.name.text
        guard !expression.requiresHelper, blockNames.last == "with", !name.hasPrefix("."),
            let scope = firstParams.last, name == scope || name.hasPrefix(scope + ".")
        else { return expression }
        return TemplateExpression(
            name: TemplatePath("this." + name),
            params: [],
            hash: [],
            location: expression.location
        )
    }

    /// A block or inverted section whose opening tag is `token`, up to its `{{/name}}`.
    private mutating func block(
        _ inverted: Bool,
        _ lexemes: [TemplateTagLexeme],
        token: TemplateToken,
        depth: Int
    ) throws(TemplateSyntaxError) -> TemplateBlock {
        guard depth <= Self.maximumNesting else {
            throw TemplateSyntaxError(
                location: source.location(token.offset),
                message:
                    "blocks and subexpressions nest more than \(Self.maximumNesting) levels deep: flatten the template"
            )
        }
        if lexemes.first?.kind == .star {
            throw TemplateSyntaxError(
                location: source.location(token.offset),
                message: "decorators ('{{#*name}}') are not supported"
            )
        }
        var index = 0
        var expression = try self.expression(lexemes, &index, depth: depth, tagOffset: token.offset)
        let names = try blockParams(lexemes, &index)
        try expectEnd(lexemes, index)
        let opener = inverted ? "^" : "#"
        if inverted {
            // handlebars.java builds an inverted section without its parameters.
            expression = TemplateExpression(name: expression.name, params: [], hash: [], location: expression.location)
        }
        blockNames.append(expression.name.text)
        if let first = expression.params.first {
            if case .path(let path) = first { firstParams.append(path.text) } else { firstParams.append("") }
        }
        defer {
            // handlebars.java never removes an inverted section's name (`visitUnless`); the
            // enclosing block then removes it instead of its own. Kept, for the same `with` rule.
            if !inverted { blockNames.removeLast() }
            if !expression.params.isEmpty { firstParams.removeLast() }
        }
        let (body, firstEnd) = try nodes(depth: depth)
        var end = firstEnd
        var chain: [(TemplateExpression, [String], [TemplateNode])] = []
        var elseBody: [TemplateNode] = []
        var sawPlainElse = false
        while true {
            switch end {
            case .endOfText:
                throw TemplateSyntaxError(
                    location: source.location(token.offset),
                    message: "'{{\(opener)\(expression.name)}}' is never closed: add '{{/\(expression.name)}}'"
                )
            case .plainElse(let offset), .elseChain(_, _, let offset):
                if inverted {
                    throw TemplateSyntaxError(
                        location: source.location(offset),
                        message:
                            "'{{else}}' is not allowed in an inverted section '{{^\(expression.name)}}': "
                            + "use '{{#unless \(expression.name)}}…{{else}}…{{/unless}}'"
                    )
                }
                if sawPlainElse {
                    throw TemplateSyntaxError(
                        location: source.location(offset),
                        message: "this block already has an '{{else}}': only '{{/\(expression.name)}}' may follow it"
                    )
                }
                let (nodes, next) = try nodes(depth: depth)
                if case .elseChain(let link, let linkNames, _) = end {
                    chain.append((link, linkNames, nodes))
                } else {
                    elseBody = nodes
                    sawPlainElse = true
                }
                end = next
                continue
            case .close(let name, let offset):
                guard name == expression.name.text else {
                    let opened = source.location(token.offset)
                    throw TemplateSyntaxError(
                        location: source.location(offset),
                        message:
                            "'{{/\(name)}}' closes '{{\(opener)\(expression.name)}}' opened at \(opened): "
                            + "write '{{/\(expression.name)}}'"
                    )
                }
            }
            break
        }
        var inverse = elseBody
        for (link, linkNames, nodes) in chain.reversed() {
            inverse = [
                .block(
                    TemplateBlock(
                        expression: link,
                        inverted: false,
                        blockParams: linkNames,
                        body: nodes,
                        inverse: inverse
                    )
                )
            ]
        }
        return TemplateBlock(
            expression: expression,
            inverted: inverted,
            blockParams: names,
            body: body,
            inverse: inverse
        )
    }

    /// `as |name …|` at `index`, if present.
    private func blockParams(_ lexemes: [TemplateTagLexeme], _ index: inout Int) throws(TemplateSyntaxError) -> [String]
    {
        guard index < lexemes.count, lexemes[index].kind == .asKeyword else { return [] }
        let start = lexemes[index]
        guard index + 1 < lexemes.count, lexemes[index + 1].kind == .pipe else {
            throw TemplateSyntaxError(
                location: source.location(start.offset),
                message: "block parameters are written 'as |name|' or 'as |item index|'"
            )
        }
        index += 2
        var names: [String] = []
        while index < lexemes.count, lexemes[index].kind == .name {
            names.append(lexemes[index].text)
            index += 1
        }
        guard !names.isEmpty, index < lexemes.count, lexemes[index].kind == .pipe else {
            throw TemplateSyntaxError(
                location: source.location(start.offset),
                message: "block parameters are written 'as |name|' or 'as |item index|': name them between two '|'"
            )
        }
        index += 1
        return names
    }

    /// An expression that fills the whole tag.
    private func wholeExpression(
        _ lexemes: [TemplateTagLexeme],
        depth: Int,
        tagOffset: Int
    ) throws(TemplateSyntaxError) -> TemplateExpression {
        var index = 0
        let expression = try expression(lexemes, &index, depth: depth, tagOffset: tagOffset)
        try expectEnd(lexemes, index)
        return expression
    }

    private func expectEnd(_ lexemes: [TemplateTagLexeme], _ index: Int) throws(TemplateSyntaxError) {
        guard index < lexemes.count else { return }
        let extra = lexemes[index]
        let message =
            switch extra.kind {
            case .asKeyword, .pipe: "block parameters ('as |x|') are only allowed in a block's opening tag"
            case .closeParen: "')' has no matching '('"
            case .equals: "'=' must follow a key name: key=value"
            case .partialPath where extra.text.hasPrefix("'"): "this string is never closed: end it with '"
            case .partialPath:
                "'\(extra.text)' is not a valid value: use a path, \"text\", a number, true/false or (helper …)"
            case .name, .doubleQuoted, .singleQuoted, .number, .boolean, .openParen:
                "'\(extra.text)' cannot follow key=value arguments: put positional parameters before them"
            default: "unexpected '\(extra.text)'"
            }
        throw TemplateSyntaxError(location: source.location(extra.offset), message: message)
    }

    /// `name param* (key=param)*` starting at `index`.
    private func expression(
        _ lexemes: [TemplateTagLexeme],
        _ index: inout Int,
        depth: Int,
        tagOffset: Int
    ) throws(TemplateSyntaxError) -> TemplateExpression {
        guard depth <= Self.maximumNesting else {
            throw TemplateSyntaxError(
                location: source.location(tagOffset),
                message:
                    "blocks and subexpressions nest more than \(Self.maximumNesting) levels deep: flatten the template"
            )
        }
        guard index < lexemes.count else {
            throw TemplateSyntaxError(
                location: source.location(tagOffset),
                message: "this tag is empty: write a helper name or a path ('{{request.path}}')"
            )
        }
        let head = lexemes[index]
        guard head.kind == .name else {
            let message =
                switch head.kind {
                case .doubleQuoted, .singleQuoted, .number, .boolean:
                    "a tag starts with a helper name or a path, not the literal \(head.text): "
                        + "to print it, write it outside the tag"
                case .elseKeyword: "'else' is only allowed as '{{else}}' or '{{else if …}}' inside a block"
                case .star: "decorators ('{{*name}}') are not supported"
                case .partialPath: "'\(head.text)' is not a valid name: names start with a letter, '_', '$', '@' or ':'"
                default: "a tag starts with a helper name or a path, not '\(head.text)'"
                }
            throw TemplateSyntaxError(location: source.location(head.offset), message: message)
        }
        index += 1
        var params: [TemplateArgument] = []
        var hash: [TemplateHashArgument] = []
        while index < lexemes.count {
            let lexeme = lexemes[index]
            if lexeme.kind == .name, index + 1 < lexemes.count, lexemes[index + 1].kind == .equals {
                index += 2
                hash.append(
                    TemplateHashArgument(
                        key: lexeme.text,
                        value: try argument(lexemes, &index, depth: depth, tagOffset: tagOffset, after: lexeme)
                    )
                )
            } else if hash.isEmpty,
                [.name, .doubleQuoted, .singleQuoted, .number, .boolean, .openParen].contains(lexeme.kind)
            {
                params.append(try argument(lexemes, &index, depth: depth, tagOffset: tagOffset, after: lexeme))
            } else {
                break
            }
        }
        return TemplateExpression(
            name: TemplatePath(head.text),
            params: params,
            hash: hash,
            location: source.location(head.offset)
        )
    }

    /// One parameter or hash value at `index`.
    private func argument(
        _ lexemes: [TemplateTagLexeme],
        _ index: inout Int,
        depth: Int,
        tagOffset: Int,
        after previous: TemplateTagLexeme
    ) throws(TemplateSyntaxError) -> TemplateArgument {
        guard index < lexemes.count else {
            throw TemplateSyntaxError(
                location: source.location(previous.offset),
                message: "'\(previous.text)=' needs a value: key=\"text\", key=1, key=path or key=(helper …)"
            )
        }
        let lexeme = lexemes[index]
        index += 1
        switch lexeme.kind {
        case .doubleQuoted:
            return .literal(.string(String(lexeme.text.dropFirst().dropLast()).replacing("\\\"", with: "\"")))
        case .singleQuoted:
            return .literal(.string(String(lexeme.text.dropFirst().dropLast()).replacing("\\'", with: "'")))
        case .number:
            return .literal(JavaNumberFormat.literal(lexeme.text))
        case .boolean:
            return .literal(.bool(lexeme.text == "true"))
        case .name:
            return .path(TemplatePath(lexeme.text))
        case .openParen:
            let inner = try expression(lexemes, &index, depth: depth + 1, tagOffset: lexeme.offset)
            guard index < lexemes.count, lexemes[index].kind == .closeParen else {
                throw TemplateSyntaxError(
                    location: source.location(lexeme.offset),
                    message: "this '(' is never closed: add ')' after the subexpression"
                )
            }
            index += 1
            return .subexpression(inner)
        default:
            throw TemplateSyntaxError(
                location: source.location(lexeme.offset),
                message:
                    "'\(lexeme.text)' is not a valid value: use a path, \"text\", a number, true/false or (helper …)"
            )
        }
    }
}
