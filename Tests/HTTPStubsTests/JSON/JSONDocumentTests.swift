import Foundation
import Testing

@testable import HTTPStubs
@testable import HTTPStubsFiles
@testable import HTTPStubsLanguages
@testable import HTTPStubsTemplates

@Suite struct JSONDocumentTests {
    let text = """
        {
          "request": {
            "method": "GET",
            "headers": { "Content-Type": { "equalTo": "a" } }
          },
          "list": [10, {"k": true}]
        }
        """

    @Test func locatesValuesAndKeys() throws {
        let document = try JSONValue.parseDocument(Data(text.utf8))
        func location(_ components: [JSONPath.Component]) -> String? {
            document.location(of: JSONPath(components)).map(\.description)
        }
        func keyLocation(_ components: [JSONPath.Component]) -> String? {
            document.keyLocation(of: JSONPath(components)).map(\.description)
        }
        #expect(location([]) == "1:1")
        #expect(location([.key("request")]) == "2:14")
        #expect(keyLocation([.key("request")]) == "2:3")
        #expect(location([.key("request"), .key("method")]) == "3:15")
        #expect(keyLocation([.key("request"), .key("method")]) == "3:5")
        #expect(location([.key("request"), .key("headers")]) == "4:16")
        #expect(location([.key("request"), .key("headers"), .key("Content-Type")]) == "4:34")
        #expect(location([.key("request"), .key("headers"), .key("Content-Type"), .key("equalTo")]) == "4:47")
        #expect(keyLocation([.key("request"), .key("headers"), .key("Content-Type"), .key("equalTo")]) == "4:36")
        #expect(location([.key("list")]) == "6:11")
        #expect(location([.key("list"), .index(0)]) == "6:12")
        #expect(location([.key("list"), .index(1)]) == "6:16")
        #expect(location([.key("list"), .index(1), .key("k")]) == "6:22")
        #expect(location([.key("list"), .index(2)]) == nil)
        #expect(keyLocation([.key("nope")]) == nil)
        #expect(document.location(of: JSONPath([.key("list"), .index(1)]))?.offset == text.utf8.count - 14)
        #expect(document.root.objectValue?["list"] == [10, ["k": true]])
        #expect(document.duplicateKeys.isEmpty)
    }

