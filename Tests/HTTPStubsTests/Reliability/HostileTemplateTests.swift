import Foundation
import Testing

@testable import HTTPStubs

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Response templates written, or fed by a request, to end the process, hang a request or take
/// gigabytes: the templates of issue #39 (integer overflow in `range` and `randomInt`, a padding of
/// -2⁶³ or 10¹¹ characters, a date offset of two billion years, helpers making megabytes in a
/// loop), a `range` too long for `#each`, and a CR LF taken from the request into a header. Each
/// answers through real URLSession calls and `stubs match`: a 500 naming the helper and the tag's
/// line and column, or what WireMock answers; nothing crashes, nothing takes minutes.
@Suite("Hostile templates")
struct HostileTemplateTests {
    /// A template, the query its request carries, and the helper its failure must name.
    struct Case: Sendable, CustomTestStringConvertible {
        let template: String
        let query: String
        let helper: String
        /// What the failure must also say.
        let says: String

        var testDescription: String { template + (query.isEmpty ? "" : " ?\(query)") }
    }

    static let failing: [Case] = [
        Case(
            template: "{{range -8000000000000000000 8000000000000000000}}",
            query: "",
            helper: "range",
            says: "spent the request's work budget"
        ),
        Case(
            template: "{{randomInt lower=request.query.lo upper=request.query.hi}}",
            query: "lo=-9223372036854775808&hi=9223372036854775807",
            helper: "randomInt",
            says: "lower=-9223372036854775808 upper=9223372036854775807 is out of range"
        ),
        Case(
            template: "{{ljust 'x' size='99999999999'}}",
            query: "",
            helper: "ljust",
            says: "padding to size=99999999999"
        ),
        Case(
            template: "{{size (ljust 'x' size=2000000000)}}",
            query: "",
            helper: "ljust",
            says: "spent the request's work budget"
        ),
        Case(
            template: "{{#each (range 1 1000)}}{{size (ljust 'x' size=1000000)}}{{/each}}",
            query: "",
            helper: "ljust",
            says: "spent the request's work budget"
        ),
        Case(
            template: "{{now offset='2000000000 years' format='epoch'}}",
            query: "",
            helper: "now",
            says: "the years Java holds"
        ),
        Case(
            template: "{{now offset=request.query.o format='epoch'}}",
            query: "o=2000000000%20years",
            helper: "now",
            says: "the years Java holds"
        ),
        Case(
            template: "{{now offset=request.query.o}}",
            query: "o=99999999999%20days",
            helper: "now",
            says: "it must be a Java int"
        ),
        Case(
            template: "{{now offset='200000000 years' format='epoch'}}{{now offset='-500000000 years' format='epoch'}}",
            query: "",
            helper: "now",
            says: "milliseconds since 1970 count in a 64-bit integer"
        ),
        Case(
            template: "{{#each (range 1 2000000)}}{{/each}}",
            query: "",
            helper: "range",
            says: "2000000 numbers"
        ),
        Case(
            template: "{{randomValue length=request.query.n}}",
            query: "n=-1",
            helper: "randomValue",
            says: "length=-1 is out of range"
        ),
        Case(
            template: "{{stringFormat '%999999999999d' 1}}",
            query: "",
            helper: "stringFormat",
            says: "it must be a Java int"
        ),
        Case(
            template: "{{#each (array 1 2) base=9999999999}}{{@index}}{{/each}}",
            query: "",
            helper: "each",
            says: "base=9.999999999E9 is out of range"
        ),
    ]

