import Foundation
import Testing

@testable import HTTPStubs
@testable import HTTPStubsFiles
@testable import HTTPStubsLanguages
@testable import HTTPStubsTemplates

/// What the WireMock fixture does not pin: the seam (`isTemplate`, located unknown-helper errors),
/// the environment (fixed clock, seeded and misbehaving random sources, path parameters), and
/// helpers on bad input failing with a render error rather than crashing.
@Suite("Templating: WireMock helpers")
struct TemplateHelperTests {
    static let clock = Date(timeIntervalSince1970: 1_614_834_367)  // 2021-03-04T05:06:07Z

    func render(
        _ text: String,
        url: String = "http://localhost:8080/",
        body: String? = nil,
        random: @escaping @Sendable (Int) -> Int = { _ in 0 },
        pathTemplate: URITemplate? = nil
    ) throws -> String {
        let request = InterceptedRequest(url: URL(string: url)!, body: body.map { Data($0.utf8) })
        let environment = TemplateEnvironment(now: { Self.clock }, random: random, pathTemplate: pathTemplate)
        return try ResponseTemplate.parse(text).render(request, environment: environment)
    }

    @Test func isTemplateNeedsBothBraces() {
        #expect(ResponseTemplate.isTemplate("a {{b}} c"))
        #expect(!ResponseTemplate.isTemplate("plain"))
        #expect(!ResponseTemplate.isTemplate("a }} b {{ c"))
    }

    @Test func unknownHelperIsALocatedLoadErrorListingTheHelpers() {
        #expect {
            try ResponseTemplate.parse("line\n  {{nosuch 'x'}}")
        } throws: { error in
            guard let error = error as? TemplateSyntaxError else { return false }
            return error.location == TemplateSourceLocation(line: 2, column: 5)
                && error.message.contains("helper 'nosuch' is not implemented")
                && error.message.contains("jsonPath")
        }
    }

    /// WireMock 2.35.1's answer, recorded: Jackson's pretty printer (an object) and json-smart (a
    /// list) both escape a control character with upper-case hex digits; json-smart also escapes `/`.
    @Test func controlCharactersInJSONResultsUseUpperCaseHex() throws {
        let body = #"{"o":{"k":"x\u001fy/z"},"a":["x\u001fy/z"]}"#
        let template = "O={{{jsonPath request.body '$.o'}}}|A={{{jsonPath request.body '$.a'}}}"
        #expect(try render(template, body: body) == #"O={\#n  "k" : "x\u001Fy/z"\#n}|A=["x\u001Fy\/z"]"#)
    }

    @Test func nowReadsTheEnvironmentClock() throws {
        #expect(try render("{{now}}") == "2021-03-04T05:06:07Z")
        #expect(try render("{{now offset='1 months' format='yyyy-MM-dd'}}") == "2021-04-04")
        #expect(try render("{{now format='epoch'}}") == "1614834367000")
        #expect(try render("{{now timezone='Europe/Paris' format='HH:mm'}}") == "06:06")
    }

    @Test func randomHelpersAreSeededAndClamped() throws {
        #expect(try render("{{randomValue length=4 type='NUMERIC'}}", random: { _ in 3 }) == "3333")
        #expect(try render("{{randomInt lower=5 upper=9}}", random: { _ in 2 }) == "7")
        // A source answering out of range cannot make a helper index out of bounds.
        #expect(try render("{{pickRandom 'a' 'b'}}", random: { _ in 99 }) == "b")
        #expect(try render("{{pickRandom 'a' 'b'}}", random: { _ in -5 }) == "a")
    }

    @Test func namedPathParametersFromThePathTemplate() throws {
        let template = URITemplate("/users/{id}/orders/{order}")
        #expect(
            try render(
                "{{request.path.id}}-{{request.path.order}}|{{request.path.[1]}}",
                url: "http://h/users/7/orders/9",
                pathTemplate: template
            ) == "7-9|7"
        )
    }

    @Test func helpersOnMissingValuesFailWithARenderError() {
        for text in [
            "{{size request.query.x}}", "{{trim request.query.x}}", "{{math request.query.x '+' 1}}",
            "{{base64 request.query.x}}", "{{matches request.query.x 'a'}}", "{{substring 'abc' 2 1}}",
            "{{math 1 '/' 0}}", "{{parseJson 'nope'}}", "{{pickRandom}}",
            "{{truncateDate request.query.x 'first day of month'}}",
        ] {
            #expect(throws: TemplateRenderError.self, "\(text)") { try render(text) }
        }
    }

    @Test func springCloudContractJsonpathReadsTheBody() throws {
        #expect(try render("{{{jsonpath this '$.a'}}}", body: "{\"a\": \"x\"}") == "x")
    }

    @Test func regexExtractGoesThroughTheSafeRegexEntrance() throws {
        // A pattern CompiledRegex refuses (nested repetition) is WireMock's in-band error, not a hang.
        #expect(try render("{{regexExtract 'aaaa' '(a+)+b'}}").hasPrefix("[ERROR: Invalid regex string"))
    }

    @Test func regexExtractIntoAVariableTakesEveryGroupOfEveryMatch() throws {
        let pairs = "{{regexExtract request.body '([a-z])([0-9])' 'parts'}}{{#each parts}}{{this}},{{/each}}"
        #expect(try render(pairs, body: "a1 b2 c3") == "a,1,b,2,c,3,")
        // An empty match moves on by one character, as Java's Matcher.find() does: one per position.
        #expect(try render("{{regexExtract 'abc' '(x*)' 'v'}}{{size v}}") == "4")
        // Matches without groups capture nothing: WireMock's default then applies.
        #expect(try render("{{regexExtract 'abc' '[a-z]' 'v' default='none'}}") == "none")
    }

    @Test func parseJsonThenJsonPathOnTheResult() throws {
        #expect(try render("{{jsonPath (parseJson '{\"a\":{\"b\":[1,2]}}') '$.a.b[1]'}}") == "2")
    }

    @Test func largeRangesAndLengthsFailOnTheWorkBudget() throws {
        #expect(try render("{{size (range 1 200000)}}") == "200000")
        #expect(try render("{{size (randomValue length=100000)}}") == "100000")
        for text in ["{{range 1 1000000}}", "{{size (randomValue length=999999999)}}"] {
            #expect {
                try render(text)
            } throws: { error in
                let message = (error as? TemplateRenderError)?.message ?? ""
                return message.contains("spent the request's work budget") && message.contains("helper '")
            }
        }
    }
}
