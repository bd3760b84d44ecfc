import Testing

@testable import HTTPStubs
@testable import HTTPStubsFiles
@testable import HTTPStubsLanguages
@testable import HTTPStubsTemplates

private let strict = JSONComparisonOptions()
private let anyOrder = JSONComparisonOptions(ignoreArrayOrder: true)
private let extraMembers = JSONComparisonOptions(ignoreExtraMembers: true)
private let lenient = JSONComparisonOptions(ignoreArrayOrder: true, ignoreExtraMembers: true)

@Suite struct JSONComparisonTests {
    @Test(
        arguments: [
            (#"{"a": 1, "b": 2}"#, #"{"b": 2, "a": 1}"#, strict, true),
            ("1", "1.0", strict, true),
            ("[1e2]", "[100]", strict, true),
            ("1", "2", strict, false),
            (#""1""#, "1", strict, false),
            ("null", "null", strict, true),
            ("true", "false", strict, false),
            ("[]", "{}", lenient, false),
            (#"{"a": 1}"#, #"{"a": 1, "b": 2}"#, strict, false),
            (#"{"a": 1}"#, #"{"a": 1, "b": 2}"#, extraMembers, true),
            (#"{"a": 1, "b": 2}"#, #"{"a": 1}"#, extraMembers, false),
            (#"{"a": {"b": 1}}"#, #"{"a": {"b": 1, "c": 2}}"#, extraMembers, true),
            (#"[{"id": 1}]"#, #"[{"id": 1, "x": 2}]"#, strict, false),
            (#"[{"id": 1}]"#, #"[{"id": 1, "x": 2}]"#, extraMembers, true),
            (#"{"a": [{"id": 1}]}"#, #"{"a": [{"id": 2, "x": 2}]}"#, extraMembers, false),
            ("[1, 2]", "[2, 1]", strict, false),
            ("[1, 2]", "[2, 1]", anyOrder, true),
            ("[1, 1, 2]", "[1, 2, 2]", anyOrder, false),
            ("[1, 1, 2]", "[2, 1, 1]", anyOrder, true),
            ("[1, 2]", "[1, 2, 3]", extraMembers, false),
            ("[1, 2]", "[1, 2, 3]", lenient, false),
            ("[[1, 2], [3]]", "[[3], [2, 1]]", anyOrder, true),
            ("[[1, 2], [3]]", "[[3], [2, 1]]", strict, false),
            (#"[{"a": 1}, {"a": 1, "b": 2}]"#, #"[{"a": 1, "b": 2, "c": 3}, {"a": 1, "b": 3}]"#, lenient, true),
            (#"[{"a": 1}, {"a": 1, "b": 2}]"#, #"[{"a": 1, "b": 3}, {"a": 1, "b": 3}]"#, lenient, false),
            (#"[1, {"a": 1}, "x"]"#, #"["x", {"a": 1.0}, 1]"#, anyOrder, true),
        ] as [(String, String, JSONComparisonOptions, Bool)]
    )
    func truthTable(expected: String, actual: String, options: JSONComparisonOptions, matches: Bool) throws {
        let expectedValue = try JSONValue(parsing: expected)
        let actualValue = try JSONValue(parsing: actual)
        #expect(expectedValue.matches(actualValue, options: options) == matches)
        #expect(expectedValue.differences(from: actualValue, options: options).isEmpty == matches)
        #expect((expectedValue.distance(to: actualValue, options: options) == 0) == matches)
    }

    @Test func largeUnorderedArraysOfScalars() {
        let expected = JSONValue.array((0..<20_000).map { .number(JSONNumber($0 % 5_000)) })
        let shuffled = JSONValue.array((0..<20_000).reversed().map { .number(JSONNumber($0 % 5_000)) })
        #expect(expected.matches(shuffled, options: anyOrder))
        var changed = shuffled.arrayValue ?? []
        changed[0] = "other"
        #expect(!expected.matches(.array(changed), options: anyOrder))
        #expect(expected.differences(from: .array(changed), options: anyOrder).count == 2)
    }

    @Test func differencesDescribeMismatches() throws {
        let expected = try JSONValue(parsing: #"{"name": "a", "items": [{"id": 1}, {"id": 2}], "flag": true}"#)
        let actual = try JSONValue(parsing: #"{"items": [{"id": 1}, {"id": 3}], "flag": "true", "extra": 1}"#)
        #expect(
            expected.differences(from: actual) == [
                "$.name: missing",
                "$.items[1].id: expected 2, got 3",
                #"$.flag: expected boolean true, got string "true""#,
                "$.extra: unexpected member",
            ]
        )
        #expect(expected.differences(from: actual, limit: 2).count == 2)
        #expect(expected.differences(from: actual, options: extraMembers).count == 3)
        #expect(expected.differences(from: expected).isEmpty)
    }

    @Test func differencesForArrays() throws {
        #expect(
            ([1, 1, 2] as JSONValue).differences(from: [1, 2, 2], options: anyOrder) == [
                "$: no element matches 1", "$[1]: unexpected element 2",
            ]
        )
        #expect(([1, 2] as JSONValue).differences(from: [1]) == ["$: expected 2 elements, got 1"])
        #expect(
            (["tags": [1, 2]] as JSONValue).differences(from: ["tags": [1, 3, 4]]) == [
                "$.tags: expected 2 elements, got 3",
                "$.tags[1]: expected 2, got 3",
            ]
        )
        let long = JSONValue.string(String(repeating: "x", count: 100))
        #expect(
            (1 as JSONValue).differences(from: long) == [
                "$: expected number 1, got string \"" + String(repeating: "x", count: 36) + "..."
            ]
        )
    }

    @Test func distanceIsFractionOfDifferingLeaves() throws {
        let expected: JSONValue = ["a": 1, "b": 2, "c": 3, "d": [4]]
        #expect(expected.distance(to: expected) == 0)
        #expect(expected.distance(to: ["a": 1, "b": 2, "c": 3, "d": [5]]) == 0.25)
        #expect(expected.distance(to: ["a": 1, "b": 2, "c": 3]) == 0.25)
        #expect(expected.distance(to: ["a": 1, "b": 2, "c": 3, "d": [4], "e": 1]) == 0.2)
        #expect(expected.distance(to: ["a": 1, "b": 2, "c": 3, "d": [4], "e": 1], options: extraMembers) == 0)
        #expect(expected.distance(to: [1, 2, 3, 4]) == 1)
        #expect((1 as JSONValue).distance(to: 2) == 1)
        let unordered = [["id": 1, "n": "a"], ["id": 2, "n": "b"]] as JSONValue
        let distance = unordered.distance(to: [["id": 2, "n": "b"], ["id": 1, "n": "z"]], options: anyOrder)
        #expect(distance == 0.25)
    }
}
