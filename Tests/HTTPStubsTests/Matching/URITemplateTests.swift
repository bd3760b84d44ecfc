import Foundation
import Testing

@testable import HTTPStubs
@testable import HTTPStubsFiles
@testable import HTTPStubsLanguages
@testable import HTTPStubsTemplates

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Path templates match as the regular expressions they spell (`/users/([^/]+)` for
/// `/users/{id}`, anchored, each variable as long as it can be), without running one.
@Suite struct URITemplateTests {
    /// Templates with literals between, before and after variables, adjacent variables, and
    /// several greedy ones.
    static let templates = [
        "/users/{id}", "/users/{id}/posts/{post}", "/files/{name}.{ext}", "/files/{+path}", "{+all}",
        "/{a}{b}", "/{+a}/x/{+b}", "/x/{a}-{b}.json", "/{a}/{+b}.{c}", "/é/{name}", "/{a}é{b}", "/static",
    ]

    /// Path characters, with the ones the expressions treat specially: `/`, line breaks (which `.`
    /// does not match), characters of two and three UTF-8 bytes, and percent-escapes.
    static let alphabet: [String] = [
        "/", "/", "/", "a", "b", "x", ".", "-", "é", "\n", "\r", "\u{85}", "\u{2028}", "\u{0B}", "%20", "%2F",
        "%C3%A9", "%", "%zz", "json", "users", "files", "posts", "1", "42",
    ]

    @Test("a template matches and captures exactly as its regular expression does, on 20,000 paths")
    func matchesAsItsRegularExpression() throws {
        var random = SeededGenerator(seed: 19)
        for template in Self.templates {
            let expression = try Self.expression(for: template)
            let compiled = URITemplate(template)
            for _ in 0..<(20_000 / Self.templates.count) {
                var path = ""
                for _ in 0..<Int.random(in: 0...10, using: &random) {
                    path += Self.alphabet.randomElement(using: &random)!
                }
                // Half the paths start from the template's own text, so that many of them match.
                if Bool.random(using: &random) {
                    path = template.replacingOccurrences(of: "{+", with: "{").split(separator: "{").map {
                        String($0.drop { $0 != "}" }.dropFirst())
                    }.joined(separator: path.isEmpty ? "v" : path)
                }
                let expected = Self.captures(of: expression, in: path, names: compiled.variables)
                #expect(compiled.match(path) == expected, "template \(template), path \(String(reflecting: path))")
            }
        }
    }

    @Test("a template with several greedy variables answers a long path that does not fit in bounded time")
    func greedyVariablesDoNotBacktrackForEver() {
        // Tried naively, four `{+…}` over 1,000 slashes take about 1,000^4 steps.
        let template = URITemplate("/{+a}/{+b}/{+c}/{+d}/end")
        #expect(template.match(String(repeating: "/x", count: 500)) == nil)
        #expect(template.match(String(repeating: "/x", count: 500) + "/end")?["d"] == "x")
    }

    @Test("percent-decoding gives what Foundation's removingPercentEncoding gives, on 20,000 strings")
    func percentDecodingAsFoundation() {
        var random = SeededGenerator(seed: 6)
        let pieces = ["a", "é", "+", "%", "%2", "%20", "%2f", "%C3%A9", "%C3", "%FF", "%00", "%E2%80%A8", "%zz", "%%"]
        for _ in 0..<20_000 {
            var text = ""
            for _ in 0..<Int.random(in: 0...6, using: &random) { text += pieces.randomElement(using: &random)! }
            #expect(PercentDecoding.decode(text) == text.removingPercentEncoding, "\(String(reflecting: text))")
            let spaced = text.replacingOccurrences(of: "+", with: " ")
            #expect(PercentDecoding.decodeForm(text) == spaced.removingPercentEncoding ?? spaced)
        }
    }

    @Test("a variable followed by a literal, and adjacent variables, capture through URLSession")
    func capturesThroughURLSession() async {
        let stubs = StubRegistry()
        stubs.stub(.get("/files/{name}.{ext}")) { .text("\($0.pathParameters["name"]!)|\($0.pathParameters["ext"]!)") }
        stubs.stub(.get("/pairs/{a}{b}")) { .text("\($0.pathParameters["a"]!)|\($0.pathParameters["b"]!)") }
        let session = stubs.makeSession()
        // Each variable is as long as it can be: the name takes every dot but the last.
        #expect(await answer(session, "https://cdn.example.com/files/report.2026.tar.gz") == "report.2026.tar|gz")
        #expect(await answerAsync(session, "https://cdn.example.com/files/caf%C3%A9.txt") == "café|txt")
        #expect(await answer(session, "https://cdn.example.com/files/noextension") == unmatched)
        // Between two variables, the first leaves the second one character.
        #expect(await answerAsync(session, "https://cdn.example.com/pairs/abcd") == "abc|d")
    }

    @Test(
        "a template of 30,000 variables loads at once, and matches or misses on URLSession's queue without overflowing its stack"
    )
    func hugeTemplate() async throws {
        let count = 30_000
        let template = (0..<count).map { "/{v\($0)}" }.joined()
        let root = try TemporaryStubRoot(mappings: [
            "huge.json": #"{"request": {"urlPathTemplate": "\#(template)"}, "response": {"body": "fits"}}"#
        ])
        let stubs = StubRegistry()
        try stubs.load(root.path)
        let session = stubs.makeSession()
        let fitting = "https://api.example.com" + String(repeating: "/x", count: count)
        #expect(await answer(session, fitting) == "fits")
        #expect(await answerAsync(session, fitting + "/y") == unmatched)
    }

    /// The expression the template spells, as `URITemplate` compiled it before it matched by hand.
    static func expression(for template: String) throws -> NSRegularExpression {
        var pattern = ""
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            pattern += NSRegularExpression.escapedPattern(for: String(rest[..<open]))
            pattern += rest[rest.index(after: open)] == "+" ? "(.+)" : "([^/]+)"
            rest = rest[rest.index(after: close)...]
        }
        pattern += NSRegularExpression.escapedPattern(for: String(rest))
        return try NSRegularExpression(pattern: "\\A(?:\(pattern))\\z")
    }

    static func captures(of expression: NSRegularExpression, in path: String, names: [String]) -> [String: String]? {
        guard let match = expression.firstMatch(in: path, range: NSRange(path.startIndex..., in: path)) else {
            return nil
        }
        var result: [String: String] = [:]
        for (index, name) in names.enumerated() {
            let value = Range(match.range(at: index + 1), in: path).map { String(path[$0]) } ?? ""
            result[name] = value.removingPercentEncoding ?? value
        }
        return result
    }
}
