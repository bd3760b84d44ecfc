import Foundation
import Testing

@testable import HTTPStubs
@testable import HTTPStubsFiles
@testable import HTTPStubsLanguages
@testable import HTTPStubsTemplates

/// The shortcut render (``TemplateShortcut``) against the general one: the same bytes, the same
/// errors and the same draws from the random source, for generated and adversarial requests,
/// bodies and templates; and the shapes it takes and refuses.
@Suite("Templating: shortcut render")
struct TemplateShortcutTests {
    /// A reproducible source of choices, drawn from the package's seeded generator.
    struct Choices {
        var generator: SeededGenerator

        init(seed: UInt64) {
            generator = SeededGenerator(seed: seed)
        }

        mutating func next() -> UInt64 { generator.next() }

        mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

        mutating func pick<T>(_ options: [T]) -> T { options[below(options.count)] }

        mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
    }

    /// Counts the draws a render makes from its random source.
    final class DrawCounter: @unchecked Sendable {
        // Invariant: `draws` is only touched while `lock` is held.
        private let lock = NSLock()
        private var draws = 0

        func draw(_ bound: Int) -> Int {
            lock.lock()
            defer { lock.unlock() }
            draws += 1
            return draws % max(bound, 1)
        }

        var count: Int {
            lock.lock()
            defer { lock.unlock() }
            return draws
        }
    }

    /// The tags the shortcut takes, and a few it must refuse, to build templates from.
    static let tags = [
        "{{request.path.[0]}}", "{{request.path.[1]}}", "{{{request.path.[2]}}}", "{{request.path.1}}",
        "{{request.path.01}}", "{{request.path.[9]}}", "{{request.path}}", "{{{request.path}}}", "{{request.url}}",
        "{{{request.url}}}", "{{request.method}}", "{{jsonPath request.body '$.name'}}",
        "{{{jsonPath request.body '$.name'}}}", "{{jsonPath request.body '$.a.b'}}",
        "{{jsonPath request.body '$.list[1]'}}", "{{jsonPath request.body '$[0]'}}",
        "{{jsonPath request.body '$'}}", "{{jsonPath request.body \"$['id']\"}}",
        "{{{jsonPath request.body '$.list[0].name'}}}", "{{jsonPath request.body '$.K'}}",
        "{{jsonPath request.body '$.ñame'}}", "{{! a comment }}", "{{request.path.[-1]}}",
        "{{jsonPath request.body '$.name' default='none'}}", "{{jsonPath request.body '$.list[-1]'}}",
        "{{request.query.q}}", "{{request.headers.Content-Type}}",
    ]

    /// Text between tags, with characters HTML escaping replaces.
    static let texts = ["", "{\"id\":", "<p class='x'>", " & ", "=`\"", "é\n"]

    static let segments = [
        "users", "42", "%41b", "%zz", "a%2Fb", "%C3%A9", "%FF", "", "a=b", "%3Cx%3E", "1", "01", "caf%C3%A9", "%",
    ]

    static let names = ["name", "a", "b", "list", "id", "n\\u0061me", "ñame", "\u{212A}", "K", "nam", "names"]

    static let scalars = [
        "\"Ada Lovelace\"", "\"<b>&'=`\\\"\"", "\"\"", "\"caf\u{E9}\"", "\"tab\\t\"", "\"\\u00e9\\ud800\"",
        "0", "-0", "36", "-12", "1.5", "1e3", "-0.0", "12345678901234567890", "true", "false", "null",
        "{}", "[]", "[ ]", "{ }",
    ]

    /// A JSON value of at most `depth` levels, its members named from `names` (by default often
    /// the names the tags read).
    static func json(_ choices: inout Choices, depth: Int, names: [String] = names) -> String {
        guard depth > 0, choices.chance(60) else { return choices.pick(scalars) }
        let space = choices.pick(["", " ", "\n\t", "\r\n  "])
        if choices.chance(60) {
            let members = (0..<choices.below(5)).map { _ in
                "\"\(choices.pick(names))\"\(space):\(space)\(json(&choices, depth: depth - 1, names: names))"
            }
            return "{" + space + members.joined(separator: "," + space) + space + "}"
        }
        let elements = (0..<choices.below(5)).map { _ in json(&choices, depth: depth - 1, names: names) }
        return "[" + space + elements.joined(separator: "," + space) + "]"
    }

