import Foundation
import Testing

@testable import HTTPStubs
@testable import HTTPStubsFiles
@testable import HTTPStubsLanguages
@testable import HTTPStubsTemplates

/// Every case of `Tests/Fixtures/Templates/wiremock-answers.jsonl` (what real WireMock 2.35.1
/// answered, or for 3.x features the case's `wiremock3` expectation) whose template is the
/// response body, rendered through ``ResponseTemplate`` with the recorded request: the same body
/// bytes, or an error where WireMock answered 500 (a load error for `parse` and `unknown-helper`,
/// a render error otherwise). Volatile cases match their regex on a clock fixed at `clockBefore`.
/// Cases whose template is not the body (headers, `status`, `jsonBody`, `bodyFileName`) belong to
/// the wiring's tests: see ``notBody``. Differences kept on purpose are in ``differences``.
@Suite("Templating: WireMock's answers")
struct TemplateWireMockAnswersTests {
    static let answers = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Tests/Fixtures/Templates/wiremock-answers.jsonl")
    static let cases = answers.deletingLastPathComponent().appendingPathComponent("cases.json")

    /// Cases where the toolkit differs from WireMock on purpose, with the reason (also in
    /// /work/notes/templating-differences.md).
    static let differences: [String: String] = [
        "core/raw-block": "raw blocks are refused with a located load error; WireMock renders them empty",
        "core/partial":
            "a partial is a load error (WireMock has no partials registered and fails with 500 when rendering)",
        "core/escape-unicode":
            "header values keep their UTF-8 text; WireMock (Jetty) reads header bytes as ISO-8859-1 (mojibake)",
        "jsonPath/scc-lowercase-this":
            "Spring Cloud Contract's `jsonpath this` is implemented (this = the request body), as SCC's own "
            + "WireMock extension does; plain WireMock 2.35.1 has no `jsonpath` helper",
    ]

    /// Why a case is left to the wiring's tests: its template is not (only) the response body.
    static func notBody(_ object: [String: JSONValue]) -> String? {
        if object["template"] == nil { return "the template is in a header or the status" }
        if case .object(let stub)? = object["stub"], case .object(let response)? = stub["response"],
            response["jsonBody"] != nil || response["bodyFileName"] != nil || response["base64Body"] != nil
        {
            return "jsonBody, bodyFileName or base64Body: the wiring renders these"
        }
        if object["headers"] != nil || object["status"] != nil { return "templated headers or status" }
        if object["transformers"] != nil { return "which stubs are templated is the wiring's decision" }
        return nil
    }

    struct Answer: CustomTestStringConvertible, Sendable {
        let name: String
        let template: String
        let request: InterceptedRequest
        let pathTemplate: String?
        let parameters: TemplateObject
        /// The expected body, or `nil` for an error.
        let body: String?
        let regex: String?
        let errorKind: String?
        let clock: Double?
        var testDescription: String { name }
    }

