import Testing

@testable import HTTPStubs
@testable import HTTPStubsFiles
@testable import HTTPStubsLanguages
@testable import HTTPStubsTemplates

/// Tests for the Jayway-compatible `JSONPathExpression` behind `matchesJsonPath`.
@Suite struct JSONPathExpressionTests {
    /// Parses a JSON document literal.
    private func json(_ text: String) throws -> JSONValue {
        try JSONValue(parsing: text)
    }

    /// The store document used by several tests.
    private var store: JSONValue {
        get throws {
            try json(
                """
                {"store": {"book": [
                  {"category": "reference", "author": "Nigel Rees", "title": "Sayings", "price": 8.95},
                  {"category": "fiction", "author": "Evelyn Waugh", "title": "Sword", "price": 12.99, "isbn": "0-553"},
                  {"category": "fiction", "author": "Herman Melville", "title": "Moby Dick", "price": 8.99, "isbn": "0-395"}
                ], "bicycle": {"color": "red", "price": 19.95}}, "empty": [], "nothing": null, "zero": {}}
                """
            )
        }
    }

    @Test func definitePathsSelectOneValue() throws {
        let document = try store
        #expect(try JSONPathExpression("$.store.bicycle.color").evaluate(document) == .value("red"))
        #expect(try JSONPathExpression("$['store']['bicycle'][\"price\"]").evaluate(document) == .value(19.95))
        #expect(try JSONPathExpression("$.store.book[0].author").evaluate(document) == .value("Nigel Rees"))
        #expect(try JSONPathExpression("$.store.book[-1].title").evaluate(document) == .value("Moby Dick"))
        #expect(try JSONPathExpression("$").evaluate(document) == .value(document))
        #expect(try JSONPathExpression("$.nothing").evaluate(document) == .value(.null))
        #expect(try JSONPathExpression("$.store.book[3]").evaluate(document) == .notFound)
        #expect(try JSONPathExpression("$.store.missing.deeper").evaluate(document) == .notFound)
        #expect(try JSONPathExpression("$.store.book.author").evaluate(document) == .notFound)
        #expect(try JSONPathExpression("$.store.bicycle.color").isDefinite)
    }

