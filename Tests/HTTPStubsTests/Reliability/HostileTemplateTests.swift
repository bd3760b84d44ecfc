import Foundation
import Testing

@testable import HTTPStubs
@testable import HTTPStubsFiles
@testable import HTTPStubsLanguages
@testable import HTTPStubsTemplates

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

    @Test(
        "an #each over range 1 200000 renders every element, as in WireMock",
        .timeLimit(.minutes(2)),
        .enabled(
            if: reliabilitySuitesEnabled,
            "heavy: seconds of work on URLSession's shared queue; run with HTTPSTUBS_RELIABILITY=1 (.ci/run does)"
        )
    )
    func longRangeRendersWhole() async throws {
        let stubs = StubRegistry()
        stubs.stub(.get("https://api.example.com/each"), .template("{{#each (range 1 200000)}}.{{/each}}end"))
        let answer = await complete(stubs.makeSession(), "https://api.example.com/each")
        #expect(answer.status == 200)
        #expect(answer.text == String(repeating: ".", count: 200_000) + "end")
    }

    @Test(
        "a dropped or measured value still counts: 25 megabytes made and measured fail on the budget",
        .enabled(
            if: reliabilitySuitesEnabled,
            "heavy: seconds of work on URLSession's shared queue; run with HTTPSTUBS_RELIABILITY=1 (.ci/run does)"
        )
    )
    func droppedValuesCount() async throws {
        let stubs = StubRegistry()
        stubs.stub(
            .get("https://api.example.com/dropped"),
            .template("{{#each (range 1 5)}}{{size (ljust 'x' size=5000000)}}{{/each}}")
        )
        let answer = await complete(stubs.makeSession(), "https://api.example.com/dropped")
        #expect(answer.status == 500)
        #expect(answer.text?.contains("helper 'ljust' failed: padding to size=5000000") == true, "\(answer.text ?? "")")
    }

    @Test(
        "a long pattern in a long body is found in linear time, literally, as Java finds it",
        .timeLimit(.minutes(2)),
        .enabled(
            if: reliabilitySuitesEnabled,
            "heavy: seconds of work on URLSession's shared queue; run with HTTPSTUBS_RELIABILITY=1 (.ci/run does)"
        )
    )
    func literalSearch() async throws {
        let stubs = StubRegistry()
        // Foundation's search took 20 s for one of these on Linux (a 1,000-byte pattern, a 1 MB body).
        stubs.stub(
            .post("https://api.example.com/search"),
            .template(
                "{{contains request.body request.query.p}} {{size (replace request.body request.query.p 'c')}} "
                    + "{{size (cut request.body request.query.p)}} {{size (stripTags request.body)}}"
            )
        )
        // Canonically equivalent is not equal: Java compares characters as they are written.
        stubs.stub(
            .get("https://api.example.com/literal"),
            .template("{{contains 'e\u{301}x' 'é'}} {{contains 'abc' ''}} {{replace 'e\u{301}x' 'e' 'E'}}")
        )
        let session = stubs.makeSession()
        let pattern = String(repeating: "a", count: 999) + "b"
        let body = String(repeating: "<a", count: 500_000)
        let search = await complete(
            session,
            request("POST", "https://api.example.com/search?p=\(pattern)", body: body)
        )
        #expect(search.text == "false 1000000 1000000 1000000", "\(search.text ?? "")")
        #expect(await complete(session, "https://api.example.com/literal").text == "false true E\u{301}x")
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
    func commandLine() async throws {
        let root = try TemporaryStubRoot(mappings: [
            "range.json": Self.mapping("/range", "{{range -8000000000000000000 8000000000000000000}}"),
            "now.json": Self.mapping("/now", "{{now offset=request.query.o format='epoch'}}"),
            "ljust.json": Self.mapping("/ljust", "{{ljust 'x' size=request.query.n}}"),
        ])
        let stubs = try builtExecutable(named: "stubs")
        let lint = try await run(stubs, ["lint", root.path], within: 120)
        #expect(lint.status == 0, "\(lint.output)")
        let requests = [
            ("http://x/range", "helper 'range'"), ("http://x/now?o=2000000000%20years", "helper 'now'"),
            ("http://x/ljust?n=-9223372036854775808", "HTTP/1.1 200"),
            ("http://x/ljust?n=99999999999", "helper 'ljust'"),
        ]
        for (url, says) in requests {
            let match = try await run(stubs, ["match", "--stubs", root.path, "GET", url], within: 120)
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

/// Templates generated to call every helper a response template can call (read from the registry
/// of helpers, so that a helper added later is covered without a change here) with extreme
/// arguments: the ends of `Int`, `-1`, `0`, `1e308`, `NaN`, `1e999`, huge and negative sizes, the
/// request's 1 MB body and its query, lists, deep nesting, and date offsets of every unit with
/// amounts at and past Java's `int`. Each template is answered through URLSession, and a sample of
/// them through `stubs match --requests` in a child process: every answer comes within a minute
/// (a hang fails, slowness does not), and is a 200 or a 500 naming a helper and a line and column.
@Suite(
    "Hostile templates: every helper with extreme arguments",
    .serialized,
    .enabled(
        if: reliabilitySuitesEnabled,
        "heavy: about 30,000 renders, 7 minutes; run with HTTPSTUBS_RELIABILITY=1 (.ci/run does, on its own)"
    )
)
struct GeneratedHostileTemplateTests {
    /// Every helper a response template can call.
    static let helpers = ResponseTemplate.helpers.keys.sorted()

    /// Arguments as a template writes them: literals at and past the ends of `Int`, Java's `int`
    /// and `Double`, texts that are numbers only to a lenient reader, sizes, paths into the request
    /// (a 1 MB body, a query holding `Int.max`), lists and maps.
    static let values = [
        "-9223372036854775808", "9223372036854775807", "'-9223372036854775808'", "'9223372036854775807'",
        "'9223372036854775808'", "-1", "0", "1", "'-1'", "2147483648", "99999999999", "'99999999999'", "'1e308'",
        "'-1e308'", "'1e999'", "'NaN'", "'Infinity'", "''", "'x'", "'%999999999s'", "'$..*'", "'[*]'",
        "request.body", "request.query.v", "(range 1 3)", "(array 1 'a' null)", #"(parseJson '{"a":[1,2]}')"#, "true",
        "null", "this",
    ]

    /// The hash arguments WireMock's helpers read, each given the values most likely to break
    /// arithmetic.
    static let keys = [
        "size", "length", "lower", "upper", "offset", "format", "base", "position", "maxItems", "pad", "type",
        "timezone", "jsonPath", "flatten", "order", "nulls", "default", "decode", "padding", "removeNulls", "prefix",
        "suffix", "fully", "or", "uppercase", "urlDecode", "yes", "no",
    ]
    static let hashValues = [
        "-9223372036854775808", "'-9223372036854775808'", "'9223372036854775807'", "-1", "'99999999999'", "'1e999'",
        "'NaN'", "request.query.v",
    ]

    /// The templates calling `helper`: with no argument, one, two and three of ``values``, each hash
    /// argument, as a block, nested as deep as the parser allows, and in loops.
    static func templates(for helper: String) -> [String] {
        var templates = ["{{\(helper)}}"]
        for value in values {
            templates += [
                "{{\(helper) \(value)}}", "{{\(helper) 'x' \(value)}}", "{{\(helper) \(value) \(value)}}",
                "{{\(helper) \(value) 'x' \(value)}}", "{{#\(helper) \(value)}}b{{else}}i{{/\(helper)}}",
            ]
        }
        for key in keys {
            for value in hashValues { templates.append("{{\(helper) 'x' \(key)=\(value)}}") }
        }
        let depth = TemplateParser.maximumNesting - 1
        for value in ["'x'", "99999999999", "request.body"] {
            let nested = String(repeating: "(\(helper) ", count: depth) + value + String(repeating: ")", count: depth)
            templates.append("{{\(helper) \(nested)}}")
        }
        templates.append(
            String(repeating: "{{#\(helper) 'x'}}", count: depth) + "b"
                + String(repeating: "{{/\(helper)}}", count: depth)
        )
        // Called over and over, on a small value and on the whole body: the work multiplied.
        templates += [
            "{{#each (range 1 200000)}}{{\(helper) 'x' 'y' 'z'}}{{/each}}",
            "{{#each (range 1 20000)}}{{\(helper) request.body}}{{/each}}",
            "{{#each (range 1 20000)}}{{\(helper) request.body 'a'}}{{/each}}",
            "{{#each (range 1 20000)}}{{\(helper) 'x' request.body}}{{/each}}",
        ]
        return templates
    }

    /// The date helpers moved by every unit, in the plural, the singular and upper case, and one
    /// WireMock does not know, with amounts at and past the ends of Java's `int`, printed in every
    /// format and truncated every way.
    static let dateTemplates: [String] = {
        let amounts = ["2147483647", "-2147483648", "2147483648", "-2147483649", "999999999", "-999999999", "+0"]
        let units = ["seconds", "minutes", "hours", "days", "weeks", "months", "years", "second", "YEARS", "millis"]
        let formats = [
            "", " format='epoch'", " format='unix'", " format='yyyy-MM-dd HH:mm:ss Z'", " timezone='Asia/Tokyo'",
        ]
        var templates: [String] = []
        for amount in amounts {
            for unit in units {
                let offset = "offset='\(amount) \(unit)'"
                for format in formats {
                    templates.append("{{now \(offset)\(format)}}")
                    templates.append("{{date (parseDate '2021-03-04T05:06:07+02:00') \(offset)\(format)}}")
                }
                for truncation in DateTimeTruncation.allCases {
                    templates.append("{{truncateDate (now \(offset)) '\(truncation.rawValue)'}}")
                }
                templates.append("{{dateFormat (now \(offset)) 'full'}}")
                templates.append("{{date (now \(offset)) offset='\(amount) \(unit)' format='epoch'}}")
            }
        }
        return templates
    }()

    /// The request every template answers: a 1 MB JSON body and a query holding `Int.max` and a
    /// two-billion-year offset.
    static func request(_ url: String, body: String) -> URLRequest {
        var request = URLRequest(url: URL(string: url + "?v=9223372036854775807&o=2000000000%20years")!)
        request.httpMethod = "POST"
        request.httpBody = Data(body.utf8)
        return request
    }

    /// A 1 MB JSON body: 15,000 items with numbers, strings and nulls.
    static let body: String = {
        let items = (0..<15_000).map { #"{"id":\#($0),"name":"item \#($0)","price":\#($0).5e3,"tag":null}"# }
        return #"{"items":["# + items.joined(separator: ",") + "]}"
    }()

    /// Checks one answer: within a minute, a 200 or a 500 naming a helper and a place.
    static func check(_ answer: Completion, _ template: String, took time: Duration) {
        #expect(time < .seconds(60), "\(template) took \(time)")
        #expect(answer.error == nil, "\(template): \(String(describing: answer.error))")
        guard let status = answer.status else { return }
        #expect(status == 200 || status == 500, "\(template): \(status)")
        guard status == 500 else { return }
        let body = answer.text ?? ""
        #expect(body.hasPrefix("The response template failed: "), "\(template): \(body.prefix(300))")
        #expect(body.contains(#/ \d+:\d+: /#), "\(template): no line:column in \(body.prefix(300))")
        #expect(namesTheTag(body), "\(template): no helper or tag named in \(body.prefix(300))")
    }

    /// Whether a failure names the helper that failed, or the tag whose output went past the limit.
    static func namesTheTag(_ body: String) -> Bool {
        helpers.contains { body.contains("helper '\($0)'") } || body.contains(#/ when '[^']+' printed: /#)
    }

    /// Answers each of `templates` through URLSession, one stub each.
    static func answerAll(_ templates: [String], body: String) async {
        let stubs = StubRegistry()
        stubs.onDiagnostic { _ in }
        for (index, template) in templates.enumerated() {
            stubs.stub(.post("https://hostile.example.com/\(index)"), .template(template))
        }
        let session = stubs.makeSession()
        let clock = ContinuousClock()
        for (index, template) in templates.enumerated() {
            let start = clock.now
            let answer = await complete(session, request("https://hostile.example.com/\(index)", body: body))
            check(answer, template, took: clock.now - start)
        }
    }

    @Test(
        "every helper with extreme arguments answers 200 or a located 500",
        .timeLimit(.minutes(30)),
        arguments: helpers
    )
    func everyHelper(_ helper: String) async {
        await Self.answerAll(Self.templates(for: helper), body: Self.body)
    }

    @Test(
        "every helper reading a 10 MB body answers 200 or a located 500",
        .timeLimit(.minutes(30)),
        arguments: helpers
    )
    func everyHelperOnTenMegabytes(_ helper: String) async {
        let body = String(repeating: "a {b} <c> 1.5e3 ", count: 10 * 1024 * 1024 / 16)
        await Self.answerAll(
            [
                "{{\(helper) request.body}}", "{{\(helper) request.body request.body}}",
                "{{\(helper) request.body 'a'}}", "{{\(helper) request.body 'a' 'bbbbbbbbbbbbbbbbbbbb'}}",
                "{{#\(helper) request.body}}{{this}}{{/\(helper)}}",
                "{{#each (range 1 50)}}{{\(helper) request.body}}{{/each}}",
            ],
            body: body
        )
    }

    @Test("date offsets of every unit at and past Java's int answer 200 or a located 500", .timeLimit(.minutes(30)))
    func dateOffsets() async {
        await Self.answerAll(Self.dateTemplates, body: "")
    }

    #if os(macOS) || os(Linux)
    @Test(
        "stubs match answers a sample of the templates with 200 or a located 500, and stubs lint",
        .timeLimit(.minutes(30))
    )
    func commandLine() async throws {
        let root = try TemporaryStubRoot()
        var requests = ""
        var sample: [String] = []
        for helper in Self.helpers {
            sample += Self.templates(for: helper).enumerated().filter { $0.offset % 8 == 0 }.map(\.element)
        }
        sample += Self.dateTemplates.enumerated().filter { $0.offset % 8 == 0 }.map(\.element)
        for (index, template) in sample.enumerated() {
            let response: JSONValue = ["status": 200, "body": .string(template), "transformers": ["response-template"]]
            let request: JSONValue = ["method": "POST", "urlPath": .string("/\(index)")]
            try root.write(
                "mappings/\(index).json",
                JSONValue.object(["request": request, "response": response]).serialized()
            )
            let line: JSONValue = [
                "method": "POST", "url": .string("https://hostile.example.com/\(index)?v=9223372036854775807"),
                "body": .string(#"{"items":[{"id":1,"price":1e3}]}"#),
            ]
            requests += line.serialized() + "\n"
        }
        try root.write("requests.jsonl", requests)
        let stubs = try builtExecutable(named: "stubs")
        let lint = try await run(stubs, ["lint", root.path + "/mappings"], within: 600)
        #expect(lint.status == 0, "\(lint.output.prefix(2000))")
        let match = try await run(
            stubs,
            ["match", "--stubs", root.path, "--requests", root.path("requests.jsonl")],
            within: 1200
        )
        #expect(match.status == 0, "\(match.output.suffix(2000))")
        let lines = match.output.split(separator: "\n")
        #expect(lines.count == sample.count)
        for (line, template) in zip(lines, sample) {
            guard let answer = try? JSONValue(parsing: String(line)), case .object(let object) = answer else {
                Issue.record("\(template): not a JSON answer: \(line.prefix(300))")
                continue
            }
            let status = object["status"]?.numberValue?.doubleValue
            #expect(status == 200 || status == 500, "\(template): \(line.prefix(300))")
            if status == 500, let body = object["body"]?.stringValue {
                #expect(body.contains(#/ \d+:\d+: /#), "\(template): \(body.prefix(300))")
                #expect(Self.namesTheTag(body), "\(template): \(body.prefix(300))")
            }
        }
    }
    #endif
}
