import Foundation
import Testing

@testable import HTTPStubs
@testable import HTTPStubsFiles
@testable import HTTPStubsLanguages
@testable import HTTPStubsTemplates

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// XML meant to break the process or to cost minutes: bodies nested far deeper than
/// ``XMLTree/maximumDepth`` (100,000 levels overflowed the stack when the parsed tree was freed),
/// the same in a mapping's `equalToXml` and in `formatXml`, and documents that are wide instead
/// (a million children, thousands of attributes, a huge text). Each reaches `matchesXPath`,
/// `equalToXml` and the `formatXml` and `xPath` template helpers through real URLSession
/// requests and through `stubs lint` and `stubs match`; each is answered or refused with a reason,
/// within a generous time.
@Suite("Hostile XML", .timeLimit(.minutes(10)))
struct HostileXMLTests {
    /// `<a>` nested `depth` levels.
    static func nested(_ depth: Int) -> String {
        String(repeating: "<a>", count: depth) + String(repeating: "</a>", count: depth)
    }

    /// What the near-miss report says of a body nested past the limit.
    static let tooDeep = "XML nested deeper than \(XMLTree.maximumDepth) levels"

    /// A stub root with a `matchesXPath` stub at `/xpath`, an `equalToXml` stub at `/equal` (each
    /// expecting `expected`), and `formatXml` and `xPath` templates at `/format` and `/extract`.
    static func root(expecting expected: String = nested(3)) throws -> TemporaryStubRoot {
        func mapping(_ path: String, _ bodyPattern: JSONValue) -> String {
            let request: JSONValue = ["method": "POST", "urlPath": .string(path), "bodyPatterns": [bodyPattern]]
            let mapping: JSONValue = ["request": request, "response": ["status": 200, "body": "matched"]]
            return mapping.serialized()
        }
        func template(_ path: String, _ body: String) -> String {
            let request: JSONValue = ["method": "POST", "urlPath": .string(path)]
            let response: JSONValue = ["status": 200, "body": .string(body), "transformers": ["response-template"]]
            let mapping: JSONValue = ["request": request, "response": response]
            return mapping.serialized()
        }
        return try TemporaryStubRoot(mappings: [
            "xpath.json": mapping("/xpath", ["matchesXPath": "//a"]),
            "equal.json": mapping("/equal", ["equalToXml": .string(expected)]),
            "format.json": template("/format", "{{formatXml request.body}}"),
            "extract.json": template("/extract", "[{{xPath request.body '/a/a/text()'}}]"),
        ])
    }

    /// POSTs `body` to `path` of the stubs in `root`.
    static func post(_ body: String, to path: String, _ root: TemporaryStubRoot) async throws -> Completion {
        let stubs = StubRegistry()
        _ = DiagnosticLog(stubs)  // a template's failure is reported there rather than printed
        try stubs.load(root.path)
        return await complete(stubs.makeSession(), request("POST", "https://xml.example/\(path)", body: body))
    }

    // MARK: Depth

    @Test("a body at the depth limit matches; one level deeper is refused with the reason in the near-miss report")
    func depthLimit() async throws {
        let root = try Self.root(expecting: Self.nested(XMLTree.maximumDepth))
        let deepest = Self.nested(XMLTree.maximumDepth)
        #expect(try await Self.post(deepest, to: "xpath", root).text == "matched")
        #expect(try await Self.post(deepest, to: "equal", root).text == "matched")
        #expect(try await Self.post(deepest, to: "format", root).status == 200)

        let deeper = Self.nested(XMLTree.maximumDepth + 1)
        for path in ["xpath", "equal"] {
            let completion = try await Self.post(deeper, to: path, root)
            #expect(completion.isUnmatched, "\(path): \(completion)")
            let report = completion.urlError?.localizedDescription ?? ""
            #expect(report.contains(Self.tooDeep), "\(path): \(report)")
        }
    }

    @Test(
        "a body of <a> nested 100,000 deep (0.7 MB) never ends the process: refused by every XML matcher and helper",
        .enabled(if: reliabilitySuitesEnabled, "heavy: run with HTTPSTUBS_RELIABILITY=1")
    )
    func deepBody() async throws {
        let root = try Self.root()
        let body = Self.nested(100_000)
        for path in ["xpath", "equal"] {
            let completion = try await Self.post(body, to: path, root)
            #expect(completion.isUnmatched, "\(path): \(completion)")
            #expect(completion.urlError?.localizedDescription.contains(Self.tooDeep) == true, "\(path)")
        }
        let formatted = try await Self.post(body, to: "format", root)
        #expect(formatted.status == 500, "\(formatted)")
        #expect(formatted.text?.contains("formatXml") == true && formatted.text?.contains(Self.tooDeep) == true)
        let extracted = try await Self.post(body, to: "extract", root)
        #expect(extracted.status == 200, "\(extracted)")
        #expect(extracted.text?.contains("[ERROR: \(Self.tooDeep)") == true, "\(extracted.text ?? "")")
    }

