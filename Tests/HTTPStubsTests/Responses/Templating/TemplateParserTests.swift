import Testing

@testable import HTTPStubs
@testable import HTTPStubsFiles
@testable import HTTPStubsLanguages
@testable import HTTPStubsTemplates

/// The grammar of handlebars.java 4.x as the parser reads it: the tree it builds, the located
/// errors it reports (line:column, 1-based, in Unicode scalars) and what it refuses on purpose.
@Suite("Templating: parser")
struct TemplateParserTests {
    private func parse(_ text: String, literalOuterText: Bool = false) throws -> Template {
        try TemplateParser.parse(text, literalOuterText: literalOuterText)
    }

    /// The error `text` gives, as `line:column: message`.
    private func error(_ text: String, literalOuterText: Bool = false) -> TemplateSyntaxError? {
        do {
            _ = try TemplateParser.parse(text, literalOuterText: literalOuterText)
            return nil
        } catch {
            return error
        }
    }

    private func location(_ line: Int, _ column: Int) -> TemplateSourceLocation {
        TemplateSourceLocation(line: line, column: column)
    }

    // MARK: Tree

    @Test func textAndTagsBecomeNodes() throws {
        let template = try parse("a {{b}} {{{c}}} {{&d}} {{! e }}f")
        #expect(template.nodes.count == 9)
        guard case .text("a ") = template.nodes[0],
            case .mustache(let b, escaped: true) = template.nodes[1],
            case .mustache(let c, escaped: false) = template.nodes[3],
            case .mustache(let d, escaped: false) = template.nodes[5],
            case .comment(let commentLocation) = template.nodes[7],
            case .text("f") = template.nodes[8]
        else {
            Issue.record("unexpected nodes \(template.nodes)")
            return
        }
        #expect(b.name.text == "b" && b.location == location(1, 5))
        #expect(c.name.text == "c" && c.location == location(1, 12))
        #expect(d.name.text == "d" && d.location == location(1, 20))
        #expect(commentLocation == location(1, 24))
    }

    @Test func parametersLiteralsHashAndSubexpressions() throws {
        let template = try parse(#"{{helper a.b "x\"y" 'it\'s' -1.50 007 true (inner c key=1) k1=d k2="v"}}"#)
        guard case .mustache(let expression, _) = template.nodes.first else {
            Issue.record("not a mustache")
            return
        }
        #expect(expression.name.text == "helper")
        #expect(
            expression.params == [
                .path(TemplatePath("a.b")),
                .literal(.string(#"x"y"#)),
                .literal(.string("it's")),
                .literal(.number(text: "-1.5", value: -1.5)),
                .literal(.integer(7)),
                .literal(.bool(true)),
                .subexpression(
                    TemplateExpression(
                        name: TemplatePath("inner"),
                        params: [.path(TemplatePath("c"))],
                        hash: [TemplateHashArgument(key: "key", value: .literal(.integer(1)))],
                        location: location(1, 45)
                    )
                ),
            ]
        )
        #expect(
            expression.hash == [
                TemplateHashArgument(key: "k1", value: .path(TemplatePath("d"))),
                TemplateHashArgument(key: "k2", value: .literal(.string("v"))),
            ]
        )
    }

    @Test func stringEscapesAreOnlyTheQuote() throws {
        let template = try parse(#"{{h "a\nb" 'a\"b' "a\\b"}}"#)
        guard case .mustache(let expression, _) = template.nodes.first else { return }
        #expect(
            expression.params == [
                .literal(.string(#"a\nb"#)), .literal(.string(#"a\"b"#)), .literal(.string(#"a\\b"#)),
            ]
        )
    }

    @Test func elseIfChainsNest() throws {
        let template = try parse("{{#if a}}A{{else if b}}B{{else unless c}}C{{else}}D{{/if}}")
        guard case .block(let outer) = template.nodes.first,
            case .block(let second) = outer.inverse.first,
            case .block(let third) = second.inverse.first
        else {
            Issue.record("chain not nested: \(template.nodes)")
            return
        }
        #expect(outer.expression.name.text == "if" && outer.body == [.text("A")])
        #expect(
            second.expression.name.text == "if" && second.expression.params == [.path(TemplatePath("b"))]
                && second.body == [.text("B")]
        )
        #expect(third.expression.name.text == "unless" && third.body == [.text("C")] && third.inverse == [.text("D")])
    }

    @Test func caretIsElseInsideABlockAndAnInvertedSectionOutside() throws {
        let template = try parse("{{#if a}}A{{^}}B{{/if}}{{^c}}C{{/c}}")
        guard case .block(let first) = template.nodes[0], case .block(let second) = template.nodes[1] else {
            Issue.record("unexpected \(template.nodes)")
            return
        }
        #expect(first.inverse == [.text("B")] && !first.inverted)
        #expect(second.inverted && second.expression.name.text == "c" && second.body == [.text("C")])
    }

    @Test func blockParameters() throws {
        let template = try parse("{{#each items as |item index|}}{{item}}{{/each}}")
        guard case .block(let block) = template.nodes.first else { return }
        #expect(block.blockParams == ["item", "index"])
        #expect(error("{{#each items as |}}{{/each}}")?.location == location(1, 15))
        #expect(error("{{x as |y|}}")?.message.contains("only allowed in a block") == true)
    }

    @Test func keywordsWinTiesButNotLongerNames() throws {
        #expect(error("{{true}}") != nil)
        #expect(error("{{else}}") != nil)
        #expect(error("{{as}}") != nil)
        let template = try parse("{{trueish}}{{elsewhere}}{{ask}}")
        #expect(template.nodes.count == 3)
    }

    @Test func pathsCompileLikePathCompiler() {
        #expect(TemplatePath("this").segments == [.current])
        #expect(TemplatePath(".").segments == [.current])
        #expect(TemplatePath("..").segments == [.parentValue])
        #expect(TemplatePath("../a.b").segments == [.parent, .property("a"), .property("b")])
        #expect(TemplatePath("./a").segments == [.this, .property("a")])
        #expect(
            TemplatePath("a/b.[c.d].0.[1]").segments == [
                .property("a"), .property("b"), .property("c.d"), .index(0, key: "0"), .index(1, key: "1"),
            ]
        )
        #expect(TemplatePath("@index").segments == [.data("index")])
        #expect(TemplatePath("@../index").segments == [.parent, .data("index")])
        #expect(TemplatePath("@root.name").segments == [.data("root"), .property("name")])
        #expect(TemplatePath("this.a").segments == [.this, .property("a")])
        #expect(TemplatePath("a.-1").segments == [.property("a"), .index(-1, key: "-1")])
        #expect(TemplatePath("a.99999999999").segments == [.property("a"), .property("99999999999")])
    }

    @Test func unicodeNamesFollowTheLexer() throws {
        _ = try parse("{{é}}{{ж}}{{$a:b-c_d}}")
        let failure = try #require(error("x\n  {{名前}}"))
        #expect(failure.location == location(2, 5))
    }

    @Test func commentsMayContainBraces() throws {
        let template = try parse("a{{!-- {{#if}} }} --}}b{{! x }}c")
        #expect(
            template.nodes == [.text("a"), .comment(location(1, 2)), .text("b"), .comment(location(1, 24)), .text("c")]
        )
    }

