import Foundation
import HTTPStubs
import StubsTool
import Testing

/// The `stubs` command-line tool, run in-process through `StubsCommand.run` with captured
/// standard streams: `lint`, `list`, `match` (one request, and the `--requests` JSON Lines
/// machine interface), `import-har`, `--help` and usage errors.
///
/// Each test gets its own scratch folder (Swift Testing makes a suite instance per test), deleted
/// when the instance goes away.
@Suite("stubs command")
final class StubsCommandTests {
    /// This test's scratch folder.
    private let scratch: TemporaryFolder

    init() throws {
        scratch = try TemporaryFolder()
    }

    deinit {
        scratch.remove()
    }

    // MARK: lint

    @Test("lint: a clean stub root exits 0 and prints only the summary line")
    func lintCleanRoot() throws {
        let fixture = try StubRootFixture(in: scratch)
        let result = runStubs(["lint", fixture.root.path])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "5 files, 10 stubs: 0 errors, 0 warnings\n")
        #expect(result.stderr.isEmpty)
    }

    @Test("lint: an error is printed compiler-style (path, line, column, severity, JSON path, message) and exits 1")
    func lintErrorFormat() throws {
        let folder = scratch
        let bad = try folder.write(
            "bad.json",
            """
            {
              "request": {
                "method": 42,
                "urlPath": "/x"
              },
              "response": {"status": 200}
            }
            """
        )
        let result = runStubs(["lint", bad.path])
        #expect(result.status == 1, "\(result)")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(
            lines == [
                "\(bad.path):3:15: error: $.request.method: 'method' must be a string, found the number 42",
                "1 file, 0 stubs: 1 error, 0 warnings",
                "",
            ]
        )
        #expect(result.stderr.isEmpty)
    }

    @Test(
        "lint: placeholders that could never match (JsonUnit, XMLUnit) and exemptedComparisons are located errors; placeholders that work lint clean"
    )
    func lintPlaceholders() throws {
        let folder = scratch
        let good = try folder.write(
            "good/mappings/ok.json",
            #"""
            {
              "request": {
                "method": "POST",
                "urlPath": "/orders",
                "bodyPatterns": [
                  {"equalToJson": {"id": "${json-unit.any-number}", "note": "${json-unit.ignore-element}"}, "ignoreExtraElements": true},
                  {"equalToXml": "<order id=\"${xmlunit.isNumber}\"/>", "enablePlaceholders": true}
                ]
              },
              "response": {"status": 201}
            }
            """#
        )
        let clean = runStubs(["lint", good.path])
        #expect(clean.status == 0, "\(clean)")
        #expect(clean.stdout == "1 file, 1 stub: 0 errors, 0 warnings\n", "\(clean.stdout)")

        let bad = try folder.write(
            "bad/mappings/bad.json",
            #"""
            {
              "request": {
                "method": "POST",
                "urlPath": "/orders",
                "bodyPatterns": [
                  {"equalToJson": {"id": "${json-unit.any-object}"}},
                  {"equalToXml": "<order at=\"${xmlunit.isDateTime}\"/>", "enablePlaceholders": true},
                  {"equalToXml": "<order/>", "exemptedComparisons": ["NAMESPACE_URI"]}
                ]
              },
              "response": {"status": 201}
            }
            """#
        )
        let result = runStubs(["lint", bad.path])
        #expect(result.status == 1, "\(result)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 4, "\(result.stdout)")
        let expected = [
            "\(bad.path):6:30: error: $.request.bodyPatterns[0].equalToJson.id: \"${json-unit.any-object}\" is not a JsonUnit placeholder WireMock knows",
            "\(bad.path):7:22: error: $.request.bodyPatterns[1].equalToXml: with \"enablePlaceholders\": true, /order: \"${xmlunit.isDateTime}\": ${xmlunit.isDateTime} is not supported by swift-http-stubs",
            "\(bad.path):8:57: error: $.request.bodyPatterns[2].exemptedComparisons: 'exemptedComparisons' (NAMESPACE_URI) is not supported by swift-http-stubs",
        ]
        for (line, prefix) in zip(lines, expected) {
            #expect(line.hasPrefix(prefix), "\(line)")
        }
        #expect(lines.last == "1 file, 0 stubs: 3 errors, 0 warnings")
    }

    @Test("lint: invalid JSON in a stub root is located at its line and column")
    func lintInvalidJSON() throws {
        let folder = scratch
        let broken = try folder.write("mappings/broken.json", "{\n  \"request\": {\"urlPath\": \"/x\",}\n}\n")
        let result = runStubs(["lint", folder.url.path])
        #expect(result.status == 1, "\(result)")
        let first = try #require(result.stdout.split(separator: "\n").first.map(String.init))
        #expect(first.hasPrefix("\(broken.path):2:"), "\(first)")
        #expect(first.contains(": error: $.request: invalid JSON: trailing comma"), "\(first)")
        #expect(result.stdout.hasSuffix("1 file, 0 stubs: 1 error, 0 warnings\n"), "\(result.stdout)")
    }

    @Test("lint: warnings alone (an ignored key) exit 0, located at the key")
    func lintWarningsAlone() throws {
        let folder = scratch
        let mapping = try folder.write(
            "warned.json",
            """
            {
              "request": {"urlPath": "/x", "colour": "blue"},
              "response": {"status": 204}
            }
            """
        )
        let result = runStubs(["lint", mapping.path])
        #expect(result.status == 0, "\(result)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(result.stdout)")
        #expect(
            lines.first?.hasPrefix("\(mapping.path):2:32: warning: $.request.colour: unknown key 'colour'") == true,
            "\(lines)"
        )
        #expect(lines.last == "1 file, 1 stub: 0 errors, 1 warning")
    }

    @Test("lint: a missing path is an error and exits 1")
    func lintMissingPath() throws {
        let folder = scratch
        let missing = folder.url.appendingPathComponent("nowhere").path
        let result = runStubs(["lint", missing])
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.hasPrefix("\(missing): error: no such file or directory"), "\(result.stdout)")
        #expect(result.stdout.hasSuffix("0 files, 0 stubs: 1 error, 0 warnings\n"), "\(result.stdout)")
    }

    @Test("lint: several paths are checked together; one bad file among good ones exits 1")
    func lintSeveralPaths() throws {
        let fixture = try StubRootFixture(in: scratch)
        let bad = try fixture.folder.write("bad.json", #"{"request": {"method": "GET"}, "response": {"status": "OK"}}"#)
        let result = runStubs(["lint", fixture.root.path, fixture.pollHAR.path, bad.path])
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains("\(bad.path):1:"), "\(result.stdout)")
        #expect(result.stdout.contains(": error: $.response.status: 'status' must be an integer"), "\(result.stdout)")
        #expect(result.stdout.hasSuffix("7 files, 11 stubs: 1 error, 0 warnings\n"), "\(result.stdout)")
    }

    @Test("lint: a HAR capture is validated too; a bad entry is located by its JSON path")
    func lintHAR() throws {
        let folder = scratch
        let capture = try folder.write(
            "capture.har",
            """
            {"log": {"version": "1.2", "creator": {"name": "test", "version": "1"}, "entries": [
              {"startedDateTime": "2024-01-01T00:00:00.000Z", "time": 1,
               "request": {"method": "GET", "httpVersion": "HTTP/1.1", "cookies": [], "headers": [], "queryString": [], "headersSize": -1, "bodySize": 0},
               "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1", "cookies": [], "headers": [],
                            "content": {"size": 0, "mimeType": "text/plain"}, "redirectURL": "", "headersSize": -1, "bodySize": 0},
               "cache": {}, "timings": {"send": 0, "wait": 1, "receive": 0}}
            ]}}
            """
        )
        let result = runStubs(["lint", capture.path])
        #expect(result.status == 1, "\(result)")
        let first = try #require(result.stdout.split(separator: "\n").first.map(String.init))
        #expect(first.hasPrefix("\(capture.path):3:"), "\(first)")
        #expect(first.contains(": error: $.log.entries[0].request"), "\(first)")
        #expect(result.stdout.hasSuffix("1 file, 0 stubs: 1 error, 0 warnings\n"), "\(result.stdout)")

        let fixture = try StubRootFixture(in: scratch)
        let clean = runStubs(["lint", fixture.pollHAR.path])
        #expect(clean.status == 0, "\(clean)")
        #expect(clean.stdout == "1 file, 1 stub: 0 errors, 0 warnings\n")
    }

    // MARK: list

    @Test(
        "list of the bundled Stubs, given relative or absolute: names, a URL pattern, sources and body files relative",
        arguments: ["Stubs", FileManager.default.currentDirectoryPath + "/Stubs"]
    )
    func listBundledStubs(_ folder: String) throws {
        let result = runStubs(["list", folder])
        #expect(result.status == 0, "\(result)")
        let lines = result.stdout.split(separator: "\n").map {
            $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        }
        #expect(
            lines.contains(
                #"Stubs/mappings/zz-catch-all.json:1:1 "catch-all" P10 ANY path and query matches "/v1/.*" 404 "{\"error\":\"no such endpoint in the example API\"}""#
            ),
            "\(result.stdout)"
        )
        #expect(
            lines.contains(
                #"Stubs/mappings/users/get-user-42.json:1:1 "user 42" P5 GET path = "/v1/users/42" 200 file Stubs/__files/users/user-42.json"#
            ),
            "\(result.stdout)"
        )
    }

    @Test("list: one line per stub with source, priority, method, URL pattern, status and scenario")
    func listColumns() throws {
        let fixture = try StubRootFixture(in: scratch)
        let result = runStubs(["list", fixture.root.path])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 10, "\(result.stdout)")

        /// The line listing the stub whose source starts with `source`.
        func line(_ source: String) throws -> [String] {
            let found = try #require(
                lines.first { $0.hasPrefix(source) },
                "no line for \(source) in:\n\(result.stdout)"
            )
            return found.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        }
        let users = try line(fixture.mapping("a-users.json") + ":1:1")
        #expect(users.count >= 4, "\(users)")
        // The mapping's name comes after the source; paths inside the working directory are relative.
        #expect(
            users.joined(separator: " ").hasPrefix(fixture.mapping("a-users.json") + #":1:1 "list users" P1 GET "#),
            "\(users)"
        )
        #expect(users.contains { $0.contains("/users") }, "\(users)")
        #expect(users.contains("200"), "\(users)")

        let create = try line(fixture.mapping("b-create.json"))
        #expect(create.dropFirst().first == "P5")
        #expect(create.dropFirst(2).first == "POST")
        #expect(create.contains("201"), "\(create)")

        let started = try line(fixture.mapping("e-cart.json") + "[0]")
        #expect(started.dropFirst(2).first == "POST")
        let startedText = started.joined(separator: " ")
        #expect(startedText.contains("/cart"), "\(startedText)")
        #expect(startedText.contains("scenario \"cart\" in \"Started\" → \"filled\""), "\(startedText)")

        let filled = try line(fixture.mapping("e-cart.json") + "[1]").joined(separator: " ")
        #expect(filled.contains("scenario \"cart\" in \"filled\""), "\(filled)")
        #expect(!filled.contains("→"), "\(filled)")

        // Columns are aligned: every line's priority starts at the same offset.
        let offsets = lines.map { $0.range(of: " P")?.lowerBound.utf16Offset(in: $0) }
        #expect(Set(offsets).count == 1, "\(result.stdout)")
    }

    @Test("list: a file with errors lists the stubs that loaded, diagnostics on stderr, exit 1")
    func listWithErrors() throws {
        let folder = scratch
        let mixed = try folder.write(
            "mixed.json",
            """
            {"mappings": [
              {"request": {"method": "GET", "url": "/ok"}, "response": {"status": 200}},
              {"request": {"method": 7}, "response": {"status": 200}}
            ]}
            """
        )
        let result = runStubs(["list", mixed.path])
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.split(separator: "\n").count == 1, "\(result.stdout)")
        #expect(result.stdout.hasPrefix("\(mixed.path)[0]:2:3"), "\(result.stdout)")
        #expect(result.stderr.contains("\(mixed.path):3:26: error: $.mappings[1].request.method:"), "\(result.stderr)")
    }

    @Test("lint: a response template that does not parse is a located error naming the template's line and column")
    func lintTemplate() throws {
        let folder = scratch
        let bad = try folder.write(
            "template.json",
            """
            {
              "request": {"urlPath": "/x"},
              "response": {"transformers": ["response-template"], "body": "id {{#if request.method}}"}
            }
            """
        )
        let result = runStubs(["lint", bad.path])
        #expect(result.status == 1, "\(result)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let first = try #require(lines.first)
        #expect(
            first.hasPrefix(
                "\(bad.path):3:67: error: $.response.body: the template cannot be loaded, at its line 1, column 4"
            ),
            "\(first)"
        )
        #expect(lines.last == "1 file, 0 stubs: 1 error, 0 warnings")
    }

    // MARK: match METHOD URL

    @Test("match: a templated stub renders its answer from the request")
    func matchTemplate() throws {
        let folder = scratch
        let mapping = try folder.write(
            "template.json",
            #"""
            {"request": {"urlPathPattern": "/users/[0-9]+"},
             "response": {"transformers": ["response-template"], "headers": {"X-Id": "{{request.path.[1]}}"},
                          "body": "user {{request.path.[1]}} by {{request.method}}"}}
            """#
        )
        let result = runStubs(["match", "--stubs", mapping.path, "DELETE", "https://api.example.com/users/12"])
        #expect(result.status == 0, "\(result)")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "HTTP/1.1 200 OK")
        #expect(lines.contains("X-Id: 12"), "\(result.stdout)")
        #expect(lines.contains("user 12 by DELETE"), "\(result.stdout)")
    }

    // MARK: --global-response-templating

    /// A stub that does not ask for templating, whose body is a template.
    private func untransformedTemplateStub() throws -> URL {
        try scratch.write(
            "greet.json",
            #"""
            {"name": "greet", "request": {"urlPath": "/greet"},
             "response": {"body": "hello {{request.query.who}} by {{request.method}}"}}
            """#
        )
    }

    @Test("match --global-response-templating: every stub renders its template, as WireMock's flag does")
    func matchGlobalTemplating() throws {
        let mapping = try untransformedTemplateStub()
        let request = ["GET", "https://api.example.com/greet?who=Ada"]
        let global = runStubs(["match", "--global-response-templating", "--stubs", mapping.path] + request)
        #expect(global.status == 0, "\(global)")
        #expect(global.stderr.isEmpty, "\(global.stderr)")
        #expect(
            global.stdout == """
                HTTP/1.1 200 OK

                hello Ada by GET

                (answered by "greet" (\(mapping.path):1:1))

                """
        )
        let local = runStubs(["match", "--stubs", mapping.path] + request + ["--local-response-templating"])
        #expect(local.status == 0, "\(local)")
        #expect(local.stdout.contains("\nhello {{request.query.who}} by {{request.method}}\n"), "\(local.stdout)")
    }

    @Test("match --requests with --global-response-templating renders every stub of the run")
    func requestsGlobalTemplating() throws {
        let mapping = try untransformedTemplateStub()
        let line = #"{"method": "POST", "url": "https://api.example.com/greet?who=Bo"}"# + "\n"
        let result = runStubs(
            ["match", "--stubs", mapping.path, "--requests", "-", "--global-response-templating"],
            stdin: Data(line.utf8)
        )
        #expect(result.status == 0, "\(result)")
        #expect(
            result.stdout
                == #"{"status":200,"headers":{},"body":"hello Bo by POST","stub":"\#(mapping.path):1:1"}"# + "\n"
        )
    }

    @Test("lint --global-response-templating checks the templates of stubs that do not ask for templating")
    func lintGlobalTemplating() throws {
        let mapping = try scratch.write(
            "broken.json",
            #"""
            {"request": {"urlPath": "/x"},
             "response": {"body": "id {{#if request.method}}"}}
            """#
        )
        let perStub = runStubs(["lint", mapping.path])
        #expect(perStub.status == 0, "\(perStub)")
        #expect(perStub.stdout == "1 file, 1 stub: 0 errors, 0 warnings\n", "\(perStub.stdout)")
        let global = runStubs(["lint", "--global-response-templating", mapping.path])
        #expect(global.status == 1, "\(global)")
        #expect(
            global.stdout == """
                \(mapping.path):2:27: error: $.response.body: the template cannot be loaded, at its line 1, column 4: \
                '{{#if}}' is never closed: add '{{/if}}'
                1 file, 0 stubs: 1 error, 0 warnings

                """
        )
    }

    @Test("the templating flags take no value and exclude each other, with a hint at how to write them")
    func templatingFlagMisuse() {
        #expect(
            runStubs(["lint", "--global-response-templating=true", "Stubs"]).stderr
                == "stubs: error: '--global-response-templating' takes no value; write '--global-response-templating' "
                + "alone; run 'stubs lint --help'\n"
        )
        let both = runStubs([
            "match", "--stubs", "Stubs", "--local-response-templating", "--global-response-templating", "GET",
            "https://api.example.com/users",
        ])
        #expect(both.status == 2)
        #expect(
            both.stderr
                == "stubs: error: '--global-response-templating' and '--local-response-templating' contradict each "
                + "other; keep '--global-response-templating' to render every stub as a template, or neither to "
                + #"render only stubs with "transformers": ["response-template"]; run 'stubs match --help'"#
                + "\n"
        )
        #expect(
            runStubs(["list", "--global-response-templating", "Stubs"]).stderr
                == "stubs: error: unknown option '--global-response-templating'; run 'stubs list --help'\n"
        )
    }

    @Test("--disable-template-escaping: {{ }} prints values as they are, as WireMock 3 does by default")
    func disableTemplateEscaping() throws {
        let mapping = try scratch.write(
            "echo.json",
            #"""
            {"name": "echo", "request": {"urlPath": "/echo"},
             "response": {"transformers": ["response-template"], "headers": {"X-Q": "{{request.query.q}}"},
                          "body": "{{request.query.q}}"}}
            """#
        )
        let request = ["GET", "https://api.example.com/echo?q=a%26b%3Dc%27"]
        func answer(_ body: String) -> String {
            "HTTP/1.1 200 OK\nX-Q: \(body)\n\n\(body)\n\n(answered by \"echo\" (\(mapping.path):1:1))\n"
        }
        let escaped = runStubs(["match", "--stubs", mapping.path] + request)
        #expect(escaped.status == 0, "\(escaped)")
        #expect(escaped.stdout == answer("a&amp;b&#x3D;c&#x27;"), "\(escaped.stdout)")
        let unescaped = runStubs(["match", "--disable-template-escaping", "--stubs", mapping.path] + request)
        #expect(unescaped.status == 0, "\(unescaped)")
        #expect(unescaped.stderr.isEmpty, "\(unescaped.stderr)")
        #expect(unescaped.stdout == answer("a&b=c'"), "\(unescaped.stdout)")

        let line = #"{"method": "GET", "url": "https://api.example.com/echo?q=%3Cb%3E"}"# + "\n"
        let requests = runStubs(
            ["match", "--stubs", mapping.path, "--requests", "-", "--disable-template-escaping"],
            stdin: Data(line.utf8)
        )
        #expect(
            requests.stdout
                == #"{"status":200,"headers":{"X-Q":"<b>"},"body":"<b>","stub":"\#(mapping.path):1:1"}"# + "\n"
        )
        let lint = runStubs(["lint", "--disable-template-escaping", mapping.path])
        #expect(lint.status == 0, "\(lint)")
        #expect(lint.stdout == "1 file, 1 stub: 0 errors, 0 warnings\n", "\(lint.stdout)")
    }

    @Test("match: prints the answer like curl -i (status line, headers, body) and the stub's source")
    func matchSingleRequest() throws {
        let fixture = try StubRootFixture(in: scratch)
        let result = runStubs(["match", "--stubs", fixture.root.path, "GET", "https://api.example.com/users"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        #expect(
            result.stdout == """
                HTTP/1.1 200 OK
                Content-Type: application/json
                X-Page: 1

                [{"id":1,"name":"Ada"}]

                (answered by "list users" (\(fixture.mapping("a-users.json")):1:1))

                """
        )
    }

    @Test("match: -H and --data take part in matching; the reason phrase of 201 is 'Created'")
    func matchHeadersAndData() throws {
        let fixture = try StubRootFixture(in: scratch)
        let arguments = [
            "match", "--stubs", fixture.root.path, "POST", "https://api.example.com/users",
            "-H", "X-Token: secret", "-H", "Content-Type:application/json", "--data", #"{"name": "Grace"}"#,
        ]
        let result = runStubs(arguments)
        #expect(result.status == 0, "\(result)")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "HTTP/1.1 201 Created")
        #expect(lines.contains("Location: /users/2"), "\(result.stdout)")
        #expect(lines.contains(#"{"id":2,"name":"Grace"}"#), "\(result.stdout)")
        #expect(
            lines.contains { $0.hasPrefix("(answered by ") && $0.contains(fixture.mapping("b-create.json")) },
            "\(result.stdout)"
        )

        // Without the header the stub does not answer.
        let withoutToken = runStubs(Array(arguments.prefix(5)) + ["--data", #"{"name": "Grace"}"#])
        #expect(withoutToken.status == 1, "\(withoutToken)")
    }

    @Test("match: a fault is reported with its URLError code and the stub's source, exit 0")
    func matchFault() throws {
        let fixture = try StubRootFixture(in: scratch)
        let result = runStubs(["match", "--stubs", fixture.root.path, "GET", "https://api.example.com/offline"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.hasPrefix("The stub fails the request with URLError -1005: "), "\(result.stdout)")
        #expect(result.stdout.contains(fixture.mapping("c-offline.json")), "\(result.stdout)")
    }

    @Test("match: binary bodies are summarised, not printed")
    func matchBinaryBody() throws {
        let fixture = try StubRootFixture(in: scratch)
        let result = runStubs(["match", "--stubs", fixture.root.path, "GET", "https://api.example.com/logo.png"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("\n\n(6 bytes of binary data)\n"), "\(result.stdout)")
    }

    @Test("match: an unmatched request prints the near-miss report and exits 1")
    func matchUnmatched() throws {
        let fixture = try StubRootFixture(in: scratch)
        let result = runStubs(["match", "--stubs", fixture.root.path, "DELETE", "https://api.example.com/users"])
        #expect(result.status == 1, "\(result)")
        #expect(
            result.stdout.hasPrefix("Unmatched request: DELETE https://api.example.com/users\n"),
            "\(result.stdout)"
        )
        #expect(result.stdout.contains("Closest stubs (3 of 10):"), "\(result.stdout)")
        #expect(result.stdout.contains("✗ method DELETE") || result.stdout.contains("✗ method"), "\(result.stdout)")
        #expect(result.stdout.contains("To answer it, add a stub such as:"), "\(result.stdout)")
    }

    // MARK: match --requests

    @Test("--requests FILE: one JSON line per request, in order; sequences and scenarios advance across lines")
    func requestsFile() throws {
        let fixture = try StubRootFixture(in: scratch)
        let logo = Data(StubRootFixture.logoBytes).base64EncodedString()
        let requests = try fixture.folder.write(
            "requests.jsonl",
            """
            {"method": "GET", "url": "https://api.example.com/users"}
            {"method": "POST", "url": "https://api.example.com/cart", "body": "1 apple"}

            {"url": "https://api.example.com/cart"}
            {"method": "GET", "url": "https://api.example.com/poll"}
            {"method": "GET", "url": "https://api.example.com/poll"}
            {"method": "GET", "url": "https://api.example.com/poll"}
            {"method": "GET", "url": "https://api.example.com/logo.png"}
            {"method": "GET", "url": "https://api.example.com/offline"}
            {"method": "PUT", "url": "https://api.example.com/upload", "headers": {"Content-Type": "image/png"}, "bodyBase64": "\(logo)"}
            {"method": "POST", "url": "https://api.example.com/users", "headers": {"X-Token": "secret"}, "body": "{}"}
            """
        )
        let result = runStubs([
            "match", "--stubs", fixture.root.path, "--stubs", fixture.pollHAR.path, "--requests", requests.path,
        ])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        let answers = try jsonLines(result.stdout)
        try #require(answers.count == 10, "\(result.stdout)")

        // 1. A plain response: status, headers, UTF-8 body, the stub's source.
        #expect(answers[0]["status"] == 200)
        #expect(answers[0]["headers"] == ["Content-Type": "application/json", "X-Page": "1"])
        #expect(answers[0]["body"] == #"[{"id":1,"name":"Ada"}]"#)
        #expect(answers[0]["stub"]?.stringValue == fixture.mapping("a-users.json") + ":1:1")
        #expect(answers[0].keys == ["status", "headers", "body", "stub"])

        // 2–3. The scenario moves from "Started" to "filled" across lines.
        #expect(answers[1]["status"] == 201)
        #expect(answers[1]["body"] == "added")
        #expect(answers[1]["stub"]?.stringValue?.hasPrefix(fixture.mapping("e-cart.json") + "[0]:") == true)
        #expect(answers[2]["body"] == "1 item")
        #expect(answers[2]["stub"]?.stringValue?.hasPrefix(fixture.mapping("e-cart.json") + "[1]:") == true)

        // 4–6. The HAR's repeated request is a sequence; its last answer repeats.
        #expect(answers[3]["body"] == #"{"state":"pending"}"#)
        #expect(answers[3]["status"] == 202)
        #expect(answers[4]["body"] == #"{"state":"done"}"#)
        #expect(answers[4]["status"] == 200)
        #expect(answers[5]["body"] == #"{"state":"done"}"#)
        #expect(answers[3]["stub"]?.stringValue?.hasPrefix(fixture.pollHAR.path + "[0]:") == true, "\(answers[3])")

        // 7. A body that is not UTF-8 comes back as bodyBase64, and no "body".
        #expect(answers[6]["bodyBase64"]?.stringValue == logo)
        #expect(answers[6]["body"] == nil)
        #expect(answers[6]["headers"] == ["Content-Type": "image/png"])

        // 8. A fault: {"error": {"code": -1005, "description": …}, "stub": …}.
        #expect(answers[7].keys == ["error", "stub"])
        let error = try #require(answers[7]["error"]?.objectValue)
        #expect(error["code"] == -1005)
        #expect(error["description"]?.stringValue?.isEmpty == false)
        #expect(answers[7]["stub"]?.stringValue == fixture.mapping("c-offline.json") + ":1:1")

        // 9. A binary request body given as bodyBase64 matches a binaryEqualTo pattern.
        #expect(answers[8]["status"] == 204, "\(answers[8])")
        #expect(answers[8]["body"] == "")

        // 10. Request headers take part in matching.
        #expect(answers[9]["status"] == 201, "\(answers[9])")
    }

    @Test("--requests -: reads standard input; a fresh run starts scenarios and sequences again")
    func requestsStandardInput() throws {
        let fixture = try StubRootFixture(in: scratch)
        let input = """
            {"method": "GET", "url": "https://api.example.com/cart"}
            {"method": "GET", "url": "https://api.example.com/poll"}

            """
        let result = runStubs(
            ["match", "--stubs", fixture.root.path, "--stubs", fixture.pollHAR.path, "--requests", "-"],
            stdin: Data(input.utf8)
        )
        #expect(result.status == 0, "\(result)")
        let answers = try jsonLines(result.stdout)
        try #require(answers.count == 2, "\(result.stdout)")
        #expect(answers[0]["body"] == "empty")
        #expect(answers[1]["body"] == #"{"state":"pending"}"#)
    }

    @Test("--requests: an unmatched request gives unmatched, message and nearMisses, the others still answer, exit 1")
    func requestsUnmatched() throws {
        let fixture = try StubRootFixture(in: scratch)
        let input = """
            {"method": "DELETE", "url": "https://api.example.com/users"}
            {"method": "GET", "url": "https://api.example.com/users"}
            """
        let result = runStubs(["match", "--stubs", fixture.root.path, "--requests", "-"], stdin: Data(input.utf8))
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        let answers = try jsonLines(result.stdout)
        try #require(answers.count == 2, "\(result.stdout)")
        #expect(answers[0]["unmatched"] == true)
        #expect(
            answers[0]["message"]?.stringValue?.hasPrefix("Unmatched request: DELETE https://api.example.com/users")
                == true
        )
        #expect(answers[0]["status"] == nil)
        let nearMisses = try #require(answers[0]["nearMisses"]?.arrayValue)
        #expect(nearMisses.count == 3)
        let closest = try #require(nearMisses.first?.objectValue)
        #expect(closest["stub"]?.stringValue?.hasPrefix(fixture.root.path) == true, "\(closest)")
        #expect(
            closest["distance"]?.numberValue.map { $0.doubleValue > 0 && $0.doubleValue <= 1 } == true,
            "\(closest)"
        )
        #expect(closest["pattern"]?.stringValue?.isEmpty == false)
        let mismatches = try #require(closest["mismatches"]?.arrayValue)
        #expect(!mismatches.isEmpty)
        #expect(mismatches.allSatisfy { $0.stringValue != nil })
        #expect(answers[1]["status"] == 200)
    }

    @Test("--requests: stubs that cannot be loaded exit 2 with the diagnostic on stderr and nothing on stdout")
    func requestsUnloadableStubs() throws {
        let fixture = try StubRootFixture(in: scratch)
        let bad = try fixture.folder.write(
            "bad/mappings/bad.json",
            #"{"request": {"method": "GET"}, "response": {"fault": "NOPE"}}"#
        )
        let input = Data(#"{"method": "GET", "url": "https://api.example.com/users"}"#.utf8)
        let result = runStubs(
            [
                "match", "--stubs", fixture.root.path, "--stubs", fixture.folder.url.appendingPathComponent("bad").path,
                "--requests", "-",
            ],
            stdin: input
        )
        #expect(result.status == 2, "\(result)")
        #expect(result.stdout.isEmpty, "\(result.stdout)")
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(
            lines.first?.hasPrefix("\(bad.path):1:54: error: $.response.fault: unknown fault") == true,
            "\(result.stderr)"
        )
        #expect(lines.last == "stubs: error: the stubs cannot be loaded (1 error above)")

        let missing = runStubs(
            ["match", "--stubs", fixture.folder.url.appendingPathComponent("absent").path, "--requests", "-"],
            stdin: input
        )
        #expect(missing.status == 2, "\(missing)")
        #expect(missing.stdout.isEmpty)
        #expect(missing.stderr.contains("no such file or directory"), "\(missing.stderr)")
    }

    @Test("--requests: a missing requests file exits 2 with the diagnostic on stderr")
    func requestsMissingFile() throws {
        let fixture = try StubRootFixture(in: scratch)
        let missing = fixture.folder.url.appendingPathComponent("absent.jsonl").path
        let result = runStubs(["match", "--stubs", fixture.root.path, "--requests", missing])
        #expect(result.status == 2, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "\(missing): error: cannot be read; check the path\n")
    }

    @Test(
        "--requests: an invalid line exits 2 with a located error (the file and line), after the answers to the lines before it",
        arguments: [
            (#"{"method": "GET"}"#, #""url" must be an absolute URL"#),
            (#"{"method": "GET", "url": "/relative"}"#, #""url" must be an absolute URL"#),
            (#"{"method": 1, "url": "https://api.example.com/users"}"#, #""method" must be a string"#),
            (#"["GET", "https://api.example.com/users"]"#, "each line must be a JSON object"),
            (#"{"url": "https://api.example.com/users", "headers": ["X: y"]}"#, #""headers" must be an object"#),
            (
                #"{"url": "https://api.example.com/users", "headers": {"X": 1}}"#,
                "the header X must have a string value"
            ),
            (#"{"url": "https://api.example.com/users", "body": {"a": 1}}"#, #""body" must be a string"#),
            (
                #"{"url": "https://api.example.com/users", "bodyBase64": "%%%"}"#,
                #""bodyBase64" must be base64 text"#
            ),
            (#"{"url": "https://api.example.com/users""#, "invalid JSON at column "),
            (#"{"method": "", "url": "https://api.example.com/users"}"#, #""method" "" is not an HTTP method"#),
            (
                #"{"method": "GE T", "url": "https://api.example.com/users"}"#,
                #""method" "GE T" is not an HTTP method"#
            ),
            (
                #"{"method": "../../x", "url": "https://api.example.com/users"}"#,
                #""method" "../../x" is not an HTTP method"#
            ),
        ]
    )
    func requestsInvalidLine(line: String, message: String) throws {
        let fixture = try StubRootFixture(in: scratch)
        let requests = try fixture.folder.write(
            "requests.jsonl",
            #"{"method": "GET", "url": "https://api.example.com/users"}"# + "\n" + line + "\n"
        )
        let result = runStubs(["match", "--stubs", fixture.root.path, "--requests", requests.path])
        #expect(result.status == 2, "\(result)")
        #expect(try jsonLines(result.stdout).map { $0["status"] } == [200], "\(result.stdout)")
        #expect(result.stderr.hasPrefix("\(requests.path):2: error: \(message)"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
    }

    @Test(
        "--requests: a line that is not valid UTF-8 exits 2 with a located error (the file and line) instead of being read with replacement characters"
    )
    func requestsInvalidUTF8() throws {
        let fixture = try StubRootFixture(in: scratch)
        var data = Data(#"{"method": "GET", "url": "https://api.example.com/users"}"#.utf8) + Data("\n".utf8)
        data +=
            Data(#"{"method": "GET", "url": "https://api.example.com/users", "body": "caf"#.utf8) + Data([0xE9])
            + Data("\"}\n".utf8)
        let requests = try fixture.folder.write("requests.jsonl", data)
        let result = runStubs(["match", "--stubs", fixture.root.path, "--requests", requests.path])
        #expect(result.status == 2, "\(result)")
        #expect(try jsonLines(result.stdout).count == 1, "\(result.stdout)")
        #expect(
            result.stderr
                == "\(requests.path):2: error: the line is not valid UTF-8; a requests file is UTF-8 text (give a binary body as \"bodyBase64\")\n",
            "\(result.stderr)"
        )
    }

    @Test("--requests -: an invalid line on standard input is reported as <stdin>:LINE")
    func requestsInvalidStandardInput() throws {
        let fixture = try StubRootFixture(in: scratch)
        let result = runStubs(
            ["match", "--stubs", fixture.root.path, "--requests", "-"],
            stdin: Data("not json\n".utf8)
        )
        #expect(result.status == 2, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("<stdin>:1: error: invalid JSON at column 1"), "\(result.stderr)")
    }

    @Test("--requests: CRLF line endings (a JSON Lines file saved on Windows) are one request per line")
    func requestsCRLF() throws {
        let fixture = try StubRootFixture(in: scratch)
        let input =
            #"{"method": "GET", "url": "https://api.example.com/health"}"# + "\r\n"
            + #"{"method": "GET", "url": "https://api.example.com/users"}"# + "\r\n"
        let result = runStubs(["match", "--stubs", fixture.root.path, "--requests", "-"], stdin: Data(input.utf8))
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        let answers = try jsonLines(result.stdout)
        #expect(answers.map { $0["body"] } == ["ok", #"[{"id":1,"name":"Ada"}]"#])
    }

    @Test(
        "--requests: a line longer than 16 MiB exits 2 with a located error (the file and line), after the answers before it"
    )
    func requestsLineTooLong() throws {
        let fixture = try StubRootFixture(in: scratch)
        var input = Data(#"{"method": "GET", "url": "https://api.example.com/users"}"#.utf8) + Data("\n".utf8)
        input += Data(#"{"url": "https://api.example.com/users", "body": ""#.utf8)
        input += Data(repeating: UInt8(ascii: "a"), count: (16 << 20) + (4 << 20))
        var io = CapturingIO(stdin: input, piece: 1 << 20)
        let status = StubsCommand.run(["match", "--stubs", fixture.root.path, "--requests", "-"], io: &io)
        #expect(status == 2)
        #expect(try jsonLines(io.stdout).count == 1, "\(io.stdout)")
        #expect(
            io.stderr == "<stdin>:2: error: the line is longer than 16 MiB, the most one request may take; "
                + "end each request with a line break, and keep bodies smaller\n",
            "\(io.stderr)"
        )
        #expect(io.stdin.count > 2 << 20, "the rest of the input was read, although the line was already too long")
    }

    @Test("--requests: lines cut across reads, a last line without a line break, and blank lines are read alike")
    func requestsCutAcrossReads() throws {
        let fixture = try StubRootFixture(in: scratch)
        let line = #"{"method": "GET", "url": "https://api.example.com/health"}"#
        for piece in [1, 2, 5, 64, 1 << 16] {
            var io = CapturingIO(stdin: Data((line + "\n\n  \n" + line + "\n" + line).utf8), piece: piece)
            let status = StubsCommand.run(["match", "--stubs", fixture.root.path, "--requests", "-"], io: &io)
            #expect(status == 0, "\(piece): \(io.stderr)")
            #expect(try jsonLines(io.stdout).map { $0["body"] } == ["ok", "ok", "ok"], "\(piece)")
        }
    }

    @Test("--requests: an empty requests file prints nothing and exits 0")
    func requestsEmpty() throws {
        let fixture = try StubRootFixture(in: scratch)
        let result = runStubs(["match", "--stubs", fixture.root.path, "--requests", "-"], stdin: Data("\n\n".utf8))
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.isEmpty)
    }

    // MARK: Usage errors and --help

    @Test(
        "usage errors exit 2 with exactly one stderr line ending in a --help hint, nothing on stdout",
        arguments: [
            ["frobnicate"],
            ["lint"],
            ["lint", "--verbose", "Stubs"],
            ["list"],
            ["list", "-x", "Stubs"],
            ["match", "GET", "https://api.example.com/users"],
            ["match", "--stubs"],
            ["match", "--stubs", "Stubs"],
            ["match", "--stubs", "Stubs", "GET"],
            ["match", "--stubs", "Stubs", "GET", "https://api.example.com/users", "extra"],
            ["match", "--stubs", "Stubs", "GET", "not a url"],
            ["match", "--stubs", "Stubs", "GE T", "https://api.example.com/users"],
            ["match", "--stubs", "Stubs", "GET", "https://api.example.com/users", "-H", "NoColon"],
            ["match", "--stubs", "Stubs", "GET", "https://api.example.com/users", "-H"],
            ["match", "--stubs", "Stubs", "GET", "https://api.example.com/users", "--bogus"],
            ["match", "--stubs", "Stubs", "--requests", "-", "GET", "https://api.example.com/users"],
            ["import-har"],
            ["import-har", "capture.har"],
            ["import-har", "capture.har", "--into"],
            ["import-har", "a.har", "b.har", "--into", "root"],
            ["import-har", "capture.har", "--into", "root", "--overwrite"],
            ["lint", "--global-response-templating"],
            ["lint", "--local-response-templating=yes", "Stubs"],
            ["lint", "--disable-template-escaping=true", "Stubs"],
            ["match", "--stubs", "Stubs", "--global-response-templating=1", "GET", "https://api.example.com/users"],
        ]
    )
    func usageErrors(arguments: [String]) {
        let result = runStubs(arguments)
        #expect(result.status == 2, "\(arguments): \(result)")
        #expect(result.stdout.isEmpty, "\(arguments): \(result.stdout)")
        #expect(result.stderr.hasPrefix("stubs: error: "), "\(arguments): \(result.stderr)")
        #expect(result.stderr.hasSuffix("--help'\n"), "\(arguments): \(result.stderr)")
        #expect(result.stderr.filter { $0 == "\n" }.count == 1, "\(arguments): \(result.stderr)")
        if let command = arguments.first, ["lint", "list", "match", "import-har"].contains(command) {
            #expect(result.stderr.hasSuffix("run 'stubs \(command) --help'\n"), "\(arguments): \(result.stderr)")
        }
    }

    @Test("the usage errors name what is wrong")
    func usageErrorMessages() {
        #expect(
            runStubs(["frobnicate"]).stderr
                == "stubs: error: unknown command 'frobnicate'; the commands are lint, list, match and import-har; run 'stubs --help'\n"
        )
        #expect(
            runStubs(["lint", "--verbose", "Stubs"]).stderr
                == "stubs: error: unknown option '--verbose'; run 'stubs lint --help'\n"
        )
        #expect(runStubs(["match", "GET", "https://api.example.com/users"]).stderr.contains("--stubs PATH"))
        #expect(runStubs(["match", "--stubs", "Stubs", "GET"]).stderr.contains("METHOD and URL"))
        #expect(
            runStubs(["match", "--stubs", "Stubs", "GET", "https://x.test/", "-H", "NoColon"]).stderr.contains(
                #"the header "NoColon" must be written 'Name: value'"#
            )
        )
    }

    @Test("no command at all is a usage error: exit 2 and one stderr line with a --help hint")
    func noCommand() {
        let result = runStubs([])
        #expect(result.status == 2, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.filter { $0 == "\n" }.count == 1, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("stubs: error: "), "\(result.stderr)")
        #expect(result.stderr.hasSuffix("run 'stubs --help'\n"), "\(result.stderr)")
    }

    @Test(
        "--help exits 0 and prints the usage on stdout",
        arguments: [
            (["--help"], "stubs: check, list and try"),
            (["-h"], "stubs: check, list and try"),
            (["help"], "stubs: check, list and try"),
            (["help", "match"], "Usage: stubs match "),
            (["lint", "--help"], "Usage: stubs lint PATH..."),
            (["list", "--help"], "Usage: stubs list PATH..."),
            (["match", "--help"], "Usage: stubs match --stubs PATH"),
            (["match", "--stubs", "Stubs", "-h"], "Usage: stubs match --stubs PATH"),
            (["import-har", "--help"], "Usage: stubs import-har FILE.har --into ROOT"),
        ]
    )
    func help(arguments: [String], start: String) {
        let result = runStubs(arguments)
        #expect(result.status == 0, "\(arguments): \(result)")
        #expect(result.stdout.hasPrefix(start), "\(arguments): \(result.stdout)")
        #expect(result.stdout.contains("Usage:"), "\(arguments)")
        #expect(result.stderr.isEmpty, "\(arguments): \(result.stderr)")
    }

    @Test("the match help documents the --requests machine interface exactly")
    func matchHelpDocumentsRequests() {
        let help = runStubs(["match", "--help"]).stdout
        #expect(
            help.contains(
                #"{"method": "POST", "url": "https://host/path?q=1", "headers": {"Name": "value"}, "body": "text"}"#
            )
        )
        #expect(help.contains(#"{"status": 200, "headers": {"Name": "value"}, "body": "text", "stub": "<source>"}"#))
        #expect(help.contains(#"{"error": {"code": -1005, "description": "..."}, "stub": "<source>"}"#))
        #expect(help.contains(#"{"unmatched": true, "message": "...", "nearMisses": [...]}"#))
    }

    // MARK: import-har

    @Test("import-har: the corpus capture becomes a stub root that lint accepts and match answers from")
    func importCorpusHAR() throws {
        let capture = try corpusURL("har/mitmproxy-postdata.har")
        let folder = scratch
        let root = folder.url.appendingPathComponent("imported")
        let result = runStubs(["import-har", capture.path, "--into", root.path])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        let written = result.stdout.split(separator: "\n").map(String.init)
        #expect(!written.isEmpty)
        #expect(written.allSatisfy { $0.hasPrefix("wrote \(root.path)/") }, "\(written)")
        let files = try folder.files(under: "imported")
        #expect(files.contains { $0.hasPrefix("mappings/post-metrics-") && $0.hasSuffix(".json") }, "\(files)")
        #expect(files.count == written.count)

        let lint = runStubs(["lint", root.path])
        #expect(lint.status == 0, "\(lint)")
        #expect(lint.stdout.hasSuffix(": 0 errors, 0 warnings\n"), "\(lint.stdout)")

        // Answer the recorded request from the imported root.
        let entry = try #require(
            try JSONValue(parsing: Data(contentsOf: capture)).objectValue?["log"]?.objectValue?["entries"]?.arrayValue?
                .first?.objectValue
        )
        let request = try #require(entry["request"]?.objectValue)
        let method = try #require(request["method"]?.stringValue)
        let url = try #require(request["url"]?.stringValue)
        let status = try #require(entry["response"]?.objectValue?["status"]?.numberValue?.int64Value)
        var arguments = ["match", "--stubs", root.path, method, url]
        if let body = request["postData"]?.objectValue?["text"]?.stringValue {
            arguments += ["--data", body]
        }
        let match = runStubs(arguments)
        #expect(match.status == 0, "\(match)")
        #expect(match.stdout.hasPrefix("HTTP/1.1 \(status) "), "\(match.stdout)")
        #expect(match.stdout.contains("(answered by "), "\(match.stdout)")
        #expect(match.stdout.contains("\(root.path)/mappings/post-metrics-"), "\(match.stdout)")
    }

    @Test(
        "import-har and lint: a request method that is a path ('../../ESCAPED') is a located error, and nothing is written"
    )
    func methodThatIsAPathIsRefused() throws {
        let folder = scratch
        let capture = try folder.write("capture.har", Self.har(method: "../../ESCAPED"))
        let root = folder.url.appendingPathComponent("deep/er/root")

        let lint = runStubs(["lint", capture.path])
        #expect(lint.status == 1, "\(lint)")
        #expect(
            lint.stdout.contains(
                #"error: $.log.entries[0].request.method: 'method' "../../ESCAPED" is not an HTTP method"#
            ),
            "\(lint)"
        )

        let result = runStubs(["import-har", capture.path, "--into", root.path])
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("is not an HTTP method"), "\(result)")
        #expect(try folder.files(under: ".") == ["capture.har"], "nothing written, inside the root or out of it")
    }

    @Test("import-har --into / is refused before anything is written")
    func importIntoTheFileSystemRootIsRefused() throws {
        let folder = scratch
        let capture = try folder.write("capture.har", Self.har(method: "GET"))
        let existedBefore = FileManager.default.fileExists(atPath: "/mappings")
        let result = runStubs(["import-har", capture.path, "--into", "/"])
        #expect(result.status == 2, "\(result)")
        #expect(
            result.stderr
                == "/: error: refusing to write a stub root into the file system's root; give a folder of its own, such as Stubs/Imported\n",
            "\(result)"
        )
        #expect(result.stdout.isEmpty)
        #expect(FileManager.default.fileExists(atPath: "/mappings") == existedBefore)
    }

    @Test(
        "import-har: a stub root whose mappings folder is a symbolic link to elsewhere is refused, and nothing is written there"
    )
    func symbolicLinkOutOfTheRootIsRefused() throws {
        let folder = scratch
        let capture = try folder.write("capture.har", Self.har(method: "GET"))
        let outside = folder.url.appendingPathComponent("outside")
        let root = folder.url.appendingPathComponent("root")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            at: root.appendingPathComponent("mappings"),
            withDestinationURL: outside
        )

        let result = runStubs(["import-har", capture.path, "--into", root.path])
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("error: refusing to write outside the stub root \(root.path)"), "\(result)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside.path).isEmpty)
        #expect(
            !FileManager.default.fileExists(atPath: root.appendingPathComponent("__files").path),
            "no file written before the refusal"
        )
    }

    /// A one-entry HAR capture: `method https://api.example.com/x` answered 200 `hello`.
    private static func har(method: String) -> String {
        """
        {"log": {"version": "1.2", "creator": {"name": "test", "version": "1"}, "entries": [{
          "startedDateTime": "2026-01-01T00:00:00Z", "time": 1,
          "request": {"method": "\(method)", "url": "https://api.example.com/x", "httpVersion": "HTTP/1.1",
                      "headers": [], "queryString": [], "cookies": [], "headersSize": -1, "bodySize": 0},
          "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1", "headers": [], "cookies": [],
                       "content": {"size": 5, "mimeType": "text/plain", "text": "hello"},
                       "redirectURL": "", "headersSize": -1, "bodySize": 5},
          "cache": {}, "timings": {"send": 0, "wait": 1, "receive": 0}}]}}
        """
    }

    @Test("import-har: a failed entry (status 0) answers from the imported root with the capture's own URLError")
    func importedFailureKeepsItsURLError() throws {
        let capture = try corpusURL("har/mitmproxy-chrome.har")
        let root = scratch.url.appendingPathComponent("chrome")
        let result = runStubs(["import-har", capture.path, "--into", root.path])
        #expect(result.status == 0, "\(result)")
        let request = Data(#"{"method": "GET", "url": "https://www.google.com/"}"#.utf8 + [0x0A])
        for stubs in [capture.path, root.path] {
            let match = runStubs(["match", "--stubs", stubs, "--requests", "-"], stdin: request)
            #expect(match.status == 0, "\(stubs): \(match)")
            let answer = try #require(try jsonLines(match.stdout).first, "\(stubs): \(match.stdout)")
            // net::ERR_INTERNET_DISCONNECTED in the capture: URLError.notConnectedToInternet.
            #expect(answer["error"]?.objectValue?["code"] == -1009, "\(stubs): \(match.stdout)")
        }
    }

    @Test(
        "import-har: importing again gives identical files; different files are kept without --force and replaced with it"
    )
    func importIsIdempotentAndKeepsChanges() throws {
        let capture = try corpusURL("har/mitmproxy-postdata.har")
        let folder = scratch
        let root = folder.url.appendingPathComponent("imported")
        let first = runStubs(["import-har", capture.path, "--into", root.path])
        try #require(first.status == 0, "\(first)")
        let before = try folder.contents(under: "imported")

        let again = runStubs(["import-har", capture.path, "--into", root.path])
        #expect(again.status == 0, "\(again)")
        #expect(again.stdout == first.stdout)
        #expect(try folder.contents(under: "imported") == before)

        let mapping = try #require(before.keys.sorted().first { $0.hasPrefix("mappings/") })
        let edited = Data("{\"request\": {\"method\": \"GET\"}, \"response\": {\"status\": 418}}\n".utf8)
        try edited.write(to: root.appendingPathComponent(mapping))

        let kept = runStubs(["import-har", capture.path, "--into", root.path])
        #expect(kept.status == 1, "\(kept)")
        #expect(
            kept.stderr
                == "\(root.appendingPathComponent(mapping).path): error: exists with other contents; kept (use --force to overwrite)\n"
        )
        #expect(try Data(contentsOf: root.appendingPathComponent(mapping)) == edited)

        let forced = runStubs(["import-har", capture.path, "--into", root.path, "--force"])
        #expect(forced.status == 0, "\(forced)")
        #expect(forced.stderr.isEmpty, "\(forced.stderr)")
        #expect(try folder.contents(under: "imported") == before)
    }

    @Test("import-har: when a mapping is kept, the body files it would have named are not written either")
    func keptMappingKeepsItsBodiesOut() throws {
        let folder = scratch
        let capture = try folder.write("capture.har", Self.har(method: "GET"))
        let first = folder.url.appendingPathComponent("first")
        try #require(runStubs(["import-har", capture.path, "--into", first.path]).status == 0)
        let written = try folder.files(under: "first")
        let mapping = try #require(written.first { $0.hasPrefix("mappings/") })
        let body = try #require(written.first { $0.hasPrefix("__files/") })

        let root = folder.url.appendingPathComponent("root")
        let theirs = Data(#"{"request": {"url": "/x"}, "response": {"status": 204}}"#.utf8)
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("mappings"),
            withIntermediateDirectories: true
        )
        try theirs.write(to: root.appendingPathComponent(mapping))
        let result = runStubs(["import-har", capture.path, "--into", root.path])
        #expect(result.status == 1, "\(result)")
        #expect(
            result.stderr.contains(
                "\(root.appendingPathComponent(mapping).path): error: exists with other contents; kept"
            ),
            "\(result)"
        )
        #expect(
            result.stderr.contains(
                "\(root.appendingPathComponent(body).path): not written: the mapping that names it was kept"
            ),
            "\(result)"
        )
        #expect(try folder.files(under: "root") == [mapping], "only the kept mapping is in the root")
    }

    @Test(
        "import-har: secrets are redacted before anything is written, and the stubs still answer; --keep-secrets keeps them"
    )
    func importRedactsSecrets() throws {
        let folder = scratch
        let capture = try folder.write(
            "secrets.har",
            #"""
            {"log": {"version": "1.2", "creator": {"name": "test", "version": "1"}, "entries": [{
              "startedDateTime": "2026-11-22T08:00:00.000Z", "time": 1,
              "request": {"method": "POST", "url": "https://api.example.com/session?access_token=tok-123&page=2", "httpVersion": "HTTP/1.1",
                "headers": [{"name": "Authorization", "value": "Bearer sk-live-123"}, {"name": "Content-Type", "value": "application/json"}],
                "queryString": [], "cookies": [], "headersSize": -1, "bodySize": 40,
                "postData": {"mimeType": "application/json", "text": "{\"user\": \"ada\", \"password\": \"hunter2\"}"}},
              "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1",
                "headers": [{"name": "Set-Cookie", "value": "session=cookie-456"}, {"name": "Content-Type", "value": "application/json"}],
                "cookies": [], "content": {"size": 40, "mimeType": "application/json", "text": "{\"refresh_token\": \"rt-789\", \"ok\": true}"},
                "redirectURL": "", "headersSize": -1, "bodySize": 40},
              "cache": {}, "timings": {"send": 0, "wait": 1, "receive": 0}}, {
              "startedDateTime": "2026-11-22T08:00:01.000Z", "time": 1,
              "request": {"method": "POST", "url": "https://api.example.com/session?access_token=tok-123&page=2", "httpVersion": "HTTP/1.1",
                "headers": [{"name": "Authorization", "value": "Bearer sk-live-000"}, {"name": "Content-Type", "value": "application/json"}],
                "queryString": [], "cookies": [], "headersSize": -1, "bodySize": 40,
                "postData": {"mimeType": "application/json", "text": "{\"user\": \"bob\", \"password\": \"swordfish\"}"}},
              "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1",
                "headers": [{"name": "Set-Cookie", "value": "session=cookie-000"}, {"name": "Content-Type", "value": "application/json"}],
                "cookies": [], "content": {"size": 40, "mimeType": "application/json", "text": "{\"refresh_token\": \"rt-000\", \"ok\": false}"},
                "redirectURL": "", "headersSize": -1, "bodySize": 40},
              "cache": {}, "timings": {"send": 0, "wait": 1, "receive": 0}}]}}
            """#
        )
        let secrets = [
            "tok-123", "sk-live-123", "hunter2", "cookie-456", "rt-789", "swordfish", "rt-000", "cookie-000",
        ]

        let redacted = folder.url.appendingPathComponent("redacted")
        let result = runStubs(["import-har", capture.path, "--into", redacted.path])
        try #require(result.status == 0, "\(result)")
        let written = try folder.contents(under: "redacted").values.map { String(decoding: $0, as: UTF8.self) }.joined(
            separator: "\n"
        )
        for secret in secrets {
            #expect(!written.contains(secret), "\(secret) reached disk:\n\(written)")
        }
        #expect(written.contains("REDACTED"))
        #expect(written.contains("\"page\""), "other query parameters are kept")

        // The redacted stub answers a request with any token and any password.
        let request =
            #"{"method": "POST", "url": "https://api.example.com/session?access_token=other&page=2", "body": "{\"user\": \"ada\", \"password\": \"other\"}"}"#
        let match = runStubs(
            ["match", "--stubs", redacted.path, "--requests", "-"],
            stdin: Data((request + "\n").utf8)
        )
        #expect(match.status == 0, "\(match)")
        #expect(match.stdout.contains(#""status":200"#), "\(match.stdout)")
        #expect(match.stdout.contains(#"\"ok\": true"#), "ada's answer (bob's says false): \(match.stdout)")
        #expect(match.stdout.contains(#"\"refresh_token\": \"REDACTED\""#), "\(match.stdout)")

        let kept = folder.url.appendingPathComponent("kept")
        #expect(runStubs(["import-har", capture.path, "--into", kept.path, "--keep-secrets"]).status == 0)
        let keptText = try folder.contents(under: "kept").values.map { String(decoding: $0, as: UTF8.self) }.joined(
            separator: "\n"
        )
        // Request headers are never written.
        for secret in secrets where secret != "sk-live-123" && secret != "sk-live-000" {
            #expect(keptText.contains(secret), "\(secret) was not kept")
        }
    }

    @Test("match: the near-miss report, as text and as JSON lines, masks the request's and the stubs' secrets")
    func matchMasksSecrets() throws {
        let folder = scratch
        let root = folder.url.appendingPathComponent("root")
        try folder.write(
            "root/mappings/login.json",
            #"""
            {"request": {"method": "POST", "urlPath": "/login",
               "headers": {"Authorization": {"equalTo": "Bearer 3xp3ct3d-b34r3r"}},
               "queryParameters": {"token": {"equalTo": "3xp3ct3d-qu3ry"}},
               "bodyPatterns": [{"equalToJson": {"user": "ada", "password": "3xp3ct3d-pw"}}]},
             "response": {"status": 204}}
            """#
        )
        let secrets = [
            "b34r3r-s3cr3t", "c00k13-s3cr3t", "qu3ry-s3cr3t", "js0n-s3cr3t", "3xp3ct3d-b34r3r", "3xp3ct3d-qu3ry",
            "3xp3ct3d-pw",
        ]
        let text = runStubs([
            "match", "--stubs", root.path, "POST", "https://api.example.com/login?token=qu3ry-s3cr3t",
            "-H", "Authorization: Bearer b34r3r-s3cr3t", "-H", "Cookie: session=c00k13-s3cr3t",
            "-H", "Content-Type: application/json", "--data", #"{"user":"ada","password":"js0n-s3cr3t"}"#,
        ])
        #expect(text.status == 1, "\(text)")
        #expect(text.stdout.contains("Authorization: Bearer <redacted:"), "\(text.stdout)")
        let line =
            #"{"method": "POST", "url": "https://api.example.com/login?token=qu3ry-s3cr3t", "headers": {"Authorization": "Bearer b34r3r-s3cr3t", "Cookie": "session=c00k13-s3cr3t", "Content-Type": "application/json"}, "body": "{\"user\":\"ada\",\"password\":\"js0n-s3cr3t\"}"}"#
        let json = runStubs(["match", "--stubs", root.path, "--requests", "-"], stdin: Data((line + "\n").utf8))
        #expect(json.status == 1, "\(json)")
        #expect(json.stdout.contains("nearMisses"), "\(json.stdout)")
        for secret in secrets {
            #expect(!text.stdout.contains(secret), "\(secret) printed by match:\n\(text.stdout)")
            #expect(!json.stdout.contains(secret), "\(secret) printed by match --requests:\n\(json.stdout)")
        }
    }

    @Test(
        "match: an answer's secret headers and body values are masked; --keep-secrets prints them as the stub gives them"
    )
    func matchMasksAnswers() throws {
        let folder = scratch
        let root = folder.url.appendingPathComponent("root")
        try folder.write(
            "root/mappings/token.json",
            #"""
            {"request": {"method": "POST", "urlPath": "/token"},
             "response": {"status": 200, "headers": {"Set-Cookie": "sid=c00k13-4nsw3r", "Content-Type": "application/json"},
               "jsonBody": {"access_token": "4cc3ss-4nsw3r", "token_type": "bearer", "expires_in": 3600}}}
            """#
        )
        let secrets = ["c00k13-4nsw3r", "4cc3ss-4nsw3r"]
        let text = runStubs(["match", "--stubs", root.path, "POST", "https://api.example.com/token"])
        let json = runStubs(
            ["match", "--stubs", root.path, "--requests", "-"],
            stdin: Data((#"{"method": "POST", "url": "https://api.example.com/token"}"# + "\n").utf8)
        )
        for output in [text, json] {
            #expect(output.status == 0, "\(output)")
            for secret in secrets {
                #expect(!output.stdout.contains(secret), "\(secret) printed:\n\(output.stdout)")
            }
            #expect(output.stdout.contains("token_type"), "what is not secret is printed: \(output.stdout)")
        }
        #expect(text.stdout.contains("Set-Cookie: <redacted:"), "\(text.stdout)")
        let kept = runStubs(["match", "--stubs", root.path, "POST", "https://api.example.com/token", "--keep-secrets"])
        for secret in secrets {
            #expect(kept.stdout.contains(secret), "--keep-secrets prints \(secret):\n\(kept.stdout)")
        }
    }

    @Test("list: secrets in URL patterns, response bodies and file names made from a secret path are masked")
    func listMasksSecrets() throws {
        let folder = scratch
        let root = folder.url.appendingPathComponent("root")
        let jwt = SecretLocation.jwt("l1st-jwt")
        try folder.write(
            "root/mappings/post-verify-k3y-in-n4m3.json",
            #"""
            {"request": {"method": "POST", "url": "/verify?api_key=k3y-in-n4m3&page=2"},
             "response": {"status": 200, "jsonBody": {"access_token": "l1st-4cc3ss", "ok": true}}}
            """#
        )
        try folder.write(
            "root/mappings/jwt.json",
            #"{"request": {"method": "GET", "urlPath": "/verify/\#(jwt)"}, "response": {"status": 200, "body": "\#(jwt)"}}"#
        )
        let list = runStubs(["list", root.path])
        #expect(list.status == 0, "\(list)")
        for secret in ["k3y-in-n4m3", "l1st-4cc3ss", jwt] {
            #expect(!list.stdout.contains(secret), "\(secret) listed:\n\(list.stdout)")
        }
        #expect(list.stdout.contains("page=2"), "\(list.stdout)")
    }

    @Test("import-har: a redirect's Location keeps its address but not the secrets in its query")
    func importRedactsLocationQueries() throws {
        let folder = scratch
        let capture = try folder.write(
            "redirect.har",
            #"""
            {"log": {"version": "1.2", "creator": {"name": "test", "version": "1"}, "entries": [{
              "startedDateTime": "2026-11-22T08:00:00.000Z", "time": 1,
              "request": {"method": "GET", "url": "https://auth.example.com/authorize", "httpVersion": "HTTP/1.1",
                "headers": [], "queryString": [], "cookies": [], "headersSize": -1, "bodySize": 0},
              "response": {"status": 302, "statusText": "Found", "httpVersion": "HTTP/1.1",
                "headers": [{"name": "Location", "value": "https://app.example.com/callback?state=xyz&access_token=at-secret-1"}],
                "cookies": [], "content": {"size": 0, "mimeType": ""}, "redirectURL": "https://app.example.com/callback?state=xyz&access_token=at-secret-1",
                "headersSize": -1, "bodySize": 0},
              "cache": {}, "timings": {"send": 0, "wait": 1, "receive": 0}}]}}
            """#
        )
        let result = runStubs(["import-har", capture.path, "--into", folder.url.appendingPathComponent("root").path])
        try #require(result.status == 0, "\(result)")
        let written = try folder.contents(under: "root").values.map { String(decoding: $0, as: UTF8.self) }.joined(
            separator: "\n"
        )
        #expect(!written.contains("at-secret-1"), "\(written)")
        #expect(written.contains("https://app.example.com/callback?state=xyz&access_token=REDACTED"), "\(written)")
    }

    @Test(
        "import-har: repeated requests become a scenario, JSON bodies are pretty-printed in __files/, and match replays them in order"
    )
    func importRepeatedRequests() throws {
        let fixture = try StubRootFixture(in: scratch)
        let root = fixture.folder.url.appendingPathComponent("polled")
        let result = runStubs(["import-har", fixture.pollHAR.path, "--into", root.path])
        #expect(result.status == 0, "\(result)")
        let files = try fixture.folder.contents(under: "polled")
        let mappings = files.keys.filter { $0.hasPrefix("mappings/") }
        let bodies = files.keys.filter { $0.hasPrefix("__files/") }.sorted()
        try #require(mappings.count == 1, "\(files.keys.sorted())")
        #expect(bodies.count == 2, "\(bodies)")
        let mapping = try JSONValue(parsing: try #require(files[mappings[0]]))
        let entries = try #require(mapping.objectValue?["mappings"]?.arrayValue)
        #expect(entries.count == 2)
        let stem = mappings[0].dropFirst("mappings/".count).dropLast(".json".count)
        #expect(stem.hasPrefix("get-poll"), "\(stem)")
        #expect(entries.allSatisfy { $0.objectValue?["scenarioName"]?.stringValue == "scenario-\(stem)" })
        #expect(entries.first?.objectValue?["requiredScenarioState"] == "Started")
        let firstBody = try #require(bodies.first.flatMap { files[$0] }.map { String(decoding: $0, as: UTF8.self) })
        #expect(firstBody.contains("\n"), "JSON bodies are pretty-printed: \(firstBody)")
        #expect(try JSONValue(parsing: firstBody) == ["state": "pending"])

        let lint = runStubs(["lint", root.path])
        #expect(lint.status == 0, "\(lint)")
        let input = String(repeating: #"{"method": "GET", "url": "https://api.example.com/poll"}"# + "\n", count: 3)
        let match = runStubs(["match", "--stubs", root.path, "--requests", "-"], stdin: Data(input.utf8))
        #expect(match.status == 0, "\(match)")
        let answers = try jsonLines(match.stdout)
        try #require(answers.count == 3)
        #expect(answers.map { $0["status"] } == [202, 200, 200])
        #expect(
            try answers.map { try JSONValue(parsing: $0["body"]?.stringValue ?? "") } == [
                ["state": "pending"], ["state": "done"], ["state": "done"],
            ]
        )
    }

    @Test("import-har: a capture that cannot be read exits 2 with the diagnostic on stderr and writes nothing")
    func importUnreadableCapture() throws {
        let folder = scratch
        let broken = try folder.write("broken.har", #"{"log": {"entries": [}"#)
        let root = folder.url.appendingPathComponent("root")
        let result = runStubs(["import-har", broken.path, "--into", root.path])
        #expect(result.status == 2, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("\(broken.path):1:"), "\(result.stderr)")
        #expect(result.stderr.contains(": error: $.log.entries[0]: invalid JSON"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: root.path))

        let missing = runStubs(["import-har", folder.url.appendingPathComponent("none.har").path, "--into", root.path])
        #expect(missing.status == 2, "\(missing)")
        #expect(missing.stderr.contains(": error: cannot be read"), "\(missing.stderr)")
    }

    // MARK: File-system errors in words

    @Test(
        "lint: a mapping file that is a folder says 'is a directory (errno 21)' and what to do, not NSCocoaErrorDomain"
    )
    func lintFolderNamedLikeAFile() throws {
        let folder = scratch
        try folder.write("root/mappings/ok.json", #"{"request": {"urlPath": "/a"}, "response": {"status": 200}}"#)
        let odd = folder.url.appendingPathComponent("root/mappings/folder.json")
        try FileManager.default.createDirectory(at: odd, withIntermediateDirectories: true)
        let result = runStubs(["lint", folder.url.appendingPathComponent("root").path])
        #expect(result.status == 1, "\(result)")
        let output = result.stdout + result.stderr
        #expect(
            output.contains(
                "\(odd.path): error: cannot be read: is a directory (errno 21); give a file, not a folder\n"
            ),
            "\(output)"
        )
        #expect(!output.contains("NSCocoaErrorDomain"), "\(output)")
    }

    @Test("import-har: a folder that cannot be created says why (errno), on which path, and to choose another --into")
    func importIntoUncreatableFolder() throws {
        let capture = try corpusURL("har/mitmproxy-postdata.har")
        let blocker = try scratch.write("blocker", "a file where the root's folder should go")
        let root = blocker.appendingPathComponent("root")
        let result = runStubs(["import-har", capture.path, "--into", root.path])
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.hasPrefix("\(root.path)/mappings/"), "\(result.stderr)")
        #expect(
            result.stderr.hasSuffix(
                ": error: cannot be written: not a directory (errno 20); "
                    + "a file stands where the path needs a folder; move it or choose another --into\n"
            ),
            "\(result.stderr)"
        )
        #expect(!result.stderr.contains("NSCocoaErrorDomain"), "\(result.stderr)")
    }

    @Test("--requests FOLDER: 'cannot be read: is a directory (errno 21)', exit 2")
    func requestsFromAFolder() throws {
        let fixture = try StubRootFixture(in: scratch)
        let folder = fixture.folder.url.path
        let result = runStubs(["match", "--stubs", fixture.root.path, "--requests", folder])
        #expect(result.status == 2, "\(result)")
        #expect(
            result.stderr == "\(folder): error: cannot be read: is a directory (errno 21); give a file, not a folder\n"
        )
    }
}

// MARK: - Helpers

/// Standard streams captured in memory, with a settable standard input.
private struct CapturingIO: CommandIO {
    /// What `readInput(upTo:)` hands out, in pieces.
    var stdin = Data()
    /// The most bytes one `readInput(upTo:)` returns: small, so lines arrive cut across reads.
    var piece = 7
    /// Everything written to standard output.
    var stdout = ""
    /// Everything written to standard error.
    var stderr = ""

    mutating func out(_ text: String) { stdout += text }
    mutating func err(_ text: String) { stderr += text }
    mutating func readInput(upTo maximumCount: Int) -> Data? {
        let taken = stdin.prefix(min(maximumCount, piece))
        stdin.removeFirst(taken.count)
        return Data(taken)
    }
}

/// What one run of the tool produced.
struct RunResult: CustomStringConvertible {
    /// The exit status.
    let status: Int32
    /// Standard output.
    let stdout: String
    /// Standard error.
    let stderr: String

    var description: String { "exit \(status)\n--- stdout:\n\(stdout)--- stderr:\n\(stderr)" }
}

/// Runs `stubs` with `arguments` in-process, `stdin` as its standard input.
func runStubs(_ arguments: [String], stdin: Data = Data()) -> RunResult {
    var io = CapturingIO(stdin: stdin)
    let status = StubsCommand.run(arguments, io: &io)
    return RunResult(status: status, stdout: io.stdout, stderr: io.stderr)
}

/// Parses each line of `stdout` (which must end with a newline) as a JSON object.
private func jsonLines(_ stdout: String) throws -> [JSONObject] {
    #expect(stdout.isEmpty || stdout.hasSuffix("\n"), "the output must end with a newline")
    return try stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map { line in
        let value = try JSONValue(parsing: String(line))
        return try #require(value.objectValue, "not a JSON object: \(line)")
    }
}

/// A unique temporary folder; ``remove()`` deletes it.
private struct TemporaryFolder {
    /// The folder.
    let url: URL

    /// Creates an empty folder.
    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("stubs-cli-\(UUID().uuidString)")
            .resolvingSymlinksInPath()
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// Deletes the folder and everything in it.
    func remove() {
        try? FileManager.default.removeItem(at: url)
    }

    /// Writes `text` to `relativePath`, creating folders, and returns the file's URL.
    @discardableResult
    func write(_ relativePath: String, _ text: String) throws -> URL {
        try write(relativePath, Data(text.utf8))
    }

    /// Writes `data` to `relativePath`, creating folders, and returns the file's URL.
    @discardableResult
    func write(_ relativePath: String, _ data: Data) throws -> URL {
        let file = url.appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: file)
        return file
    }

    /// The regular files under `relativePath`, as sorted paths relative to it.
    func files(under relativePath: String) throws -> [String] {
        try contents(under: relativePath).keys.sorted()
    }

    /// The regular files under `relativePath` and their contents, keyed by path relative to it.
    func contents(under relativePath: String) throws -> [String: Data] {
        let folder = url.appendingPathComponent(relativePath)
        var contents: [String: Data] = [:]
        for case let path as String in FileManager.default.enumerator(atPath: folder.path)?.allObjects ?? [] {
            var isDirectory: ObjCBool = false
            let file = folder.appendingPathComponent(path)
            if FileManager.default.fileExists(atPath: file.path, isDirectory: &isDirectory), !isDirectory.boolValue {
                contents[path] = try Data(contentsOf: file)
            }
        }
        return contents
    }
}

/// A small WireMock stub root (`root/mappings/*.json` + `root/__files/`) and a HAR capture beside
/// it, `poll.har`, that answers a repeated request with a sequence.
///
/// The root holds 10 stubs in 5 files:
/// - `a-users.json`: `GET /users`, priority 1, named "list users", JSON body with two headers;
/// - `b-create.json`: `POST /users` with `X-Token: secret`, `201` with a `Location` header;
/// - `c-offline.json`: `GET /offline`, fault `CONNECTION_RESET_BY_PEER` (URLError -1005);
/// - `d-binary.json`: `GET /logo.png`, a body that is not UTF-8 (from `__files/logo.png`), and
///   `PUT /upload` with `binaryEqualTo` those bytes, answering `204`;
/// - `e-cart.json`: scenario "cart": `POST /cart` moves `Started` → `filled`; `GET /cart`
///   answers "empty" when started, "1 item" when filled; plus two unrelated stubs.
private struct StubRootFixture {
    /// The PNG-like bytes of the binary body; `0x89` and `0xFF` make them invalid UTF-8.
    static let logoBytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0xFF, 0xFE]

    /// The folder holding `root/` and `poll.har`.
    let folder: TemporaryFolder
    /// The stub root.
    let root: URL
    /// The HAR capture with the sequence.
    let pollHAR: URL

    /// Writes the fixture into `folder`.
    init(in folder: TemporaryFolder) throws {
        self.folder = folder
        root = folder.url.appendingPathComponent("root")
        let logo = Data(Self.logoBytes).base64EncodedString()
        try folder.write(
            "root/mappings/a-users.json",
            """
            {
              "name": "list users",
              "priority": 1,
              "request": {"method": "GET", "urlPath": "/users"},
              "response": {
                "status": 200,
                "headers": {"Content-Type": "application/json", "X-Page": "1"},
                "body": "[{\\"id\\":1,\\"name\\":\\"Ada\\"}]"
              }
            }
            """
        )
        try folder.write(
            "root/mappings/b-create.json",
            """
            {
              "request": {
                "method": "POST",
                "url": "/users",
                "headers": {"X-Token": {"equalTo": "secret"}}
              },
              "response": {
                "status": 201,
                "headers": {"Location": "/users/2"},
                "jsonBody": {"id": 2, "name": "Grace"}
              }
            }
            """
        )
        try folder.write(
            "root/mappings/c-offline.json",
            """
            {
              "request": {"method": "GET", "url": "/offline"},
              "response": {"fault": "CONNECTION_RESET_BY_PEER"}
            }
            """
        )
        try folder.write("root/__files/logo.png", Data(Self.logoBytes))
        try folder.write(
            "root/mappings/d-binary.json",
            """
            {"mappings": [
              {
                "request": {"method": "GET", "url": "/logo.png"},
                "response": {"status": 200, "headers": {"Content-Type": "image/png"}, "bodyFileName": "logo.png"}
              },
              {
                "request": {"method": "PUT", "url": "/upload", "bodyPatterns": [{"binaryEqualTo": "\(logo)"}]},
                "response": {"status": 204}
              }
            ]}
            """
        )
        try folder.write(
            "root/mappings/e-cart.json",
            """
            {"mappings": [
              {
                "scenarioName": "cart", "requiredScenarioState": "Started", "newScenarioState": "filled",
                "request": {"method": "POST", "url": "/cart"},
                "response": {"status": 201, "body": "added"}
              },
              {
                "scenarioName": "cart", "requiredScenarioState": "filled",
                "request": {"method": "GET", "url": "/cart"},
                "response": {"status": 200, "body": "1 item"}
              },
              {
                "scenarioName": "cart", "requiredScenarioState": "Started",
                "request": {"method": "GET", "url": "/cart"},
                "response": {"status": 200, "body": "empty"}
              },
              {
                "request": {"method": "GET", "url": "/health"},
                "response": {"status": 200, "body": "ok"}
              },
              {
                "request": {"method": "PATCH", "urlPathPattern": "/users/[0-9]+"},
                "response": {"status": 200}
              }
            ]}
            """
        )
        pollHAR = try folder.write(
            "poll.har",
            """
            {"log": {"version": "1.2", "creator": {"name": "test", "version": "1"}, "entries": [
              \(Self.harEntry(at: "2024-01-01T00:00:00.000Z", status: 202, body: #"{"state":"pending"}"#)),
              \(Self.harEntry(at: "2024-01-01T00:00:01.000Z", status: 200, body: #"{"state":"done"}"#))
            ]}}
            """
        )
    }

    /// The path of the mapping file `name` in the root, as the loader reports it.
    func mapping(_ name: String) -> String {
        root.appendingPathComponent("mappings").appendingPathComponent(name).path
    }

    /// A HAR entry for `GET https://api.example.com/poll` answered with `status` and a JSON `body`.
    private static func harEntry(at time: String, status: Int, body: String) -> String {
        let escaped = body.replacingOccurrences(of: "\"", with: "\\\"")
        return """
            {"startedDateTime": "\(time)", "time": 1,
               "request": {"method": "GET", "url": "https://api.example.com/poll", "httpVersion": "HTTP/1.1",
                           "cookies": [], "headers": [], "queryString": [], "headersSize": -1, "bodySize": 0},
               "response": {"status": \(status), "statusText": "", "httpVersion": "HTTP/1.1", "cookies": [],
                            "headers": [{"name": "Content-Type", "value": "application/json"}],
                            "content": {"size": \(body.utf8.count), "mimeType": "application/json", "text": "\(escaped)"},
                            "redirectURL": "", "headersSize": -1, "bodySize": \(body.utf8.count)},
               "cache": {}, "timings": {"send": 0, "wait": 1, "receive": 0}}
            """
    }
}
