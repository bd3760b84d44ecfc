import Foundation
import Testing

@testable import HTTPStubs
@testable import HTTPStubsFiles
@testable import HTTPStubsLanguages
@testable import HTTPStubsTemplates

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Mapping files that real WireMock 2.35.1 loads and serves although they are not strict JSON or
/// name a body file that is not there (each outcome below was checked against it), and the
/// mistakes it refuses, which the toolkit refuses too.
@Suite("WireMock leniency")
struct WireMockLeniencyTests {
    @Test("`//` and `/* */` comments, single-quoted names and strings load, as WireMock's JSON reader allows them")
    func commentsAndSingleQuotes() async throws {
        let root = try TemporaryStubRoot(mappings: [
            "comments.json": """
            {
              // a line comment
              "request": { "method": "GET", "url": "/comments" }, /* a block
              comment */
              "response": { "status": 200, "body": "comments // are not in strings" }
            }
            """,
            "quotes.json":
                #"{ 'request': { 'method': 'GET', 'url': '/single' }, 'response': { 'status': 200, 'body': 'it\'s "single"' } }"#,
        ])
        let stubs = StubRegistry()
        let diagnostics = Collected<StubDiagnostic>()
        stubs.onDiagnostic { diagnostics.append($0) }
        try stubs.load(root.path)
        #expect(diagnostics.all.isEmpty, "\(diagnostics.all)")
        let session = stubs.makeSession()
        #expect(await answer(session, "https://api.example.com/comments") == "comments // are not in strings")
        #expect(await answerAsync(session, "https://api.example.com/single") == #"it's "single""#)
    }

