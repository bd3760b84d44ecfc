import Foundation
import Testing

@testable import HTTPStubs
@testable import HTTPStubsFiles
@testable import HTTPStubsLanguages
@testable import HTTPStubsTemplates

/// Every regular expression in a stub — a matcher, a JSONPath filter's `=~`, a JSON schema's
/// `pattern`, XMLUnit's placeholder delimiters and `${xmlunit.matchesRegex(…)}` — is compiled by
/// ``CompiledRegex``, so each gets the checks ``RegularExpression`` makes.
@Suite("One entrance for regular expressions")
struct RegexEntranceTests {
    /// Patterns ``RegularExpression`` refuses as catastrophic.
    static let catastrophic = ["(a+)+", "(a*)*b", #"(\w+\s?)*"#, "((ab)*)+"]

    @Test("the entrance refuses them whatever the extent, with the group named", arguments: catastrophic)
    func entrance(pattern: String) throws {
        #expect(RegularExpression(pattern).problem?.contains("catastrophic backtracking") == true)
        let group = try #require(RegularExpression.repeatedRepetition(in: pattern))
        for extent in [CompiledRegex.Extent.wholeText, .anywhere] {
            #expect(throws: CompiledRegex.Refusal.backtracking(group: group)) {
                try CompiledRegex(pattern, extent: extent)
            }
            #expect(throws: CompiledRegex.Refusal.backtracking(group: group)) {
                try CompiledRegex(pattern, extent: extent, ignoringCase: true)
            }
        }
        #expect(throws: CompiledRegex.Refusal.invalid(reason: "a '(' is never closed")) {
            try CompiledRegex("(a", extent: .anywhere)
        }
    }

    @Test("a JSONPath filter's =~ refuses them, with or without the i flag", arguments: catastrophic)
    func jsonPathFilter(pattern: String) throws {
        let escaped = pattern.replacingOccurrences(of: "\\", with: "\\\\")
        for flags in ["", "i"] {
            let filter = #"$.items[?(@.name =~ /\#(escaped)/\#(flags))]"#
            let error = try loadError(#"{"matchesJsonPath": "\#(filter)"}"#)
            #expect(error.jsonPath == "$.request.bodyPatterns[0].matchesJsonPath")
            #expect(error.message.contains("catastrophic backtracking"), "\(error.message)")
        }
    }

    @Test("a JSON schema pattern refuses them", arguments: catastrophic)
    func jsonSchemaPattern(pattern: String) throws {
        let escaped = pattern.replacingOccurrences(of: "\\", with: "\\\\")
        let error = try loadError(#"{"matchesJsonSchema": {"type": "string", "pattern": "\#(escaped)"}}"#)
        #expect(error.message.contains("catastrophic backtracking"), "\(error.message)")
    }

    @Test("XMLUnit placeholder delimiters refuse them at their key", arguments: catastrophic)
    func xmlUnitDelimiter(pattern: String) throws {
        let escaped = pattern.replacingOccurrences(of: "\\", with: "\\\\")
        let error = try loadError(
            #"{"equalToXml": "<a>x</a>", "enablePlaceholders": true, "#
                + #""placeholderOpeningDelimiterRegex": "\#(escaped)"}"#
        )
        #expect(error.jsonPath == "$.request.bodyPatterns[0].placeholderOpeningDelimiterRegex")
        #expect(error.message.contains("catastrophic backtracking"), "\(error.message)")
    }

    @Test("XMLUnit's matchesRegex reports a bad pattern with the same wording as a matcher")
    func xmlUnitMatchesRegex() throws {
        let error = try loadError(#"{"equalToXml": "<a>${xmlunit.matchesRegex([)}</a>", "enablePlaceholders": true}"#)
        let matcher = try #require(RegularExpression("[").problem)
        let wording = try #require(matcher.range(of: ": it does not compile"))
        #expect(error.message.contains(String(matcher[wording.lowerBound...])), "\(error.message)")
    }

    @Test("ordinary patterns pass every entrance", arguments: ["a+", "(ab)+", "(a++)+$", "(?>a+)+$", "v1.*"])
    func ordinary(pattern: String) throws {
        #expect(throws: Never.self) { try CompiledRegex(pattern, extent: .anywhere) }
        #expect(throws: Never.self) { try JSONPathExpression("$.items[?(@.name =~ /\(pattern)/)]") }
    }

    /// The one error of loading a mapping whose request body must pass `pattern`.
    private func loadError(_ pattern: String) throws -> StubDiagnostic {
        let root = FileManager.default.temporaryDirectory
            .appendingPathComponent("regex-entrance-\(UUID().uuidString)")
        let mappings = root.appendingPathComponent("mappings")
        try FileManager.default.createDirectory(at: mappings, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let mapping =
            #"{"request": {"method": "POST", "url": "/t", "bodyPatterns": [\#(pattern)]}, "#
            + #""response": {"status": 200}}"#
        try Data(mapping.utf8).write(to: root.appendingPathComponent("mappings/x.json"))
        let result = StubFiles.load([root.path])
        #expect(result.stubs.isEmpty)
        #expect(result.errors.count == 1, "\(result.errors)")
        return try #require(result.errors.first)
    }
}
