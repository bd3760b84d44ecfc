import Foundation
import Testing
@testable import HTTPStubs

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
        let document = try JSONValue.parseDocument(Data(#"{"a": 1, "b": {"c": 1, "c": 2}, "a": 3, "d": [{"e": 1, "e": 1}]}"#.utf8))
        #expect(document.duplicateKeys.map(\.description) == ["$.b.c", "$.a", "$.d[0].e"])
        #expect(document.root.objectValue?["a"] == 3)
        #expect(document.location(of: JSONPath([.key("a")]))?.column == 38)
    }

    @Test func columnsIgnoreByteOrderMark() throws {
        let document = try JSONValue.parseDocument(Data([0xEF, 0xBB, 0xBF] + Array(#"{"a": 1}"#.utf8)))
        #expect(document.location(of: JSONPath([.key("a")])) == JSONSourceLocation(line: 1, column: 7, offset: 9))
    }

    @Test func parseErrorsAreLocated() {
        #expect(throws: JSONParseError(message: "expected a value, found 'x'", line: 2, column: 8, offset: 9, jsonPath: "$.a")) {
            try JSONValue.parseDocument(Data("{\n  \"a\": x}".utf8))
        }
    }

    @Test func pathDescriptions() {
        #expect(JSONPath.root.description == "$")
        #expect(JSONPath([.key("mappings"), .index(3), .key("response")]).description == "$.mappings[3].response")
        let headers = JSONPath([.key("request"), .key("headers")]).appending(.key("Content-Type")).appending(.key("equalTo"))
        #expect(headers.description == "$.request.headers['Content-Type'].equalTo")
        #expect(JSONPath([.key("it's\\")]).description == #"$['it\'s\\']"#)
        #expect(JSONPath([.key(""), .key("1a"), .key("_$x9")]).description == "$[''].['1a']._$x9".replacingOccurrences(of: "].[", with: "]["))
    }
}
