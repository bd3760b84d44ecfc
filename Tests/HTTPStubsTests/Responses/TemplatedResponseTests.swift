import Foundation
import Testing

@testable import HTTPStubs
@testable import HTTPStubsFiles
@testable import HTTPStubsLanguages
@testable import HTTPStubsTemplates

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Response templates wired into stubs: stub files with `"transformers": ["response-template"]`,
/// global templating, `.template` in code, located load errors, render failures, and `now` and
/// the random helpers on the registry's clock and generator. Every answer goes through real
/// URLSession calls, by completion handler and by `async`.
@Suite("Templated responses")
struct TemplatedResponseTests {
    /// A mapping answering `GET <url>` with `response` (JSON text of the response object).
    static func mapping(_ url: String = "/items/42", method: String = "ANY", _ response: String) -> String {
        #"{"request": {"method": "\#(method)", "urlPathPattern": "\#(url)"}, "response": \#(response)}"#
    }

    /// The answer to `request` through both APIs, checked to be the same; the status and the body.
    static func both(_ session: URLSession, _ request: URLRequest) async throws -> (status: Int, body: String) {
        let completion = await complete(session, request)
        #expect(completion.error == nil, "\(String(describing: completion.error))")
        let (data, response) = try await session.data(for: request)
        let status = try #require(response as? HTTPURLResponse).statusCode
        #expect(completion.status == status)
        #expect(completion.data == data)
        return (status, String(decoding: data, as: UTF8.self))
    }

    static func both(_ session: URLSession, _ url: String) async throws -> (status: Int, body: String) {
        try await both(session, URLRequest(url: URL(string: url)!))
    }

    // MARK: Stub files

