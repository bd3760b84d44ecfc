import Foundation
import Testing

@testable import HTTPStubs
@testable import HTTPStubsFiles
@testable import HTTPStubsLanguages
@testable import HTTPStubsTemplates

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Stub files that cannot be loaded: every error is located like a compiler diagnostic
/// (`path:line:column: error: $.json.path: message`) and says how to fix it; warnings are located
/// the same way; one bad file never hides another file's diagnostics; and `StubRegistry.load`
/// adds nothing when any file has an error.
@Suite("Stub file errors")
struct StubFileErrorTests {
    // MARK: JSON

    @Test("invalid JSON is reported at its line, column and JSON path")
    func invalidJSON() throws {
        let text = "{\n  \"request\": {\"url\": \"/a\"},\n  \"response\": {\"status\": 200,}\n}\n"
        let checked = try Checked(text)
        let error = try checked.onlyError()
        #expect(error.jsonPath == "$.response", "the object whose member list is broken")
        #expect(error.source.line == 3, "\(error)")
        #expect(error.source.column != nil)
        #expect(
            error.description.hasPrefix(
                "\(checked.file):3:\(error.source.column ?? 0): error: $.response: invalid JSON"
            ),
            "\(error)"
        )
        #expect(checked.load.stubs.isEmpty)
    }

    @Test("an empty file and a truncated file are invalid JSON")
    func truncatedJSON() throws {
        for text in ["", "{\"request\": {\"url\": \"/a\"}"] {
            let error = try Checked(text).onlyError()
            #expect(error.message.hasPrefix("invalid JSON"), "\(error)")
            #expect(error.source.line != nil)
        }
    }

    @Test("a duplicate key is a warning at the second key; the last value wins")
    func duplicateKeys() throws {
        let text = """
            {
              "request": {"url": "/first", "url": "/second"},
              "response": {"status": 200}
            }
            """
        let checked = try Checked(text)
        #expect(checked.load.errors.isEmpty)
        let warning = try #require(checked.load.warnings.first)
        #expect(checked.load.warnings.count == 1)
        let (line, column) = sourcePosition(of: #""url": "/second""#, in: text)
        #expect(
            warning.description.hasPrefix("\(checked.file):\(line):\(column): warning: $.request.url: "),
            "\(warning)"
        )
        #expect(warning.message.contains("more than once"))
        let registry = StubRegistry()
        registry.onDiagnostic { _ in }
        try registry.load(checked.root.path)
        if case .response = registry.answer(InterceptedRequest(url: URL(string: "http://h/second")!)) {
        } else {
            Issue.record("the last value should win")
        }
    }

    // MARK: Operators

    @Test(
        "unsupported WireMock operators are errors that name the operator",
        arguments: [
            #"{"lessThanNumber": 5}"#,
            #"{"equalToNumber": 5}"#,
            #"{"equalToNumber": 5}"#,
            #"{"greaterThanNumber": 5}"#,
            #"{"matchesPathTemplate": "/users/{id}"}"#,
        ]
    )
    func unsupportedOperators(matcher: String) throws {
        let name = String(matcher.dropFirst(2).prefix { $0 != "\"" })
        let text = """
            {
              "request": {
                "headers": {"X-When": \(matcher)}
              },
              "response": {"status": 200}
            }
            """
        let checked = try Checked(text)
        let error = try checked.expectError(
            at: "$.request.headers['X-When'].\(name)",
            value: "\"\(name)\": ",
            skipKey: true
        )
        #expect(error.message.contains("'\(name)'"), "\(error)")
        #expect(error.message.contains("not supported"))
        #expect(error.message.contains("use another operator"), "says what to do instead")
    }

    @Test("an unknown operator is an error that lists the known ones")
    func unknownOperator() throws {
        let text = #"{"request": {"queryParameters": {"q": {"equalsTo": "x"}}}, "response": {}}"#
        let error = try Checked(text).expectError(
            at: "$.request.queryParameters.q.equalsTo",
            value: #""equalsTo": "#,
            skipKey: true
        )
        #expect(error.message.contains("unknown operator 'equalsTo'"))
        #expect(error.message.contains("equalTo"))
    }

    @Test("a matcher with no operator is an error; one with two uses the first, as WireMock does, with a warning")
    func operatorCount() throws {
        let two = #"{"request": {"headers": {"X": {"equalTo": "a", "contains": "b"}}}, "response": {}}"#
        let checked = try Checked(two)
        #expect(checked.load.errors.isEmpty && checked.load.stubs.count == 1)
        let warning = try #require(checked.load.warnings.first)
        #expect(warning.jsonPath == "$.request.headers.X")
        #expect(
            warning.message.contains(
                "more than one operator (equalTo, contains): WireMock uses the first, 'equalTo', and ignores the others"
            )
        )
        #expect(warning.message.contains("\"and\" or \"or\""), "says how to combine them")
        #expect(
            checked.load.stubs.first?.pattern.matches(
                InterceptedRequest(url: URL(string: "https://h/")!, headers: ["X": "a"])
            ) == true
        )
        #expect(
            checked.load.stubs.first?.pattern.matches(
                InterceptedRequest(url: URL(string: "https://h/")!, headers: ["X": "b"])
            ) == false
        )

        let none = #"{"request": {"headers": {"X": {"caseInsensitive": true}}}, "response": {}}"#
        let missing = try Checked(none).expectError(at: "$.request.headers.X", value: #"{"caseInsensitive""#)
        #expect(missing.message.contains("no operator"))
    }

    @Test("hasExactly outside headers, query and form parameters is an error")
    func multiValueOperatorMisplaced() throws {
        let text = #"{"request": {"bodyPatterns": [{"hasExactly": [{"equalTo": "a"}]}]}, "response": {}}"#
        let error = try Checked(text).expectError(at: "$.request.bodyPatterns[0].hasExactly", value: #"[{"equalTo""#)
        #expect(error.message.contains("only to headers, query parameters and form parameters"))
    }

    @Test("equalToJson holding a string that is not JSON, and equalToXml that is not well-formed")
    func malformedOperands() throws {
        let json = #"{"request": {"bodyPatterns": [{"equalToJson": "{\"a\": }"}]}, "response": {}}"#
        let jsonError = try Checked(json).expectError(
            at: "$.request.bodyPatterns[0].equalToJson",
            value: #""{\"a\": }""#
        )
        #expect(jsonError.message.contains("not JSON"))

        let xml = #"{"request": {"bodyPatterns": [{"equalToXml": "<a><b></a>"}]}, "response": {}}"#
        let xmlError = try Checked(xml).expectError(at: "$.request.bodyPatterns[0].equalToXml", value: #""<a><b></a>""#)
        #expect(xmlError.message.contains("invalid XML"))
    }

    @Test("invalid JSONPath and XPath expressions name the expression")
    func badExpressions() throws {
        let jsonPath = #"{"request": {"bodyPatterns": [{"matchesJsonPath": "$.a[?(@.b =="}]}, "response": {}}"#
        let jsonPathError = try Checked(jsonPath).expectError(
            at: "$.request.bodyPatterns[0].matchesJsonPath",
            value: #""$.a[?(@.b ==""#
        )
        #expect(jsonPathError.message.contains("$.a[?(@.b =="))

        let xPath = #"{"request": {"bodyPatterns": [{"matchesXPath": "//a[@"}]}, "response": {}}"#
        let xPathError = try Checked(xPath).expectError(
            at: "$.request.bodyPatterns[0].matchesXPath",
            value: #""//a[@""#
        )
        #expect(xPathError.message.contains("//a[@"))
    }

    // MARK: Types

    @Test("wrong types: method a number, status a word, headers not an object, bodyPatterns not an array")
    func wrongTypes() throws {
        let method = try Checked(#"{"request": {"method": 5}, "response": {}}"#).expectError(
            at: "$.request.method",
            value: "5"
        )
        #expect(method.message.contains("'method' must be a string, found the number 5"))

        let status = try Checked(#"{"request": {}, "response": {"status": "two hundred"}}"#).expectError(
            at: "$.response.status",
            value: #""two hundred""#
        )
        #expect(status.message.contains("'status' must be an integer"))

        let responseHeaders = try Checked(#"{"request": {}, "response": {"headers": ["X: 1"]}}"#).expectError(
            at: "$.response.headers",
            value: #"["X: 1"]"#
        )
        #expect(responseHeaders.message.contains("must be a JSON object, found an array"))

        let requestHeaders = try Checked(#"{"request": {"headers": "X: 1"}, "response": {}}"#).expectError(
            at: "$.request.headers",
            value: #""X: 1""#
        )
        #expect(requestHeaders.message.contains("must be a JSON object"))

        let headerValue = try Checked(#"{"request": {}, "response": {"headers": {"X": {"a": 1}}}}"#).expectError(
            at: "$.response.headers.X",
            value: #"{"a": 1}"#
        )
        #expect(headerValue.message.contains("a header value must be a string or an array of strings"))

        let body = try Checked(#"{"request": {"bodyPatterns": {"contains": "a"}}, "response": {}}"#).expectError(
            at: "$.request.bodyPatterns",
            value: #"{"contains""#
        )
        #expect(body.message.contains("'bodyPatterns' must be an array"))

        let responseBody = try Checked(#"{"request": {}, "response": {"body": {"a": 1}}}"#).expectError(
            at: "$.response.body",
            value: #"{"a": 1}"#
        )
        #expect(responseBody.message.contains("use 'jsonBody'"), "says what to use instead")

        let priority = try Checked(#"{"priority": "high", "request": {}, "response": {}}"#).expectError(
            at: "$.priority",
            value: #""high""#
        )
        #expect(priority.message.contains("'priority' must be an integer"))

        let mappings = try Checked(#"{"mappings": {"request": {}}}"#).expectError(
            at: "$.mappings",
            value: #"{"request""#
        )
        #expect(mappings.message.contains("'mappings' must be an array"))
    }

    @Test("a stub mapping that is not an object, inside a mappings file, is located by its index")
    func mappingNotAnObject() throws {
        let text = #"{"mappings": [{"request": {"url": "/ok"}, "response": {}}, "oops"]}"#
        let checked = try Checked(text)
        let error = try checked.expectError(at: "$.mappings[1]", value: #""oops""#, loadsNothing: false)
        #expect(error.message.contains("must be a JSON object"))
        #expect(checked.load.stubs.count == 1, "the good entry of the file still loads")
    }

    // MARK: Patterns

    @Test(
        "a regular expression that does not compile is an error naming the pattern",
        arguments: [
            (#"{"urlPattern": "/a[("}"#, "$.request.urlPattern", #""/a[(""#, "'/a[('"),
            (#"{"urlPathPattern": "/b("}"#, "$.request.urlPathPattern", #""/b(""#, "'/b('"),
            (#"{"headers": {"X": {"matches": "a)"}}}"#, "$.request.headers.X.matches", #""a)""#, "'a)'"),
            (
                #"{"queryParameters": {"q": {"doesNotMatch": "[z"}}}"#, "$.request.queryParameters.q.doesNotMatch",
                #""[z""#, "'[z'"
            ),
        ]
    )
    func badRegex(request: String, jsonPath: String, value: String, named: String) throws {
        let error = try Checked(#"{"request": \#(request), "response": {}}"#).expectError(at: jsonPath, value: value)
        #expect(error.message.contains("invalid regular expression \(named)"), "\(error)")
        #expect(error.message.contains("escape"), "says how to fix it")
    }

    @Test("a urlPathTemplate that does not parse, and pathParameters naming a missing variable")
    func badTemplates() throws {
        let unclosed = try Checked(#"{"request": {"urlPathTemplate": "/users/{id"}, "response": {}}"#).expectError(
            at: "$.request.urlPathTemplate",
            value: #""/users/{id""#
        )
        #expect(unclosed.message.contains("'{' that is never closed"))

        let twice = try Checked(#"{"request": {"urlPathTemplate": "/a/{id}/{id}"}, "response": {}}"#).expectError(
            at: "$.request.urlPathTemplate",
            value: #""/a/{id}/{id}""#
        )
        #expect(twice.message.contains("twice"))

        let text =
            #"{"request": {"urlPathTemplate": "/users/{id}", "pathParameters": {"userId": {"equalTo": "1"}}}, "response": {}}"#
        let missing = try Checked(text).expectError(at: "$.request.pathParameters.userId", value: #"{"equalTo": "1"}"#)
        #expect(missing.message.contains("'userId' is not a variable of the template"))
        #expect(missing.message.contains("its variables: id"))
    }

    @Test(
        "customMatcher and proxyBaseUrl are errors that load the stub, as WireMock does: it never matches, or answers 500"
    )
    func unsupportedFeatures() throws {
        let customFile = try Checked(
            #"{"request": {"customMatcher": {"name": "x", "parameters": {}}}, "response": {}}"#
        )
        let custom = try customFile.expectError(
            at: "$.request.customMatcher",
            value: #"{"name": "x""#,
            loadsNothing: false
        )
        #expect(custom.message.contains("'customMatcher' \"x\" refers to a Java extension"))
        #expect(custom.message.contains("the stub loads and never matches"))
        #expect(custom.message.contains("replace it with built-in matchers"))
        #expect(customFile.load.refusals.isEmpty)
        #expect(
            customFile.load.stubs.first?.pattern.matches(InterceptedRequest(url: URL(string: "https://h/")!)) == false
        )

        let proxyFile = try Checked(#"{"request": {}, "response": {"proxyBaseUrl": "https://example.com"}}"#)
        let proxy = try proxyFile.expectError(
            at: "$.response.proxyBaseUrl",
            value: #""https://example.com""#,
            loadsNothing: false
        )
        #expect(proxy.message.contains("proxying"))
        #expect(proxy.message.contains("answers its requests with status 500"))
        #expect(proxy.message.contains("record"))
        #expect(proxyFile.load.refusals.isEmpty && proxyFile.load.stubs.count == 1)
    }

    // MARK: Responses

    @Test("an unknown fault lists the four faults")
    func unknownFault() throws {
        let error = try Checked(#"{"request": {}, "response": {"fault": "TIMEOUT"}}"#).expectError(
            at: "$.response.fault",
            value: #""TIMEOUT""#
        )
        for fault in [
            "EMPTY_RESPONSE", "MALFORMED_RESPONSE_CHUNK", "RANDOM_DATA_THEN_CLOSE", "CONNECTION_RESET_BY_PEER",
            "TIMEOUT",
        ] {
            #expect(error.message.contains(fault), "\(error)")
        }
    }

    @Test("base64Body that is not base64 is an error", arguments: ["***", "YWJj ZA", "YWJjZA="])
    func badBase64(text: String) throws {
        let error = try Checked(#"{"request": {}, "response": {"base64Body": "\#(text)"}}"#).expectError(
            at: "$.response.base64Body",
            value: "\"\(text)\""
        )
        #expect(error.message.contains("'base64Body' must be base64 text"))
    }

    @Test(
        "base64Body with characters outside the base64 alphabet is an error, as WireMock rejects it",
        arguments: ["Zm9v!YmFy", "Zm9v YmFy", "Zm9v\\nYmFy"]
    )
    func base64WithForeignCharacters(text: String) throws {
        let error = try Checked(#"{"request": {}, "response": {"base64Body": "\#(text)"}}"#).expectError(
            at: "$.response.base64Body",
            value: "\"\(text)\""
        )
        #expect(error.message.contains("'base64Body' must be base64 text"))
    }

    @Test("a swiftHTTPStubs object without a urlError is an error, not a stub that silently disappears")
    func extensionWithoutURLError() throws {
        for (response, value) in [
            (#"{"swiftHTTPStubs": {}}"#, "{}"), (#"{"swiftHTTPStubs": {"urlErorr": "timedOut"}}"#, #"{"urlErorr""#),
        ] {
            let checked = try Checked(#"{"request": {"url": "/a"}, "response": \#(response)}"#)
            let error = try checked.expectError(at: "$.response.swiftHTTPStubs", value: value)
            #expect(error.message.contains("needs \"urlError\""), "\(error)")
            #expect(checked.load.stubs.isEmpty)
        }
    }

    @Test("an unknown urlError name or delay distribution is an error that says what is allowed")
    func badExtensions() throws {
        let urlError = try Checked(#"{"request": {}, "response": {"swiftHTTPStubs": {"urlError": "offline"}}}"#)
            .expectError(at: "$.response.swiftHTTPStubs.urlError", value: #""offline""#)
        #expect(urlError.message.contains("notConnectedToInternet"))

        let delay = try Checked(#"{"request": {}, "response": {"delayDistribution": {"type": "gaussian"}}}"#)
            .expectError(at: "$.response.delayDistribution", value: #"{"type""#)
        #expect(delay.message.contains("\"fixed\", \"uniform\" or \"lognormal\""))

        let uniform = try Checked(
            #"{"request": {}, "response": {"delayDistribution": {"type": "uniform", "lower": 10}}}"#
        ).expectError(at: "$.response.delayDistribution", value: #"{"type""#)
        #expect(uniform.message.contains("\"upper\""))
    }

    // MARK: Body files

    @Test(
        "a bodyFileName with '..' is refused; a missing file (a leading '/' is read inside __files) is an error that loads the stub"
    )
    func bodyFileNames() throws {
        let outside = FileManager.default.temporaryDirectory.appendingPathComponent("outside-\(UUID().uuidString).txt")
        try Data("secret".utf8).write(to: outside)
        defer { try? FileManager.default.removeItem(at: outside) }

        for name in ["../mappings/x.json", "a/../../secret.txt"] {
            let checked = try Checked(#"{"request": {}, "response": {"bodyFileName": "\#(name)"}}"#)
            let error = try checked.expectError(at: "$.response.bodyFileName", value: "\"\(name)\"")
            #expect(error.message.contains("'..' is refused"), "\(name): \(error)")
            #expect(error.message.contains(checked.root.path("__files")), "names the __files folder: \(error)")
        }
        // Missing, including an absolute path read inside __files: the stub loads and answers 500.
        for name in [outside.path, "missing.json"] {
            let checked = try Checked(#"{"request": {}, "response": {"bodyFileName": "\#(name)"}}"#)
            let error = try checked.expectError(
                at: "$.response.bodyFileName",
                value: "\"\(name)\"",
                loadsNothing: false
            )
            #expect(
                error.message.contains(
                    "does not exist in \(checked.root.path("__files")); the stub loads, and answers its requests with status 500"
                ),
                "\(name): \(error)"
            )
            #expect(checked.load.stubs.count == 1)
            #expect(checked.load.refusals.isEmpty)
        }
    }

    @Test(
        "a bodyFileName with backslashes or a control character is refused with a message that says so, the character escaped"
    )
    func bodyFileNamesWithBackslashesOrControlCharacters() throws {
        for (json, shown, needle) in [
            (#"..\\..\\etc\\passwd"#, #""..\\..\\etc\\passwd""#, "uses '\\', which is not a path separator here"),
            (#"a\u0000b.txt"#, #""a\u{0}b.txt""#, "contains a control character"),
            (#"\u001b[31mred.txt"#, #""\u{1B}[31mred.txt""#, "contains a control character"),
        ] {
            let checked = try Checked(#"{"request": {}, "response": {"bodyFileName": "\#(json)"}}"#)
            let error = try checked.expectError(at: "$.response.bodyFileName", value: "\"\(json)\"")
            #expect(error.message.hasPrefix("'bodyFileName' \(shown) "), "\(json): \(error.message)")
            #expect(error.message.contains(needle), "\(json): \(error.message)")
            #expect(
                !error.message.unicodeScalars.contains { $0.properties.generalCategory == .control },
                "no raw control character: \(error.message)"
            )
        }
    }

    @Test("a body file that is a symbolic link leading outside __files is refused; one inside is served")
    func symlinks() throws {
        let outside = FileManager.default.temporaryDirectory.appendingPathComponent("outside-\(UUID().uuidString).txt")
        try Data("secret".utf8).write(to: outside)
        defer { try? FileManager.default.removeItem(at: outside) }

        let root = try TemporaryStubRoot(
            mappings: [
                "escape.json": #"{"request": {"url": "/escape"}, "response": {"bodyFileName": "link.txt"}}"#,
                "folder.json":
                    #"{"request": {"url": "/folder"}, "response": {"bodyFileName": "up/\#(outside.lastPathComponent)"}}"#,
                "inside.json": #"{"request": {"url": "/inside"}, "response": {"bodyFileName": "alias.txt"}}"#,
            ],
            files: ["real.txt": Data("public".utf8)]
        )
        try FileManager.default.createSymbolicLink(
            atPath: root.path("__files/link.txt"),
            withDestinationPath: outside.path
        )
        try FileManager.default.createSymbolicLink(
            atPath: root.path("__files/up"),
            withDestinationPath: outside.deletingLastPathComponent().path
        )
        try FileManager.default.createSymbolicLink(
            atPath: root.path("__files/alias.txt"),
            withDestinationPath: root.path("__files/real.txt")
        )

        let load = root.load()
        #expect(load.errors.count == 2, "\(load.errors)")
        for file in ["escape.json", "folder.json"] {
            let error = load.errors.first { $0.source.file == root.path("mappings/\(file)") }
            #expect(error?.jsonPath == "$.response.bodyFileName", "\(file)")
            #expect(error?.message.contains("symbolic link") == true, "\(file): \(String(describing: error))")
        }
        #expect(load.stubs.count == 1)
        guard let stub = load.stubs.first else { return }
        let registry = StubRegistry()
        registry.add(stub)
        guard case let .response(answer, _) = registry.answer(InterceptedRequest(url: URL(string: "http://h/inside")!))
        else {
            Issue.record("/inside was not answered")
            return
        }
        #expect(answer.body == Data("public".utf8))
    }

    @Test("a body file, or a folder on its path, swapped for a symbolic link after the stub was loaded is not served")
    func bodyFileSwappedForALinkAfterLoad() async throws {
        let outside = FileManager.default.temporaryDirectory.appendingPathComponent("outside-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try Data("SECRET".utf8).write(to: outside.appendingPathComponent("body.txt"))
        defer { try? FileManager.default.removeItem(at: outside) }
        let root = try TemporaryStubRoot(
            mappings: [
                "file.json": #"{"request": {"url": "/file"}, "response": {"bodyFileName": "body.txt"}}"#,
                "folder.json": #"{"request": {"url": "/folder"}, "response": {"bodyFileName": "sub/body.txt"}}"#,
            ],
            files: ["body.txt": Data("public".utf8), "sub/body.txt": Data("public".utf8)]
        )
        let registry = StubRegistry()
        registry.add(contentsOf: root.load().stubs)
        #expect(registry.stubs.count == 2)

        try FileManager.default.removeItem(atPath: root.path("__files/body.txt"))
        try FileManager.default.createSymbolicLink(
            atPath: root.path("__files/body.txt"),
            withDestinationPath: outside.appendingPathComponent("body.txt").path
        )
        try FileManager.default.removeItem(atPath: root.path("__files/sub"))
        try FileManager.default.createSymbolicLink(atPath: root.path("__files/sub"), withDestinationPath: outside.path)

        for (path, reason) in [
            ("/file", "it has become a symbolic link"), ("/folder", "a folder on its path has become a symbolic link"),
        ] {
            let completion = await complete(registry.makeSession(), "https://api.example.com\(path)")
            #expect(completion.text != "SECRET", "\(path): served the file outside the root")
            #expect(completion.urlError?.code == .fileDoesNotExist, "\(path): \(String(describing: completion.error))")
            #expect(
                completion.urlError?.localizedDescription.contains(reason) == true,
                "\(path): \(completion.urlError?.localizedDescription ?? "")"
            )
        }
    }

    // MARK: Files and paths

    @Test("a JSON file that is neither a mapping, a mappings file nor a HAR is an error at $")
    func neitherMappingNorHAR() throws {
        let checked = try Checked(#"{"url": "/a", "status": 200}"#)
        let error = try checked.onlyError()
        #expect(
            error.description.hasPrefix("\(checked.file):1:1: error: $: this file is neither a WireMock stub mapping"),
            "\(error)"
        )
        #expect(error.message.contains("\"mappings\"") && error.message.contains("\"log\""))

        let array = try Checked("[1, 2]").onlyError()
        #expect(array.jsonPath == "$")
        #expect(array.message.contains("must be a JSON object, found an array"))
    }

    @Test("a missing path is an error naming it and saying what to give instead")
    func missingPath() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-stubs-\(UUID().uuidString)")
            .path
        let load = StubFiles.load([path])
        let error = try #require(load.errors.first)
        #expect(load.errors.count == 1)
        #expect(error.source.file == path)
        #expect(error.description.hasPrefix("\(path): error: no such file or directory"))
        #expect(error.message.contains("stub root"))
    }

    @Test("an empty mappings folder is a warning, not an error")
    func emptyRoot() throws {
        let root = try TemporaryStubRoot()
        let load = root.load()
        #expect(load.errors.isEmpty)
        #expect(load.warnings.count == 1)
        #expect(load.warnings.first?.message.contains("no .json or .har files found") == true)
    }

    // MARK: Loading several files

    @Test("a bad file never hides the diagnostics of the other files, errors and warnings alike")
    func diagnosticsOfEveryFile() throws {
        let root = try TemporaryStubRoot(mappings: [
            "a-invalid.json": "{\"request\": ",
            "b-warning.json": #"{"request": {"url": "/b"}, "respons": {}}"#,
            "c-error.json": #"{"request": {"method": 1}, "response": {"fault": "NOPE"}}"#,
            "d-good.json": #"{"request": {"url": "/d"}, "response": {"body": "d"}}"#,
            "e-mixed.json":
                #"{"mappings": [{"request": {"url": "/e1"}, "response": {}}, {"request": {"urlPattern": "("}, "response": {}}]}"#,
        ])
        let load = root.load()
        let byFile = Dictionary(grouping: load.diagnostics) { ($0.source.file as NSString).lastPathComponent }
        #expect(byFile["a-invalid.json"]?.map(\.severity) == [.error])
        #expect(byFile["b-warning.json"]?.map(\.severity).contains(.warning) == true)
        #expect(byFile["b-warning.json"]?.contains { $0.message.contains("unknown key 'respons'") } == true)
        #expect(
            byFile["c-error.json"]?.filter { $0.severity == .error }.count == 2,
            "both errors of one file: \(byFile["c-error.json"] ?? [])"
        )
        #expect(byFile["d-good.json"] == nil)
        #expect(byFile["e-mixed.json"]?.map(\.jsonPath) == ["$.mappings[1].request.urlPattern"])
        #expect(
            Set(load.stubs.compactMap { $0.source.file.split(separator: "/").last.map(String.init) }) == [
                "b-warning.json", "d-good.json", "e-mixed.json",
            ]
        )
        #expect(load.files.count == 5)
        #expect(
            load.diagnostics.allSatisfy { $0.source.line != nil && $0.source.column != nil },
            "every diagnostic is located"
        )
    }

    @Test("StubRegistry.load throws every diagnostic and adds nothing when any file has an error")
    func registryLoadIsAllOrNothing() throws {
        let good = try TemporaryStubRoot(mappings: [
            "good.json": #"{"request": {"url": "/good"}, "response": {"body": "g"}, "comment": "x"}"#
        ])
        let bad = try TemporaryStubRoot(mappings: [
            "bad.json": #"{"request": {"url": "/bad"}, "response": {"status": "x"}}"#
        ])
        let registry = StubRegistry()
        let issues = DiagnosticLog()
        registry.onDiagnostic { issues.append($0) }
        registry.stub(.get("http://h/existing"), .text("kept"))

        let error = #expect(throws: StubFileError.self) { try registry.load(good.path, bad.path) }
        let diagnostics = error?.diagnostics ?? []
        #expect(diagnostics.count == 2, "\(diagnostics)")
        #expect(diagnostics.contains { $0.severity == .warning && $0.source.file == good.path("mappings/good.json") })
        #expect(
            diagnostics.contains {
                $0.severity == .error && $0.source.file == bad.path("mappings/bad.json")
                    && $0.jsonPath == "$.response.status"
            }
        )
        #expect(error?.description.split(separator: "\n").count == 2)
        #expect(error?.description.contains("\(bad.path("mappings/bad.json")):1:") == true)
        #expect(registry.stubs.count == 1, "only the stub that was there before")
        #expect(issues.all.isEmpty, "a failed load reports nothing through onDiagnostic")

        let ids = try registry.load(good.path)
        #expect(ids.count == 1)
        #expect(registry.stubs.count == 2)
        let warning = try #require(issues.all.first)
        #expect(issues.all.count == 1)
        #expect(warning.message.contains("unknown key 'comment'"))
        #expect(warning.source.file == good.path("mappings/good.json"))
        #expect(warning.source.line == 1 && warning.source.column != nil)
    }
}

// MARK: - Helpers

/// One mapping file, `mappings/x.json` in a fresh stub root, and what loading the root found.
private struct Checked {
    let root: TemporaryStubRoot
    let text: String
    let load: StubFileLoad

    /// The mapping file's path, as diagnostics spell it.
    var file: String { root.path("mappings/x.json") }

    /// Writes `text` as `mappings/x.json` and loads the root.
    init(_ text: String) throws {
        self.text = text
        root = try TemporaryStubRoot(mappings: ["x.json": text])
        load = root.load()
    }

    /// The one error, or a recorded issue when there is not exactly one.
    func onlyError(sourceLocation: SourceLocation = #_sourceLocation) throws -> StubDiagnostic {
        #expect(load.errors.count == 1, "\(load.diagnostics.map(\.description))", sourceLocation: sourceLocation)
        return try #require(load.errors.first, sourceLocation: sourceLocation)
    }

    /// Checks that the one error is at `jsonPath`, located at the first occurrence of `value` in
    /// the file (after it, when `skipKey` says `value` is the key and its colon), in the format
    /// `path:line:column: error: $.json.path: message`, and (when `loadsNothing`) that no stub
    /// loaded; returns it.
    @discardableResult
    func expectError(
        at jsonPath: String,
        value: String,
        skipKey: Bool = false,
        loadsNothing: Bool = true,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> StubDiagnostic {
        let error = try onlyError(sourceLocation: sourceLocation)
        var (line, column) = sourcePosition(of: value, in: text)
        if skipKey { column += value.count }
        #expect(line > 0, "\(value) is not in the file", sourceLocation: sourceLocation)
        #expect(error.jsonPath == jsonPath, "\(error)", sourceLocation: sourceLocation)
        #expect(
            error.source.line == line && error.source.column == column,
            "expected \(line):\(column), got \(error)",
            sourceLocation: sourceLocation
        )
        #expect(
            error.description == "\(file):\(line):\(column): error: \(jsonPath): \(error.message)",
            sourceLocation: sourceLocation
        )
        if loadsNothing {
            #expect(load.stubs.isEmpty, "a stub with an error is not loaded", sourceLocation: sourceLocation)
        }
        return error
    }
}
