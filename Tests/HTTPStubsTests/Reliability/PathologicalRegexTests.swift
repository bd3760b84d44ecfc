import Foundation
import Testing

@testable import HTTPStubs
@testable import HTTPStubsFiles
@testable import HTTPStubsLanguages
@testable import HTTPStubsTemplates

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Regular expressions that could backtrack for ever are refused instead of hanging a test run.
@Suite("Pathological regular expressions")
struct PathologicalRegexTests {
    @Test(
        "a group repeated without bound that itself repeats is detected",
        arguments: [
            "(a+)+", "(a*)*b", #"(\w+\s?)*"#, "((ab)*)+", "(a{1,})+", "(x+x+)+y", "(?:a|aa)+(b+)*",
            // Inside an atomic group a nested repetition still backtracks while the group looks for its match.
            "(?>(a+)+b)", "((a+)+)++",
        ]
    )
    func detected(pattern: String) {
        #expect(RegularExpression.repeatedRepetition(in: pattern) != nil, "\(pattern)")
        let expression = RegularExpression(pattern)
        #expect(expression.problem?.contains("catastrophic backtracking") == true)
        #expect(!expression.matches("aaaa"))
    }

    @Test(
        "ordinary patterns are left alone",
        arguments: [
            "a+", "(ab)+", "[(a+)]+", #"\(a+\)+"#, "/users/[0-9]+", "(a+){2}", "(?:abc)+", #"^\S+@\S+$"#, "/v1/.*",
            "(ab|cd)*",
            // Possessive repetitions and atomic groups never backtrack.
            "(a++)+$", "(a*+)*$", "(a{2,}+)+", "(?>a+)+$", "(a+)++$", #"(\w++\s?)*"#,
        ]
    )
    func ordinary(pattern: String) {
        #expect(RegularExpression.repeatedRepetition(in: pattern) == nil, "\(pattern)")
        #expect(RegularExpression(pattern).problem == nil)
    }

    @Test("a stub with such a pattern is reported, never matches, and the request completes")
    func stubIsRefused() async throws {
        let stubs = StubRegistry()
        let issues = DiagnosticLog(stubs)
        stubs.stub(.get(.pathMatching("/(a+)+$")), .text("never"))
        let url = URL(string: "https://api.example.com/" + String(repeating: "a", count: 40) + "!")!
        let error = await #expect(throws: URLError.self) { _ = try await stubs.makeSession().data(from: url) }
        #expect(error?.code == .resourceUnavailable)
        #expect(issues.all.first?.message.contains("repeats a group that itself repeats") == true)
    }

    @Test("in a stub file such a pattern is a load error at its place")
    func fileIsRefused() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("regex-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("mappings"),
            withIntermediateDirectories: true
        )
        defer { try? FileManager.default.removeItem(at: root) }
        try Data(#"{"request": {"urlPathPattern": "/(a+)+"}, "response": {"status": 200}}"#.utf8)
            .write(to: root.appendingPathComponent("mappings/slow.json"))
        let result = StubFiles.load([root.path])
        #expect(result.stubs.isEmpty)
        #expect(result.errors.first?.jsonPath == "$.request.urlPathPattern")
        #expect(result.errors.first?.description.contains("catastrophic backtracking") == true)
    }

    @Test("a JSONPath filter's =~ regular expression is refused the same way, at its place")
    func jsonPathFilterIsRefused() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("regex-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("mappings"),
            withIntermediateDirectories: true
        )
        defer { try? FileManager.default.removeItem(at: root) }
        try Data(
            #"{"request": {"bodyPatterns": [{"matchesJsonPath": "$.items[?(@.name =~ /(a+)+b/)]"}]}, "response": {"status": 200}}"#
                .utf8
        )
        .write(to: root.appendingPathComponent("mappings/slow.json"))
        let result = StubFiles.load([root.path])
        #expect(result.stubs.isEmpty)
        #expect(result.errors.first?.jsonPath == "$.request.bodyPatterns[0].matchesJsonPath")
        #expect(result.errors.first?.description.contains("catastrophic backtracking") == true, "\(result.errors)")
        #expect(throws: JSONPathSyntaxError.self) { try JSONPathExpression("$.items[?(@.name =~ /(a+)+b/)]") }
        #expect(throws: Never.self) { try JSONPathExpression("$.items[?(@.name =~ /a+b/)]") }
    }
}
