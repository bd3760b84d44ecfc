import Foundation
import Testing

@testable import HTTPStubs

/// The `core/` cases of `Tests/Fixtures/Templates/wiremock-answers.jsonl` (what real WireMock 2.35.1
/// answered) that need nothing but core Handlebars and `request.method`: the engine, cutting the
/// template as WireMock does, must give the same body bytes, or fail where WireMock answered 500.
/// Cases that need WireMock's helpers or request model are left to the tests of the templating
/// wiring. Skipped when the fixture is not in the checkout.
@Suite("Templating: WireMock's answers, core Handlebars")
struct TemplateWireMockAnswersTests {
    static let answers = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Tests/Fixtures/Templates/wiremock-answers.jsonl")
    static let cases = answers.deletingLastPathComponent().appendingPathComponent("cases.json")

    /// Cases the engine refuses on purpose although WireMock renders them.
    static let refusedOnPurpose: Set<String> = [
        "core/raw-block"  // raw blocks are refused with a located message
    ]

    struct Answer: CustomTestStringConvertible, Sendable {
        let name: String
        let template: String
        let method: String
        let status: Int
        let body: String?
        var testDescription: String { name }
    }

    static func load() -> [Answer] {
        guard let answerText = try? String(contentsOf: answers, encoding: .utf8),
            let caseData = try? Data(contentsOf: cases),
            case .array(let caseList)? = try? JSONValue(parsing: caseData)
        else { return [] }
        var templates: [String: String] = [:]
        for item in caseList {
            if case .object(let object) = item, case .string(let name)? = object["name"],
                case .string(let template)? = object["template"]
            {
                templates[name] = template
            }
        }
        var result: [Answer] = []
        for line in answerText.split(separator: "\n") {
            guard case .object(let object)? = try? JSONValue(parsing: String(line)),
                case .string(let name)? = object["name"], name.hasPrefix("core/"), !refusedOnPurpose.contains(name),
                case .string("local")? = object["mode"],
                let template = templates[name],
                case .number(let status)? = object["status"],
                case .object(let request)? = object["request"],
                case .string(let method)? = request["method"]
            else { continue }
            // Only `request.method` from the request model.
            let rest = template.replacing("request.method", with: "")
            guard !rest.contains("request") else { continue }
            // Only the built-in helpers (a template that does not parse is kept: WireMock must fail too).
            if let parsed = try? TemplateParser.parse(template, literalOuterText: true),
                parsed.helperCalls.contains(where: { TemplateBuiltinHelpers.all[$0.name] == nil })
            {
                continue
            }
            var body: String?
            if case .string(let text)? = object["body"] { body = text }
            result.append(
                Answer(
                    name: name,
                    template: template,
                    method: method,
                    status: Int(exactly: status.doubleValue) ?? 0,
                    body: body
                )
            )
        }
        return result
    }

    static let loaded = load()

    @Test("Enough cases are selected", .enabled(if: FileManager.default.fileExists(atPath: answers.path)))
    func enoughCases() {
        #expect(Self.loaded.count >= 25, "\(Self.loaded.map(\.name))")
    }

    @Test(
        "Same body as WireMock",
        .enabled(if: FileManager.default.fileExists(atPath: answers.path)),
        arguments: loaded
    )
    func sameBody(_ answer: Answer) throws {
        let context = TemplateValue.object(
            TemplateObject([("request", .object(TemplateObject([("method", .string(answer.method))])))])
        )
        let renderer = TemplateRenderer()
        let result = Result { () throws -> String in
            let template = try TemplateParser.parse(answer.template, literalOuterText: true)
            try template.validate(helpers: Set(renderer.helpers.keys))
            return try renderer.render(template, context: context)
        }
        switch (result, answer.status) {
        case (.success(let output), 200):
            #expect(output == answer.body, "\(answer.template.debugDescription)")
        case (.failure(let error), 200):
            Issue.record("WireMock answers \(answer.body.debugDescription), the engine fails: \(error)")
        case (.success(let output), _):
            Issue.record("WireMock answers \(answer.status), the engine renders \(output.debugDescription)")
        case (.failure, _):
            break
        }
    }
}
