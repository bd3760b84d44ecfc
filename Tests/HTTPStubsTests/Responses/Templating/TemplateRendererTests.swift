import Testing

@testable import HTTPStubs
@testable import HTTPStubsFiles
@testable import HTTPStubsLanguages
@testable import HTTPStubsTemplates

/// Rendering: helpers (arguments, escaping of their results, blocks), the limits that stop a
/// hostile template, located render errors, and the values' Java printing.
@Suite("Templating: renderer")
struct TemplateRendererTests {
    private struct Failure: Error, CustomStringConvertible {
        var description: String { "it broke" }
    }

    /// A helper that prints its name, parameters, hash (sorted) and `this` as `name(p1,p2;k=v|this)`.
    private static let echo = TemplateHelper { call in
        let hash = call.hash.keys.sorted().map { "\($0)=\(call.hash[$0]!.printed)" }.joined(separator: ",")
        return .string(
            "\(call.name)(\(call.params.map(\.printed).joined(separator: ","));\(hash)|\(call.context.printed))"
        )
    }

    private func render(
        _ text: String,
        _ context: String = "{}",
        helpers extra: [String: TemplateHelper] = [:],
        limits: TemplateRenderLimits = .standard
    ) throws -> String {
        let template = try TemplateParser.parse(text)
        let helpers = TemplateBuiltinHelpers.all.merging(extra) { $1 }
        let renderer = TemplateRenderer(helpers: helpers, limits: limits)
        return try renderer.render(template, context: TemplateValue(json: try JSONValue(parsing: context)))
    }

    private func renderError(
        _ text: String,
        _ context: String = "{}",
        helpers: [String: TemplateHelper] = [:],
        limits: TemplateRenderLimits = .standard
    ) -> TemplateRenderError? {
        do {
            _ = try render(text, context, helpers: helpers, limits: limits)
            return nil
        } catch let error as TemplateRenderError {
            return error
        } catch {
            Issue.record("not a render error: \(error)")
            return nil
        }
    }

    // MARK: Helpers