    @Test func escapedTagsAreText() throws {
        #expect(try parse(#"a\{{b}}c"#).nodes == [.text("a{{b}}c")])
        #expect(try parse(#"\{{b"#).nodes == [.text("{{b")])
    }

    // MARK: Errors, located

    @Test func errorLocations() throws {
        let cases: [(String, Int, Int, String)] = [
            ("{{x}}}", 1, 4, "found '}}}'"),
            ("ab\n{{{x}}", 2, 5, "'{{{' must be closed by '}}}'"),
            ("{{a}}}}", 1, 4, "found '}}}}'"),
            ("x\n\n  {{#if a}}\nbody", 3, 3, "'{{#if}}' is never closed: add '{{/if}}'"),
            ("{{#if a}}x{{/iff}}", 1, 14, "'{{/iff}}' closes '{{#if}}' opened at 1:1: write '{{/if}}'"),
            ("a\r\n{{/if}}", 2, 4, "closes a block that was never opened"),
            ("{{else}}", 1, 1, "only allowed inside a block"),
            ("{{#if a}}{{else}}{{else}}{{/if}}", 1, 18, "already has an '{{else}}'"),
            ("{{^a}}x{{else}}y{{/a}}", 1, 8, "not allowed in an inverted section"),
            ("a {{b", 1, 3, "this tag is never closed: end it with '}}'"),
            ("a {{! b", 1, 3, "this comment is never closed: end it with '}}'"),
            ("a {{!-- b }}", 1, 3, "end it with '--}}'"),
            ("{{\"s\"}}", 1, 3, "not the literal \"s\""),
            ("{{1}}", 1, 3, "not the literal 1"),
            ("{{}}", 1, 1, "this tag is empty"),
            ("{{ #if a}}{{/if}}", 1, 4, "put '#' right after '{{'"),
            ("{{x a=1 b}}", 1, 9, "cannot follow key=value arguments"),
            ("{{x (y}}", 1, 5, "this '(' is never closed"),
            ("{{x a b)}}", 1, 8, "')' has no matching '('"),
            ("{{x k=}}", 1, 5, "'k=' needs a value"),
            ("{{x 'abc}}", 1, 5, "this string is never closed"),
            ("{{x 12ab}}", 1, 5, "not a valid value"),
            ("{{/x y}}", 1, 1, "a closing tag holds only the block's name"),
            (#"a\{{b{{c}}"#, 1, 2, "another '{{' starts before its '}}'"),
            ("{{~! c }}", 1, 4, "unexpected '!'"),
            ("{{{~x}}}", 1, 4, "unexpected '~'"),
        ]
        for (text, line, column, message) in cases {
            let error = error(text)
            #expect(error?.location == location(line, column), "\(text.debugDescription): \(String(describing: error))")
            #expect(error?.message.contains(message) == true, "\(text.debugDescription): \(String(describing: error))")
        }
    }

    @Test func unsupportedConstructsSayWhy() {
        let cases: [(String, Int, String)] = [
            ("{{> part}}", 1, "partials ('{{>') are not supported"),
            ("{{#> part}}x{{/part}}", 1, "partial blocks"),
            ("{{{{raw}}}}x{{{{/raw}}}}", 1, "raw blocks"),
            ("{{=<% %>=}}", 1, "changing the delimiters"),
            ("{{*decorator}}", 3, "decorators"),
            ("{{#*inline \"x\"}}{{/inline}}", 1, "decorators"),
        ]
        for (text, column, message) in cases {
            let error = error(text)
            #expect(error?.location == location(1, column), "\(text)")
            #expect(error?.message.contains(message) == true, "\(text): \(String(describing: error))")
        }
    }

    @Test func errorLocationsAreShiftedByTheStartOfTheTemplate() {
        do {
            _ = try TemplateParser.parse("{{x}}}\n{{y}}}", line: 10, column: 20)
            Issue.record("parsed")
        } catch {
            #expect(error.location == location(10, 23))
            #expect(error.description.hasPrefix("10:23: "))
        }
    }

    @Test func nestingIsBounded() {
        let depth = TemplateParser.maximumNesting + 1
        let blocks = String(repeating: "{{#if a}}", count: depth) + String(repeating: "{{/if}}", count: depth)
        #expect(error(blocks)?.message.contains("nest more than") == true)
        let subexpressions =
            "{{h " + String(repeating: "(h ", count: depth) + String(repeating: ")", count: depth) + "}}"
        #expect(error(subexpressions)?.message.contains("nest more than") == true)
        let fine = String(repeating: "{{#if a}}", count: 50) + String(repeating: "{{/if}}", count: 50)
        #expect(error(fine) == nil)
    }

    @Test func garbageNeverCrashes() {
        let pieces = [
            "{{", "}}", "{", "}", "~", "#", "/", "^", "!", "--", "\\", "\"", "'", "(", ")", "=", "as", "|", "else",
            "if", " ", "\n", "a", ".", "[", "]", "@", "&", ">", "*",
        ]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<3000 {
            let text = (0..<Int.random(in: 1...14, using: &generator)).map { _ in
                pieces.randomElement(using: &generator)!
            }.joined()
            if let template = try? TemplateParser.parse(text) {
                _ = try? TemplateRenderer().render(
                    template,
                    context: .object(TemplateObject([("a", .list([.integer(1)]))]))
                )
            }
            _ = try? TemplateParser.parse(text, literalOuterText: true)
        }
    }

    // MARK: WireMock's outer text

    @Test func wireMockKeepsTheTextOutsideTheTagsLiteral() throws {
        let template = try parse("  {{~a~}}  ", literalOuterText: true)
        #expect(template.nodes.first == .text("  ") && template.nodes.last == .text("  "))
        #expect(try parse("half {{ open", literalOuterText: true).nodes == [.text("half {{ open")])
        #expect(try parse("", literalOuterText: true).nodes == [])
        let failure = try #require(error("a\n}}b{{c", literalOuterText: true))
        #expect(failure.location == location(2, 1))
        // Locations inside the cut-out middle are those of the whole text.
        #expect(self.error("ab\ncd {{x}}}", literalOuterText: true)?.location == location(2, 7))
    }

    // MARK: Helper calls

    @Test func helperCallsListEveryTagThatNeedsAHelper() throws {
        let template = try parse(
            """
            {{plain}}{{#section}}{{/section}}{{upper name}}
            {{#if (eq a 'b')}}{{else if (contains x y)}}{{else}}{{/if}}{{x k=(now)}}{{^inv}}{{/inv}}
            """
        )
        let calls = template.helperCalls.map { "\($0.name)@\($0.location)" }
        #expect(calls == ["upper@1:36", "if@2:4", "eq@2:8", "if@2:26", "contains@2:30", "x@2:62", "now@2:67"])
        do {
            try template.validate(helpers: ["if", "upper", "eq", "x"])
            Issue.record("validated")
        } catch {
            #expect(error.location == location(2, 30))
            #expect(error.message.hasPrefix("helper 'contains' is not implemented"))
        }
        try template.validate(helpers: ["if", "upper", "eq", "x", "contains", "now"])
    }
}