    @Test(
        "a mapping whose equalToXml is nested too deeply is a located load error",
        arguments: [XMLTree.maximumDepth + 1, 100_000]
    )
    func deepExpectedDocument(depth: Int) throws {
        guard depth <= XMLTree.maximumDepth + 1 || reliabilitySuitesEnabled else { return }
        let root = try Self.root(expecting: Self.nested(depth))
        let result = StubFiles.load([root.path])
        let error = try #require(result.errors.first, "\(result.diagnostics)")
        #expect(error.source.file == root.path("mappings/equal.json"))
        #expect(error.source.line == 1 && error.source.column != nil, "\(error)")
        #expect(error.jsonPath == "$.request.bodyPatterns[0].equalToXml")
        #expect(error.message.contains(Self.tooDeep), "\(error.message)")
        #expect(result.stubs.count == 3, "the other stubs load")
    }

    #if os(Linux) || os(macOS)
    @Test(
        "stubs lint reports a too-deep equalToXml with its place, and exits 1 instead of crashing",
        arguments: [XMLTree.maximumDepth + 1, 100_000]
    )
    func lintDeepExpectedDocument(depth: Int) async throws {
        guard depth <= XMLTree.maximumDepth + 1 || reliabilitySuitesEnabled else { return }
        let root = try Self.root(expecting: Self.nested(depth))
        let result = try await run(try builtExecutable(named: "stubs"), ["lint", root.path], within: 120)
        #expect(result.status == 1, "\(result.output)")
        #expect(result.output.contains(root.path("mappings/equal.json") + ":1:"), "\(result.output)")
        #expect(result.output.contains(Self.tooDeep), "\(result.output)")
    }