    static func load() -> [Answer] {
        guard let answerText = try? String(contentsOf: answers, encoding: .utf8),
            let caseData = try? Data(contentsOf: cases),
            case .array(let caseList)? = try? JSONValue(parsing: caseData)
        else { return [] }
        var caseObjects: [String: [String: JSONValue]] = [:]
        for item in caseList {
            if case .object(let object) = item, case .string(let name)? = object["name"] {
                caseObjects[name] = Dictionary(object.members.map { ($0.key, $0.value) }) { _, last in last }
            }
        }
        var result: [Answer] = []
        for line in answerText.split(separator: "\n") {
            guard case .object(let answer)? = try? JSONValue(parsing: String(line)),
                case .string(let name)? = answer["name"], let object = caseObjects[name],
                notBody(object) == nil,
                case .string(let template)? = object["template"],
                case .object(let request)? = answer["request"],
                case .string(let method)? = request["method"], case .string(let url)? = request["url"]
            else { continue }
            var headers = HeaderFields()
            var host = "localhost"
            if case .array(let pairs)? = request["headers"] {
                for pair in pairs {
                    if case .array(let nameValue) = pair, nameValue.count == 2, case .string(let key) = nameValue[0],
                        case .string(let value) = nameValue[1]
                    {
                        headers.add(key, value)
                        if key.lowercased() == "host" { host = value }
                    }
                }
            }
            var body: Data?
            if case .string(let text)? = request["body"] { body = Data(text.utf8) }
            guard let requestURL = URL(string: "http://\(host)\(url)") else { continue }
            var pathTemplate: String?
            if case .object(let stub)? = object["stub"], case .object(let stubRequest)? = stub["request"],
                case .string(let text)? = stubRequest["urlPathTemplate"]
            {
                pathTemplate = text
            }
            var parameters = TemplateObject()
            if case .object(let given)? = object["transformerParameters"],
                case .object(let converted) = TemplateValue(json: .object(given))
            {
                parameters = converted
            }
            var expectedBody: String?
            var regex: String?
            var errorKind: String?
            if case .string(let text)? = answer["body"] { expectedBody = text }
            if case .string(let text)? = answer["regex"] { regex = text }
            if case .string(let text)? = answer["errorKind"] { errorKind = text }
            if case .object(let third)? = answer["wiremock3"] {
                if case .string(let text)? = third["body"] {
                    (expectedBody, regex, errorKind) = (text, nil, nil)
                } else if case .string(let text)? = third["regex"] {
                    (expectedBody, regex, errorKind) = (nil, text, nil)
                }
            } else if answer["loadError"] != nil {
                continue
            }
            var clock: Double?
            if case .number(let value)? = answer["clockBefore"] { clock = value.doubleValue }
            result.append(
                Answer(
                    name: name,
                    template: template,
                    request: InterceptedRequest(
                        method: InterceptedRequest.Method(rawValue: method),
                        url: requestURL,
                        headers: headers,
                        body: body
                    ),
                    pathTemplate: pathTemplate,
                    parameters: parameters,
                    body: expectedBody,
                    regex: regex,
                    errorKind: errorKind,
                    clock: clock
                )
            )
        }
        return result
    }

    static let loaded = load()

    @Test("Enough cases are selected", .enabled(if: FileManager.default.fileExists(atPath: answers.path)))
    func enoughCases() {
        #expect(Self.loaded.count >= 400, "\(Self.loaded.count)")
    }

    @Test(
        "Same body as WireMock",
        .enabled(if: FileManager.default.fileExists(atPath: answers.path)),
        arguments: loaded.filter { differences[$0.name] == nil }
    )
    func sameBody(_ answer: Answer) throws {
        let clock =
            answer.clock.map { Date(timeIntervalSince1970: $0 / 1000) } ?? Date(timeIntervalSince1970: 1_700_000_000)
        let counter = Counter()
        let environment = TemplateEnvironment(
            now: { clock },
            random: { bound in counter.next(bound) },
            pathTemplate: answer.pathTemplate.map(URITemplate.init)
        )
        let parsed = Result { () throws(TemplateSyntaxError) -> ResponseTemplate in
            try ResponseTemplate.parse(answer.template)
        }
        switch parsed {
        case .failure(let error):
            #expect(
                answer.errorKind == "parse" || answer.errorKind == "unknown-helper" || answer.errorKind == "transform",
                "WireMock answers \(String(describing: answer.body ?? answer.regex)), the load fails: \(error)"
            )
            return
        case .success(let template):
            #expect(
                answer.errorKind != "parse" && answer.errorKind != "unknown-helper",
                "WireMock cannot load \(answer.template.debugDescription), the toolkit can"
            )
            let rendered = Result { () throws(TemplateRenderError) -> String in
                try template.render(answer.request, environment: environment, parameters: answer.parameters)
            }
            switch rendered {
            case .success(let output):
                if let regex = answer.regex {
                    #expect(output.wholeMatch(of: try Regex(regex)) != nil, "\(output.debugDescription) !~ \(regex)")
                } else if let body = answer.body {
                    #expect(output == body, "\(answer.template.debugDescription)")
                } else {
                    Issue.record(
                        "WireMock fails (\(answer.errorKind ?? "")), the toolkit renders \(output.debugDescription)"
                    )
                }
            case .failure(let error):
                #expect(
                    answer.errorKind != nil,
                    "WireMock answers \(String(describing: answer.body ?? answer.regex)), the render fails: \(error)"
                )
            }
        }
    }

    /// A deterministic random source for the tests: 0, 1, 2, … modulo the bound.
    final class Counter: @unchecked Sendable {
        // Invariant: `value` is only touched while `lock` is held.
        private let lock = NSLock()
        private var value = 0

        func next(_ bound: Int) -> Int {
            lock.lock()
            defer { lock.unlock() }
            value += 1
            return bound > 0 ? value % bound : 0
        }
    }
}