    /// A body: JSON, often damaged, sometimes not UTF-8, empty or missing, or with members whose
    /// names repeat at every level (the parser keeps the last).
    static func body(_ choices: inout Choices) -> Data? {
        switch choices.below(14) {
        case 0: return nil
        case 1: return Data()
        case 2: return Data([0x7B, 0x22, 0x6E, 0x61, 0x6D, 0x65, 0x22, 0x3A, 0x22, 0xE9, 0xFF, 0x22, 0x7D])
        case 3: return Data(("\u{FEFF}" + json(&choices, depth: 3)).utf8)
        case 4: return Data((String(repeating: "[", count: 70) + String(repeating: "]", count: 70)).utf8)
        case 5, 6:
            let members = (0..<2 + choices.below(3)).map { _ in
                "\"\(choices.pick(["a", "name"]))\":" + json(&choices, depth: 2, names: ["a", "b"])
            }
            return Data(("{" + members.joined(separator: ",") + "}").utf8)
        default:
            var bytes = Array(json(&choices, depth: 4).utf8)
            if choices.chance(25), !bytes.isEmpty {
                let at = choices.below(bytes.count)
                switch choices.below(4) {
                case 0: bytes.removeSubrange(at...)
                case 1: bytes.insert(choices.pick(Array(",:{}[]\"\\ x0-.e\u{1}".utf8)), at: at)
                case 2: bytes.remove(at: at)
                default: bytes += Array(choices.pick([" ", "x", ",", "}", " 1", "\n"]).utf8)
                }
            }
            return Data(bytes)
        }
    }

    /// A request: any method, a path of generated segments, a query, a body.
    static func request(_ choices: inout Choices) -> InterceptedRequest? {
        let path = (0..<choices.below(5)).map { _ in choices.pick(segments) }.joined(separator: "/")
        let query = choices.pick(["", "?q=1", "?q=%3C&q=2", "?a=b&c"])
        let slashes = choices.pick(["/", "//", "/"])
        guard let url = URL(string: "http://example.com" + slashes + path + query) else { return nil }
        let parameters = choices.pick([[:], ["1": "one"], ["01": "zero-one", "name": "x"]])
        return InterceptedRequest(
            method: InterceptedRequest.Method(rawValue: choices.pick(["GET", "POST", "PATCH", "PROPFIND"])),
            url: url,
            headers: ["Content-Type": "application/json; charset=utf-8"],
            body: body(&choices),
            pathParameters: parameters
        )
    }

    /// A render's output, or its error, with the number of random draws it made.
    static func outcome(
        _ render: (TemplateEnvironment) throws -> String,
        pathTemplate: URITemplate?
    ) -> (output: String, draws: Int) {
        let counter = DrawCounter()
        let environment = TemplateEnvironment(
            now: { Date(timeIntervalSince1970: 0) },
            random: { counter.draw($0) },
            pathTemplate: pathTemplate
        )
        let output: String
        do {
            output = try render(environment)
        } catch {
            output = "error: \(error)"
        }
        return (output, counter.count)
    }

