import Foundation
import Testing

@testable import HTTPStubs
@testable import HTTPStubsFiles
@testable import HTTPStubsLanguages
@testable import HTTPStubsTemplates

/// WireMock 3's `arrayAdd`, `arrayRemove`, `jsonMerge`, `jsonRemove`, `jsonArrayAdd` and `jsonSort`,
/// ported case by case from wiremock/wiremock's unit tests (`ArrayAddHelperTest`,
/// `ArrayRemoveHelperTest`, `JsonMergeHelperTest`, `JsonRemoveHelperTest`, `JsonArrayAddHelperTest`,
/// `JsonSortHelperTest`, and `ResponseTemplateTransformerTest`'s array cases): the same template, the
/// same context values (a Java `String` is a string; `@JsonSource` values are JSON), the same answer.
/// WireMock 2.35.1 has none of these helpers; 3.x (and 4.x for `jsonSort`) is the reference.
@Suite("Templating: WireMock 3's array and JSON-editing helpers")
struct WireMockJSONEditHelperTests {
    /// `template` rendered with WireMock's helpers, `context` as its root.
    func render(_ template: String, _ context: [String: TemplateValue] = [:]) throws -> String {
        let root = TemplateValue.object(TemplateObject(context.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }))
        return try TemplateRenderer(helpers: WireMockHelpers.all).render(TemplateParser.parse(template), context: root)
    }

    /// A context value as JUnit's `@JsonSource` gives it: a Java list, map, boolean, `null` or number.
    func json(_ text: String) -> TemplateValue {
        TemplateValue(json: try! JSONValue(parsing: text))
    }

    /// The values `@JsonSource` gives the "is not a string" tests.
    var nonStrings: [TemplateValue] {
        [
            json(#"[{"id": 456, "name": "bob"}, {"id": 123, "name": "alice"}, {"id": 321, "name": "sam"}]"#),
            json(#"{"id": 456, "name": "bob"}"#), .bool(true), .null, .integer(123),
        ]
    }

    // MARK: arrayAdd, arrayRemove

    @Test("ArrayAddHelperTest and ResponseTemplateTransformerTest: arrayAdd")
    func arrayAdd() throws {
        let list = TemplateValue.list([.string("one"), .string("two")])
        let cases: [(String, String)] = [
            ("{{arrayAdd list 'three'}}", "[one, two, three]"),
            ("{{arrayAdd list 'three' position='end'}}", "[one, two, three]"),
            ("{{arrayAdd list 'three' position='start'}}", "[three, one, two]"),
            ("{{arrayAdd list 'three' position=1}}", "[one, three, two]"),
            ("{{arrayAdd list 'three' position='1'}}", "[one, three, two]"),
            ("{{arrayAdd (array 1 'three') 2 position=1}}", "[1, 2, three]"),
            ("{{arrayAdd (array 1 'three') 2 position='start'}}", "[2, 1, three]"),
            ("{{arrayAdd (array 1 'three') 2 position='end'}}", "[1, three, 2]"),
            ("{{arrayAdd (array 1 'three') 2}}", "[1, three, 2]"),
            (
                "{{arrayAdd (array 1 'three') 2 position=-2}}",
                "[ERROR: position must be greater than or equal to 0 and less than or equal to the size of the list]"
            ),
            (
                "{{arrayAdd (array 1 'three') 2 position=3}}",
                "[ERROR: position must be greater than or equal to 0 and less than or equal to the size of the list]"
            ),
            (
                "{{arrayAdd (array 1 'three') position=1}}",
                "[ERROR: Missing required parameter: additional value to add to list]"
            ),
            ("{{arrayAdd (array) 'three' position='abc'}}", "[ERROR: position must be 'start', 'end' or an integer]"),
        ]
        for (template, expected) in cases {
            #expect(try render(template, ["list": list]) == expected, "\(template)")
        }
    }

    @Test("ArrayRemoveHelperTest and ResponseTemplateTransformerTest: arrayRemove")
    func arrayRemove() throws {
        let list = TemplateValue.list([.string("one"), .string("two"), .string("three")])
        let cases: [(String, String)] = [
            ("{{arrayRemove list}}", "[one, two]"),
            ("{{arrayRemove list position='1'}}", "[one, three]"),
            ("{{arrayRemove (array 1 2 'three') position=1}}", "[1, three]"),
            ("{{arrayRemove (array 1 2 'three') position='start'}}", "[2, three]"),
            ("{{arrayRemove (array 1 2 'three') position='end'}}", "[1, 2]"),
            ("{{arrayRemove (array 1 2 'three') }}", "[1, 2]"),
            (
                "{{arrayRemove (array 1 'three') position=-2}}",
                "[ERROR: position must be greater than or equal to 0 and less than or equal to the size of the list]"
            ),
            (
                "{{arrayRemove (array 1 'three') position=3}}",
                "[ERROR: position must be greater than or equal to 0 and less than or equal to the size of the list]"
            ),
        ]
        for (template, expected) in cases {
            #expect(try render(template, ["list": list]) == expected, "\(template)")
        }
    }

    @Test(
        "arrayAdd on a missing list gives an empty list; Java's exceptions are render errors, as WireMock answers 500"
    )
    func arrayEdges() throws {
        #expect(try render("{{arrayAdd missing 'x'}}") == "[]")
        #expect(try render("{{#each (arrayAdd (array 'a') 'b')}}<{{this}}>{{/each}}") == "<a><b>")
        #expect(throws: TemplateRenderError.self) { try render("{{arrayRemove missing}}") }
        #expect(throws: TemplateRenderError.self) { try render("{{arrayRemove (array 1 2) position=2}}") }
        #expect(throws: TemplateRenderError.self) { try render("{{arrayRemove (array)}}") }
        #expect(throws: TemplateRenderError.self) { try render("{{arrayAdd 'text' 'x'}}") }
    }

    // MARK: jsonMerge

    @Test("JsonMergeHelperTest: merges JSON objects, inline and in a block, into compact JSON")
    func jsonMerge() throws {
        let inline: [(String, String, String)] = [
            (
                #"{ "id": 456, "name": "bob" }"#, #"{ "roles": [ "admin", "user" ], "dob": "2024-06-18" }"#,
                #"{"id":456,"name":"bob","roles":["admin","user"],"dob":"2024-06-18"}"#
            ),
            (
                #"{ "id": 456, "name": "bob", "roles": [ "viewer" ] }"#,
                #"{ "roles": [ "admin", "user" ], "dob": "2024-06-18" }"#,
                #"{"id":456,"name":"bob","roles":["admin","user"],"dob":"2024-06-18"}"#
            ),
            (
                "{}", #"{ "roles": [ "admin", "user" ], "dob": "2024-06-18" }"#,
                #"{"roles":["admin","user"],"dob":"2024-06-18"}"#
            ),
            (#"{ "id": 456, "name": "bob" }"#, "{}", #"{"id":456,"name":"bob"}"#),
            (
                #"{ "id": 456, "name": "bob", "data": { "field": "value" } }"#, #"{ "data": [ 123, true ] }"#,
                #"{"id":456,"name":"bob","data":[123,true]}"#
            ),
        ]
        for (base, other, expected) in inline {
            let output = try render(
                "{{jsonMerge baseJson jsonToMerge}}",
                ["baseJson": .string(base), "jsonToMerge": .string(other)]
            )
            #expect(output == expected)
        }
        let blocks: [(String, String)] = [
            (
                #"{"roles":["admin","user"],"dob":"2024-06-18"}"#,
                #"{"id":456,"name":"bob","roles":["admin","user"],"dob":"2024-06-18"}"#
            ),
            ("{}", #"{"id":456,"name":"bob","roles":["viewer"]}"#),
            (#"{"data":[123, true]}"#, #"{"id":456,"name":"bob","roles":["viewer"],"data":[123,true]}"#),
        ]
        for (block, expected) in blocks {
            let base = TemplateValue.string(#"{"id":456,"name":"bob","roles":["viewer"]}"#)
            #expect(try render("{{#jsonMerge baseJson}}\(block){{/jsonMerge}}", ["baseJson": base]) == expected)
        }
        let template = #"{{ jsonMerge '{"id":456,"name":"bob"}' '{"roles":["admin","user"],"dob":"2024-06-18"}' }}"#
        #expect(try render(template) == #"{"id":456,"name":"bob","roles":["admin","user"],"dob":"2024-06-18"}"#)
    }

    @Test("JsonMergeHelperTest: objects merge recursively; removeNulls=true removes what is set to null")
    func jsonMergeRecursiveAndNulls() throws {
        let base = #"""
            { "id": 456, "name": "bob", "data": { "nestedObject": { "value": "my value",
              "veryNestedArray": [ true, false, 123 ], "anOldField": "with an old value" }, "someNumber": 456 } }
            """#
        let other = #"""
            { "data": { "nestedObject": { "value": "new value", "veryNestedArray": [ "newItem" ],
              "aNewField": "with a new value" }, "newNestedObject": { "someBoolean": true } } }
            """#
        #expect(
            try render("{{jsonMerge b o}}", ["b": .string(base), "o": .string(other)])
                == #"{"id":456,"name":"bob","data":{"nestedObject":{"value":"new value","veryNestedArray":["newItem"],"#
                + #""anOldField":"with an old value","aNewField":"with a new value"},"someNumber":456,"#
                + #""newNestedObject":{"someBoolean":true}}}"#
        )
        let withNulls = #"""
            {"simple1": 0.1, "simple2": 5, "list1": ["one", "two", "three"], "list2": ["four", "five", "six"],
             "shallowObject1": {"thing": "here"}, "shallowObject2": {"thing": "gone"},
             "deepObject": {"nested1": "gone", "nested2": "here"}}
            """#
        let nulls = #"""
            {"simple2": null, "list2": null, "shallowObject1": {"thing": "here"}, "shallowObject2": null,
             "deepObject": {"nested1": null, "nested2": "here"}}
            """#
        let expected =
            #"{"simple1":0.1,"list1":["one","two","three"],"shallowObject1":{"thing":"here"},"#
            + #""deepObject":{"nested2":"here"}}"#
        let context: [String: TemplateValue] = ["b": .string(withNulls), "o": .string(nulls)]
        #expect(try render("{{jsonMerge b o removeNulls=true}}", context) == expected)
        #expect(try render("{{#jsonMerge b removeNulls=true}}\(nulls){{/jsonMerge}}", context) == expected)
        // Without removeNulls, Jackson's tree keeps the nulls.
        #expect(try render("{{jsonMerge '{\"a\":1}' '{\"a\":null}'}}") == #"{"a":null}"#)
    }

    @Test("JsonMergeHelperTest: the errors on bad input")
    func jsonMergeErrors() throws {
        let other = TemplateValue.string(#"{"id":321,"name":"sam"}"#)
        for base in nonStrings {
            #expect(
                try render("{{jsonMerge baseJson jsonToMerge}}", ["baseJson": base, "jsonToMerge": other])
                    == "[ERROR: Base JSON parameter must be a string]"
            )
        }
        for base in ["invalid json", #"[ { "id": 456 }"#, "", " "] {
            #expect(
                try render("{{jsonMerge baseJson jsonToMerge}}", ["baseJson": .string(base), "jsonToMerge": other])
                    == "[ERROR: Base JSON is not valid JSON ('\(base)')]"
            )
        }
        for base in [#"[ { "id": 123, "name": "alice" } ]"#, #""name""#, "true", "null", "123"] {
            #expect(
                try render("{{jsonMerge baseJson jsonToMerge}}", ["baseJson": .string(base), "jsonToMerge": other])
                    == "[ERROR: Base JSON is not a JSON object ('\(base)')]"
            )
        }
        let base = TemplateValue.string(#"{"id":456,"name":"bob"}"#)
        for block in ["invalid json", #"[ { "id": 456 }"#, "", " "] {
            #expect(
                try render("{{#jsonMerge baseJson}}\(block){{/jsonMerge}}", ["baseJson": base])
                    == "[ERROR: JSON to merge is not valid JSON ('\(block)')]"
            )
            #expect(
                try render("{{jsonMerge baseJson jsonToMerge}}", ["baseJson": base, "jsonToMerge": .string(block)])
                    == "[ERROR: JSON to merge is not valid JSON ('\(block)')]"
            )
        }
        for toMerge in [
            json(#"[{"id": 456, "name": "bob"}]"#), json(#"{"id": 456, "name": "bob"}"#), .bool(true), .null,
            .integer(123),
        ] {
            #expect(
                try render("{{jsonMerge baseJson jsonToMerge}}", ["baseJson": base, "jsonToMerge": toMerge])
                    == "[ERROR: JSON to merge must be a string]"
            )
        }
        for toMerge in [#"[{"id":123,"name":"alice"}]"#, #""name""#, "true", "null", "123"] {
            #expect(
                try render("{{jsonMerge baseJson jsonToMerge}}", ["baseJson": base, "jsonToMerge": .string(toMerge)])
                    == "[ERROR: JSON to merge is not a JSON object ('\(toMerge)')]"
            )
        }
    }

    // MARK: jsonRemove

    @Test("JsonRemoveHelperTest: removes what the JSONPath selects and answers compact JSON")
    func jsonRemove() throws {
        let cases: [(String, String, String)] = [
            (
                #"[{"id":456,"name":"bob"},{"id":123,"name":"alice"},{"id":321,"name":"sam"}]"#, "$.[?(@.id == 123)]",
                #"[{"id":456,"name":"bob"},{"id":321,"name":"sam"}]"#
            ),
            (
                #"[{"id":456,"name":"bob"},{"id":123,"name":"alice"},{"id":123,"name":"sam"}]"#, "$[?(@.id == 123)]",
                #"[{"id":456,"name":"bob"}]"#
            ),
            (
                #"[{"id":456,"name":"bob"},{"id":123,"name":"alice"},{"id":321,"name":"sam"}]"#,
                "$.[?(@.id == 123)].name", #"[{"id":456,"name":"bob"},{"id":123},{"id":321,"name":"sam"}]"#
            ),
            (#"{"id":456,"name":"bob"}"#, "$.name", #"{"id":456}"#),
            (
                #"[{"id":456,"name":"bob","roles":["admin","user"]},"#
                    + #"{"id":123,"name":"alice","roles":["admin","user"]}]"#,
                #"$.[?(@.name == "alice")].roles[?(@ == "admin")]"#,
                #"[{"id":456,"name":"bob","roles":["admin","user"]},{"id":123,"name":"alice","roles":["user"]}]"#
            ),
        ]
        for (input, path, expected) in cases {
            let output = try render("{{ jsonRemove input '\(path)' }}", ["input": .string(input)])
            #expect(output == expected, "\(path)")
        }
        #expect(try render(#"{{ jsonRemove '{"id":456,"name":"bob"}' '$.name' }}"#) == #"{"id":456}"#)
    }

    @Test("JsonRemoveHelperTest: a path that selects nothing answers the input as it is")
    func jsonRemoveNothing() throws {
        let cases: [(String, String)] = [
            (#"[{"id":456,"name":"bob"},{"id":123,"name":"alice"}]"#, "$.[?(@.id == 321)]"),
            (#"[{"id":456,"name":"bob"},{"id":123,"name":"alice"}]"#, "$.name"),
            (#"{"id":456}"#, "$.name"), ("true", "$.name"), ("null", "$.name"), ("123", "$.name"),
        ]
        for (input, path) in cases {
            #expect(try render("{{ jsonRemove input '\(path)' }}", ["input": .string(input)]) == input, "\(input)")
        }
    }

    @Test("JsonRemoveHelperTest: the errors on bad input")
    func jsonRemoveErrors() throws {
        for input in ["invalid json", #"[ { "id": 456 } "#, "", " "] {
            #expect(
                try render("{{ jsonRemove input '$.name' }}", ["input": .string(input)])
                    == "[ERROR: Input JSON string is not valid JSON ('\(input)')]"
            )
        }
        for input in nonStrings {
            #expect(
                try render("{{ jsonRemove input '$.name' }}", ["input": input])
                    == "[ERROR: Input JSON must be a string]"
            )
        }
        let input = TemplateValue.string(#"{"id":123,"name":"bob"}"#)
        for path in ["$name", "not json path", "", " "] {
            #expect(
                try render("{{ jsonRemove input '\(path)' }}", ["input": input])
                    == "[ERROR: JSONPath parameter is not a valid JSONPath expression ('\(path)')]"
            )
        }
        for path in [json("{}"), json("[]"), .bool(true), .null, .integer(123)] {
            #expect(
                try render("{{ jsonRemove input jsonPath }}", ["input": input, "jsonPath": path])
                    == "[ERROR: JSONPath parameter must be a string]"
            )
        }
        #expect(
            try render("{{ jsonRemove input '$' }}", ["input": input])
                == "[ERROR: Delete operation cannot be applied to JSONPath expression ('$')]"
        )
        #expect(
            try render("{{ jsonRemove input }}", ["input": input])
                == "[ERROR: A single JSONPath expression parameter must be supplied]"
        )
        #expect(
            try render("{{ jsonRemove input '$.name' '$.name' }}", ["input": input])
                == "[ERROR: A single JSONPath expression parameter must be supplied]"
        )
    }

    // MARK: jsonArrayAdd

    @Test("JsonArrayAddHelperTest: adds an item, or an array's items with flatten=true, to the root array")
    func jsonArrayAdd() throws {
        let bobAlice = #"[{"id":456,"name":"bob"},{"id":123,"name":"alice"}]"#
        let single: [(String, String, String)] = [
            (
                bobAlice, #"{"id":321,"name":"sam"}"#,
                #"[{"id":456,"name":"bob"},{"id":123,"name":"alice"},{"id":321,"name":"sam"}]"#
            ),
            ("[]", #"{"id":321,"name":"sam"}"#, #"[{"id":321,"name":"sam"}]"#),
            (bobAlice, #""name""#, #"[{"id":456,"name":"bob"},{"id":123,"name":"alice"},"name"]"#),
            (bobAlice, "true", #"[{"id":456,"name":"bob"},{"id":123,"name":"alice"},true]"#),
            (bobAlice, "null", #"[{"id":456,"name":"bob"},{"id":123,"name":"alice"},null]"#),
            (bobAlice, "123", #"[{"id":456,"name":"bob"},{"id":123,"name":"alice"},123]"#),
            (
                bobAlice, #"[{"id":321,"name":"sam"},{"id":666,"name":"jason"}]"#,
                #"[{"id":456,"name":"bob"},{"id":123,"name":"alice"},"#
                    + #"[{"id":321,"name":"sam"},{"id":666,"name":"jason"}]]"#
            ),
        ]
        for (array, item, expected) in single {
            #expect(
                try render("{{ jsonArrayAdd array item }}", ["array": .string(array), "item": .string(item)])
                    == expected
            )
        }
        let samJason = #"[{"id":321,"name":"sam"},{"id":666,"name":"jason"}]"#
        let flattened: [(String, String, String)] = [
            (
                bobAlice, samJason,
                #"[{"id":456,"name":"bob"},{"id":123,"name":"alice"},"#
                    + #"{"id":321,"name":"sam"},{"id":666,"name":"jason"}]"#
            ),
            ("[]", samJason, samJason),
            (
                bobAlice, #"[{"id":321,"name":"sam"}]"#,
                #"[{"id":456,"name":"bob"},{"id":123,"name":"alice"},{"id":321,"name":"sam"}]"#
            ),
            (bobAlice, "[]", bobAlice), ("[]", "[]", "[]"), ("[]", "[null]", "[null]"),
        ]
        for (array, item, expected) in flattened {
            let context: [String: TemplateValue] = ["array": .string(array), "item": .string(item)]
            #expect(try render("{{ jsonArrayAdd array item flatten=true }}", context) == expected)
        }
        #expect(
            try render(
                #"{{ jsonArrayAdd '[{"id":456,"name":"bob"},{"id":123,"name":"alice"}]' '{"id":321,"name":"sam"}' }}"#
            )
                == #"[{"id":456,"name":"bob"},{"id":123,"name":"alice"},{"id":321,"name":"sam"}]"#
        )
    }

    @Test("JsonArrayAddHelperTest: maxItems keeps the last items")
    func jsonArrayAddMaxItems() throws {
        let bob = #"{"id":456,"name":"bob"}"#
        let alice = #"{"id":123,"name":"alice"}"#
        let sam = #"{"id":321,"name":"sam"}"#
        let jason = #"{"id":666,"name":"jason"}"#
        let max = #"{"id":789,"name":"max"}"#
        let sue = #"{"id":987,"name":"sue"}"#
        let cases: [(String, String, Bool, String)] = [
            ("[\(bob)]", sam, false, "[\(bob),\(sam)]"),
            ("[\(bob),\(alice)]", sam, false, "[\(bob),\(alice),\(sam)]"),
            ("[\(bob),\(alice),\(jason)]", sam, false, "[\(alice),\(jason),\(sam)]"),
            ("[\(bob),\(alice),\(jason),\(max)]", sam, false, "[\(jason),\(max),\(sam)]"),
            ("[\(bob),\(alice)]", "[\(sam),\(jason)]", true, "[\(alice),\(sam),\(jason)]"),
            ("[\(bob),\(alice)]", "[\(sam),\(jason),\(max)]", true, "[\(sam),\(jason),\(max)]"),
            ("[\(bob),\(alice)]", "[\(sam),\(jason),\(max),\(sue)]", true, "[\(jason),\(max),\(sue)]"),
        ]
        for (array, item, flatten, expected) in cases {
            let context: [String: TemplateValue] = ["array": .string(array), "item": .string(item)]
            #expect(try render("{{ jsonArrayAdd array item flatten=\(flatten) maxItems=3 }}", context) == expected)
        }
        for item in [sam, "[\(sam)]"] {
            let context: [String: TemplateValue] = ["array": .string("[\(bob)]"), "item": .string(item)]
            #expect(try render("{{ jsonArrayAdd array item maxItems=0 }}", context) == "[]")
        }
    }

    @Test("JsonArrayAddHelperTest: the item can be a block; jsonPath= names a nested array")
    func jsonArrayAddBlockAndPath() throws {
        let array = TemplateValue.string(#"[{"id":456,"name":"bob"},{"id":123,"name":"alice"}]"#)
        let blocks: [(String, Bool, String)] = [
            (
                #"{"id":321,"name":"sam"}"#, false,
                #"[{"id":456,"name":"bob"},{"id":123,"name":"alice"},{"id":321,"name":"sam"}]"#
            ),
            (#""name""#, false, #"[{"id":456,"name":"bob"},{"id":123,"name":"alice"},"name"]"#),
            ("true", false, #"[{"id":456,"name":"bob"},{"id":123,"name":"alice"},true]"#),
            ("null", false, #"[{"id":456,"name":"bob"},{"id":123,"name":"alice"},null]"#),
            ("123", false, #"[{"id":456,"name":"bob"},{"id":123,"name":"alice"},123]"#),
            (
                #"[{"id":321,"name":"sam"},{"id":666,"name":"jason"}]"#, true,
                #"[{"id":456,"name":"bob"},{"id":123,"name":"alice"},"#
                    + #"{"id":321,"name":"sam"},{"id":666,"name":"jason"}]"#
            ),
        ]
        for (block, flatten, expected) in blocks {
            #expect(
                try render("{{#jsonArrayAdd array flatten=\(flatten)}}\(block){{/jsonArrayAdd}}", ["array": array])
                    == expected
            )
        }
        let paths: [(String, String, String, String)] = [
            (
                #"{"expired":false,"users":[{"id":456,"name":"bob"},{"id":123,"name":"alice"}]}"#,
                #"{"id":321,"name":"sam"}"#, "$.users",
                #"{"expired":false,"users":[{"id":456,"name":"bob"},"#
                    + #"{"id":123,"name":"alice"},{"id":321,"name":"sam"}]}"#
            ),
            (
                #"[{"id":456,"names":["bob","jason"]},{"id":123,"names":["alice"]}]"#, #""sam""#, "$[0].names",
                #"[{"id":456,"names":["bob","jason","sam"]},{"id":123,"names":["alice"]}]"#
            ),
        ]
        for (input, item, path, expected) in paths {
            let context: [String: TemplateValue] = [
                "inputJson": .string(input), "item": .string(item), "jPath": .string(path),
            ]
            #expect(try render("{{ jsonArrayAdd inputJson item jsonPath=jPath }}", context) == expected)
        }
    }

    @Test("JsonArrayAddHelperTest: the errors on bad input")
    func jsonArrayAddErrors() throws {
        let item = TemplateValue.string(#"{"id":321,"name":"sam"}"#)
        for array in nonStrings {
            #expect(
                try render("{{ jsonArrayAdd array item }}", ["array": array, "item": item])
                    == "[ERROR: Base JSON must be a string]"
            )
        }
        for array in ["invalid json", #"[{"id":456}"#, "", " ", "null"] {
            #expect(
                try render("{{ jsonArrayAdd array item }}", ["array": .string(array), "item": item])
                    == "[ERROR: Base JSON is not valid JSON ('\(array)')]"
            )
        }
        for array in [#"{"id":456,"name":"bob"}"#, #""name""#, "true", "123"] {
            #expect(
                try render("{{ jsonArrayAdd array item }}", ["array": .string(array), "item": item])
                    == "[ERROR: Target JSON is not a JSON array ('\(array)')]"
            )
        }
        let array = TemplateValue.string(#"[{"id":456,"name":"bob"},{"id":123,"name":"alice"}]"#)
        for block in ["invalid json", #"[ { "id": 456 }"#, "", " "] {
            #expect(
                try render("{{#jsonArrayAdd array}}\(block){{/jsonArrayAdd}}", ["array": array])
                    == "[ERROR: Item-to-add JSON is not valid JSON ('\(block)')]"
            )
            #expect(
                try render("{{ jsonArrayAdd array item }}", ["array": array, "item": .string(block)])
                    == "[ERROR: Item-to-add JSON is not valid JSON ('\(block)')]"
            )
        }
        for bad in [
            json(#"[{"id": 456, "name": "bob"}]"#), json(#"{"id": 456, "name": "bob"}"#), .bool(true), .null,
            .integer(123),
        ] {
            #expect(
                try render("{{ jsonArrayAdd array item }}", ["array": array, "item": bad])
                    == "[ERROR: Item-to-add JSON must be a string]"
            )
        }
        for maxItems in [json("1.23"), .bool(true), .string("not a number"), .string("1"), json("{}"), json("[]")] {
            #expect(
                try render(
                    "{{ jsonArrayAdd array item maxItems=max }}",
                    ["array": array, "item": item, "max": maxItems]
                )
                    == "[ERROR: maxItems option must be an integer]"
            )
        }
        #expect(
            try render("{{ jsonArrayAdd array item maxItems=-1 }}", ["array": array, "item": item])
                == "[ERROR: maxItems option integer must be positive]"
        )
        for flatten in [json("1.23"), .string("true"), .string("not a number"), .integer(1), json("{}"), json("[]")] {
            #expect(
                try render(
                    "{{ jsonArrayAdd array item flatten=flat }}",
                    ["array": array, "item": item, "flat": flatten]
                )
                    == "[ERROR: flatten option must be a boolean]"
            )
        }
    }

    @Test("JsonArrayAddHelperTest: the errors of jsonPath=")
    func jsonArrayAddPathErrors() throws {
        let input = #"[{"id":456,"names":["bob","jason"]},{"id":123,"names":["alice"]}]"#
        for path in [.integer(1), json("1.23"), .bool(true), json("{}"), json("[]")] {
            let context: [String: TemplateValue] = [
                "inputJson": .string(input), "item": .string(#""sam""#), "jPath": path,
            ]
            #expect(
                try render("{{ jsonArrayAdd inputJson item jsonPath=jPath }}", context)
                    == "[ERROR: jsonPath option must be a string]"
            )
        }
        for path in ["invalid jsonpath", "$.[", "", " "] {
            let context: [String: TemplateValue] = [
                "inputJson": .string(input), "item": .string(#""sam""#), "jPath": .string(path),
            ]
            #expect(
                try render("{{jsonArrayAdd inputJson item jsonPath=jPath}}", context)
                    == "[ERROR: jsonPath option is not valid JSONPath expression ('\(path)')]"
            )
        }
        let notArrays: [(String, String)] = [
            (input, "$[0].doesNotExist"), (input, "$[0].doesNotExist.myArray"), (input, "$[0].id"),
            (#"{"id":"a string"}"#, "$.id"), (#"{"nullable":null}"#, "$.nullable"),
        ]
        for (json, path) in notArrays {
            let context: [String: TemplateValue] = [
                "inputJson": .string(json), "item": .string(#""sam""#), "jPath": .string(path),
            ]
            #expect(
                try render("{{jsonArrayAdd inputJson item jsonPath=jPath}}", context)
                    == "[ERROR: Target JSON is not a JSON array (root: '\(json)', jsonPath: '\(path)')]"
            )
        }
    }

    // MARK: jsonSort

    @Test("JsonSortHelperTest: sorts the array before [*] by the values the path reads, stably")
    func jsonSort() throws {
        let cases: [(String, String, String)] = [
            (
                #"[{"id":123,"name":"bob"},{"id":456,"name":"alice"}]"#, "'$[*].name'",
                #"[{"id":456,"name":"alice"},{"id":123,"name":"bob"}]"#
            ),
            (
                #"[{"id":123,"name":"bob"},{"id":456,"name":"alice"}]"#, "'$[*].id'",
                #"[{"id":123,"name":"bob"},{"id":456,"name":"alice"}]"#
            ),
            (
                #"{"users":[{"name":"fred"},{"name":"bob"}]}"#, "'$.users[*].name'",
                #"{"users":[{"name":"bob"},{"name":"fred"}]}"#
            ),
            (
                #"{"data":{"nested":{"users":[{"name":"bob"}]}}}"#, "'$.data.nested.users[*].name'",
                #"{"data":{"nested":{"users":[{"name":"bob"}]}}}"#
            ),
            ("[]", "'$[*].name'", "[]"),
            (#"[{"id":123,"name":"alice"}]"#, "'$[*].name'", #"[{"id":123,"name":"alice"}]"#),
            (#"[{"id":3},{"id":1},{"id":2}]"#, "'$[*].missingField'", #"[{"id":3},{"id":1},{"id":2}]"#),
            (
                #"[{"id":1,"name":"alice"},{"id":2},{"id":3,"name":"bob"}]"#, "'$[*].name'",
                #"[{"id":2},{"id":1,"name":"alice"},{"id":3,"name":"bob"}]"#
            ),
            (
                #"[{"id":456,"name":"bob"},{"id":123,"name":"alice"},{"id":789,"name":"charlie"}]"#, "'$[*].name'",
                #"[{"id":123,"name":"alice"},{"id":456,"name":"bob"},{"id":789,"name":"charlie"}]"#
            ),
            (
                #"[{"id":456},{"id":123},{"id":789},{"id":321}]"#, "'$[*].id'",
                #"[{"id":123},{"id":321},{"id":456},{"id":789}]"#
            ),
            (#"[{"id":123},{"id":456},{"id":789}]"#, "'$[*].id' order='desc'", #"[{"id":789},{"id":456},{"id":123}]"#),
            (
                #"[{"active":true},{"active":false},{"active":true}]"#, "'$[*].active'",
                #"[{"active":false},{"active":true},{"active":true}]"#
            ),
            (
                #"{"users":[{"name":"charlie"},{"name":"alice"},{"name":"bob"}]}"#, "'$.users[*].name'",
                #"{"users":[{"name":"alice"},{"name":"bob"},{"name":"charlie"}]}"#
            ),
            (
                #"[{"id":1,"created":"2025-03-15T14:30:00Z"},{"id":2,"#
                    + #""created":"2025-01-10T09:15:00Z"},{"id":3,"created":"2025-12-01T18:45:00Z"}]"#,
                "'$[*].created'",
                #"[{"id":2,"created":"2025-01-10T09:15:00Z"},{"id":1,"#
                    + #""created":"2025-03-15T14:30:00Z"},{"id":3,"created":"2025-12-01T18:45:00Z"}]"#
            ),
            (
                #"[{"id":1,"created":"2025-03-15T14:30:00Z"},{"id":2,"#
                    + #""created":"2025-01-10T09:15:00Z"},{"id":3,"created":"2025-12-01T18:45:00Z"}]"#,
                "'$[*].created' order='desc'",
                #"[{"id":3,"created":"2025-12-01T18:45:00Z"},{"id":1,"#
                    + #""created":"2025-03-15T14:30:00Z"},{"id":2,"created":"2025-01-10T09:15:00Z"}]"#
            ),
            (
                #"[{"id":9007199254740993},{"id":9007199254740992},{"id":9007199254740994}]"#, "'$[*].id'",
                #"[{"id":9007199254740992},{"id":9007199254740993},{"id":9007199254740994}]"#
            ),
            (
                #"[{"val":2},{"val":1.5},{"val":1},{"val":2.7}]"#, "'$[*].val'",
                #"[{"val":1},{"val":1.5},{"val":2},{"val":2.7}]"#
            ),
            (
                #"[{"id":-9007199254740993},{"id":-9007199254740992},{"id":-9007199254740994}]"#, "'$[*].id'",
                #"[{"id":-9007199254740994},{"id":-9007199254740993},{"id":-9007199254740992}]"#
            ),
            (
                #"[{"name":"alice","id":1},{"name":"alice","id":2},{"name":"alice","id":3}]"#, "'$[*].name'",
                #"[{"name":"alice","id":1},{"name":"alice","id":2},{"name":"alice","id":3}]"#
            ),
            (
                #"[{"name":"Zoë"},{"name":"Émilie"},{"name":"André"}]"#, "'$[*].name'",
                #"[{"name":"André"},{"name":"Zoë"},{"name":"Émilie"}]"#
            ),
            (#"["charlie","alice","bob"]"#, "'$[*]'", #"["alice","bob","charlie"]"#),
            ("[456,123,789,321]", "'$[*]'", "[123,321,456,789]"),
            (
                #"[{"val":5},{"val":-3},{"val":0},{"val":-10},{"val":2}]"#, "'$[*].val'",
                #"[{"val":-10},{"val":-3},{"val":0},{"val":2},{"val":5}]"#
            ),
            (
                #"[{"name":"zebra"},{"name":"Apple"},{"name":"banana"}]"#, "'$[*].name'",
                #"[{"name":"Apple"},{"name":"banana"},{"name":"zebra"}]"#
            ),
            (
                #"[{"name":"alice"},{"name":"charlie"},{"name":"bob"}]"#, "'$[*].name' order='desc'",
                #"[{"name":"charlie"},{"name":"bob"},{"name":"alice"}]"#
            ),
            (
                #"[{"items":[{"price":30},{"price":10},{"price":20}]},{"items":[{"price":100},{"price":50}]}]"#,
                "'$[0].items[*].price'",
                #"[{"items":[{"price":10},{"price":20},{"price":30}]},{"items":[{"price":100},{"price":50}]}]"#
            ),
            (
                #"{"my-key":{"items":[{"id":3},{"id":1},{"id":2}]}}"#, #"'$["my-key"].items[*].id'"#,
                #"{"my-key":{"items":[{"id":1},{"id":2},{"id":3}]}}"#
            ),
            (
                #"[{"id":1,"data":{"value":"c"}},{"id":2,"data":{"value":"a"}},{"id":3,"data":{"value":"b"}}]"#,
                "'$[*].data.value'",
                #"[{"id":2,"data":{"value":"a"}},{"id":3,"data":{"value":"b"}},{"id":1,"data":{"value":"c"}}]"#
            ),
            (
                #"[{"id":5,"name":"charlie"},{"id":2,"name":null},{"id":4,"#
                    + #""name":"alice"},{"id":1,"name":null},{"id":3,"name":"bob"}]"#,
                "'$[*].name'",
                #"[{"id":2},{"id":1},{"id":4,"name":"alice"},{"id":3,"name":"bob"},{"id":5,"name":"charlie"}]"#
            ),
            (
                #"[{"id":4,"name":"charlie"},{"id":2,"name":null},{"id":3,"name":"alice"},{"id":1,"name":"bob"}]"#,
                "'$[*].name' nulls='last'",
                #"[{"id":3,"name":"alice"},{"id":1,"name":"bob"},{"id":4,"name":"charlie"},{"id":2}]"#
            ),
            (
                #"[{"id":3,"name":null},{"id":1,"name":null},{"id":2,"name":null}]"#, "'$[*].name'",
                #"[{"id":3},{"id":1},{"id":2}]"#
            ),
            (
                #"[{"id":"a","score":100},{"id":"b","score":null},{"id":"c","score":50},{"id":"d","score":null}]"#,
                "'$[*].score'",
                #"[{"id":"b"},{"id":"d"},{"id":"c","score":50},{"id":"a","score":100}]"#
            ),
            (
                #"[{"name":"😀 smile"},{"name":"🎉 party"},{"name":"💻 laptop"},{"name":"🚀 rocket"}]"#, "'$[*].name'",
                #"[{"name":"🎉 party"},{"name":"💻 laptop"},{"name":"😀 smile"},{"name":"🚀 rocket"}]"#
            ),
            (
                #"[{"name":"😀"},{"name":"Álvaro"},{"name":"alice"},{"name":"Élodie"},{"name":"bob"}]"#, "'$[*].name'",
                #"[{"name":"alice"},{"name":"bob"},{"name":"Álvaro"},{"name":"Élodie"},{"name":"😀"}]"#
            ),
            (
                #"[{"flag":"🇬🇧"},{"flag":"🇺🇸"},{"flag":"🇯🇵"},{"flag":"🇫🇷"}]"#, "'$[*].flag'",
                #"[{"flag":"🇫🇷"},{"flag":"🇬🇧"},{"flag":"🇯🇵"},{"flag":"🇺🇸"}]"#
            ),
            (
                #"[{"name":"مرحبا"},{"name":"שלום"},{"name":"hello"}]"#, "'$[*].name'",
                #"[{"name":"hello"},{"name":"שלום"},{"name":"مرحبا"}]"#
            ),
            (
                #"[{"id":1,"name":"bob"},{"id":2,"name":"alice"},{"id":3,"name":"bob"},{"id":4,"name":"charlie"}]"#,
                "'$[*].name'",
                #"[{"id":2,"name":"alice"},{"id":1,"name":"bob"},{"id":3,"name":"bob"},{"id":4,"name":"charlie"}]"#
            ),
            (
                #"[{"id":"a","score":100},{"id":"b","score":50},{"id":"c","#
                    + #""score":50},{"id":"d","score":25},{"id":"e","score":50}]"#,
                "'$[*].score'",
                #"[{"id":"d","score":25},{"id":"b","score":50},{"id":"c","#
                    + #""score":50},{"id":"e","score":50},{"id":"a","score":100}]"#
            ),
        ]
        for (input, arguments, expected) in cases {
            #expect(
                try render("{{ jsonSort input \(arguments) }}", ["input": .string(input)]) == expected,
                "\(input) \(arguments)"
            )
        }
        // The Java test's one-line JSON, wrapped here; the answer is one line.
        let mixed = #"""
            [{"id":1,"name":"alice","active":true,"score":95.5,
            "created":"2025-06-20T10:00:00Z","metadata":{"department":"engineering","level":3}},
            {"id":2,"name":"bob","active":false,"score":87.2,
            "created":"2025-02-15T14:30:00Z","metadata":{"department":"sales","level":2}},
            {"id":3,"name":"charlie","active":true,"score":92.0,
            "created":"2025-09-10T08:45:00Z","metadata":{"department":"engineering","level":4}}]
            """#
        let sorted = #"""
            [{"id":2,"name":"bob","active":false,"score":87.2,
            "created":"2025-02-15T14:30:00Z","metadata":{"department":"sales","level":2}},
            {"id":1,"name":"alice","active":true,"score":95.5,
            "created":"2025-06-20T10:00:00Z","metadata":{"department":"engineering","level":3}},
            {"id":3,"name":"charlie","active":true,"score":92.0,
            "created":"2025-09-10T08:45:00Z","metadata":{"department":"engineering","level":4}}]
            """#.replacingOccurrences(of: "\n", with: "")
        #expect(try render("{{ jsonSort input '$[*].created' }}", ["input": .string(mixed)]) == sorted)
    }

    @Test("JsonSortHelperTest: the errors on bad input")
    func jsonSortErrors() throws {
        for input in nonStrings {
            #expect(
                try render("{{ jsonSort input '$.name' }}", ["input": input]) == "[ERROR: Input JSON must be a string]"
            )
        }
        let object = TemplateValue.string(#"{"id":123,"name":"bob"}"#)
        let array = TemplateValue.string(#"[{"id":123,"name":"bob"}]"#)
        let single = "[ERROR: A single JSONPath expression parameter must be supplied]"
        #expect(try render("{{ jsonSort input }}", ["input": object]) == single)
        #expect(try render("{{ jsonSort input '$.name' '$.name' }}", ["input": object]) == single)
        for path in [json("{}"), json("[]"), .bool(true), .null, .integer(123)] {
            #expect(
                try render("{{ jsonSort input jsonPath }}", ["input": object, "jsonPath": path])
                    == "[ERROR: JSONPath parameter must be a string]"
            )
        }
        for input in ["invalid json", #"[ { "id": 456 } "#, "", " "] {
            #expect(
                try render("{{ jsonSort input '$[*].name' }}", ["input": .string(input)])
                    == "[ERROR: Input JSON string is not valid JSON ('\(input)')]"
            )
        }
        #expect(
            try render("{{ jsonSort input '$[*].name' order=123 }}", ["input": array])
                == "[ERROR: order parameter must be a string]"
        )
        for order in ["invalid", "ascending", "descending", "up", "down", "ASC", "DESC", " ", ""] {
            #expect(
                try render("{{ jsonSort input '$[*].name' order='\(order)' }}", ["input": array])
                    == "[ERROR: order parameter must be 'asc' or 'desc']"
            )
        }
        for path in ["$.name", "$.users.name", "$", "name", "$[?(@.id > 2)].name"] {
            #expect(
                try render("{{ jsonSort input '\(path)' }}", ["input": array])
                    == "[ERROR: JSONPath must include [*] to specify array location (e.g., '$[*].name' or '$.users[*].name')]"
            )
        }
        let errors: [(TemplateValue, String, String)] = [
            (object, "'$[*].name'", "[ERROR: JSONPath does not reference an array ('$')]"),
            (array, "'$[*].['", "[ERROR: Invalid JSONPath expression ('$[*].[')]"),
            (array, "'$.users[*].name'", "[ERROR: JSONPath expression did not match any values ('$.users[*].name')]"),
            (
                .string(#"{"user":{"name":"bob"}}"#), "'$.user[*].name'",
                "[ERROR: JSONPath does not reference an array ('$.user')]"
            ),
            (
                .string(#"[{"data":{"nested":"value"}},{"data":{"other":"value"}}]"#), "'$[*].data'",
                "[ERROR: All sort field values must be of the same comparable type (Number, String, or Boolean)]"
            ),
            (
                .string(#"[{"value":"text"},{"value":123}]"#), "'$[*].value'",
                "[ERROR: All sort field values must be of the same comparable type (Number, String, or Boolean)]"
            ),
            (
                .string(#"[{"users":[{"name":"bob"},{"name":"alice"}]},{"users":[{"name":"charlie"}]}]"#),
                "'$[*].users[*].name'",
                "[ERROR: Number of sort values (3) does not match array size (2). JSONPath contains 2 wildcards [*] but only single-level array sorting is supported]"
            ),
            (.string("null"), "'$[*].name'", "[ERROR: Cannot sort a JSON null value - input must be a JSON array]"),
            (
                .string(#"[{"name":"alice"}]"#), "'$[*].name' nulls='middle'",
                "[ERROR: nulls parameter must be 'first' or 'last']"
            ),
        ]
        for (input, arguments, expected) in errors {
            #expect(try render("{{ jsonSort input \(arguments) }}", ["input": input]) == expected, "\(arguments)")
        }
    }

    // MARK: Printing

    @Test("numbers print as Jackson prints the BigDecimal or integer it read; nothing is HTML-escaped")
    func jacksonPrinting() throws {
        #expect(
            try render(#"{{jsonMerge '{"a":1e3,"b":1.10,"c":-0,"d":1.0E-5,"e":"<&>\u001f"}' '{}'}}"#)
                == #"{"a":1000,"b":1.10,"c":0,"d":0.000010,"e":"<&>\u001F"}"#
        )
        #expect(try render("{{jsonRemove '{\"a\":1}' 'a'}}") == "{}")
    }
}

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The six helpers in stub files, answering real URLSession requests (completion handler and `async`).
@Suite("Templated responses: WireMock 3's array and JSON-editing helpers")
struct WireMockJSONEditHelperStubTests {
    @Test("a stub with transformers edits the posted JSON: jsonRemove, jsonSort, jsonMerge, arrayAdd, arrayRemove")
    func stubFileWithTransformers() async throws {
        let root = try TemporaryStubRoot(mappings: [
            "order.json": #"""
            {"request": {"method": "POST", "urlPathPattern": "/orders/.*"},
             "response": {"transformers": ["response-template"],
                          "headers": {"X-Path": "{{arrayRemove (arrayAdd request.pathSegments 'v2' position='start')}}"},
                          "body": "{{jsonMerge (jsonSort (jsonRemove request.body '$.secret') '$.items[*].price') '{\"total\":3}'}}"}}
            """#
        ])
        let registry = try root.registry()
        let session = registry.makeSession()
        var request = URLRequest(url: URL(string: "http://localhost/orders/7")!)
        request.httpMethod = "POST"
        request.httpBody = Data(#"{"items":[{"name":"b","price":2},{"name":"a","price":1}],"secret":"x"}"#.utf8)
        let (status, body) = try await TemplatedResponseTests.both(session, request)
        #expect(status == 200)
        #expect(body == #"{"items":[{"name":"a","price":1},{"name":"b","price":2}],"total":3}"#)
        let completion = await complete(session, request)
        #expect(completion.http?.value(forHTTPHeaderField: "X-Path") == "[v2, orders]")
    }

    @Test("with global templating a stub without transformers uses them too; bad input answers WireMock's [ERROR: …]")
    func stubFileWithGlobalTemplating() async throws {
        let root = try TemporaryStubRoot(mappings: [
            "tags.json": #"""
            {"request": {"urlPath": "/tags"},
             "response": {"body": "{{jsonArrayAdd '{\"tags\":[\"a\",\"b\"]}' (jsonRemove '\"c\"' '$.x') jsonPath='$.tags' maxItems=2}}"}}
            """#,
            "broken.json": #"""
            {"request": {"urlPath": "/broken"},
             "response": {"body": "{{jsonRemove '{\"a\":1}' '$'}}"}}
            """#,
        ])
        let registry = StubRegistry()
        try registry.load(root.path, templating: .global)
        let session = registry.makeSession()
        #expect(try await TemplatedResponseTests.both(session, "http://localhost/tags").body == #"{"tags":["b","c"]}"#)
        let broken = try await TemplatedResponseTests.both(session, "http://localhost/broken")
        #expect(broken.status == 200)
        #expect(broken.body == "[ERROR: Delete operation cannot be applied to JSONPath expression ('$')]")
    }
}