    @Test(
        "the issue's templates answer 500 naming the helper and its line and column, and are reported",
        .timeLimit(.minutes(2)),
        arguments: failing
    )
    func failsWithALocatedError(_ hostile: Case) async throws {
        let stubs = StubRegistry()
        let issues = DiagnosticLog(stubs)
        stubs.stub(.get("https://api.example.com/t"), .template(hostile.template))
        let url = "https://api.example.com/t" + (hostile.query.isEmpty ? "" : "?\(hostile.query)")
        let answer = await complete(stubs.makeSession(), url)
        #expect(answer.error == nil, "\(String(describing: answer.error))")
        #expect(answer.status == 500, "\(answer.text ?? "")")
        let body = answer.text ?? ""
        #expect(body.hasPrefix("The response template failed: HTTPStubsTests/HostileTemplateTests.swift:"), "\(body)")
        #expect(body.contains("helper '\(hostile.helper)'"), "\(body)")
        #expect(body.contains(hostile.says), "\(body)")
        #expect(body.contains(#/swift:\d+:\d+: 1:\d+: /#), "no line:column in \(body)")
        #expect(issues.all.contains { $0.severity == .error && $0.message.contains("helper '\(hostile.helper)'") })
    }

    @Test("arguments WireMock accepts still answer as WireMock does")
    func acceptedExtremes() async throws {
        let stubs = StubRegistry(clock: ManualStubClock())
        stubs.setTemplateDate(Date(timeIntervalSince1970: 1_614_834_367))  // 2021-03-04T05:06:07Z
        let cases: [(template: String, body: String)] = [
            // A size no longer than the text leaves it as it is (StringUtils.rightPad).
            ("[{{ljust 'x' size='-9223372036854775808'}}]", "[x]"),
            ("[{{center 'abc' size=-1}}]", "[abc]"),
            ("{{range 5 1}}", "[]"),
            ("{{size (range 1 200000)}}", "200000"),
            ("{{randomInt lower='9223372036854775806' upper='9223372036854775807'}}", "9223372036854775806"),
            // 200,000,000 years are 500,000 cycles of 400 Gregorian years, 146,097 days each.
            ("{{now offset='200000000 years' format='unix'}}", "\(1_614_834_367 + 500_000 * 146_097 * 86_400)"),
            ("{{now offset='2147483647 seconds'}}", "2089-03-22T08:20:14Z"),
            // WordUtils.wrap takes a width below 1 as 1.
            ("{{wordWrap 'a b c' '-9223372036854775808'}}", "a\nb\nc"),
            ("{{substring 'abc' 1}}", "bc"),
            ("{{math '1e-99999' '+' 1}}", "1"),
        ]
        for (index, item) in cases.enumerated() {
            stubs.stub(.get("https://api.example.com/\(index)"), .template(item.template))
        }
        let session = stubs.makeSession()
        for (index, item) in cases.enumerated() {
            let answer = await complete(session, "https://api.example.com/\(index)")
            #expect(answer.status == 200, "\(item.template): \(answer.text ?? "")")
            #expect(answer.text == item.body, "\(item.template)")
        }
    }

    @Test("an #each over range 1 200000 renders every element, as in WireMock", .timeLimit(.minutes(2)))
    func longRangeRendersWhole() async throws {
        let stubs = StubRegistry()
        stubs.stub(.get("https://api.example.com/each"), .template("{{#each (range 1 200000)}}.{{/each}}end"))
        let answer = await complete(stubs.makeSession(), "https://api.example.com/each")
        #expect(answer.status == 200)
        #expect(answer.text == String(repeating: ".", count: 200_000) + "end")
    }

    @Test("a dropped or measured value still counts: 25 megabytes made and measured fail on the budget")
    func droppedValuesCount() async throws {
        let stubs = StubRegistry()
        stubs.stub(
            .get("https://api.example.com/dropped"),
            .template("{{#each (range 1 5)}}{{size (ljust 'x' size=5000000)}}{{/each}}")
        )
        let answer = await complete(stubs.makeSession(), "https://api.example.com/dropped")
        #expect(answer.status == 500)
        #expect(answer.text?.contains("helper 'ljust' (padding to size=5000000") == true, "\(answer.text ?? "")")
    }

    // MARK: Header values

