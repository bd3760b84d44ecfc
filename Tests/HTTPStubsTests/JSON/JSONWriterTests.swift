import Testing

@testable import HTTPStubs
@testable import HTTPStubsFiles
@testable import HTTPStubsLanguages
@testable import HTTPStubsTemplates

@Suite struct JSONWriterTests {
    @Test func escapesStrings() {
        let value = JSONValue.string("a\"b\\c/d\u{1}\u{8}\u{C}\n\r\t\u{1F}é😀\u{7F}")
        #expect(value.serialized() == #""a\"b\\c/d\u0001\b\f\n\r\t\u001fé😀"# + "\u{7F}\"")
    }

    @Test func escapedStringsParseBack() throws {
        let original = JSONValue.string((0..<128).map { String(UnicodeScalar(UInt8($0))) }.joined())
        #expect(try JSONValue(parsing: original.serialized()) == original)
    }

    @Test func prettyOutput() {
        let value: JSONValue = ["name": "x", "tags": [1, 2.5], "nested": ["ok": true], "empty": [:], "none": []]
        #expect(
            value.serialized(pretty: true) == """
                {
                  "name": "x",
                  "tags": [
                    1,
                    2.5
                  ],
                  "nested": {
                    "ok": true
                  },
                  "empty": {},
                  "none": []
                }
                """
        )
    }

    @Test func compactOutputAndDescription() {
        let value: JSONValue = ["b": [1, nil], "a": "x"]
        #expect(value.serialized() == #"{"b":[1,null],"a":"x"}"#)
        #expect(value.description == value.serialized())
        #expect("\(value)" == #"{"b":[1,null],"a":"x"}"#)
    }

    @Test func sortedKeys() {
        let value: JSONValue = ["b": 1, "a": ["d": 1, "c": 2]]
        #expect(value.serialized(sortedKeys: true) == #"{"a":{"c":2,"d":1},"b":1}"#)
        #expect(
            value.serialized(pretty: true, sortedKeys: true)
                == "{\n  \"a\": {\n    \"c\": 2,\n    \"d\": 1\n  },\n  \"b\": 1\n}"
        )
    }
}