    @Test("text after the mapping's JSON value is ignored, as WireMock ignores it, with a located warning")
    func trailingText() async throws {
        let text = """
            {
              "request": { "method": "GET", "url": "/trailing" },
              "response": { "status": 200, "body": "trailing ok" }
            }
            }
            """
        let root = try TemporaryStubRoot(mappings: ["trailing.json": text])
        let stubs = StubRegistry()
        let diagnostics = Collected<StubDiagnostic>()
        stubs.onDiagnostic { diagnostics.append($0) }
        try stubs.load(root.path)
        #expect(await answer(stubs.makeSession(), "https://api.example.com/trailing") == "trailing ok")
        let warning = try #require(diagnostics.all.first)
        #expect(diagnostics.all.count == 1)
        #expect(warning.severity == .warning)
        #expect(
            warning.description
                == "\(root.path("mappings/trailing.json")):5:1: warning: text after the file's JSON value is ignored, as WireMock ignores it (it starts \"}\"); remove it, or put a second mapping in the \"mappings\" array"
        )
    }

    @Test(
        "what WireMock refuses is refused with a located error: # comments, unquoted names, trailing commas, raw tabs, an unclosed comment",
        arguments: [
            (
                #"{ # hash"# + "\n" + #""request": {}, "response": {}}"#, "1:3",
                "expected a member name in quotes, found '#'"
            ),
            (#"{ request: {}, "response": {}}"#, "1:3", "expected a member name in quotes, found 'request'"),
            (#"{ "request": {"url": "/a",}, "response": {}}"#, "1:26", "trailing comma before '}'"),
            (
                "{ \"request\": {}, \"response\": {\"body\": \"a\tb\"}}", "1:41",
                "control character U+0009 must be escaped"
            ),
            (#"{ "request": {}, /* never closed "response": {}}"#, "1:18", "a '/*' comment is not closed"),
        ]
    )
    func refusedLikeWireMock(text: String, position: String, message: String) throws {
        let root = try TemporaryStubRoot(mappings: ["bad.json": text])
        let stubs = StubRegistry()
        let error = #expect(throws: StubFileError.self) { try stubs.load(root.path) }
        let diagnostic = try #require(error?.diagnostics.first)
        #expect(
            diagnostic.description.hasPrefix("\(root.path("mappings/bad.json")):\(position): error: "),
            "\(diagnostic)"
        )
        #expect(diagnostic.message.contains(message), "\(diagnostic)")
    }

    @Test("HAR captures stay strict JSON: a comment in a .har file is an error")
    func harStaysStrict() throws {
        let root = try TemporaryStubRoot()
        try root.write("capture.har", Data("{ // comment\n\"log\": {\"entries\": []}}".utf8))
        let load = StubFiles.load([root.path("capture.har")])
        #expect(load.refusals.first?.message.contains("invalid JSON") == true, "\(load.diagnostics)")
    }

    @Test("a bodyFileName with a leading slash is read inside __files")
    func leadingSlash() async throws {
        let root = try TemporaryStubRoot(
            mappings: [
                "card.json":
                    #"{"request": {"url": "/card"}, "response": {"status": 200, "bodyFileName": "/1/card.json"}}"#
            ],
            files: ["1/card.json": Data(#"{"card":1}"#.utf8)]
        )
        let stubs = StubRegistry()
        try stubs.load(root.path)
        #expect(await answer(stubs.makeSession(), "https://api.example.com/card") == #"{"card":1}"#)
    }

    @Test(
        "a missing body file loads the rest; its stub answers 500 naming the file, the error is located, and lint reports it"
    )
    func missingBodyFile() async throws {
        let mapping =
            #"{"request": {"url": "/missing"}, "response": {"status": 200, "headers": {"X-A": "b"}, "bodyFileName": "nope/none.json"}}"#
        let root = try TemporaryStubRoot(mappings: [
            "missing.json": mapping,
            "fine.json": #"{"request": {"url": "/fine"}, "response": {"status": 200, "body": "fine"}}"#,
        ])
        let stubs = StubRegistry()
        let diagnostics = Collected<StubDiagnostic>()
        stubs.onDiagnostic { diagnostics.append($0) }
        let ids = try stubs.load(root.path)
        #expect(ids.count == 2)
        let diagnostic = try #require(diagnostics.all.first)
        #expect(diagnostics.all.count == 1)
        let (line, column) = sourcePosition(of: #""nope/none.json""#, in: mapping)
        #expect(
            diagnostic.description
                == "\(root.path("mappings/missing.json")):\(line):\(column): error: $.response.bodyFileName: 'bodyFileName' \"nope/none.json\" does not exist in \(root.path("__files")); the stub loads, and answers its requests with status 500 as WireMock does, until you add the file or fix the name"
        )

        let session = stubs.makeSession()
        #expect(await answer(session, "https://api.example.com/fine") == "fine")
        let missing = await complete(session, "https://api.example.com/missing")
        #expect(missing.status == 500)
        #expect(
            missing.text
                == "The stub's body file \(root.path("__files/nope/none.json")) does not exist, so the stub answers 500 as WireMock does; add the file or fix 'bodyFileName'.\n"
        )
        let (_, response) = try await session.data(from: URL(string: "https://api.example.com/missing")!)
        #expect((response as? HTTPURLResponse)?.statusCode == 500)
        let lint = runStubs(["lint", root.path])
        #expect(lint.status == 1, "\(lint)")
        #expect(lint.stdout.contains("\(diagnostic)\n") || lint.stderr.contains("\(diagnostic)\n"), "\(lint)")

        // Added later, the file is served: it is read when the stub answers.
        try root.write("__files/nope/none.json", Data("now here".utf8))
        #expect(await answerAsync(session, "https://api.example.com/missing") == "now here")
    }

    @Test(
        "a Host header matcher sees the URL's authority, as the server would: the host, and a port that is not the scheme's default"
    )
    func hostHeader() async throws {
        let root = try TemporaryStubRoot(mappings: [
            "host.json":
                #"{"request": {"method": "GET", "url": "/health", "headers": {"Host": {"matches": "api1.localtest.me.*"}}}, "response": {"status": 200, "body": "api1"}}"#
        ])
        let stubs = StubRegistry()
        try stubs.load(root.path)
        stubs.stub(.get("/status").header("Host", "localhost:8080"), .text("local"))
        stubs.stub(.get("/bare").header("Host", "api.example.test"), .text("bare"))
        stubs.stub(.get("/absent").headerAbsent("Host"), .text("never"))
        let session = stubs.makeSession()
        #expect(await answer(session, "https://api.example.test/health") == unmatched)
        #expect(await answer(session, "http://api1.localtest.me:8080/health") == "api1")
        #expect(await answerAsync(session, "https://api1.localtest.me/health") == "api1")
        #expect(await answer(session, "http://localhost:8080/status") == "local")
        #expect(await answer(session, "http://localhost/status") == unmatched)
        #expect(await answer(session, "https://api.example.test:443/bare") == "bare", "the default port is not sent")
        #expect(await answer(session, "https://api.example.test/absent") == unmatched)
        // A Host the request sets itself is the one matched.
        #expect(
            await answer(
                session,
                request("GET", "https://api.example.test/health", headers: ["Host": "api1.localtest.me"])
            ) == "api1"
        )
    }

    @Test(
        "a key repeated in an object keeps its first place and its last value, as Jackson reads it for WireMock, with a warning"
    )
    func repeatedKeys() async throws {
        let root = try TemporaryStubRoot(mappings: [
            "repeated.json":
                #"{"request": {"urlPath": "/items", "queryParameters": {"component": {"equalTo": "header"}, "component": {"equalTo": "footer"}}}, "response": {"status": 200, "jsonBody": {"type": "Type 2", "status": "Draft", "size": 1, "status": "Sensitive"}}}"#
        ])
        let stubs = StubRegistry()
        let diagnostics = Collected<StubDiagnostic>()
        stubs.onDiagnostic { diagnostics.append($0) }
        try stubs.load(root.path)
        #expect(
            diagnostics.all.map(\.jsonPath) == ["$.request.queryParameters.component", "$.response.jsonBody.status"]
        )
        let session = stubs.makeSession()
        #expect(
            await answer(session, "https://api.example.com/items?component=footer")
                == #"{"type":"Type 2","status":"Sensitive","size":1}"#
        )
        #expect(await answer(session, "https://api.example.com/items?component=header") == unmatched)
    }
}