    @Test("a CR LF taken from the request into a header value is sent as spaces, as WireMock's Jetty sends it")
    func lineBreakInRenderedHeader() async throws {
        let root = try TemporaryStubRoot(mappings: [
            "h.json": #"""
            {"request": {"urlPath": "/h"},
             "response": {"status": 200, "transformers": ["response-template"], "body": "ok",
                          "headers": {"X-Echo": "{{request.query.h}}", "X-Raw": "{{{request.query.h}}}",
                                      "X-Literal": "a\r\nSet-Cookie: literal=1", "Bad\r\nName": "v"}}}
            """#
        ])
        let registry = try root.registry()
        let session = registry.makeSession()
        let answer = await complete(session, "http://localhost/h?h=a%0D%0ASet-Cookie:%20evil=1%00z")
        let response = try #require(answer.http)
        #expect(response.value(forHTTPHeaderField: "Set-Cookie") == nil)
        #expect(response.value(forHTTPHeaderField: "X-Echo") == "a  Set-Cookie: evil&#x3D;1 z")
        #expect(response.value(forHTTPHeaderField: "X-Raw") == "a  Set-Cookie: evil=1 z")
        #expect(response.value(forHTTPHeaderField: "X-Literal") == "a  Set-Cookie: literal=1")
        #expect(response.value(forHTTPHeaderField: "Bad??Name") == "v")
        let fields = response.allHeaderFields.keys.compactMap { $0 as? String }
        #expect(!fields.contains { $0.contains("\r") || $0.contains("\n") }, "\(fields)")
    }

    @Test("a header value set in code cannot forge a header either")
    func lineBreakInCodeHeader() async throws {
        let stubs = StubRegistry()
        stubs.stub(.get("https://api.example.com/a"), .text("a").header("X-A", "1\r\nSet-Cookie: b=2"))
        stubs.stub(
            .get("https://api.example.com/b"),
            .computed { _ in .text("b", headers: ["X-B": "3\nSet-Cookie: c=4"]) }
        )
        let session = stubs.makeSession()
        let first = try #require(await complete(session, "https://api.example.com/a").http)
        #expect(first.value(forHTTPHeaderField: "X-A") == "1  Set-Cookie: b=2")
        #expect(first.value(forHTTPHeaderField: "Set-Cookie") == nil)
        let second = try #require(await complete(session, "https://api.example.com/b").http)
        #expect(second.value(forHTTPHeaderField: "X-B") == "3 Set-Cookie: c=4")
        #expect(second.value(forHTTPHeaderField: "Set-Cookie") == nil)
    }

    // MARK: The command line

    #if os(macOS) || os(Linux)
    @Test("stubs lint accepts the hostile templates and stubs match answers each with a located 500")
    func commandLine() throws {
        let root = try TemporaryStubRoot(mappings: [
            "range.json": Self.mapping("/range", "{{range -8000000000000000000 8000000000000000000}}"),
            "now.json": Self.mapping("/now", "{{now offset=request.query.o format='epoch'}}"),
            "ljust.json": Self.mapping("/ljust", "{{ljust 'x' size=request.query.n}}"),
        ])
        let stubs = try builtExecutable(named: "stubs")
        let lint = try run(stubs, ["lint", root.path], within: 120)
        #expect(lint.status == 0, "\(lint.output)")
        let requests = [
            ("http://x/range", "helper 'range'"), ("http://x/now?o=2000000000%20years", "helper 'now'"),
            ("http://x/ljust?n=-9223372036854775808", "HTTP/1.1 200"),
            ("http://x/ljust?n=99999999999", "helper 'ljust'"),
        ]
        for (url, says) in requests {
            let match = try run(stubs, ["match", "--stubs", root.path, "GET", url], within: 120)
            #expect(match.status == 0, "\(url): \(match.output)")
            #expect(match.output.contains(says), "\(url): \(match.output)")
            if says.hasPrefix("helper") {
                #expect(match.output.hasPrefix("HTTP/1.1 500"), "\(match.output)")
                #expect(match.output.contains(".json:1:"), "\(match.output)")
            }
        }
    }
    #endif

    /// A mapping answering `GET path` with the templated `body`.
    static func mapping(_ path: String, _ body: String) -> String {
        let response: JSONValue = ["status": 200, "body": .string(body), "transformers": ["response-template"]]
        let request: JSONValue = ["method": "GET", "urlPath": .string(path)]
        return JSONValue.object(["request": request, "response": response]).serialized()
    }
}