    @Test func reportsDuplicateKeys() throws {
        let document = try JSONValue.parseDocument(
            Data(#"{"a": 1, "b": {"c": 1, "c": 2}, "a": 3, "d": [{"e": 1, "e": 1}]}"#.utf8)
        )
        #expect(document.duplicateKeys.map(\.description) == ["$.b.c", "$.a", "$.d[0].e"])
        #expect(document.root.objectValue?["a"] == 3)
        #expect(document.location(of: JSONPath([.key("a")]))?.column == 38)
    }

    @Test(
        "under a repeated key, what only an earlier occurrence holds keeps its location, and the last value written wins",
        arguments: [JSONParser.Dialect.strict, .wireMock]
    )
    func locationsUnderARepeatedKey(_ dialect: JSONParser.Dialect) throws {
        /// `a.x` is `$.a.x`, `a.2` is `$.a[2]`.
        func path(_ text: String) -> JSONPath {
            JSONPath(text.split(separator: ".").map { Int($0).map(JSONPath.Component.index) ?? .key(String($0)) })
        }
        let objects = try JSONValue.parseDocument(Data(#"{"a":{"x":1},"a":{"y":2}}"#.utf8), dialect: dialect)
        #expect(objects.location(of: path("a.x"))?.description == "1:11")
        #expect(objects.location(of: path("a.y"))?.description == "1:23")
        #expect(objects.location(of: path("a"))?.description == "1:18")
        let arrays = try JSONValue.parseDocument(Data(#"{"a":[1,2,3],"a":[4]}"#.utf8), dialect: dialect)
        #expect(arrays.location(of: path("a.2"))?.description == "1:11")
        #expect(arrays.location(of: path("a.0"))?.description == "1:19")
        let nested = try JSONValue.parseDocument(Data(#"{"a":{"x":1,"x":2},"a":{}}"#.utf8), dialect: dialect)
        #expect(nested.duplicateKeys.map(\.description) == ["$.a.x", "$.a"])
        #expect(nested.keyLocation(of: path("a.x"))?.description == "1:13")
        #expect(nested.location(of: path("a.x"))?.description == "1:17")
        #expect(nested.keyLocation(of: path("a"))?.description == "1:20")
    }

    @Test("in WireMock's dialect a repeated key keeps its first place and its last value, in small and large objects")
    func wireMockDialectKeepsTheLastValueOfARepeatedKey() throws {
        for count in [3, 16, 17, 40] {
            let written = (0..<count).map { "\"k\($0)\": \($0)" }
            for repeated in [false, true] {
                let text = "{" + (written + (repeated ? [#""k1": "last""#] : [])).joined(separator: ", ") + "}"
                var recorder: JSONLocationRecorder?
                let (value, _) = try JSONParser.parse(Data(text.utf8), dialect: .wireMock, recorder: &recorder)
                let object = try #require(value.objectValue)
                #expect(object.members.map(\.key) == (0..<count).map { "k\($0)" }, "\(count) members")
                #expect(object["k1"] == (repeated ? "last" : 1), "\(count) members")
                #expect(object["k0"] == 0, "\(count) members")
            }
        }
    }

    @Test func columnsIgnoreByteOrderMark() throws {
        let document = try JSONValue.parseDocument(Data([0xEF, 0xBB, 0xBF] + Array(#"{"a": 1}"#.utf8)))
        #expect(document.location(of: JSONPath([.key("a")])) == JSONSourceLocation(line: 1, column: 7, offset: 9))
    }

    @Test func parseErrorsAreLocated() {
        #expect(
            throws: JSONParseError(
                message: "expected a value, found 'x'",
                line: 2,
                column: 8,
                offset: 9,
                jsonPath: "$.a"
            )
        ) {
            try JSONValue.parseDocument(Data("{\n  \"a\": x}".utf8))
        }
    }

    @Test func pathDescriptions() {
        #expect(JSONPath.root.description == "$")
        #expect(JSONPath([.key("mappings"), .index(3), .key("response")]).description == "$.mappings[3].response")
        let headers = JSONPath([.key("request"), .key("headers")]).appending(.key("Content-Type")).appending(
            .key("equalTo")
        )
        #expect(headers.description == "$.request.headers['Content-Type'].equalTo")
        #expect(JSONPath([.key("it's\\")]).description == #"$['it\'s\\']"#)
        #expect(
            JSONPath([.key(""), .key("1a"), .key("_$x9")]).description
                == "$[''].['1a']._$x9".replacingOccurrences(of: "].[", with: "][")
        )
    }

    @Test("locations on long lines, past many column checkpoints, count Unicode scalars from the line start")
    func locationsOnLongLines() throws {
        // A byte order mark, then one long line of multi-byte strings, a line break, and another long line.
        let words = ["a", "é", "😀", "日本", "b c"]
        let items = (0..<3_000).map { "\"\(words[$0 % words.count])\"" }
        let text =
            "\u{FEFF}[" + items[..<1_500].joined(separator: ",") + ",\n" + items[1_500...].joined(separator: ", ") + "]"
        let document = try JSONValue.parseDocument(Data(text.utf8))
        // The expected column of each item: 1 + the Unicode scalars before it on its line.
        let scalars = Array(text.unicodeScalars.dropFirst())
        var expected: [String] = []
        var line = 1
        var column = 1
        var inString = false
        for scalar in scalars {
            if scalar == "\"" {
                if !inString { expected.append("\(line):\(column)") }
                inString.toggle()
            }
            if scalar == "\n" {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        let located = (0..<items.count).map { document.location(of: JSONPath([.index($0)]))?.description ?? "none" }
        #expect(located == expected)
        #expect(document.location(of: .root)?.description == "1:1")
    }
}