    @Test(
        "stubs match answers a too-deep body as unmatched, each XML matcher saying why",
        arguments: [XMLTree.maximumDepth + 1, 100_000]
    )
    func matchDeepBody(depth: Int) async throws {
        guard depth <= XMLTree.maximumDepth + 1 || reliabilitySuitesEnabled else { return }
        let root = try Self.root()
        let requests = FileManager.default.temporaryDirectory.appendingPathComponent("xml-\(UUID().uuidString).jsonl")
        defer { try? FileManager.default.removeItem(at: requests) }
        let lines = ["xpath", "equal"].map { path -> String in
            let line: JSONValue = [
                "method": "POST", "url": .string("https://xml.example/\(path)"), "body": .string(Self.nested(depth)),
            ]
            return line.serialized()
        }
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: requests)
        let result = try await run(
            try builtExecutable(named: "stubs"),
            ["match", "--stubs", root.path, "--requests", requests.path],
            within: 120
        )
        #expect(result.status == 1, "every request is unmatched: \(result.output.prefix(2_000))")
        let answers = result.output.split(separator: "\n").compactMap { try? JSONValue(parsing: String($0)) }
        #expect(answers.count == 2, "\(result.output.prefix(2_000))")
        for answer in answers {
            #expect(answer.objectValue?["unmatched"] == true)
            #expect(answer.serialized().contains(Self.tooDeep), "\(answer.serialized().prefix(2_000))")
        }
    }
    #endif

    @Test("formatXml and xPath name the depth limit: a 500 from formatXml, an in-band error from xPath")
    func templateHelpers() async throws {
        let root = try Self.root()
        let deeper = Self.nested(XMLTree.maximumDepth + 1)
        let formatted = try await Self.post(deeper, to: "format", root)
        #expect(formatted.status == 500, "\(formatted)")
        #expect(formatted.text?.contains("formatXml: \(Self.tooDeep)") == true, "\(formatted.text ?? "")")
        let extracted = try await Self.post(deeper, to: "extract", root)
        #expect(extracted.text?.contains("[ERROR: \(Self.tooDeep)") == true, "\(extracted.text ?? "")")
        // Below the limit both work.
        #expect(try await Self.post("<a><a>1</a></a>", to: "extract", root).text == "[1]")
        #expect(try await Self.post("<a><a>1</a></a>", to: "format", root).text == "<a>\n  <a>1</a>\n</a>\n")
    }

    // MARK: Width

    @Test("a start tag with more attributes than the limit is refused before libxml2 reads it")
    func attributeLimit() async throws {
        let root = try Self.root()
        func tag(_ count: Int) -> String {
            "<a " + (0..<count).map { "n\($0)='\($0)'" }.joined(separator: " ") + "/>"
        }
        #expect(try await Self.post(tag(XMLTree.maximumAttributes), to: "xpath", root).text == "matched")
        let refused = try await Self.post(tag(XMLTree.maximumAttributes + 1), to: "xpath", root)
        #expect(refused.isUnmatched)
        #expect(
            refused.urlError?.localizedDescription.contains("more than \(XMLTree.maximumAttributes) attributes")
                == true
        )
        // Quoted `=`, comments and CDATA do not count.
        let quoted =
            "<a x='" + String(repeating: "=", count: 5_000) + "'><!--" + String(repeating: "=", count: 5_000)
            + "--><![CDATA[" + String(repeating: "=", count: 5_000) + "]]></a>"
        #expect(try await Self.post(quoted, to: "xpath", root).text == "matched")
    }

    @Test("an XPath that would visit every node once per node is refused before libxml2 evaluates it")
    func quadraticXPath() async throws {
        let stubs = StubRegistry()
        let diagnostics = DiagnosticLog(stubs)
        let root = try TemporaryStubRoot(mappings: [
            "quadratic.json": #"{"request": {"bodyPatterns": [{"matchesXPath": "//*[count(//*) > 0]"}]}, "#
                + #""response": {"status": 200, "body": "quadratic"}}"#,
            "linear.json": #"{"request": {"bodyPatterns": [{"matchesXPath": "//b[@id = '4999']"}]}, "#
                + #""response": {"status": 200, "body": "linear"}}"#,
        ])
        try stubs.load(root.path)
        let session = stubs.makeSession()
        // The newer stub (quadratic.json loads last) is tried first: its XPath would cost more than
        // the request's budget, so the request fails naming it, before libxml2 runs it.
        let body = "<a>" + (0..<5_000).map { "<b id='\($0)'/>" }.joined() + "</a>"
        let refused = await complete(session, request("POST", "https://xml.example/", body: body))
        let error = refused.urlError?.localizedDescription ?? ""
        #expect(
            error.contains("gave up at the stub at \(root.path("mappings/quadratic.json"))"),
            "\(error.prefix(3_000))"
        )
        #expect(error.contains(#"the XPath "//*[count(//*) > 0]" on a document of"#), "\(error.prefix(3_000))")
        #expect(error.contains("spent the request's work budget"), "\(error.prefix(3_000))")
        #expect(diagnostics.all.map(\.message) == [error], "the test is told")
        // On a small document it is evaluated, and matches.
        let small = "<a><b id='1'/></a>"
        #expect(await complete(session, request("POST", "https://xml.example/", body: small)).text == "quadratic")
        // Without the quadratic stub, the linear XPath answers the large document.
        let linearOnly = StubRegistry()
        try linearOnly.load(root.path("mappings/linear.json"))
        let answer = await complete(linearOnly.makeSession(), request("POST", "https://xml.example/", body: body))
        #expect(answer.text == "linear")
    }

    @Test(
        "wide documents cost bounded time: a million children, a million attributes, 20 MB of text",
        .enabled(if: reliabilitySuitesEnabled, "heavy: run with HTTPSTUBS_RELIABILITY=1")
    )
    func wideBodies() async throws {
        let root = try Self.root(expecting: "<a>" + String(repeating: "<b/>", count: 3) + "</a>")
        let children = "<a>" + String(repeating: "<b/>", count: 1_000_000) + "</a>"
        let attributes = "<a " + (0..<1_000_000).map { "n\($0)='1'" }.joined(separator: " ") + "/>"
        let text = "<a>" + String(repeating: "x", count: 20_000_000) + "</a>"
        for (name, body, reason) in [
            ("children", children, "work budget"),
            ("attributes", attributes, "more than \(XMLTree.maximumAttributes) attributes"),
            ("text", text, "work budget"),
        ] {
            for path in ["xpath", "equal"] {
                let completion = try await Self.post(body, to: path, root)
                #expect(completion.isUnmatched, "\(name) → \(path): \(completion)")
                let report = completion.urlError?.localizedDescription ?? ""
                #expect(report.contains(reason), "\(name) → \(path): \(report.prefix(3_000))")
            }
        }
        // Wide, but within the budget: matched.
        let thousands = "<a>" + String(repeating: "<b id='1'>x</b>", count: 20_000) + "<b id='2'/></a>"
        let stubs = StubRegistry()
        stubs.stub(.anyRequest, .text("fallback"))
        try stubs.load(root.path)
        let session = stubs.makeSession()
        #expect(
            await complete(session, request("POST", "https://xml.example/xpath", body: thousands)).text == "matched"
        )
    }

    @Test(
        "equalToXml with ignoreOrderOfSameNode over thousands of unequal siblings stops at the work budget",
        .enabled(if: reliabilitySuitesEnabled, "heavy: run with HTTPSTUBS_RELIABILITY=1")
    )
    func unorderedSiblings() throws {
        let count = 20_000
        let expected = "<a>" + (0..<count).map { "<b>\($0)</b>" }.joined() + "</a>"
        let actual = "<a>" + (0..<count).map { "<b>x\($0)</b>" }.joined() + "</a>"
        let equality = try XMLEquality(expected: expected, ignoreOrderOfSameNode: true)
        let result = equality.compare(actual)
        #expect(!result.isMatch)
        #expect(result.differences.first?.contains("work budget") == true, "\(result.differences)")
    }
}
