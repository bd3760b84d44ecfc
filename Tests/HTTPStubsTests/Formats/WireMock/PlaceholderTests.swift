import Foundation
import Testing

@testable import HTTPStubs
@testable import HTTPStubsFiles
@testable import HTTPStubsLanguages
@testable import HTTPStubsTemplates

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// WireMock's placeholders: JsonUnit's in `equalToJson` and XMLUnit's in `equalToXml` with
/// `"enablePlaceholders": true`. Each case is a mapping loaded through `StubRegistry.load` and asked
/// real URLSession requests. The expectations are what WireMock 2.35.1 (JsonUnit 2.36, XMLUnit
/// 2.9) answered to the same mappings and requests, except the two WireMock 3 placeholders
/// (`any-array`, `missing-or-null`), read from JsonUnit 6.2's source. Placeholders that could never
/// match are load errors, located like every other.
@Suite("WireMock placeholders")
struct PlaceholderTests {
    // MARK: equalToJson

    /// A `bodyPatterns` entry and, for request bodies, whether WireMock matched them.
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let pattern: String
        let bodies: [(body: String, matches: Bool)]
        var testDescription: String { name }
    }

    static let jsonCases: [Case] = [
        Case(
            name: "any-string",
            pattern: #"{"equalToJson": {"a": "${json-unit.any-string}"}}"#,
            bodies: [
                (#"{"a":"x"}"#, true), (#"{"a":""}"#, true), (#"{"a":1}"#, false), (#"{"a":null}"#, false),
                ("{}", false), (#"{"a":"x","b":1}"#, false),
            ]
        ),
        Case(
            name: "any-number",
            pattern: #"{"equalToJson": {"a": "${json-unit.any-number}"}}"#,
            bodies: [
                (#"{"a":1}"#, true), (#"{"a":-1.5e300}"#, true), (#"{"a":"1"}"#, false), (#"{"a":true}"#, false),
                (#"{"a":null}"#, false),
            ]
        ),
        Case(
            name: "any-boolean",
            pattern: #"{"equalToJson": {"a": "${json-unit.any-boolean}"}}"#,
            bodies: [
                (#"{"a":true}"#, true), (#"{"a":false}"#, true), (#"{"a":"true"}"#, false), (#"{"a":0}"#, false),
            ]
        ),
        Case(
            name: "ignore: any value, but the member must be there",
            pattern: #"{"equalToJson": {"a": "${json-unit.ignore}", "b": 1}}"#,
            bodies: [
                (#"{"a":1,"b":1}"#, true), (#"{"a":{"x":[1]},"b":1}"#, true), (#"{"a":null,"b":1}"#, true),
                (#"{"b":1}"#, false), (#"{"a":1,"b":2}"#, false),
            ]
        ),
        Case(
            name: "#{json-unit.ignore}",
            pattern: ##"{"equalToJson": {"a": "#{json-unit.ignore}"}}"##,
            bodies: [
                (#"{"a":1}"#, true), (##"{"a":"#{json-unit.ignore}"}"##, true),
            ]
        ),
        Case(
            name: "#{json-unit.any-string}",
            pattern: ##"{"equalToJson": {"a": "#{json-unit.any-string}"}}"##,
            bodies: [
                (#"{"a":"q"}"#, true), (#"{"a":1}"#, false),
            ]
        ),
        Case(
            name: "ignore-element: any value, or none",
            pattern: #"{"equalToJson": {"a": "${json-unit.ignore-element}", "b": 1}}"#,
            bodies: [
                (#"{"b":1}"#, true), (#"{"a":5,"b":1}"#, true), (#"{"a":null,"b":1}"#, true), (#"{"b":2}"#, false),
            ]
        ),
        Case(
            name: "ignore-element in an array still counts as an element",
            pattern: #"{"equalToJson": [1, "${json-unit.ignore-element}"]}"#,
            bodies: [
                ("[1]", false), ("[1,2]", true), ("[1,2,3]", false),
            ]
        ),
        Case(
            name: "regex: a whole match on a string",
            pattern: #"{"equalToJson": {"a": "${json-unit.regex}[0-9]+"}}"#,
            bodies: [
                (#"{"a":"123"}"#, true), (#"{"a":"12a"}"#, false), (#"{"a":"a12"}"#, false), (#"{"a":123}"#, false),
                (#"{"a":null}"#, false),
            ]
        ),
        Case(
            name: "#{json-unit.regex}",
            pattern: ##"{"equalToJson": {"a": "#{json-unit.regex}[0-9]+"}}"##,
            bodies: [
                (#"{"a":"123"}"#, true), (#"{"a":"x"}"#, false),
            ]
        ),
        Case(
            name: "regex with an empty pattern",
            pattern: #"{"equalToJson": {"a": "${json-unit.regex}"}}"#,
            bodies: [
                (#"{"a":""}"#, true), (#"{"a":"x"}"#, false),
            ]
        ),
        Case(
            name: "regex: '.' does not match a line break",
            pattern: #"{"equalToJson": {"a": "${json-unit.regex}a.b"}}"#,
            bodies: [
                (#"{"a":"a\nb"}"#, false), (#"{"a":"axb"}"#, true),
            ]
        ),
        Case(
            name: "JsonUnit's unescaped '.': any character after json-unit",
            pattern: #"{"equalToJson": {"a": "${json-unitXany-string}"}}"#,
            bodies: [
                (#"{"a":"q"}"#, true), (#"{"a":1}"#, false),
            ]
        ),
        Case(
            name: "the JSON-string form",
            pattern: #"{"equalToJson": "\"${json-unit.any-string}\""}"#,
            bodies: [
                (#""x""#, true), ("1", false),
            ]
        ),
        Case(
            name: "placeholders in an array",
            pattern: #"{"equalToJson": [1, "${json-unit.any-number}"]}"#,
            bodies: [
                ("[1,2]", true), (#"[1,"2"]"#, false), ("[2,1]", false),
            ]
        ),
        Case(
            name: "ignoreArrayOrder with any-string",
            pattern: #"{"equalToJson": ["${json-unit.any-string}", 1], "ignoreArrayOrder": true}"#,
            bodies: [
                (#"[1,"x"]"#, true), (#"["x",1]"#, true), ("[1,2]", false),
            ]
        ),
        Case(
            name: "ignoreArrayOrder with ignore",
            pattern: #"{"equalToJson": ["${json-unit.ignore}", 1], "ignoreArrayOrder": true}"#,
            bodies: [
                (#"[1,{"x":1}]"#, true), ("[1,1]", true), ("[2,3]", false),
            ]
        ),
        Case(
            name: "ignoreArrayOrder with regex",
            pattern: #"{"equalToJson": ["${json-unit.regex}a+", "aa"], "ignoreArrayOrder": true}"#,
            bodies: [
                (#"["aa","a"]"#, true), (#"["aa","b"]"#, false),
            ]
        ),
        Case(
            name: "ignoreArrayOrder with placeholders inside objects",
            pattern: #"{"equalToJson": [{"id": "${json-unit.any-number}"}, {"id": 5}], "ignoreArrayOrder": true}"#,
            bodies: [
                (#"[{"id":5},{"id":7}]"#, true), (#"[{"id":"x"},{"id":5}]"#, false),
            ]
        ),
        Case(
            name: "ignoreExtraElements also admits extra array elements after the expected ones",
            pattern: #"{"equalToJson": {"a": [1]}, "ignoreExtraElements": true}"#,
            bodies: [
                (#"{"a":[1,2]}"#, true), (#"{"a":[2,1]}"#, false), (#"{"a":[]}"#, false),
            ]
        ),
        Case(
            name: "ignoreExtraElements and ignoreArrayOrder: the expected elements anywhere",
            pattern: #"{"equalToJson": [2, 1], "ignoreExtraElements": true, "ignoreArrayOrder": true}"#,
            bodies: [
                ("[3,1,2]", true), ("[1,3]", false),
            ]
        ),
        Case(
            name: "ignoreExtraElements with any-string",
            pattern: #"{"equalToJson": {"a": "${json-unit.any-string}"}, "ignoreExtraElements": true}"#,
            bodies: [
                (#"{"a":"x","b":1}"#, true), (#"{"b":1}"#, false),
            ]
        ),
        Case(
            name: "ignoreExtraElements with ignore-element in an array",
            pattern: #"{"equalToJson": ["${json-unit.ignore-element}", 2], "ignoreExtraElements": true}"#,
            bodies: [
                ("[1,2]", true), ("[2]", false), ("[1,2,3]", true),
            ]
        ),
        Case(
            name: "a nested placeholder",
            pattern: #"{"equalToJson": {"a": {"b": "${json-unit.any-string}"}}}"#,
            bodies: [
                (#"{"a":{"b":"x"}}"#, true), (#"{"a":"x"}"#, false),
            ]
        ),
        Case(
            name: "equalToJson inside matchesJsonPath",
            pattern:
                #"{"matchesJsonPath": {"expression": "$.a", "equalToJson": "{\"b\": \"${json-unit.any-number}\"}"}}"#,
            bodies: [
                (#"{"a":{"b":3}}"#, true), (#"{"a":{"b":"x"}}"#, false),
            ]
        ),
        // WireMock 3 (JsonUnit 3 and later); WireMock 2 compares them literally.
        Case(
            name: "any-array (WireMock 3)",
            pattern: #"{"equalToJson": {"a": "${json-unit.any-array}"}}"#,
            bodies: [
                (#"{"a":[1]}"#, true), (#"{"a":[]}"#, true), (#"{"a":{}}"#, false),
                (#"{"a":"${json-unit.any-array}"}"#, false),
            ]
        ),
        Case(
            name: "missing-or-null (WireMock 3)",
            pattern: #"{"equalToJson": {"a": "${json-unit.missing-or-null}", "b": 1}}"#,
            bodies: [
                (#"{"b":1}"#, true), (#"{"a":null,"b":1}"#, true), (#"{"a":1,"b":1}"#, false),
            ]
        ),
    ]

    @Test("equalToJson honours JsonUnit's placeholders as WireMock does", arguments: jsonCases)
    func jsonPlaceholders(_ example: Case) async throws {
        try await expectMatches(example)
    }

    /// A placeholder that could never match: the text in the file, the JSON path of the error and
    /// what its message says.
    struct Refused: Sendable, CustomTestStringConvertible {
        let pattern: String
        let value: String
        let jsonPath: String
        let message: String
        var testDescription: String { value }
    }

    static let refusedJSON: [Refused] = [
        Refused(
            pattern: ##"{"equalToJson": {"a": "#{json-unit.ignore-element}"}}"##,
            value: ##""#{json-unit.ignore-element}""##,
            jsonPath: "$.request.bodyPatterns[0].equalToJson.a",
            message: "write \"${json-unit.ignore-element}\" (with '$')"
        ),
        Refused(
            pattern: #"{"equalToJson": {"a": "${json-unit.matches:positive}"}}"#,
            value: #""${json-unit.matches:positive}""#,
            jsonPath: "$.request.bodyPatterns[0].equalToJson.a",
            message: "${json-unit.matches:…} needs a matcher registered"
        ),
        Refused(
            pattern: #"{"equalToJson": {"a": "${json-unit.any-object}"}}"#,
            value: #""${json-unit.any-object}""#,
            jsonPath: "$.request.bodyPatterns[0].equalToJson.a",
            message: "is not a JsonUnit placeholder WireMock knows"
        ),
        Refused(
            pattern: #"{"equalToJson": {"a": "${json-unitXignore}"}}"#,
            value: #""${json-unitXignore}""#,
            jsonPath: "$.request.bodyPatterns[0].equalToJson.a",
            message: "would be compared literally"
        ),
        Refused(
            pattern: #"{"equalToJson": [" ${json-unit.any-string}"]}"#,
            value: #"" ${json-unit.any-string}""#,
            jsonPath: "$.request.bodyPatterns[0].equalToJson[0]",
            message: "a placeholder is the whole string"
        ),
        Refused(
            pattern: #"{"equalToJson": {"a": "${json-unit.any-number}!"}}"#,
            value: #""${json-unit.any-number}!""#,
            jsonPath: "$.request.bodyPatterns[0].equalToJson.a",
            message: "a placeholder is the whole string"
        ),
        Refused(
            pattern: #"{"equalToJson": {"a": "${json-unit.regex}["}}"#,
            value: #""${json-unit.regex}[""#,
            jsonPath: "$.request.bodyPatterns[0].equalToJson.a",
            message: "invalid regular expression '['"
        ),
        Refused(
            pattern: #"{"equalToJson": {"a": "${json-unit.regex}(a+)+"}}"#,
            value: #""${json-unit.regex}(a+)+""#,
            jsonPath: "$.request.bodyPatterns[0].equalToJson.a",
            message: "catastrophic backtracking"
        ),
        Refused(
            pattern: #"{"equalToJson": {"a": "${json-unit.regex}a\nb"}}"#,
            value: #""${json-unit.regex}a\nb""#,
            jsonPath: "$.request.bodyPatterns[0].equalToJson.a",
            message: "holds a line break"
        ),
        Refused(
            pattern: #"{"equalToJson": "{\"a\": [\"${json-unit.any-thing}\"]}"}"#,
            value: #""{\"a\": ["#,
            jsonPath: "$.request.bodyPatterns[0].equalToJson",
            message: "at $.a[0] in the JSON string: "
        ),
    ]

    @Test("a JsonUnit placeholder that could never match is a located load error", arguments: refusedJSON)
    func refusedJSONPlaceholder(_ refused: Refused) throws {
        try expectLoadError(refused)
    }

    @Test("stubs written in Swift compare strings literally and keep whole arrays with ignoreExtraMembers")
    func codeMatchersUnaffected() throws {
        let expected: JSONValue = ["a": "${json-unit.any-string}"]
        #expect(!expected.matches(["a": "x"]))
        #expect(expected.matches(["a": "${json-unit.any-string}"]))
        let lenient = JSONComparisonOptions(ignoreExtraMembers: true)
        #expect(!JSONValue.array([1]).matches([1, 2], options: lenient))
        #expect(
            (["a": [1]] as JSONValue).differences(from: ["a": [1, 2]], options: lenient) == [
                "$.a: expected 1 elements, got 2"
            ]
        )
    }

    @Test("near misses name the placeholder, and allowed absences and extra elements are not differences")
    func placeholderDifferences() throws {
        var options = JSONComparisonOptions(ignoreExtraMembers: true)
        options.ignoreExtraArrayElements = true
        options.placeholders = ["${json-unit.any-number}": .anyNumber, "${json-unit.ignore-element}": .ignoreElement]
        let expected: JSONValue = [
            "id": "${json-unit.any-number}", "tags": ["a"], "note": "${json-unit.ignore-element}",
        ]
        #expect(
            expected.differences(from: ["id": "7", "tags": ["a", "b"]], options: options) == [
                #"$.id: expected any number, got string "7""#
            ]
        )
        #expect(expected.distance(to: ["id": 7, "tags": ["a", "b"], "extra": true], options: options) == 0)
        #expect(
            expected.differences(from: ["id": 7, "tags": []], options: options) == [
                "$.tags: expected at least 1 elements, got 0"
            ]
        )
    }

    // MARK: equalToXml

    static let xmlCases: [Case] = [
        Case(
            name: "ignore: any text, none, or an only child element",
            pattern: #"{"equalToXml": "<a><b>${xmlunit.ignore}</b></a>", "enablePlaceholders": true}"#,
            bodies: [
                ("<a><b>x</b></a>", true), ("<a><b/></a>", true), ("<a><b><c/></b></a>", true),
                ("<a><c>x</c></a>", false), ("<a><b>x</b><b>y</b></a>", false),
            ]
        ),
        Case(
            name: "without enablePlaceholders a placeholder is literal text",
            pattern: #"{"equalToXml": "<a><b>${xmlunit.ignore}</b></a>"}"#,
            bodies: [
                ("<a><b>x</b></a>", false), ("<a><b>${xmlunit.ignore}</b></a>", true),
            ]
        ),
        Case(
            name: "enablePlaceholders: false",
            pattern: #"{"equalToXml": "<a><b>${xmlunit.ignore}</b></a>", "enablePlaceholders": false}"#,
            bodies: [
                ("<a><b>x</b></a>", false)
            ]
        ),
        Case(
            name: "isNumber",
            pattern: #"{"equalToXml": "<a>${xmlunit.isNumber}</a>", "enablePlaceholders": true}"#,
            bodies: [
                ("<a>12.5</a>", true), ("<a> -3 </a>", true), ("<a>1e5</a>", true), ("<a>+.5E-3</a>", true),
                ("<a>5.</a>", false), ("<a>abc</a>", false), ("<a/>", false), ("<a>0x1</a>", false),
            ]
        ),
        Case(
            name: "matchesRegex with anchors",
            pattern: #"{"equalToXml": "<a>${xmlunit.matchesRegex(^\\d+$)}</a>", "enablePlaceholders": true}"#,
            bodies: [
                ("<a>123</a>", true), ("<a>12a</a>", false), ("<a/>", false),
            ]
        ),
        Case(
            name: "matchesRegex finds a match anywhere",
            pattern: #"{"equalToXml": "<a>${xmlunit.matchesRegex(\\d)}</a>", "enablePlaceholders": true}"#,
            bodies: [
                ("<a>x1y</a>", true), ("<a>xy</a>", false),
            ]
        ),
        Case(
            name: "matchesRegex: a comma ends the pattern",
            pattern: #"{"equalToXml": "<a>${xmlunit.matchesRegex(a,b)}</a>", "enablePlaceholders": true}"#,
            bodies: [
                ("<a>a</a>", true), ("<a>a,b</a>", true), ("<a>b</a>", false),
            ]
        ),
        Case(
            name: "matchesRegex: the pattern and the text are trimmed",
            pattern: #"{"equalToXml": "<a>${xmlunit.matchesRegex( ^x$ )}</a>", "enablePlaceholders": true}"#,
            bodies: [
                ("<a>x</a>", true), ("<a> x </a>", true),
            ]
        ),
        Case(
            name: "attributes: ignore may be missing, the others must match",
            pattern: #"{"equalToXml": "<a x=\"${xmlunit.ignore}\" y=\"1\"/>", "enablePlaceholders": true}"#,
            bodies: [
                (#"<a x="5" y="1"/>"#, true), (#"<a y="1"/>"#, true), ("<a/>", false), (#"<a x="5" y="2"/>"#, false),
                (#"<a x="5" y="1" z="3"/>"#, false),
            ]
        ),
        Case(
            name: "attribute isNumber",
            pattern: #"{"equalToXml": "<a x=\"${xmlunit.isNumber}\"/>", "enablePlaceholders": true}"#,
            bodies: [
                (#"<a x="5"/>"#, true), (#"<a x="q"/>"#, false), ("<a/>", false),
            ]
        ),
        Case(
            name: "custom delimiters",
            pattern:
                #"{"equalToXml": "<a>[[xmlunit.ignore]]</a>", "enablePlaceholders": true, "placeholderOpeningDelimiterRegex": "\\[\\[", "placeholderClosingDelimiterRegex": "]]"}"#,
            bodies: [
                ("<a>x</a>", true), ("<a/>", true),
            ]
        ),
        Case(
            name: "custom delimiters make ${…} literal",
            pattern:
                #"{"equalToXml": "<a>${xmlunit.ignore}</a>", "enablePlaceholders": true, "placeholderOpeningDelimiterRegex": "\\[\\[", "placeholderClosingDelimiterRegex": "]]"}"#,
            bodies: [
                ("<a>x</a>", false), ("<a>${xmlunit.ignore}</a>", true),
            ]
        ),
        Case(
            name: "whitespace inside and around the placeholder",
            pattern:
                #"{"equalToXml": "<r><a>${ xmlunit.ignore }</a><b>  ${xmlunit.isNumber}  </b></r>", "enablePlaceholders": true}"#,
            bodies: [
                ("<r><a>x</a><b>1</b></r>", true), ("<r><a>x</a><b>y</b></r>", false),
            ]
        ),
        Case(
            name: "CDATA",
            pattern: #"{"equalToXml": "<a><![CDATA[${xmlunit.ignore}]]></a>", "enablePlaceholders": true}"#,
            bodies: [
                ("<a>x</a>", true), ("<a><![CDATA[y]]></a>", true),
            ]
        ),
        Case(
            name: "ignore beside text and an element",
            pattern: #"{"equalToXml": "<a>${xmlunit.ignore}</a>", "enablePlaceholders": true}"#,
            bodies: [
                ("<a><b/></a>", true), ("<a>t<b/></a>", false),
            ]
        ),
        Case(
            name: "the same placeholder twice",
            pattern:
                #"{"equalToXml": "<r><a>${xmlunit.isNumber}</a><a>${xmlunit.isNumber}</a></r>", "enablePlaceholders": true}"#,
            bodies: [
                ("<r><a>1</a><a>2</a></r>", true), ("<r><a>1</a><a>x</a></r>", false),
            ]
        ),
        Case(
            name: "a placeholder does not change the element's name",
            pattern: #"{"equalToXml": "<a>${xmlunit.ignore}</a>", "enablePlaceholders": true}"#,
            bodies: [
                ("<b>x</b>", false)
            ]
        ),
        Case(
            name: "an empty exemptedComparisons changes nothing",
            pattern: #"{"equalToXml": "<a>x</a>", "exemptedComparisons": []}"#,
            bodies: [
                ("<a>x</a>", true), ("<a>y</a>", false),
            ]
        ),
    ]

    @Test("equalToXml with enablePlaceholders honours XMLUnit's placeholders as WireMock does", arguments: xmlCases)
    func xmlPlaceholders(_ example: Case) async throws {
        try await expectMatches(example)
    }

    static let refusedXML: [Refused] = [
        Refused(
            pattern: #"{"equalToXml": "<a>${xmlunit.isDateTime}</a>", "enablePlaceholders": true}"#,
            value: #""<a>${xmlunit.isDateTime}</a>""#,
            jsonPath: "$.request.bodyPatterns[0].equalToXml",
            message: "/a: \"${xmlunit.isDateTime}\": ${xmlunit.isDateTime} is not supported"
        ),
        Refused(
            pattern: #"{"equalToXml": "<a><b>${xmlunit.foo}</b></a>", "enablePlaceholders": true}"#,
            value: #""<a><b>${xmlunit.foo}</b></a>""#,
            jsonPath: "$.request.bodyPatterns[0].equalToXml",
            message: "/a/b: \"${xmlunit.foo}\" is not an XMLUnit placeholder (the keyword \"foo\" is unknown)"
        ),
        Refused(
            pattern: #"{"equalToXml": "<a>id ${xmlunit.ignore}</a>", "enablePlaceholders": true}"#,
            value: #""<a>id ${xmlunit.ignore}</a>""#,
            jsonPath: "$.request.bodyPatterns[0].equalToXml",
            message: "must be the whole text or attribute value"
        ),
        Refused(
            pattern: #"{"equalToXml": "<a x=\"${xmlunit.ignore}${xmlunit.ignore}\"/>", "enablePlaceholders": true}"#,
            value: #""<a x="#,
            jsonPath: "$.request.bodyPatterns[0].equalToXml",
            message: "is not an XMLUnit placeholder"
        ),
        Refused(
            pattern: #"{"equalToXml": "<a>${xmlunit.matchesRegex([)}</a>", "enablePlaceholders": true}"#,
            value: #""<a>${xmlunit.matchesRegex([)}</a>""#,
            jsonPath: "$.request.bodyPatterns[0].equalToXml",
            message: "invalid regular expression '['"
        ),
        Refused(
            pattern: #"{"equalToXml": "<a>${xmlunit.matchesRegex((x|y)z)}</a>", "enablePlaceholders": true}"#,
            value: #""<a>${xmlunit.matchesRegex((x|y)z)}</a>""#,
            jsonPath: "$.request.bodyPatterns[0].equalToXml",
            message: "the keyword \"matchesRegex(\" is unknown"
        ),
        Refused(
            pattern: #"{"equalToXml": "<a>${xmlunit.matchesRegex(,)}</a>", "enablePlaceholders": true}"#,
            value: #""<a>${xmlunit.matchesRegex(,)}</a>""#,
            jsonPath: "$.request.bodyPatterns[0].equalToXml",
            message: "needs a regular expression between the parentheses"
        ),
        Refused(
            pattern:
                #"{"equalToXml": "<a>[[xmlunit.ignore]]</a>", "enablePlaceholders": true, "placeholderOpeningDelimiterRegex": "[["}"#,
            value: #""[[""#,
            jsonPath: "$.request.bodyPatterns[0].placeholderOpeningDelimiterRegex",
            message: "invalid regular expression '[['"
        ),
        Refused(
            pattern: #"{"equalToXml": "<a>x</a>", "exemptedComparisons": ["TEXT_VALUE"]}"#,
            value: #"["TEXT_VALUE"]"#,
            jsonPath: "$.request.bodyPatterns[0].exemptedComparisons",
            message: "'exemptedComparisons' (TEXT_VALUE) is not supported by swift-http-stubs"
        ),
        Refused(
            pattern: #"{"equalToXml": "<a>x</a>", "enablePlaceholders": "yes"}"#,
            value: #""yes""#,
            jsonPath: "$.request.bodyPatterns[0].enablePlaceholders",
            message: "must be true or false"
        ),
    ]

    @Test(
        "an XMLUnit placeholder or option that could never work as written is a located load error",
        arguments: refusedXML
    )
    func refusedXMLPlaceholder(_ refused: Refused) throws {
        try expectLoadError(refused)
    }

    @Test("placeholder delimiters without enablePlaceholders are a warning, as WireMock ignores them")
    func delimitersWithoutPlaceholders() async throws {
        let pattern =
            #"{"equalToXml": "<a>[[xmlunit.ignore]]</a>", "placeholderOpeningDelimiterRegex": "\\[\\[", "placeholderClosingDelimiterRegex": "]]"}"#
        let root = try TemporaryStubRoot(mappings: ["x.json": mapping(pattern)])
        let load = root.load()
        #expect(load.errors.isEmpty, "\(load.diagnostics)")
        #expect(
            load.warnings.map(\.jsonPath) == [
                "$.request.bodyPatterns[0].placeholderOpeningDelimiterRegex",
                "$.request.bodyPatterns[0].placeholderClosingDelimiterRegex",
            ]
        )
        #expect(
            load.warnings.allSatisfy {
                $0.message.contains("has no effect without \"enablePlaceholders\": true") && $0.source.line != nil
            }
        )
        let registry = try root.registry()
        let session = registry.makeSession()
        #expect(await complete(session, request("POST", "http://localhost/t", body: "<a>x</a>")).isUnmatched)
        #expect(
            await complete(session, request("POST", "http://localhost/t", body: "<a>[[xmlunit.ignore]]</a>")).status
                == 200
        )
        #expect(registry.unmatchedRequests.count == 1, "the registry answered both requests itself")
    }

    // MARK: Helpers

    /// Loads the case's pattern through `StubRegistry.load` and sends each body through URLSession.
    private func expectMatches(_ example: Case, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let root = try TemporaryStubRoot(mappings: ["x.json": mapping(example.pattern)])
        let registry = StubRegistry()
        try registry.load(root.path)
        let session = registry.makeSession()
        for (body, matches) in example.bodies {
            let completion = await complete(session, request("POST", "http://localhost/t", body: body))
            if matches {
                #expect(
                    completion.status == 200,
                    "\(example.name): \(body) should match: \(String(describing: completion.error))",
                    sourceLocation: sourceLocation
                )
            } else {
                #expect(
                    completion.isUnmatched,
                    "\(example.name): \(body) should not match",
                    sourceLocation: sourceLocation
                )
            }
        }
        // Also keeps the registry alive until every request has been answered.
        #expect(
            registry.unmatchedRequests.count == example.bodies.filter { !$0.matches }.count,
            sourceLocation: sourceLocation
        )
    }

    /// Checks that loading the pattern through `StubRegistry.load` fails with one error, located
    /// at the first occurrence of `value` in the file and at the JSON path.
    private func expectLoadError(_ refused: Refused, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let text = mapping(refused.pattern)
        let root = try TemporaryStubRoot(mappings: ["x.json": text])
        let registry = StubRegistry()
        let thrown = #expect(throws: StubFileError.self, sourceLocation: sourceLocation) {
            try registry.load(root.path)
        }
        let errors = thrown?.diagnostics.filter { $0.severity == .error } ?? []
        #expect(errors.count == 1, "\(errors)", sourceLocation: sourceLocation)
        let error = try #require(errors.first, sourceLocation: sourceLocation)
        let (line, column) = sourcePosition(of: refused.value, in: text)
        #expect(error.jsonPath == refused.jsonPath, "\(error)", sourceLocation: sourceLocation)
        #expect(
            error.source.line == line && error.source.column == column,
            "expected \(line):\(column), got \(error)",
            sourceLocation: sourceLocation
        )
        #expect(
            error.description.hasPrefix(
                "\(root.path("mappings/x.json")):\(line):\(column): error: \(refused.jsonPath): "
            ),
            "\(error)",
            sourceLocation: sourceLocation
        )
        #expect(error.message.contains(refused.message), "\(error.message)", sourceLocation: sourceLocation)
        #expect(registry.stubs.isEmpty, sourceLocation: sourceLocation)
    }

    /// A mapping answering `POST /t` when the body passes `pattern`.
    private func mapping(_ pattern: String) -> String {
        """
        {
          "request": {"method": "POST", "url": "/t", "bodyPatterns": [\(pattern)]},
          "response": {"status": 200, "body": "ok"}
        }
        """
    }
}