    @Test func helpersGetEvaluatedArgumentsAndTheCurrentContext() throws {
        let output = try render(
            #"{{#with person}}{{echo name 'lit' 2 ../flag nope k=age j=(echo 1)}}{{/with}}"#,
            #"{"flag":true,"person":{"name":"Al","age":30}}"#,
            helpers: ["echo": Self.echo]
        )
        #expect(
            output
                == "echo(Al,lit,2,true,null;j&#x3D;echo(1;|{name&#x3D;Al, age&#x3D;30}),k&#x3D;30|{name&#x3D;Al, "
                + "age&#x3D;30})"
        )
    }

    @Test func aBareNameCallsTheHelperOfThatNameBeforeThePath() throws {
        #expect(
            try render("{{echo}}|{{{echo}}}", #"{"echo":"path"}"#, helpers: ["echo": Self.echo])
                == "echo(;|{echo&#x3D;path})|echo(;|{echo=path})"
        )
    }

    @Test func helperResultsAreEscapedUnlessSafe() throws {
        let helpers: [String: TemplateHelper] = [
            "plain": TemplateHelper { _ in .string("<b>") },
            "safe": TemplateHelper { _ in .safe("<b>") },
            "nothing": TemplateHelper { _ in .null },
            "number": TemplateHelper { _ in .number(text: "1.0E10", value: 1e10) },
        ]
        #expect(
            try render("{{plain}}{{{plain}}}{{safe}}[{{nothing}}]{{number}}", helpers: helpers)
                == "&lt;b&gt;<b><b>[]1.0E10"
        )
    }

    @Test func blockHelpersRenderTheirBodyAndInverseAsOftenAsTheyLike() throws {
        let helpers: [String: TemplateHelper] = [
            "twice": TemplateHelper { call in
                let once = try call.renderBody()
                return .safe(once + (try call.renderBody()))
            },
            "otherwise": TemplateHelper { call in .safe(try call.renderInverse()) },
            "into": TemplateHelper { call in
                .safe(try call.renderBody(in: call.params[0], data: TemplateObject([("@tag", .string("<t>"))])))
            },
        ]
        let output = try render(
            "{{#twice}}<{{x}}>{{/twice}}|{{#otherwise}}no{{else}}yes{{/otherwise}}|"
                + "{{#into obj}}{{y}}{{@tag}}{{../x}}{{/into}}",
            #"{"x":"&","obj":{"y":"Y"}}"#,
            helpers: helpers
        )
        // A block's output is never escaped; the tags inside it are.
        #expect(output == "<&amp;><&amp;>|yes|Y&lt;t&gt;&amp;")
    }

    @Test func aFailingHelperIsALocatedError() {
        let error = renderError("ok\n  {{boom 1}}", helpers: ["boom": TemplateHelper { _ in throw Failure() }])
        #expect(error?.location == TemplateSourceLocation(line: 2, column: 5))
        #expect(error?.message == "helper 'boom' failed: it broke")
    }

    @Test func anUnknownHelperIsALocatedErrorWhenNotValidated() {
        #expect(renderError("{{nope 1}}")?.description == "1:3: helper 'nope' is not implemented")
        #expect(renderError("{{#nope 1}}{{/nope}}")?.location == TemplateSourceLocation(line: 1, column: 4))
        #expect(renderError("{{lookup (nope) 'a'}}")?.location == TemplateSourceLocation(line: 1, column: 11))
    }

    @Test func sectionsFollowTheValue() throws {
        let context = #"{"list":[1,2],"yes":true,"no":false,"obj":{"a":"A"},"text":"t","zero":0}"#
        #expect(
            try render(
                "{{#list}}{{this}}{{/list}}{{#yes}}Y{{/yes}}{{#no}}N{{else}}n{{/no}}{{#obj}}{{a}}{{/obj}}"
                    + "{{#text}}{{this}}{{/text}}{{#zero}}z{{else}}0{{/zero}}",
                context
            ) == "12YnAt0"
        )
    }

    @Test func lookupsWalkUpUntilTheFirstSegmentIsFound() throws {
        let context = #"{"name":"root","a":{"b":"rootB"},"items":[{"a":{}},{"x":1}]}"#
        // In the first item `a` exists without `b`: the lookup stops there. The second has no
        // `a`, so `a.b` is found at the root.
        #expect(
            try render("{{#each items}}[{{a.b}}|{{name}}|{{this.name}}]{{/each}}", context) == "[|root|][rootB|root|]"
        )
    }

    // MARK: Limits

    @Test func outputIsBounded() {
        var limits = TemplateRenderLimits()
        limits.maximumOutputBytes = 1000
        let error = renderError(
            "{{#each list}}{{#each ../list}}0123456789{{/each}}{{/each}}",
            "{\"list\":[" + Array(repeating: "1", count: 20).joined(separator: ",") + "]}",
            limits: limits
        )
        #expect(error?.message.contains("more than 1000 bytes") == true)
        // Located at the innermost block, whose text overflowed.
        #expect(error?.location == TemplateSourceLocation(line: 1, column: 18))
    }

    @Test func helperOutputCountsAtTheTop() {
        var limits = TemplateRenderLimits()
        limits.maximumOutputBytes = 100
        let big = TemplateHelper { _ in .safe(String(repeating: "x", count: 101)) }
        #expect(
            renderError("a\n{{#big}}{{/big}}", helpers: ["big": big], limits: limits)?.location
                == TemplateSourceLocation(line: 2, column: 4)
        )
        #expect(
            renderError("{{big}}", helpers: ["big": big], limits: limits)?.location
                == TemplateSourceLocation(line: 1, column: 3)
        )
    }

    @Test func workIsBoundedEvenWithoutOutput() {
        var limits = TemplateRenderLimits()
        limits.maximumSteps = 10_000
        let list = "[" + Array(repeating: "1", count: 100).joined(separator: ",") + "]"
        let error = renderError(
            "{{#each l}}{{#each ../l}}{{#each ../../l}}{{/each}}{{/each}}{{/each}}",
            "{\"l\":\(list)}",
            limits: limits
        )
        #expect(error?.message.contains("more than 10000 tags") == true)
    }

    @Test func helperRecursionIsBounded() {
        // A helper that renders its body in a fresh render of the same block would never stop;
        // the depth limit ends it.
        let again = TemplateHelper { call in .safe(try call.renderBody()) }
        let deep = String(repeating: "{{#again}}", count: 90) + "x" + String(repeating: "{{/again}}", count: 90)
        var limits = TemplateRenderLimits()
        limits.maximumDepth = 50
        #expect(
            renderError(deep, helpers: ["again": again], limits: limits)?.message.contains("nested more than 50")
                == true
        )
        #expect((try? render(deep, helpers: ["again": again])) == "x")
    }

    @Test func theDeepestTemplateTheParserAcceptsRendersOnAPoolThread() async throws {
        let depth = TemplateParser.maximumNesting
        let opening = (0..<depth).map { ["{{#each l}}", "{{#with o}}", "{{#if (lookup o 'k')}}"][$0 % 3] }.joined()
        let closing = (0..<depth).reversed().map { ["{{/each}}", "{{/with}}", "{{/if}}"][$0 % 3] }.joined()
        let template = try TemplateParser.parse(opening + "{{@index}}" + closing)
        let context = TemplateValue.object(
            TemplateObject([
                ("l", .list([.integer(1)])), ("o", .object(TemplateObject([("k", .bool(true))]))),
            ])
        )
        let output = try await Task.detached { try TemplateRenderer().render(template, context: context) }.value
        #expect(output == "0")
    }

    @Test func defaultLimitsAreDocumentedValues() {
        #expect(TemplateRenderLimits.standard.maximumOutputBytes == 10 * 1024 * 1024)
        #expect(TemplateRenderLimits.standard.maximumDepth == 200)
        #expect(TemplateRenderLimits.standard.maximumSteps == 1_000_000)
    }

    // MARK: Concurrency

    @Test func oneRendererServesManyRequestsAtOnce() async throws {
        let template = try TemplateParser.parse("{{#each items}}{{this}},{{/each}}")
        let renderer = TemplateRenderer()
        let outputs = try await withThrowingTaskGroup(of: String.self) { group in
            for index in 0..<64 {
                group.addTask {
                    try renderer.render(
                        template,
                        context: .object(TemplateObject([("items", .list([.integer(index), .integer(index + 1)]))]))
                    )
                }
            }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(outputs.count == 64)
        #expect(outputs.contains("0,1,") && outputs.contains("63,64,"))
    }

    // MARK: Values

    @Test func jsonNumbersPrintAsJacksonReadsThem() throws {
        let cases: [(String, String)] = [
            ("1", "1"), ("-0", "0"), ("12345678901234567890", "12345678901234567890"),
            ("1.0", "1.0"), ("1.50", "1.5"), ("1e3", "1000.0"), ("1E-5", "1.0E-5"), ("0.001", "0.001"),
            ("1234567.0", "1234567.0"), ("12345678.9", "1.23456789E7"), ("-2.5e-4", "-2.5E-4"), ("0.0", "0.0"),
            ("-0.0", "-0.0"),
        ]
        for (json, printed) in cases {
            #expect(TemplateValue(json: try JSONValue(parsing: json)).printed == printed, "\(json)")
        }
    }

    @Test func javaDoubleFormatting() {
        #expect(JavaNumberFormat.double(100) == "100.0")
        #expect(JavaNumberFormat.double(1e7) == "1.0E7")
        #expect(JavaNumberFormat.double(9_999_999) == "9999999.0")
        #expect(JavaNumberFormat.double(0.1) == "0.1")
        #expect(JavaNumberFormat.double(1e-3) == "0.001")
        #expect(JavaNumberFormat.double(9.99e-4) == "9.99E-4")
        #expect(JavaNumberFormat.double(1.2345678901e10) == "1.2345678901E10")
        #expect(JavaNumberFormat.double(.infinity) == "Infinity")
        #expect(JavaNumberFormat.literal("2147483648").printed == "2.147483648E9")
        #expect(JavaNumberFormat.literal("2147483647").printed == "2147483647")
    }

    @Test func truthinessAndPrinting() {
        #expect(TemplateValue.object(TemplateObject()).isFalsy == false)
        #expect(TemplateValue.number(text: "-0.0", value: -0.0).isFalsy)
        #expect(TemplateValue.string("false").isFalsy == false)
        #expect(
            TemplateValue.list([.null, .bool(true), .object(TemplateObject([("k", .list([]))]))]).printed
                == "[null, true, {k=[]}]"
        )
    }

    @Test func escapingSet() {
        #expect(TemplateEscaping.html("&<>\"'`= é/\\") == "&amp;&lt;&gt;&quot;&#x27;&#x60;&#x3D; é/\\")
        #expect(TemplateEscaping.html("plain") == "plain")
    }
}
