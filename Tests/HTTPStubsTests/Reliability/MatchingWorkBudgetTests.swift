import Foundation
import HTTPStubs
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Stubs whose tests could take minutes on one request (a regular expression that backtracks, a
/// JSON schema whose levels each try two `$ref`s, a JSONPath expression that visits the document
/// once per value) cost a bounded amount of work: the request fails with a message naming the stub
/// and what to simplify, the test is told, and later requests are answered. Through real
/// URLSession calls and `stubs match`.
///
/// No test asserts that something is fast: each gives up waiting after ``patience`` rather than
/// hang, and checks that the request failed because the budget was spent.
/// Its tests run one at a time, and `.ci/run` runs the suite on its own: each of its requests may work for
/// seconds on URLSession's one shared queue (that is what they prove bounded), and run side by side they would
/// queue behind each other's work. A request still waits at most ``heavyPatience``.
@Suite("The work a request's matching may cost", .serialized)
struct MatchingWorkBudgetTests {
    /// How long a request of the suite is waited for: a bound, not a speed (a 4 MB body against JSON stubs
    /// takes about 20 s in a debug build, several times that under load).
    static let heavyPatience: Double = 3 * patience

    /// A path of `count` `a`s after `/x`, then `b`: what `/x(.*a){12}` backtracks on for a long time.
    static func backtrackingPath(_ count: Int = 60) -> String {
        "/x" + String(repeating: "a", count: count) + "b"
    }

    /// A mapping file testing the body with `bodyPattern` (JSON), answering `answer`.
    static func mapping(path: String, bodyPattern: String, answer: String) -> String {
        """
        {"request": {"method": "POST", "urlPath": "\(path)", "bodyPatterns": [\(bodyPattern)]},
         "response": {"status": 200, "body": "\(answer)"}}
        """
    }

    /// A JSON schema of `levels` levels, each `anyOf` two `$ref`s to the next, the last a string:
    /// exponentially many subschemas applied, were each `$ref` applied anew.
    static func doublingSchema(levels: Int) -> String {
        var definitions: [String] = []
        for level in 0..<levels {
            let next = "#/definitions/l\(level + 1)"
            definitions.append(#""l\#(level)": {"anyOf": [{"$ref": "\#(next)"}, {"$ref": "\#(next)"}]}"#)
        }
        definitions.append(#""l\#(levels)": {"type": "string"}"#)
        return ##"{"definitions": {\##(definitions.joined(separator: ", "))}, "$ref": "#/definitions/l0"}"##
    }

    @Test(
        "a regular expression that backtracks for a long time fails its request, naming the stub, and the test is told",
        .enabled(
            if: reliabilitySuitesEnabled,
            "heavy: seconds of work on URLSession's shared queue; run with HTTPSTUBS_RELIABILITY=1 (.ci/run does)"
        )
    )
    func backtrackingRegex() async throws {
        let stubs = StubRegistry()
        let log = DiagnosticLog(stubs)
        let slowStub = stubs.stub(.get(.path(.matches("/x(.*a){12}"))), .text("never"))
        stubs.stub(.get("https://api.example.com/fine"), .text("fine"))
        let session = stubs.makeSession()
        let url = "https://api.example.com" + Self.backtrackingPath()

        let completion = try #require(
            await within(Self.heavyPatience) { await complete(session, url) },
            "the request hung"
        )
        let error = try #require(completion.urlError, "got \(completion)")
        #expect(error.code == .resourceUnavailable)
        let description = error.localizedDescription
        #expect(description.contains("gave up at the stub at"), "\(description)")
        #expect(description.contains(#"the regular expression "/x(.*a){12}" spent the request's work budget"#))
        #expect(description.contains("Simplify that stub's test"), "\(description)")

        let reported = try #require(log.all.first, "the test was not told")
        #expect(reported.severity == .error)
        #expect(reported.message == description)
        let entry = try #require(stubs.journal.last)
        #expect(entry.stub == nil && !entry.isUnmatched, "\(entry)")
        #expect(entry.description.contains("refused: Matching GET"), "\(entry)")
        #expect(stubs.unusedStubs.map(\.id).contains(slowStub))

        // The async API sees the same failure; other requests are answered as before.
        let asyncFailure = try #require(
            await within(Self.heavyPatience) { await asyncError(session, URLRequest(url: URL(string: url)!)) }
        )
        #expect((asyncFailure as? URLError)?.code == .resourceUnavailable)
        #expect(await complete(session, "https://api.example.com/fine").text == "fine")
        // A path it matches at once is answered.
        #expect(
            await complete(session, "https://api.example.com/x" + String(repeating: "a", count: 12)).text == "never"
        )
    }

    @Test(
        "outside a request, a pattern tested directly is bounded too, and does not match",
        .enabled(
            if: reliabilitySuitesEnabled,
            "heavy: seconds of work; run with HTTPSTUBS_RELIABILITY=1 (.ci/run does)"
        )
    )
    func directEvaluation() async throws {
        let pattern = RequestPattern.get(.path(.matches("/x(.*a){12}")))
        let request = InterceptedRequest(url: URL(string: "https://api.example.com" + Self.backtrackingPath())!)
        let matched = await within(Self.heavyPatience) { pattern.matches(request) }
        #expect(matched == false, "nil: the test hung")
    }

    @Test("a JSON schema whose levels each try two $refs is applied once per level: answered at once, right")
    func doublingSchema() async throws {
        let schema = Self.doublingSchema(levels: 40)
        let root = try TemporaryStubRoot(mappings: [
            "schema.json": Self.mapping(
                path: "/schema",
                bodyPattern: #"{"matchesJsonSchema": \#(schema)}"#,
                answer: "valid"
            )
        ])
        let stubs = StubRegistry()
        try stubs.load(root.path)
        let session = stubs.makeSession()
        let valid = try #require(
            await within(Self.heavyPatience) {
                await complete(session, request("POST", "https://api.example.com/schema", body: #""text""#))
            }
        )
        #expect(valid.text == "valid", "got \(valid)")
        let invalid = try #require(
            await within(Self.heavyPatience) {
                await complete(session, request("POST", "https://api.example.com/schema", body: "[1]"))
            }
        )
        let error = try #require(invalid.urlError, "got \(invalid)")
        #expect(error.localizedDescription.hasPrefix("Unmatched request"), "\(error.localizedDescription)")
        #expect(error.localizedDescription.contains("matches none of the 2 anyOf schemas"))
    }

    @Test(
        "a JSONPath filter of 50,000 terms joined by && and || is tested on URLSession's queue without overflowing its stack",
        .enabled(
            if: reliabilitySuitesEnabled,
            "heavy: seconds of work on URLSession's shared queue; run with HTTPSTUBS_RELIABILITY=1 (.ci/run does)"
        )
    )
    func longFilterChains() async throws {
        let terms = 50_000
        let all = "$[?(" + Array(repeating: "@.a", count: terms).joined(separator: " && ") + ")]"
        let any = "$[?(" + Array(repeating: "@.b", count: terms).joined(separator: " || ") + " || @.a)]"
        let root = try TemporaryStubRoot(mappings: [
            "all.json": Self.mapping(path: "/all", bodyPattern: #"{"matchesJsonPath": "\#(all)"}"#, answer: "all"),
            "any.json": Self.mapping(path: "/any", bodyPattern: #"{"matchesJsonPath": "\#(any)"}"#, answer: "any"),
        ])
        let stubs = StubRegistry()
        try stubs.load(root.path)
        let session = stubs.makeSession()
        for path in ["/all", "/any"] {
            let answer = try #require(
                await within(Self.heavyPatience) {
                    await complete(session, request("POST", "https://api.example.com" + path, body: #"[{"a": 1}]"#))
                }
            )
            #expect(answer.text == String(path.dropFirst()), "\(path): \(answer)")
        }
        let miss = try #require(
            await within(Self.heavyPatience) {
                await complete(session, request("POST", "https://api.example.com/all", body: #"[{"b": 1}]"#))
            }
        )
        #expect(miss.urlError?.localizedDescription.hasPrefix("Unmatched request") == true, "\(miss)")
    }

    @Test(
        "JSON arrays in another order: equal elements pair by lookup, others by comparisons the budget bounds",
        .enabled(
            if: reliabilitySuitesEnabled,
            "heavy: seconds of work; run with HTTPSTUBS_RELIABILITY=1 (.ci/run does)"
        )
    )
    func unorderedArrays() async throws {
        let count = 5_000
        let expected = "[" + (0..<count).map { #"{"id": \#($0), "name": "n\#($0)"}"# }.joined(separator: ",") + "]"
        let root = try TemporaryStubRoot(mappings: [
            "equal.json": Self.mapping(
                path: "/equal",
                bodyPattern: #"{"equalToJson": \#(expected), "ignoreArrayOrder": true}"#,
                answer: "equal"
            ),
            "extra.json": Self.mapping(
                path: "/extra",
                bodyPattern: #"{"equalToJson": \#(expected), "ignoreArrayOrder": true, "ignoreExtraElements": true}"#,
                answer: "extra"
            ),
        ])
        let stubs = StubRegistry()
        let diagnostics = DiagnosticLog(stubs)
        try stubs.load(root.path)
        let session = stubs.makeSession()
        let reversed = (0..<count).reversed().map { #"{"id": \#($0), "name": "n\#($0)"}"# }
        func send(_ path: String, _ elements: [String]) async throws -> Completion {
            let body = "[" + elements.joined(separator: ",") + "]"
            return try #require(
                await within(Self.heavyPatience) {
                    await complete(session, request("POST", "https://api.example.com" + path, body: body))
                },
                "\(path) hung"
            )
        }
        // Every element equal to one expected: paired by lookup, answered.
        #expect(try await send("/equal", reversed).text == "equal")
        // One element differs: the rest pair by lookup, and the near-miss report says which.
        var changed = reversed
        changed[0] = #"{"id": -1, "name": "changed"}"#
        let miss = try await send("/equal", changed).urlError?.localizedDescription ?? ""
        #expect(miss.hasPrefix("Unmatched request"), "\(miss.prefix(300))")
        // Elements with members the expected ones lack are not equal to them: each is compared with
        // the candidates in turn, quadratic work that spends the budget.
        let extended = (0..<count).reversed().map { #"{"id": \#($0), "name": "n\#($0)", "more": true}"# }
        let spent = try await send("/extra", extended).urlError?.localizedDescription ?? ""
        #expect(spent.contains("comparing JSON arrays in any order spent the request's work budget"), "\(spent)")
        #expect(diagnostics.all.map(\.message) == [spent], "the test is told")
    }

    @Test(
        "a body too large for its JSON schema or JSONPath within the budget fails, naming the stub, through stubs match",
        .enabled(
            if: reliabilitySuitesEnabled,
            "heavy: seconds of work; run with HTTPSTUBS_RELIABILITY=1 (.ci/run does)"
        )
    )
    func costlyBodies() async throws {
        let schema =
            #"{"type": "array", "items": {"type": "object", "properties": {"a": {"type": "string"}, "#
            + #""b": {"type": "integer"}, "c": {"type": "array", "items": {"type": "number"}}}}}"#
        let root = try TemporaryStubRoot(mappings: [
            "schema.json": Self.mapping(
                path: "/schema",
                bodyPattern: #"{"matchesJsonSchema": \#(schema)}"#,
                answer: "valid"
            ),
            "path.json": Self.mapping(
                path: "/path",
                bodyPattern: #"{"matchesJsonPath": "$[?(@.a in $..a)]"}"#,
                answer: "found"
            ),
            "descent.json": Self.mapping(
                path: "/descent",
                bodyPattern: #"{"matchesJsonPath": "$..*..*..*..*[?(@ == 'zzz')]"}"#,
                answer: "found"
            ),
        ])
        let items = (0..<40_000).map { #"{"a": "abc", "b": \#($0), "c": [1, 2, 3]}"# }
        let large = "[" + items.joined(separator: ",") + "]"
        var deep = #""x""#
        for _ in 0..<200 { deep = #"{"a": \#(deep), "b": [1, 2]}"# }
        let bodies: [(path: String, body: String, activity: String, file: String)] = [
            ("/schema", large, "the JSON schema", "schema.json"),
            (
                "/path", "[" + (0..<20_000).map { #"{"a": \#($0)}"# }.joined(separator: ",") + "]", "a JSONPath",
                "path.json"
            ),
            ("/descent", deep, "a JSONPath", "descent.json"),
        ]
        let stubs = StubRegistry()
        let log = DiagnosticLog(stubs)
        try stubs.load(root.path)
        let session = stubs.makeSession()
        for (path, body, activity, file) in bodies {
            let completion = try #require(
                await within(Self.heavyPatience) {
                    await complete(session, request("POST", "https://api.example.com" + path, body: body))
                },
                "\(path) hung"
            )
            let description = completion.urlError?.localizedDescription ?? "\(completion)"
            #expect(
                description.contains("gave up at the stub at \(root.path("mappings/\(file)"))"),
                "\(path): \(description)"
            )
            #expect(description.contains("\(activity)"), "\(path): \(description)")
        }
        #expect(log.all.count == bodies.count)

        // The same through the command-line tool, one JSON line a request.
        #if os(macOS) || os(Linux)
        let lines = bodies.map { path, body, _, _ in
            let request = ["method": "POST", "url": "https://api.example.com" + path, "body": body]
            return String(decoding: try! JSONSerialization.data(withJSONObject: request), as: UTF8.self)
        }
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("budget-\(UUID().uuidString).jsonl")
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: input)
        defer { try? FileManager.default.removeItem(at: input) }
        let stubsTool = try builtExecutable(named: "stubs")
        let result = try await run(
            stubsTool,
            ["match", "--stubs", root.path, "--requests", input.path],
            within: patience
        )
        let answers = result.output.split(separator: "\n")
        #expect(answers.count == bodies.count, "\(result.output)")
        for answer in answers {
            #expect(answer.contains("gave up at the stub at"), "\(answer)")
        }
        #endif
    }
}
