import Foundation
import Testing

@testable import HTTPStubs
@testable import HTTPStubsFiles
@testable import HTTPStubsLanguages
@testable import HTTPStubsTemplates

/// The error thrown when parsing `text`, or `nil` when it parses.
private func parseError(_ text: String) -> JSONParseError? {
    parseError(Data(text.utf8))
}

/// The error thrown when parsing `data`, or `nil` when it parses.
private func parseError(_ data: Data) -> JSONParseError? {
    do {
        _ = try JSONValue(parsing: data)
        return nil
    } catch {
        return error
    }
}

@Suite struct JSONParserTests {
    @Test func parsesEveryKind() throws {
        let value = try JSONValue(
            parsing: #" { "a" : [ 1 , -2.5e10 , true , false , null , "s" ] , "b" : { } , "c" : [ ] } "#
        )
        #expect(value == ["a": [1, .number(JSONNumber(text: "-2.5e10")!), true, false, nil, "s"], "b": [:], "c": []])
    }

    @Test func compactTextRoundTrips() throws {
        let texts = [
            #"{"a":[1,-2.5e10,true,false,null,"s"],"b":{},"c":[],"d":{"e":[[]]}}"#,
            #"[1.50,-0,1E+2,0.000,123456789012345678901234567890]"#,
            #""A\n\t\"\\/\u0001é😀""#,
            "null", "true", "0", #""""#,
        ]
        for text in texts {
            #expect(try JSONValue(parsing: text).serialized() == text)
        }
    }

    @Test func decodesEscapes() throws {
        let value = try JSONValue(parsing: #""\u0041\n\t\"\\\/\b\f\r\u00e9\u20AC""#)
        #expect(value == .string("A\n\t\"\\/\u{08}\u{0C}\r\u{E9}\u{20AC}"))
    }

    @Test func decodesSurrogatePairsAndReplacesLoneSurrogates() throws {
        #expect(try JSONValue(parsing: #""\ud83d\ude00""#) == "😀")
        #expect(try JSONValue(parsing: #""\ud83dx""#) == "\u{FFFD}x")
        #expect(try JSONValue(parsing: #""\ude00""#) == "\u{FFFD}")
        #expect(try JSONValue(parsing: #""\ud83d\u0041""#) == "\u{FFFD}A")
        #expect(try JSONValue(parsing: #""\ud83d""#) == "\u{FFFD}")
        #expect(try JSONValue(parsing: #""\ud83d\ud83d\ude00""#) == "\u{FFFD}😀")
    }

    @Test func skipsByteOrderMark() throws {
        #expect(try JSONValue(parsing: Data([0xEF, 0xBB, 0xBF] + Array(#"{"a":1}"#.utf8))) == ["a": 1])
        let error = try #require(parseError(Data([0xEF, 0xBB, 0xBF] + Array("[x]".utf8))))
        #expect((error.line, error.column, error.offset) == (1, 2, 4))
    }

    @Test func keepsTextOfHugeNumbers() throws {
        let value = try JSONValue(
            parsing: "[1e999999, 123456789012345678901234567890, -1e-999999, 1e99999999999999999999999]"
        )
        let numbers = (value.arrayValue ?? []).compactMap(\.numberValue)
        #expect(
            numbers.map(\.text) == [
                "1e999999", "123456789012345678901234567890", "-1e-999999", "1e99999999999999999999999",
            ]
        )
        #expect(numbers[0].doubleValue == .infinity)
        #expect(numbers[1].int64Value == nil)
        #expect(value.serialized() == "[1e999999,123456789012345678901234567890,-1e-999999,1e99999999999999999999999]")
    }

    @Test func parsesLongStrings() throws {
        let long = String(repeating: "abcdé\\n", count: 300_000)
        let value = try JSONValue(parsing: "\"\(long)\"")
        #expect(value.stringValue?.utf8.count == 300_000 * 7)
    }

