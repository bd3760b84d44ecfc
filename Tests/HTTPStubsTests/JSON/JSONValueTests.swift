import Foundation
import Testing

@testable import HTTPStubs
@testable import HTTPStubsFiles
@testable import HTTPStubsLanguages
@testable import HTTPStubsTemplates

@Suite struct JSONValueTests {
    @Test func literalsBuildEveryKind() {
        let value: JSONValue = ["s": "text", "i": 1, "d": 2.5, "b": true, "n": nil, "a": [1, "x"], "o": [:]]
        #expect(value.objectValue?["s"] == .string("text"))
        #expect(value.objectValue?["i"] == .number(JSONNumber(1)))
        #expect(value.objectValue?["d"]?.numberValue?.text == "2.5")
        #expect(value.objectValue?["b"] == .bool(true))
        #expect(value.objectValue?["n"] == .null)
        #expect(value.objectValue?["a"] == .array([1, "x"]))
        #expect(value.objectValue?["o"] == .object(JSONObject()))
        #expect(value.objectValue?.keys == ["s", "i", "d", "b", "n", "a", "o"])
    }

    @Test func accessorsReturnNilForOtherKinds() {
        let string: JSONValue = "x"
        #expect(string.stringValue == "x")
        #expect(string.numberValue == nil)
        #expect(string.boolValue == nil)
        #expect(string.arrayValue == nil)
        #expect(string.objectValue == nil)
        #expect(JSONValue.bool(false).boolValue == false)
        #expect(JSONValue.array([1]).arrayValue == [1])
        #expect(JSONValue.number(JSONNumber(7)).numberValue?.int64Value == 7)
    }

    @Test func typeNames() {
        let values: [JSONValue] = [[:], [], "", 0, true, nil]
        #expect(values.map(\.typeName) == ["object", "array", "string", "number", "boolean", "null"])
    }

    @Test func numbersCompareByValue() throws {
        let one = JSONNumber(1)
        for text in ["1", "1.0", "1e0", "100e-2", "0.1E1", "1.000"] {
            let number = try #require(JSONNumber(text: text))
            #expect(number == one, "\(text)")
            #expect(number.hashValue == one.hashValue, "\(text)")
            #expect(number.text == text)
        }
        #expect(JSONNumber(text: "-0") == JSONNumber(0))
        #expect(JSONNumber(text: "0.1") != JSONNumber(text: "0.10000000000000001"))
        #expect(
            JSONNumber(text: "123456789012345678901234567890") != JSONNumber(text: "123456789012345678901234567891")
        )
        #expect(JSONNumber(text: "1e-999999") != JSONNumber(0))
        #expect(JSONNumber(text: "-1") != JSONNumber(1))
    }

    @Test func numberInitialisers() {
        #expect(JSONNumber(-42).text == "-42")
        #expect(JSONNumber(2.5)?.text == "2.5")
        #expect(JSONNumber(Double.nan) == nil)
        #expect(JSONNumber(Double.infinity) == nil)
        #expect(JSONNumber(text: "01") == nil)
        #expect(JSONNumber(text: "+1") == nil)
        #expect(JSONNumber(text: "NaN") == nil)
        #expect(JSONNumber(text: "\"1\"") == nil)
    }

    @Test func numberConversions() {
        #expect(JSONNumber(text: "9223372036854775807")?.int64Value == Int64.max)
        #expect(JSONNumber(text: "-9223372036854775808")?.int64Value == Int64.min)
        #expect(JSONNumber(text: "9223372036854775808")?.int64Value == nil)
        #expect(JSONNumber(text: "4.2e1")?.int64Value == 42)
        #expect(JSONNumber(text: "0.0")?.int64Value == 0)
        #expect(JSONNumber(text: "1.5")?.int64Value == nil)
        #expect(JSONNumber(text: "1e20")?.int64Value == nil)
        #expect(JSONNumber(text: "-2.5e-1")?.doubleValue == -0.25)
        #expect(JSONNumber(text: "1e999999")?.doubleValue == .infinity)
    }

    @Test func objectsKeepOrderAndLastDuplicateWins() throws {
        let object = try #require(JSONValue(parsing: #"{"b": 1, "a": 2, "b": 3}"#).objectValue)
        #expect(object.members.map(\.key) == ["b", "a", "b"])
        #expect(object.keys == ["b", "a"])
        #expect(object["b"] == 3)
        #expect(object["missing"] == nil)
        #expect(object == ["a": 2, "b": 3])
        #expect(object.hashValue == JSONObject(dictionaryLiteral: ("a", 2), ("b", 3)).hashValue)
        #expect(object != ["a": 2, "b": 1])
        #expect(object != ["a": 2])
    }

    @Test func objectSubscriptSetter() {
        var object: JSONObject = ["a": 1, "b": 2, "a": 3]
        object["a"] = 4
        #expect(
            object.members == [
                JSONMember(key: "a", value: 1), JSONMember(key: "b", value: 2), JSONMember(key: "a", value: 4),
            ]
        )
        object["c"] = 5
        #expect(object.keys == ["a", "b", "c"])
        object["a"] = nil
        #expect(object.keys == ["b", "c"])
        #expect(!object.isEmpty)
    }

    @Test func valuesAreHashable() {
        let set: Set<JSONValue> = [["a": 1, "b": 2.0], ["b": 2, "a": 1.0], [1, 2], [2, 1]]
        #expect(set.count == 3)
    }

    @Test func encodingAnEncodable() throws {
        struct Point: Encodable {
            let x: Int
            let label: String
            let tags: [String]
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let value = try JSONValue(encoding: Point(x: 3, label: "p", tags: ["t"]), encoder: encoder)
        #expect(value == ["x": 3, "label": "p", "tags": ["t"]])
        #expect(value.objectValue?.keys == ["label", "tags", "x"])
    }
}