    @Test func indefinitePathsSelectLists() throws {
        let document = try store
        #expect(
            try JSONPathExpression("$.store.book[*].author").evaluate(document)
                == .values(["Nigel Rees", "Evelyn Waugh", "Herman Melville"])
        )
        #expect(
            try JSONPathExpression("$.store.book[1:3].title").evaluate(document) == .values(["Sword", "Moby Dick"])
        )
        #expect(try JSONPathExpression("$.store.book[:1].title").evaluate(document) == .values(["Sayings"]))
        #expect(
            try JSONPathExpression("$.store.book[-2:].title").evaluate(document) == .values(["Sword", "Moby Dick"])
        )
        #expect(
            try JSONPathExpression("$.store.book[0,2].title").evaluate(document) == .values(["Sayings", "Moby Dick"])
        )
        #expect(
            try JSONPathExpression("$.store.bicycle['color','price']").evaluate(document) == .values(["red", 19.95])
        )
        #expect(try JSONPathExpression("$.store.bicycle.*").evaluate(document) == .values(["red", 19.95]))
        #expect(try JSONPathExpression("$..isbn").evaluate(document) == .values(["0-553", "0-395"]))
        #expect(try JSONPathExpression("$..book[0].title").evaluate(document) == .values(["Sayings"]))
        #expect(try JSONPathExpression("$..price").evaluate(document) == .values([8.95, 12.99, 8.99, 19.95]))
        #expect(try JSONPathExpression("$.store.book[*].isbn").evaluate(document) == .values(["0-553", "0-395"]))
        guard case .values(let everything) = try JSONPathExpression("$..*").evaluate(document) else {
            Issue.record("`$..*` should be indefinite")
            return
        }
        #expect(everything.count == 25)
        #expect(try !JSONPathExpression("$..[0]").isDefinite)
        #expect(try !JSONPathExpression("$.a[1:2]").isDefinite)
        #expect(try !JSONPathExpression("$['a','b']").isDefinite)
    }

    @Test func filtersCompareValues() throws {
        let document = try store
        func titles(_ expression: String) throws -> JSONPathResult {
            try JSONPathExpression(expression).evaluate(document)
        }
        #expect(try titles("$.store.book[?(@.category == 'reference')].title") == .values(["Sayings"]))
        #expect(try titles("$.store.book[?(@.category != \"reference\")].title") == .values(["Sword", "Moby Dick"]))
        #expect(try titles("$.store.book[?(@.price < 9)].title") == .values(["Sayings", "Moby Dick"]))
        #expect(try titles("$.store.book[?(@.price <= 8.99)].title") == .values(["Sayings", "Moby Dick"]))
        #expect(try titles("$.store.book[?(@.price > 10)].title") == .values(["Sword"]))
        #expect(try titles("$.store.book[?(@.price >= 12.99)].title") == .values(["Sword"]))
        #expect(try titles("$.store.book[?(@.isbn)].title") == .values(["Sword", "Moby Dick"]))
        #expect(try titles("$.store.book[?(!@.isbn)].title") == .values(["Sayings"]))
        #expect(try titles("$.store.book[?(@.price < 9 && @.category == 'fiction')].title") == .values(["Moby Dick"]))
        #expect(
            try titles("$.store.book[?(@.price > 12 || @.author == 'Nigel Rees')].title")
                == .values(["Sayings", "Sword"])
        )
        #expect(
            try titles("$.store.book[?(!(@.price > 12 || @.author == 'Nigel Rees'))].title") == .values(["Moby Dick"])
        )
        #expect(try titles("$.store.book[?(@.author =~ /.*REES/i)].title") == .values(["Sayings"]))
        #expect(
            try titles("$.store.book[?(@.author =~ /Rees/)].title") == .values([]),
            "=~ must match the whole string"
        )
        #expect(
            try titles("$.store.book[?(@.price < $.store.bicycle.price && @['category'] == 'fiction')].title")
                == .values(["Sword", "Moby Dick"])
        )
        #expect(try titles("$.store.book[?(@.category > 'g')].title") == .values(["Sayings"]))
        #expect(try titles("$..book[?(@.isbn == '0-395')].author") == .values(["Herman Melville"]))
        #expect(try titles("$.store.book[?(@.missing != 'x')].title") == .values(["Sayings", "Sword", "Moby Dick"]))
    }

    @Test func filterOnRootObjectTestsTheObjectItself() throws {
        let expression = try JSONPathExpression("$.[?(@.generate_release_notes == true)]")
        let matching = try json(#"{"tag_name":"v1","generate_release_notes":true}"#)
        let other = try json(#"{"tag_name":"v1","generate_release_notes":false}"#)
        #expect(expression.evaluate(matching) == .values([matching]))
        #expect(expression.matchesExistence(in: matching))
        #expect(!expression.matchesExistence(in: other))
        #expect(!expression.matchesExistence(in: try json(#"{"tag_name":"v1"}"#)))
    }

    @Test func regexFilterAppliesToTheNumbersText() throws {
        let expression = try JSONPathExpression("$[?(@.age =~ /[0-1][0-9]/)]")
        #expect(expression.matchesExistence(in: try json(#"{"age": 17, "name": "x"}"#)))
        #expect(!expression.matchesExistence(in: try json(#"{"age": 27, "name": "x"}"#)))
        #expect(!expression.matchesExistence(in: try json(#"{"age": 170, "name": "x"}"#)))
        #expect(expression.matchesExistence(in: try json(#"[{"age": 3}, {"age": "12"}]"#)))
    }

    /// As WireMock 2.35.1 answered (Tests/Fixtures/WireMockGroundTruth/jsonpath-filters): Jayway
    /// compares a number with a string holding that number.
    @Test func numbersAndStringsCompareAsJaywayDoes() throws {
        let document = try json(#"[{"n": 17}, {"n": "17"}, {"n": 17.0}, {"n": "17.0"}]"#)
        #expect(try JSONPathExpression("$[?(@.n == 17)].n").evaluate(document) == .values([17, "17", 17.0]))
        #expect(try JSONPathExpression("$[?(@.n == '17')].n").evaluate(document) == .values([17, "17", 17.0]))
        #expect(try JSONPathExpression("$[?(@.n != 17)].n").evaluate(document) == .values(["17.0"]))
        #expect(try JSONPathExpression("$[?(@.n < 20)].n").evaluate(document) == .values([17, 17.0]))
        #expect(try JSONPathExpression("$[?(@ == 2)]").evaluate(try json("[1, 2, 3]")) == .values([2]))
        #expect(
            try JSONPathExpression("$[?(@.a == null)]").evaluate(try json(#"[{"a": null}, {"a": 1}]"#))
                == .values([["a": nil]])
        )
    }

    @Test func lengthFunction() throws {
        let document = try store
        #expect(try JSONPathExpression("$.store.book.length()").evaluate(document) == .value(3))
        #expect(try JSONPathExpression("$.store.bicycle.size()").evaluate(document) == .value(2))
        #expect(try JSONPathExpression("$..isbn.length()").evaluate(document) == .value(2))
        #expect(
            try JSONPathExpression("$.store.book[?(@.title.length() > 5)].title").evaluate(document)
                == .values(["Sayings", "Moby Dick"])
        )
        #expect(try JSONPathExpression("$.nope.length()").evaluate(document) == .notFound)
    }

    @Test func existenceFollowsWireMock() throws {
        let document = try store
        #expect(try JSONPathExpression("$.empty").matchesExistence(in: document), "a definite empty array matches")
        #expect(try JSONPathExpression("$.zero").matchesExistence(in: document), "a definite empty object matches")
        #expect(try !JSONPathExpression("$.nothing").matchesExistence(in: document), "null does not match")
        #expect(try !JSONPathExpression("$.absent").matchesExistence(in: document))
        #expect(
            try !JSONPathExpression("$.empty[*]").matchesExistence(in: document),
            "an empty indefinite result does not match"
        )
        #expect(try !JSONPathExpression("$.store.book[?(@.price > 100)]").matchesExistence(in: document))
        #expect(try JSONPathExpression("$.store.book[?(@.price > 10)]").matchesExistence(in: document))
    }

    @Test func nestedOperatorStrings() throws {
        let document = try json(
            #"{"a": {"b": 1, "c": [1, "x", true, null, {"d": 2}]}, "s": "text", "n": 1.50, "z": null}"#
        )
        func strings(_ expression: String, json: Bool = false) throws -> [String] {
            try JSONPathExpression(expression).stringValues(in: document, forJSONComparison: json)
        }
        #expect(try strings("$.a") == [#"{"b":1,"c":[1,"x",true,null,{"d":2}]}"#])
        #expect(try strings("$.a.c") == ["1", "x", "true", "null", #"{"d":2}"#])
        #expect(try strings("$.a.c", json: true) == [#"[1,"x",true,null,{"d":2}]"#])
        #expect(try strings("$.s") == ["text"])
        #expect(try strings("$.n") == ["1.50"])
        #expect(try strings("$.z") == ["null"])
        #expect(try strings("$.missing").isEmpty)
        #expect(try strings("$..b") == ["1"])
        #expect(try strings("$..b", json: true) == ["[1]"])
    }

    @Test(arguments: [
        ("", 0), ("store", 0), ("$.", 2), ("$[", 2), ("$['a'", 5), ("$['a", 2), ("$.a[?(@.b == )]", 13),
        ("$.a[?(@.b ~= 1)]", 10), ("$.a[?(@.b like ['x'])]", 10), ("$.a[?(@.b =~ /x)]", 13),
        ("$.a[?(@.b =~ /x/g)]", 16),
        ("$.a[?(@.b =~ /(/)]", 13), ("$.a[?(@.b == 1)", 15), ("$.a.max()", 4), ("$.a.length().b", 12), ("$.a b", 4),
        ("$[1:2:3]", 5), ("$.a[?('x')]", 6), ("$.a[?@.b]", 5),
    ])
    func syntaxErrorsHaveOffsets(expression: String, offset: Int) {
        #expect(throws: JSONPathSyntaxError.self) { try JSONPathExpression(expression) }
        do {
            _ = try JSONPathExpression(expression)
        } catch {
            #expect(error.offset == offset, "\(expression): \(error)")
            #expect(!error.message.isEmpty)
            #expect(error.description.contains("offset \(offset)"))
        }
    }

    @Test func hostileInputsNeitherCrashNorHang() throws {
        let deepFilter = "$" + String(repeating: "[?(@", count: 200) + String(repeating: ")]", count: 200)
        #expect(throws: JSONPathSyntaxError.self) { try JSONPathExpression(deepFilter) }
        let deepParentheses =
            "$[?(" + String(repeating: "(", count: 500) + "@.a" + String(repeating: ")", count: 500) + ")]"
        #expect(throws: JSONPathSyntaxError.self) { try JSONPathExpression(deepParentheses) }
        let deepDocument = try json(
            String(repeating: "[", count: 500) + #"{"x": 1}"# + String(repeating: "]", count: 500)
        )
        #expect(try JSONPathExpression("$..x").evaluate(deepDocument) == .values([1]))
        #expect(try JSONPathExpression("$..[?(@.x == 1)].x").evaluate(deepDocument) == .values([1]))
        #expect(try JSONPathExpression("$[99999999999]").evaluate(deepDocument) == .notFound)
        #expect(throws: JSONPathSyntaxError.self) { try JSONPathExpression("$[99999999999999999999999]") }
        #expect(try JSONPathExpression("$.$ref").evaluate(try json(#"{"$ref": "x"}"#)) == .value("x"))
        #expect(try JSONPathExpression("$['it\\'s']").evaluate(try json(#"{"it's": 1}"#)) == .value(1))
    }
}