    @Test func acceptsMaximumDepth() throws {
        let text = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect(try JSONValue(parsing: text).serialized() == text)
    }

    @Test func rejectsDeepNestingWithoutCrashing() throws {
        let arrays = try #require(parseError(String(repeating: "[", count: 100_000)))
        #expect(
            arrays
                == JSONParseError(
                    message: "nesting deeper than 512 levels",
                    line: 1,
                    column: 513,
                    offset: 512,
                    jsonPath: String(repeating: "[0]", count: 512).replacingOccurrences(
                        of: "^",
                        with: "$",
                        options: .regularExpression
                    )
                )
        )
        let objects = try #require(parseError(String(repeating: #"{"a":"#, count: 100_000)))
        #expect(objects.message == "nesting deeper than 512 levels")
        #expect(objects.column == 512 * 5 + 1)
    }

    @Test(
        arguments: [
            // Missing colon on line 3, column 7.
            ("{\n  \"a\": 1,\n  \"b\" 2\n}", 3, 7, "expected ':' after member name, found '2'"),
            (
                "{\n  \"a\": 1\n  \"b\": 2\n}", 3, 3,
                "expected ',' or '}' after object member, found '\"'; is a comma missing?"
            ),
            ("[1 2]", 1, 4, "expected ',' or ']' after array element, found '2'; is a comma missing?"),
            ("{\n  \"a\": 1,\n}", 2, 9, "trailing comma before '}'; remove the ','"),
            ("[\n  1,\n  ]", 2, 4, "trailing comma before ']'; remove the ','"),
            ("[\"abc", 1, 2, "unterminated string; add the closing '\"'"),
            (
                "{\"a\": \"x\\q\"}", 1, 9,
                #"invalid escape '\q' in string; valid escapes are \" \\ \/ \b \f \n \r \t and \uXXXX"#
            ),
            ("[\"a\nb\"]", 1, 4, "control character U+000A must be escaped in strings; write \\n"),
            ("[\"a\u{1}\"]", 1, 4, "control character U+0001 must be escaped in strings; write \\u0001"),
            ("[\"\\u12G4\"]", 1, 3, "invalid \\u escape; expected four hexadecimal digits"),
            ("", 1, 1, "unexpected end of input; expected a value"),
            ("  \n ", 2, 2, "unexpected end of input; expected a value"),
            ("[1, 2", 1, 6, "unexpected end of input; the array opened at line 1, column 1 is not closed"),
            (
                "{\"a\":\n  {\"b\": 1", 2, 10,
                "unexpected end of input; the object opened at line 2, column 3 is not closed"
            ),
            ("{\"a\"", 1, 5, "unexpected end of input; expected ':' after member name"),
            ("[x]", 1, 2, "expected a value, found 'x'"),
            ("[NaN]", 1, 2, "expected a value, found 'NaN'; NaN and Infinity are not valid JSON numbers"),
            ("[True]", 1, 2, "expected a value, found 'True'; JSON literals are lowercase: true, false, null"),
            ("[tru]", 1, 2, "expected a value, found 'tru'"),
            ("{'a': 1}", 1, 2, "expected a member name in double quotes, found '''; strings must use double quotes"),
            ("[1, // note\n 2]", 1, 5, "expected a value, found '/'; JSON does not allow comments"),
            ("+1", 1, 1, "expected a value, found '+'; numbers must not start with '+'"),
            (".5", 1, 1, "expected a value, found '.'"),
            ("[01]", 1, 2, "leading zeros are not allowed in numbers"),
            ("-", 1, 2, "unexpected end of input; expected a digit after '-'"),
            ("[-x]", 1, 3, "expected a digit after '-', found 'x'"),
            ("1.", 1, 3, "unexpected end of input; expected a digit after the decimal point"),
            ("1e+]", 1, 4, "expected a digit in the exponent, found ']'"),
            ("{} {}", 1, 4, "extra data after the JSON value, found '{'; a document holds exactly one value"),
            ("{\"é€😀\": x}", 1, 9, "expected a value, found 'x'"),
            ("[\r\n  x]", 2, 3, "expected a value, found 'x'"),
            ("[\u{201C}a\u{201D}]", 1, 2, "expected a value, found '\u{201C}' (U+201C)"),
        ] as [(String, Int, Int, String)]
    )
    func reportsLocatedErrors(text: String, line: Int, column: Int, message: String) throws {
        let error = try #require(parseError(text))
        #expect(error.message == message)
        #expect(error.line == line)
        #expect(error.column == column)
        #expect(error.description == "\(line):\(column): \(message)")
    }

    @Test func reportsByteOffsets() throws {
        let error = try #require(parseError("{\"é€😀\": x}"))
        #expect(error.offset == 14)
    }

    @Test("a syntax error is placed at the JSON path of the value being read")
    func errorsCarryTheJSONPath() throws {
        let cases: [(String, String?)] = [
            (#"{"a": [1, {"b": tru}]}"#, "$.a[1].b"),
            (#"{"a": 1 "b": 2}"#, "$.a"),
            (#"{"a": {"b": 1"#, "$.a.b"),
            (#"{"a": 1,}"#, nil),
            (#"{"odd key": [}"#, "$['odd key'][0]"),
            ("[1, 2", "$[2]"),
            ("nul", nil),
        ]
        for (text, path) in cases {
            let error = try #require(parseError(text), "\(text)")
            #expect(error.jsonPath == path, "\(text): \(error)")
        }
    }

    @Test func rejectsInvalidUTF8() throws {
        let inString = try #require(parseError(Data([0x5B, 0x22, 0xFF, 0x22, 0x5D])))
        #expect(
            inString
                == JSONParseError(
                    message: "invalid UTF-8 byte 0xFF; the file must be UTF-8 encoded",
                    line: 1,
                    column: 3,
                    offset: 2,
                    jsonPath: "$[0]"
                )
        )
        let outside = try #require(parseError(Data([0x0A, 0x5B, 0x80])))
        #expect(
            outside
                == JSONParseError(
                    message: "invalid UTF-8 byte 0x80; the file must be UTF-8 encoded",
                    line: 2,
                    column: 2,
                    offset: 2,
                    jsonPath: "$[0]"
                )
        )
        let truncated = try #require(parseError(Data([0x22, 0xE2, 0x82, 0x22])))
        #expect(truncated.message == "invalid UTF-8 sequence starting with byte 0xE2; the file must be UTF-8 encoded")
        #expect(truncated.column == 2)
        let surrogate = try #require(parseError(Data([0x22, 0xED, 0xA0, 0x80, 0x22])))
        #expect(surrogate.message.hasPrefix("invalid UTF-8 sequence starting with byte 0xED"))
        let overlong = try #require(parseError(Data([0x22, 0xC0, 0xAF, 0x22])))
        #expect(overlong.message.hasPrefix("invalid UTF-8 byte 0xC0"))
        #expect(parseError(Data([0x22, 0xF0, 0x9F, 0x98, 0x80, 0x22])) == nil)
    }

    @Test func survivesTruncationsAndByteFlips() {
        let sample = Array(#"{"a": [1, -2.5e3, "x\u00e9\ud83d\ude00", {"b": null}], "c": true, "é": "\\"}"#.utf8)
        for length in 0..<sample.count {
            _ = parseError(Data(sample[..<length]))
        }
        for index in sample.indices {
            for flip: UInt8 in [0x01, 0x20, 0x80, 0xFF] {
                var mutated = sample
                mutated[index] ^= flip
                if let error = parseError(Data(mutated)) {
                    #expect(error.offset <= mutated.count)
                    #expect(error.line >= 1 && error.column >= 1)
                }
            }
        }
    }
}