    @Test("body, headers and a status message of a stub with transformers answer from the request")
    func bodyAndHeaders() async throws {
        let root = try TemporaryStubRoot(mappings: [
            "item.json": Self.mapping(
                "/items/.*",
                #"""
                {"status": 201, "statusMessage": "Made", "transformers": ["response-template"],
                 "headers": {"X-Echo": "{{request.path.[1]}}", "X-List": ["{{request.method}}", "lit"]},
                 "body": "item {{request.path.[1]}} for {{request.query.who}} & {{{request.query.who}}}"}
                """#
            )
        ])
        let registry = try root.registry()
        let session = registry.makeSession()
        let url = "http://localhost/items/42?who=a%26b"
        let (status, body) = try await Self.both(session, url)
        #expect(status == 201)
        #expect(body == "item 42 for a&amp;b & a&b")
        let completion = await complete(session, url)
        #expect(completion.http?.value(forHTTPHeaderField: "X-Echo") == "42")
        #expect(completion.http?.value(forHTTPHeaderField: "X-List") == "GET, lit")
    }

    @Test("jsonBody is templated in its string values, as WireMock templates its compact text")
    func jsonBody() async throws {
        let root = try TemporaryStubRoot(mappings: [
            "json.json": Self.mapping(
                "/p",
                #"""
                {"transformers": ["response-template"],
                 "jsonBody": {"method": "{{request.method}}", "n": 1, "list": ["{{request.path.[0]}}", true],
                              "esc": "{{request.headers.X-V}}"}}
                """#
            )
        ])
        let registry = try root.registry()
        let session = registry.makeSession()
        var request = URLRequest(url: URL(string: "http://localhost/p")!)
        request.setValue("a&b<c>d\"e'f`g=h", forHTTPHeaderField: "X-V")
        // WireMock 2.35.1's exact bytes (Tests/Fixtures/Templates, where/json-body).
        let expected =
            #"{"method":"GET","n":1,"list":["p",true],"esc":"a&amp;b&lt;c&gt;d&quot;e&#x27;f&#x60;g&#x3D;h"}"#
        #expect(try await Self.both(session, request).body == expected)
    }

    @Test("bodyFileName: the contents and the file name are templates; disableBodyFileTemplating keeps the contents")
    func bodyFiles() async throws {
        let root = try TemporaryStubRoot(
            mappings: [
                "hello.json": Self.mapping(
                    "/hello",
                    #"{"transformers": ["response-template"], "bodyFileName": "templates/hello.txt"}"#
                ),
                "greet.json": Self.mapping(
                    "/greet",
                    #"{"transformers": ["response-template"], "bodyFileName": "templates/greet-{{request.query.who}}.txt"}"#
                ),
                "raw.json": Self.mapping(
                    "/raw",
                    #"""
                    {"transformers": ["response-template"], "bodyFileName": "templates/greet-{{request.query.who}}.txt",
                     "transformerParameters": {"disableBodyFileTemplating": true}}
                    """#
                ),
            ],
            files: [
                "templates/hello.txt": Data("Hello {{request.query.name}}!\n".utf8),
                "templates/greet-bob.txt": Data("hi bob {{request.method}}".utf8),
            ]
        )
        let issues = DiagnosticLog()
        let registry = try root.registry(issues: issues)
        let session = registry.makeSession()
        #expect(try await Self.both(session, "http://localhost/hello?name=Ann").body == "Hello Ann!\n")
        #expect(try await Self.both(session, "http://localhost/greet?who=bob").body == "hi bob GET")
        #expect(try await Self.both(session, "http://localhost/raw?who=bob").body == "hi bob {{request.method}}")
        #expect(issues.all.isEmpty, "\(issues.all)")

        // A rendered name without a file answers 500, as WireMock does, and is reported.
        let missing = try await Self.both(session, "http://localhost/greet?who=nobody")
        #expect(missing.status == 500)
        #expect(missing.body.contains("greet-nobody.txt"))
        let reported = try #require(issues.all.first)
        #expect(reported.severity == .error)
        #expect(reported.message.contains("$.response.bodyFileName"))

        // A rendered name that climbs out of __files is refused for that request, with the fix.
        let escaping = try await Self.both(session, "http://localhost/greet?who=/../../hello")
        #expect(escaping.status == 500)
        #expect(escaping.body.contains("make the template give a path inside it"), "\(escaping.body)")
    }

    @Test("without transformers a stub is served as written; global templating renders every stub")
    func localAndGlobal() async throws {
        let root = try TemporaryStubRoot(mappings: [
            "plain.json": Self.mapping("/g/h", #"{"body": "{{request.method}} {{request.path}}"}"#)
        ])
        let local = StubRegistry()
        try local.load(root.path)
        #expect(
            try await Self.both(local.makeSession(), "http://localhost/g/h").body
                == "{{request.method}} {{request.path}}"
        )

        let global = StubRegistry()
        try global.load(root.path, templating: .global)
        #expect(try await Self.both(global.makeSession(), "http://localhost/g/h").body == "GET /g/h")
    }

    @Test("transformerParameters are parameters.* in templates")
    func parameters() async throws {
        let root = try TemporaryStubRoot(mappings: [
            "p.json": Self.mapping(
                "/p",
                #"{"transformers": ["response-template"], "transformerParameters": {"p": "param"}, "body": "{{parameters.p}}"}"#
            )
        ])
        let registry = try root.registry()
        #expect(try await Self.both(registry.makeSession(), "http://localhost/p").body == "param")
    }

    // MARK: Load errors

    @Test("a template that does not parse is a load error at its file, line and column, with the JSON path")
    func parseErrorLocated() throws {
        let text = """
            {"request": {"urlPath": "/x"},
             "response": {"transformers": ["response-template"],
                          "body": "a\\n{{#if request.method}}b"}}
            """
        let root = try TemporaryStubRoot(mappings: ["bad.json": text])
        let load = root.load()
        let error = try #require(load.refusals.first)
        #expect(load.stubs.isEmpty)
        #expect(error.jsonPath == "$.response.body")
        #expect(error.source.file == root.path("mappings/bad.json"))
        // The template's line 2, column 1 is the `{{` after the `\n` escape: file line 3.
        #expect(error.source.line == 3)
        let column = Array("              \"body\": \"a\\n").count + 1
        #expect(error.source.column == column, "\(error)")
        #expect(error.message.contains("line 2, column 1"), "\(error)")
        #expect(throws: StubFileError.self) { try StubRegistry().load(root.path) }
    }

    @Test("an unknown helper is a located load error naming it, in a header too")
    func unknownHelper() throws {
        let root = try TemporaryStubRoot(mappings: [
            "bad.json":
                #"{"request": {"urlPath": "/x"}, "response": {"transformers": ["response-template"], "headers": {"X": "{{nosuchHelper request.url}}"}}}"#
        ])
        let error = try #require(root.load().refusals.first)
        #expect(error.jsonPath == "$.response.headers.X")
        #expect(error.message.contains("nosuchHelper"))
        #expect(error.source.line == 1)
        let column =
            Array(
                #"{"request": {"urlPath": "/x"}, "response": {"transformers": ["response-template"], "headers": {"X": "{{"#
            ).count + 1
        #expect(error.source.column == column, "\(error)")
    }

    @Test("a jsonBody whose tags span strings is located at the string that does not parse alone")
    func jsonBodyError() throws {
        let root = try TemporaryStubRoot(mappings: [
            "bad.json":
                #"{"request": {"urlPath": "/x"}, "response": {"transformers": ["response-template"], "jsonBody": {"a": 1, "b": "{{#each}}"}}}"#
        ])
        let error = try #require(root.load().refusals.first)
        #expect(error.jsonPath == "$.response.jsonBody.b")
    }

    @Test("a templated status is refused, as WireMock refuses it")
    func statusTemplate() throws {
        let root = try TemporaryStubRoot(mappings: [
            "bad.json":
                #"{"request": {"urlPath": "/x"}, "response": {"transformers": ["response-template"], "status": "{{request.query.s}}"}}"#
        ])
        let error = try #require(root.load().refusals.first)
        #expect(error.jsonPath == "$.response.status")
        #expect(error.message.contains("cannot be a template"))
    }

    @Test("a body file that does not parse is a load error naming its line and column")
    func bodyFileParseError() throws {
        let root = try TemporaryStubRoot(
            mappings: [
                "f.json":
                    #"{"request": {"urlPath": "/x"}, "response": {"transformers": ["response-template"], "bodyFileName": "t.txt"}}"#
            ],
            files: ["t.txt": Data("one\ntwo {{/if}}".utf8)]
        )
        let error = try #require(root.load().refusals.first)
        #expect(error.jsonPath == "$.response.bodyFileName")
        #expect(error.message.contains("t.txt:2:"), "\(error)")
    }

    // MARK: Code

    @Test(".template renders per request, headers included, and takes modifiers")
    func codeTemplate() async throws {
        let stubs = StubRegistry()
        stubs.stub(
            .post("https://api.example.com/users/{id}"),
            .template(
                #"{"id": "{{request.path.[1]}}", "via": "{{request.method}}"}"#,
                status: 201,
                headers: ["Content-Type": "application/json", "X-Id": "{{request.path.[1]}}"]
            ).header("X-Extra", "1")
        )
        let session = stubs.makeSession()
        let post = request("POST", "https://api.example.com/users/7", body: "{}")
        let (status, body) = try await Self.both(session, post)
        #expect(status == 201)
        #expect(body == #"{"id": "7", "via": "POST"}"#)
        let completion = await complete(session, post)
        #expect(completion.http?.value(forHTTPHeaderField: "X-Id") == "7")
        #expect(completion.http?.value(forHTTPHeaderField: "X-Extra") == "1")
        #expect(completion.http?.value(forHTTPHeaderField: "Content-Type") == "application/json")
    }

    @Test("a .template that does not parse is reported at the line that wrote it and fails its requests")
    func codeTemplateError() async throws {
        let stubs = StubRegistry()
        let issues = DiagnosticLog(stubs)
        let line = #line + 1
        stubs.stub(.get("https://api.example.com/x"), .template("a {{#if x}} b"))
        let issue = try #require(issues.all.first)
        #expect(issue.message.contains("TemplatedResponseTests.swift:\(line)"), "\(issue)")
        let session = stubs.makeSession()
        #expect(await complete(session, "https://api.example.com/x").urlError?.code == .cannotParseResponse)
        #expect((await asyncError(session, "https://api.example.com/x") as? URLError)?.code == .cannotParseResponse)
    }

    @Test("stubs answer through StubAnswer as they do through URLSession")
    func stubAnswer() {
        let stubs = StubRegistry()
        stubs.stub(.get("https://api.example.com/a/{x}"), .template("x={{request.path.[1]}}"))
        guard
            case let .response(response, _) = stubs.answer(
                InterceptedRequest(url: URL(string: "https://api.example.com/a/b")!)
            )
        else {
            Issue.record("no answer")
            return
        }
        #expect(String(decoding: response.body, as: UTF8.self) == "x=b")
    }

    // MARK: Time, random, Spring Cloud Contract

    @Test("now reads the registry's clock: a ManualStubClock advanced by a day moves the date by a day")
    func virtualNow() async throws {
        let clock = ManualStubClock()
        let stubs = StubRegistry(clock: clock)
        stubs.setTemplateDate(Date(timeIntervalSince1970: 1_700_000_000))  // 2023-11-14T22:13:20Z
        stubs.stub(.get("https://api.example.com/today"), .template("{{now format='yyyy-MM-dd' timezone='UTC'}}"))
        let session = stubs.makeSession()
        #expect(try await Self.both(session, "https://api.example.com/today").body == "2023-11-14")
        await clock.advance(by: .seconds(86_400))
        #expect(try await Self.both(session, "https://api.example.com/today").body == "2023-11-15")
    }

    @Test("randomValue draws from the registry's seeded generator: the same seed gives the same bytes")
    func seededRandom() async {
        func values(seed: UInt64) async -> [String] {
            let stubs = StubRegistry()
            stubs.seedRandom(seed)
            stubs.stub(.get("https://api.example.com/r"), .template("{{randomValue length=16 type='ALPHANUMERIC'}}"))
            let session = stubs.makeSession()
            return [
                await answer(session, "https://api.example.com/r"),
                await answerAsync(session, "https://api.example.com/r"),
            ]
        }
        let first = await values(seed: 42)
        #expect(first[0].count == 16)
        #expect(first[0] != first[1])
        #expect(await values(seed: 42) == first)
        #expect(await values(seed: 43) != first)
    }

    @Test("Spring Cloud Contract's {{{jsonpath this '$.name'}}} answers from the posted body")
    func springCloudContract() async throws {
        let root = try TemporaryStubRoot(mappings: [
            "scc.json": #"""
            {"request": {"url": "/check", "method": "POST"},
             "response": {"status": 200, "headers": {"Content-Type": "application/json"},
                          "body": "{\"name\":\"{{{jsonpath this '$.name'}}}\",\"status\":\"OK\"}",
                          "transformers": ["response-template"]}}
            """#
        ])
        let registry = try root.registry()
        let session = registry.makeSession()
        let post = request("POST", "http://localhost/check", body: #"{"name":"marcin","age":25}"#)
        #expect(try await Self.both(session, post).body == #"{"name":"marcin","status":"OK"}"#)
    }

    // MARK: The documentation's examples (Responses.md, StubFiles.md)

    @Test("the Templates examples of the documentation answer as documented")
    func documentationExamples() async throws {
        let stubs = StubRegistry()
        stubs.stub(
            .post("https://api.example.com/users/{id}"),
            .template(
                #"{"id": "{{request.path.[1]}}", "name": "{{jsonPath request.body '$.name'}}"}"#,
                headers: ["Content-Type": "application/json"]
            )
        )
        let session = stubs.makeSession()
        let post = request("POST", "https://api.example.com/users/7", body: #"{"name": "Ada"}"#)
        #expect(try await Self.both(session, post).body == #"{"id": "7", "name": "Ada"}"#)

        let root = try TemporaryStubRoot(mappings: [
            "orders.json": Self.mapping("/orders/.*", #"{"body": "order {{request.path.[1]}}"}"#)
        ])
        let registry = StubRegistry()
        try registry.load(root.path, templating: .global)
        #expect(try await Self.both(registry.makeSession(), "http://localhost/orders/9").body == "order 9")
    }

    @Test("the documentation's virtual-time example: now follows a ManualStubClock")
    func documentationVirtualTime() async throws {
        let clock = ManualStubClock()
        let stubs = StubRegistry(clock: clock, randomSeed: 7)
        stubs.setTemplateDate(Date(timeIntervalSince1970: 1_700_000_000))  // 2023-11-14T22:13:20Z
        stubs.stub(.get("https://api.example.com/today"), .template("{{now format='yyyy-MM-dd' timezone='UTC'}}"))
        let session = stubs.makeSession()
        #expect(try await Self.both(session, "https://api.example.com/today").body == "2023-11-14")
        await clock.advance(by: .seconds(86_400))
        #expect(try await Self.both(session, "https://api.example.com/today").body == "2023-11-15")
    }
}