    @Test func shortcutGivesTheGeneralRendersBytesAndDraws() throws {
        var choices = Choices(seed: 17)
        let pathTemplates: [URITemplate?] = [nil, URITemplate("/users/{id}"), URITemplate("/{1}/{name}")]
        var shortcutAnswers = 0
        var compared = 0
        for _ in 0..<4_000 {
            var text = ""
            for _ in 0..<(1 + choices.below(4)) { text += choices.pick(Self.texts) + choices.pick(Self.tags) }
            text += choices.pick(Self.texts)
            let escapesHTML = choices.chance(80)
            let template = try ResponseTemplate.parse(text, escapesHTML: escapesHTML)
            for _ in 0..<3 {
                guard let request = Self.request(&choices) else { continue }
                let pathTemplate = choices.pick(pathTemplates)
                let fast = Self.outcome({ try template.render(request, environment: $0) }, pathTemplate: pathTemplate)
                let general = Self.outcome(
                    { try template.renderInGeneral(request, environment: $0) },
                    pathTemplate: pathTemplate
                )
                let body = Self.outcome(
                    {
                        var budget: WorkBudget?
                        let data = try template.renderData(
                            request,
                            environment: $0,
                            pathTemplate: $0.pathTemplate,
                            parameters: TemplateObject(),
                            budget: &budget
                        )
                        return String(decoding: data, as: UTF8.self)
                    },
                    pathTemplate: pathTemplate
                )
                #expect(
                    fast.output == general.output && fast.draws == general.draws && body.output == general.output
                        && body.draws == general.draws,
                    "\(text) for \(request) with body \(request.body.map { Array($0) } ?? [])"
                )
                compared += 1
                if template.shortcut?.text(request, pathTemplate: pathTemplate) != nil { shortcutAnswers += 1 }
            }
        }
        // The comparison means something only if the shortcut answered often.
        #expect(compared > 10_000)
        #expect(shortcutAnswers > compared / 5)
    }

    @Test func benchmarkTemplateIsRenderedByTheShortcut() throws {
        let template = try ResponseTemplate.parse(
            #"{"id":{{request.path.[1]}},"name":"{{jsonPath request.body '$.name'}}","email":"ada@example.com"}"#
        )
        let request = InterceptedRequest(
            method: "POST",
            url: URL(string: "http://example.com/users/42")!,
            body: Data(#"{"name":"Ada Lovelace","age":36}"#.utf8)
        )
        let expected = #"{"id":42,"name":"Ada Lovelace","email":"ada@example.com"}"#
        #expect(template.shortcut?.text(request, pathTemplate: URITemplate("/users/{id}")) == expected)
        #expect(try template.renderInGeneral(request, environment: .system) == expected)
    }

    @Test func shortcutPrintsScalarsAsTheModelDoes() throws {
        let template = try ResponseTemplate.parse(
            "{{jsonPath request.body '$.s'}}|{{{jsonPath request.body '$.s'}}}|{{jsonPath request.body '$.z'}}"
                + "|{{jsonPath request.body '$.t'}}|{{jsonPath request.body '$.n'}}|{{jsonPath request.body '$.l[1]'}}"
        )
        let request = InterceptedRequest(
            method: "POST",
            url: URL(string: "http://example.com/")!,
            body: Data(#"{"s":"<a&'b'>","z":-0,"t":true,"n":null,"l":[1,"x"]}"#.utf8)
        )
        #expect(
            template.shortcut?.text(request, pathTemplate: nil) == "&lt;a&amp;&#x27;b&#x27;&gt;|<a&'b'>|0|true||x"
        )
    }

    @Test func shortcutLeavesUnsureCasesToTheGeneralRender() throws {
        let template = try ResponseTemplate.parse("{{jsonPath request.body '$.a'}}")
        let shortcut = try #require(template.shortcut)
        func answer(_ body: String) -> String? {
            shortcut.text(
                InterceptedRequest(url: URL(string: "http://example.com/")!, body: Data(body.utf8)),
                pathTemplate: nil
            )
        }
        #expect(answer(#"{"a":1,"a":2}"#) == nil)  // a repeated name
        #expect(answer(#"{"\u0061":1}"#) == nil)  // a name with escapes
        #expect(answer(#"{"a":1.0}"#) == nil)  // not an integer
        #expect(answer(#"{"a":"\n"}"#) == nil)  // a string with escapes
        #expect(answer(#"{"a":{}}"#) == nil)  // an object
        #expect(answer(#"{"a":1"#) == nil)  // not JSON
        #expect(answer(#"{"b":1,"c":[{"a":2}]}"#) == "")  // no member `a` at the top
        let notUTF8 = InterceptedRequest(
            url: URL(string: "http://example.com/")!,
            body: Data([0x7B, 0x22, 0x61, 0x22, 0x3A, 0x22, 0xFF, 0x22, 0x7D])
        )
        #expect(shortcut.text(notUTF8, pathTemplate: nil) == nil)
        let segment = try #require(try ResponseTemplate.parse("{{request.path.[0]}}").shortcut)
        let request = InterceptedRequest(url: URL(string: "http://example.com/x")!, pathParameters: ["0": "zero"])
        #expect(segment.text(request, pathTemplate: nil) == nil)  // a path variable named `0`
    }

    @Test func otherShapesHaveNoShortcut() throws {
        for text in [
            "{{#if request.body}}x{{/if}}", "{{request.headers.Accept}}", "{{jsonPath request.body '$..a'}}",
            "{{jsonPath request.body '$.a' default='x'}}", "{{request.path.[-1]}}",
            "{{jsonPath request.body '$.a[-1]'}}",
            "{{jsonPath request.body '$.a.length()'}}", "{{request.id}}", "{{jsonpath this '$.a'}}",
        ] {
            #expect(try ResponseTemplate.parse(text).shortcut == nil, "\(text)")
        }
    }
}

extension TemplateShortcut {
    /// The shortcut's output as text, to compare.
    func text(_ request: InterceptedRequest, pathTemplate: URITemplate?) -> String? {
        bytes(for: request, pathTemplate: pathTemplate).map { String(decoding: $0, as: UTF8.self) }
    }
}
