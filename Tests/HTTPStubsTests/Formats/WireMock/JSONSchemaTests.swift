import Foundation
import Testing

@testable import HTTPStubs
@testable import HTTPStubsFiles
@testable import HTTPStubsLanguages
@testable import HTTPStubsTemplates

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// WireMock 3's `matchesJsonSchema`: the validator on small schemas (cases in the spirit of the
/// official JSON-Schema-Test-Suite, written for this package), WireMock's reading of the value
/// (not JSON is a string; a failing number is retried as a string), and mappings loaded from a
/// temporary stub root and exercised through a real URLSession.
@Suite("JSON schema")
struct JSONSchemaTests {
    /// A keyword case: a schema, values it admits and values it refuses.
    struct Case: Sendable, CustomTestStringConvertible {
        let schema: String
        let valid: [String]
        let invalid: [String]
        var version: JSONSchema.Version = .v202012

        var testDescription: String { "\(version.name) \(schema)" }
    }

    static let cases: [Case] = [
        // type
        Case(
            schema: ##"{"type": "integer"}"##,
            valid: ["1", "-7", "1.0", "1e2", "12345678901234567890"],
            invalid: ["1.5", ##""1""##, "null", "[]"]
        ),
        Case(schema: ##"{"type": "integer"}"##, valid: ["1", "-7"], invalid: ["1.0", "1e2"], version: .v4),
        Case(schema: ##"{"type": "number"}"##, valid: ["1", "1.5", "-0.0"], invalid: [##""1""##, "true"]),
        Case(schema: ##"{"type": ["string", "null"]}"##, valid: [##""a""##, "null"], invalid: ["1", "{}"]),
        Case(schema: ##"{"type": "object", "nullable": true}"##, valid: ["{}", "null"], invalid: ["[]", "1"]),
        Case(
            schema:
                ##"{"nullable": true, "properties": {"a": {"type": "string"}, "b": {"properties": {"c": {"type": "string"}}}}}"##,
            valid: [##"{"a": null}"##],
            invalid: [##"{"a": 1}"##, ##"{"b": {"c": null}}"##]
        ),
        Case(schema: ##"{"type": "boolean"}"##, valid: ["true", "false"], invalid: ["0", ##""true""##]),
        // enum and const
        Case(
            schema: ##"{"enum": [1, "a", {"b": [true]}, null]}"##,
            valid: ["1", "1.0", ##""a""##, ##"{"b": [true]}"##, "null"],
            invalid: ["2", ##""b""##, ##"{"b": [false]}"##, "[]"]
        ),
        Case(
            schema: ##"{"const": {"a": 1, "b": 2}}"##,
            valid: [##"{"b": 2, "a": 1.0}"##],
            invalid: [##"{"a": 1}"##, "1"]
        ),
        Case(schema: ##"{"const": false}"##, valid: ["false"], invalid: ["0", "null"]),
        // objects
        Case(
            schema: ##"{"properties": {"a": {"type": "integer"}}, "required": ["a"]}"##,
            valid: [##"{"a": 1}"##, ##"{"a": 1, "b": "x"}"##, "[]", "3"],
            invalid: ["{}", ##"{"a": "1"}"##]
        ),
        Case(
            schema: ##"{"properties": {"a": {}}, "additionalProperties": false}"##,
            valid: ["{}", ##"{"a": 1}"##],
            invalid: [##"{"b": 1}"##]
        ),
        Case(
            schema:
                ##"{"properties": {"a": {}}, "patternProperties": {"^x-": {"type": "string"}}, "additionalProperties": {"type": "integer"}}"##,
            valid: [##"{"a": null, "x-b": "s", "c": 3}"##],
            invalid: [##"{"x-b": 1}"##, ##"{"c": "3"}"##]
        ),
        Case(
            schema: ##"{"patternProperties": {"f.o": {"minimum": 10}}}"##,
            valid: [##"{"afxob": 10, "bar": 1}"##],
            invalid: [##"{"xfoo": 9}"##]
        ),
        Case(
            schema: ##"{"propertyNames": {"maxLength": 3, "pattern": "^[a-z]+$"}}"##,
            valid: [##"{"abc": 1}"##, "{}", ##""abcdef""##],
            invalid: [##"{"abcd": 1}"##, ##"{"A": 1}"##]
        ),
        Case(
            schema: ##"{"minProperties": 1, "maxProperties": 2}"##,
            valid: [##"{"a": 1}"##, ##"{"a": 1, "b": 2}"##, "[]"],
            invalid: ["{}", ##"{"a": 1, "b": 2, "c": 3}"##]
        ),
        Case(
            schema: ##"{"dependentRequired": {"card": ["billing"]}}"##,
            valid: ["{}", ##"{"billing": 1}"##, ##"{"card": 1, "billing": 2}"##],
            invalid: [##"{"card": 1}"##]
        ),
        Case(
            schema: ##"{"dependentSchemas": {"card": {"required": ["cvc"]}}}"##,
            valid: [##"{"card": 1, "cvc": 2}"##, "{}"],
            invalid: [##"{"card": 1}"##]
        ),
        Case(
            schema: ##"{"dependencies": {"card": ["billing"], "ship": {"required": ["address"]}}}"##,
            valid: [##"{"card": 1, "billing": 2}"##, ##"{"ship": 1, "address": 2}"##],
            invalid: [##"{"card": 1}"##, ##"{"ship": 1}"##],
            version: .v7
        ),
        Case(
            schema: ##"{"dependencies": {"card": ["billing"]}}"##,
            valid: [##"{"card": 1, "billing": 2}"##],
            invalid: [##"{"card": 1}"##],
            version: .v202012
        ),
        Case(
            schema: ##"{"notAllowed": ["password"]}"##,
            valid: [##"{"user": "a"}"##],
            invalid: [##"{"password": "x"}"##]
        ),
        Case(
            schema: ##"{"contentEncoding": "base64", "contentMediaType": "application/json"}"##,
            valid: [##""eyJhIjoxfQ==""##, ##""eyJhIjoxfQ""##],
            invalid: [##""not base64!""##, ##""aGVsbG8=""##],
            version: .v7
        ),
        Case(schema: ##"{"contentEncoding": "base64"}"##, valid: [##""not base64!""##], invalid: [], version: .v202012),
        // arrays
        Case(schema: ##"{"items": {"type": "integer"}}"##, valid: ["[]", "[1, 2]", "{}"], invalid: [##"[1, "2"]"##]),
        Case(
            schema: ##"{"prefixItems": [{"type": "integer"}, {"type": "string"}], "items": false}"##,
            valid: ["[]", "[1]", ##"[1, "a"]"##],
            invalid: [##"["a"]"##, ##"[1, "a", 2]"##]
        ),
        Case(
            schema: ##"{"items": [{"type": "integer"}, {"type": "string"}], "additionalItems": {"type": "boolean"}}"##,
            valid: [##"[1, "a", true]"##, "[1]"],
            invalid: [##"[1, "a", 3]"##, ##"["a"]"##],
            version: .v7
        ),
        Case(
            schema: ##"{"items": [{"type": "integer"}], "additionalItems": false}"##,
            valid: ["[1]"],
            invalid: ["[1, 2]"],
            version: .v4
        ),
        Case(
            schema: ##"{"prefixItems": [{"type": "integer"}]}"##,
            valid: [##"["not checked before 2020-12"]"##],
            invalid: [],
            version: .v201909
        ),
        Case(
            schema: ##"{"minItems": 1, "maxItems": 2}"##,
            valid: ["[1]", "[1, 2]", ##""""##],
            invalid: ["[]", "[1, 2, 3]"]
        ),
        Case(
            schema: ##"{"uniqueItems": true}"##,
            valid: ["[1, 2]", ##"[{"a": 1}, {"a": 2}]"##, "[[1], [true]]"],
            invalid: ["[1, 1.0]", ##"[{"a": 1, "b": 2}, {"b": 2, "a": 1}]"##, ##"["x", "x"]"##]
        ),
        Case(schema: ##"{"contains": {"const": 5}}"##, valid: ["[1, 5]", "{}"], invalid: ["[]", "[1, 2]"]),
        Case(
            schema: ##"{"contains": {"type": "string"}, "minContains": 2, "maxContains": 3}"##,
            valid: [##"["a", "b", 1]"##],
            invalid: [##"["a", 1]"##, ##"["a", "b", "c", "d"]"##]
        ),
        // strings
        Case(
            schema: ##"{"minLength": 2, "maxLength": 3}"##,
            valid: [##""ab""##, ##""💩💩""##, ##""日本語""##, "1"],
            invalid: [##""a""##, ##""💩""##, ##""abcd""##]
        ),
        Case(schema: ##"{"pattern": "b+"}"##, valid: [##""abbc""##, ##""b""##, "true"], invalid: [##""ac""##]),
        Case(schema: ##"{"pattern": "^[0-9]{3}$"}"##, valid: [##""123""##], invalid: [##""1234""##, ##""a123""##]),
        Case(schema: ##"{"format": "email"}"##, valid: [##""not an email""##], invalid: []),
        Case(schema: ##"{"format": "email"}"##, valid: [##""a@b.c""##], invalid: [##""not an email""##], version: .v7),
        Case(
            schema: ##"{"format": "date-time"}"##,
            valid: [##""2024-02-29T12:00:00Z""##, ##""2024-02-29t12:00:00.5+01:00""##],
            invalid: [##""2024-02-29 12:00""##],
            version: .v6
        ),
        Case(
            schema: ##"{"format": "ipv6"}"##,
            valid: [##""::1""##, ##""fe80::1:2""##, ##""1:2:3:4:5:6:7:8""##, ##""::ffff:10.0.0.1""##],
            invalid: [##""1:::2""##, ##""12345::""##, ##""1:2""##],
            version: .v7
        ),
        Case(
            schema: ##"{"format": "date"}"##,
            valid: [##""2024-02-29""##, ##""2023-12-31""##],
            invalid: [##""2023-02-29""##, ##""2024-04-31""##, ##""2024-1-01""##],
            version: .v7
        ),
        Case(
            schema: ##"{"format": "hostname"}"##,
            valid: [##""api.example.com""##, ##""localhost""##],
            invalid: [##""-bad.example""##, ##""a_b.example""##],
            version: .v7
        ),
        Case(
            schema: ##"{"format": "email"}"##,
            valid: [##""first.last+tag@example.co.uk""##, ##""x@[10.0.0.1]""##],
            invalid: [##""a..b@example.com""##, ##""a@b@c""##, ##""a b@c.d""##, ##""@c.d""##],
            version: .v4
        ),
        Case(
            schema: ##"{"format": "uuid"}"##,
            valid: [##""123E4567-e89b-12d3-a456-426614174000""##],
            invalid: [##""123e4567e89b12d3a456426614174000""##],
            version: .v7
        ),
        Case(
            schema: ##"{"format": "json-pointer"}"##,
            valid: [##""/a~1b/0""##, ##""""##],
            invalid: [##""a/b""##, ##""/a~2""##],
            version: .v6
        ),
        // numbers
        Case(
            schema: ##"{"minimum": 18, "maximum": 65}"##,
            valid: ["18", "65", "40.5", ##""x""##],
            invalid: ["17", "17.999", "65.0001"]
        ),
        Case(
            schema: ##"{"exclusiveMinimum": 0, "exclusiveMaximum": 10}"##,
            valid: ["0.001", "9.99"],
            invalid: ["0", "10"]
        ),
        Case(
            schema: ##"{"minimum": 0, "exclusiveMinimum": true, "maximum": 10, "exclusiveMaximum": true}"##,
            valid: ["1", "9"],
            invalid: ["0", "10"],
            version: .v4
        ),
        Case(schema: ##"{"multipleOf": 0.1}"##, valid: ["0.3", "1", "12.7"], invalid: ["0.35"]),
        Case(schema: ##"{"multipleOf": 2}"##, valid: ["4", "1e3", "-6"], invalid: ["3", "4.5"]),
        Case(
            schema: ##"{"maximum": 12345678901234567890}"##,
            valid: ["12345678901234567890"],
            invalid: ["12345678901234567891"]
        ),
        // combinators and conditionals
        Case(schema: ##"{"allOf": [{"minimum": 1}, {"maximum": 3}]}"##, valid: ["2"], invalid: ["0", "4"]),
        Case(schema: ##"{"anyOf": [{"type": "string"}, {"minimum": 10}]}"##, valid: [##""a""##, "11"], invalid: ["5"]),
        Case(
            schema: ##"{"oneOf": [{"type": "integer"}, {"minimum": 2}]}"##,
            valid: ["1", "2.5"],
            invalid: ["3", "1.5"]
        ),
        Case(schema: ##"{"not": {"type": "integer"}}"##, valid: ["1.5", ##""a""##], invalid: ["1"]),
        Case(
            schema:
                ##"{"if": {"properties": {"kind": {"const": "card"}}}, "then": {"required": ["number"]}, "else": {"required": ["iban"]}}"##,
            valid: [##"{"kind": "card", "number": 1}"##, ##"{"kind": "bank", "iban": 1}"##],
            invalid: [##"{"kind": "card"}"##, ##"{"kind": "bank", "number": 1}"##]
        ),
        Case(schema: ##"{"if": {"minimum": 10}, "then": {"multipleOf": 5}}"##, valid: ["3", "15"], invalid: ["12"]),
        // boolean schemas and references
        Case(schema: "true", valid: ["1", "null", "{}"], invalid: []),
        Case(schema: "false", valid: [], invalid: ["1", "null", "{}"]),
        Case(schema: ##"{"properties": {"a": true, "b": false}}"##, valid: [##"{"a": 1}"##], invalid: [##"{"b": 1}"##]),
        Case(
            schema:
                ##"{"$defs": {"id": {"type": "integer", "minimum": 1}}, "properties": {"id": {"$ref": "#/$defs/id"}}}"##,
            valid: [##"{"id": 3}"##],
            invalid: [##"{"id": 0}"##, ##"{"id": "3"}"##]
        ),
        Case(
            schema:
                ##"{"definitions": {"a/b": {"type": "string"}, "c~d": {"type": "integer"}, "e%f": {"const": 1}}, "items": [{"$ref": "#/definitions/a~1b"}, {"$ref": "#/definitions/c~0d"}, {"$ref": "#/definitions/e%25f"}]}"##,
            valid: [##"["x", 2, 1]"##],
            invalid: [##"[1]"##, ##"["x", "y"]"##, ##"["x", 2, 2]"##],
            version: .v7
        ),
        Case(
            schema:
                ##"{"type": "object", "properties": {"name": {"type": "string"}, "children": {"type": "array", "items": {"$ref": "#"}}}, "required": ["name"]}"##,
            valid: [##"{"name": "a", "children": [{"name": "b", "children": [{"name": "c"}]}]}"##],
            invalid: [##"{"name": "a", "children": [{"name": "b", "children": [{}]}]}"##]
        ),
        Case(
            schema: ##"{"$ref": "#/definitions/a", "type": "string", "definitions": {"a": {"type": "integer"}}}"##,
            valid: ["1"],
            invalid: [##""a""##],
            version: .v7
        ),
        Case(
            schema: ##"{"$ref": "#/$defs/a", "minimum": 5, "$defs": {"a": {"type": "integer"}}}"##,
            valid: ["5"],
            invalid: ["1"]
        ),
        // unknown keywords and annotations are ignored
        Case(
            schema: ##"{"id": "http://example.com/s", "properties": {"id": {"type": "integer"}}}"##,
            valid: [##"{"id": 1}"##],
            invalid: [##"{"id": "1"}"##],
            version: .v4
        ),
        Case(
            schema:
                ##"{"title": "t", "description": "d", "examples": [1], "x-custom": {"minimum": 100}, "readOnly": true, "format": "no-such-format"}"##,
            valid: ["1"],
            invalid: []
        ),
    ]

    @Test("each keyword admits and refuses what the specification says", arguments: cases)
    func keyword(_ example: Case) throws {
        let schema = try JSONSchema(JSONValue(parsing: example.schema), version: example.version, writtenAt: "test")
        for text in example.valid {
            let failures = schema.validate(try JSONValue(parsing: text))
            #expect(failures.isEmpty, "\(text) should be valid: \(failures)")
        }
        for text in example.invalid {
            #expect(!schema.validate(try JSONValue(parsing: text)).isEmpty, "\(text) should be invalid")
        }
    }

    @Test("failures name the instance path, the keyword and the values")
    func failureMessages() throws {
        let schema = try JSONSchema(
            JSONValue(
                parsing: ##"""
                    {"type": "object", "required": ["name"], "properties": {
                      "age": {"type": "integer", "minimum": 18},
                      "tags": {"items": {"type": "string", "maxLength": 3}},
                      "odd key": {"enum": ["a", "b"]}
                    }, "additionalProperties": false}
                    """##
            ),
            version: .v202012,
            writtenAt: "test"
        )
        let failures = schema.validate(
            try JSONValue(parsing: ##"{"age": 17, "tags": ["ok", 5, "long"], "odd key": "c", "extra": 1}"##)
        )
        #expect(
            failures.map(\.description) == [
                "$: the required property \"name\" is missing",
                "$.age: 17 is less than minimum 18",
                "$.tags[1]: 5 is an integer, expected string",
                "$.tags[2]: \"long\" is 4 characters long, longer than maxLength 3",
                "$['odd key']: \"c\" is not one of [\"a\",\"b\"]",
                "$.extra: the property \"extra\" is not allowed (additionalProperties is false)",
            ]
        )
        #expect(
            failures.map(\.keyword) == ["required", "minimum", "type", "maxLength", "enum", "additionalProperties"]
        )
    }

    @Test("a $ref that loops without reaching a value fails instead of recursing forever")
    func referenceLoop() throws {
        let schema = try JSONSchema(
            JSONValue(
                parsing:
                    ##"{"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"allOf": [{"$ref": "#/$defs/a"}]}}, "$ref": "#/$defs/a"}"##
            ),
            version: .v202012,
            writtenAt: "test"
        )
        let failures = schema.validate(1)
        #expect(failures.map(\.keyword) == ["$ref"])
        #expect(failures.first?.message.contains("leads back to itself") == true)
    }

    @Test("a deeply nested value against a recursive schema stops at the depth limit instead of exhausting the stack")
    func deepNesting() throws {
        let schema = try JSONSchema(
            JSONValue(parsing: ##"{"type": "array", "items": {"$ref": "#"}}"##),
            version: .v202012,
            writtenAt: "test"
        )
        let shallow = try JSONValue(parsing: String(repeating: "[", count: 100) + String(repeating: "]", count: 100))
        #expect(schema.validate(shallow).isEmpty)
        let deep = try JSONValue(parsing: String(repeating: "[", count: 500) + String(repeating: "]", count: 500))
        let failures = schema.validate(deep)
        #expect(failures.count == 1)
        #expect(failures.first?.message.contains("more than 256 levels") == true, "\(failures)")
    }

    @Test("$schema chooses the draft, over schemaVersion")
    func metaSchema() throws {
        let schema = try JSONSchema(
            JSONValue(parsing: ##"{"$schema": "http://json-schema.org/draft-04/schema#", "type": "integer"}"##),
            version: .v202012,
            writtenAt: "test"
        )
        #expect(schema.version == .v4)
        #expect(!schema.validate(try JSONValue(parsing: "1.0")).isEmpty)
        let modern = try JSONSchema(
            JSONValue(parsing: ##"{"$schema": "https://json-schema.org/draft/2020-12/schema"}"##),
            version: .v4,
            writtenAt: "test"
        )
        #expect(modern.version == .v202012)
    }

    @Test(
        "schemas that cannot be used are refused, saying where and why",
        arguments: [
            (##"{"properties": [1, 2, 3]}"##, "$.properties", "'properties' takes an object whose values are schemas"),
            (##"{"id": 1, "name": "alice"}"##, "$.id", "'id' is draft 4's identifier"),
            (##"{"properties": {"id": {"id": "x"}}}"##, "$.properties.id.id", "'id' is draft 4's identifier"),
            (
                ##"{"items": {"$ref": "#/does/not/exist"}}"##, "$.items.$ref",
                "the $ref \"#/does/not/exist\" points to nothing"
            ),
            (##"{"$ref": "other.json#/a"}"##, "$.$ref", "is not a local JSON pointer"),
            (##"{"$ref": "#anchor"}"##, "$.$ref", "is not a local JSON pointer"),
            (##"{"$dynamicRef": "#node"}"##, "$.$dynamicRef", "'$dynamicRef' is not supported"),
            (
                ##"{"unevaluatedProperties": false}"##, "$.unevaluatedProperties",
                "'unevaluatedProperties' is not supported"
            ),
            (##"{"pattern": "a("}"##, "$.pattern", "invalid regular expression"),
            (##"{"patternProperties": {"[": {}}}"##, "$.patternProperties['[']", "invalid regular expression"),
            (##"{"type": "int"}"##, "$.type", "'type' takes"),
            (##"{"anyOf": []}"##, "$.anyOf", "non-empty array"),
            (##"{"items": [{}]}"##, "$.items", "write a list of schemas as 'prefixItems'"),
            (##"{"multipleOf": 0}"##, "$.multipleOf", "greater than 0"),
            (##"{"$schema": "http://example.com/my-schema"}"##, "$.$schema", "not a JSON Schema draft"),
            (
                ##"{"properties": {"a": {"$id": "http://x/a", "$ref": "#/$defs/b"}}, "$defs": {"b": {}}}"##,
                "$.properties.a.$ref", "its own $id"
            ),
        ]
    )
    func refusedSchemas(schema: String, path: String, message: String) throws {
        let value = try JSONValue(parsing: schema)
        do {
            _ = try JSONSchema(value, version: .v202012, writtenAt: "test")
            Issue.record("\(schema) should be refused")
        } catch {
            #expect(error.schemaPath.description == path, "\(error)")
            #expect(error.message.contains(message), "\(error.message)")
        }
    }

    @Test("an unchecked format networknt asserts up to draft 7 is refused there, and is an annotation from 2019-09")
    func uncheckedFormats() throws {
        #expect(throws: JSONSchema.Problem.self) {
            try JSONSchema(JSONValue(parsing: ##"{"format": "uri"}"##), version: .v7, writtenAt: "test")
        }
        let modern = try JSONSchema(JSONValue(parsing: ##"{"format": "uri"}"##), version: .v201909, writtenAt: "test")
        #expect(modern.validate("not a uri").isEmpty)
    }

    // MARK: Stub files

    @Test("matchesJsonSchema on a body: the schema as JSON or as a JSON string, at the default V202012")
    func bodyThroughURLSession() async throws {
        let schema =
            ##"{"type": "object", "required": ["name", "age"], "properties": {"name": {"type": "string"}, "age": {"type": "integer", "minimum": 18}}}"##
        let escaped = schema.replacingOccurrences(of: "\"", with: "\\\"")
        for form in [schema, "\"\(escaped)\""] {
            let root = try TemporaryStubRoot(mappings: [
                "x.json":
                    ##"{"request": {"method": "POST", "url": "/people", "bodyPatterns": [{"matchesJsonSchema": \##(form)}]}, "response": {"body": "valid"}}"##
            ])
            let registry = try root.registry()
            let session = registry.makeSession()
            #expect(
                await answer(session, request("POST", "http://h/people", body: ##"{"name": "Ada", "age": 36}"##))
                    == "valid",
                "\(form)"
            )
            #expect(
                await answer(session, request("POST", "http://h/people", body: ##"{"name": "Ada", "age": 17}"##))
                    == unmatched
            )
            #expect(await answer(session, request("POST", "http://h/people", body: ##"{"name": "Ada"}"##)) == unmatched)
            #expect(await answer(session, request("POST", "http://h/people", body: "not json")) == unmatched)
            #expect(
                await answer(session, request("POST", "http://h/people")) == unmatched,
                "an absent body never matches"
            )
            withExtendedLifetime(registry) {}
        }
    }

    @Test(
        "a recursive schema on a body nested 500 deep answers (no match) through URLSession without exhausting a thread's stack"
    )
    func deepBodyThroughURLSession() async throws {
        let root = try TemporaryStubRoot(mappings: [
            "x.json":
                ##"{"request": {"bodyPatterns": [{"matchesJsonSchema": {"type": "array", "items": {"$ref": "#"}}}]}, "response": {"body": "tree"}}"##
        ])
        let registry = try root.registry()
        let session = registry.makeSession()
        #expect(await answer(session, request("POST", "http://h/", body: "[[[]],[]]")) == "tree")
        let deep = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
        #expect(await answer(session, request("POST", "http://h/", body: deep)) == unmatched)
        withExtendedLifetime(registry) {}
    }

    @Test("the near-miss report says which keyword failed where")
    func nearMiss() throws {
        let root = try TemporaryStubRoot(mappings: [
            "x.json":
                ##"{"request": {"method": "POST", "bodyPatterns": [{"matchesJsonSchema": {"properties": {"age": {"minimum": 18}}}}]}, "response": {}}"##
        ])
        let registry = try root.registry()
        let request = InterceptedRequest(
            method: .post,
            url: URL(string: "http://h/")!,
            body: Data(##"{"age": 17}"##.utf8)
        )
        guard case let .unmatched(report) = registry.answer(request) else {
            Issue.record("should not match")
            return
        }
        #expect(report.text.contains("$.age: 17 is less than minimum 18"), "\(report.text)")
    }

    @Test(
        "headers and query values: JSON when they parse, else a string; a failing number is retried as its text, as WireMock does"
    )
    func headersAndQuery() async throws {
        let root = try TemporaryStubRoot(mappings: [
            "string.json":
                ##"{"request": {"urlPath": "/s", "queryParameters": {"code": {"matchesJsonSchema": {"type": "string", "minLength": 2, "maxLength": 4}}}}, "response": {"body": "string"}}"##,
            "number.json":
                ##"{"request": {"urlPath": "/n", "headers": {"X-Count": {"matchesJsonSchema": "{\"type\": \"number\", \"maximum\": 100}", "schemaVersion": "V4"}}}, "response": {"body": "number"}}"##,
        ])
        let registry = try root.registry()
        let session = registry.makeSession()
        for (code, expected) in [
            ("ab", "string"), ("1234", "string"), ("12", "string"), ("%2212%22", "string"), ("a", unmatched),
            ("12345", unmatched), ("%22%22", unmatched),
        ] {
            #expect(await answer(session, request("GET", "http://h/s?code=\(code)")) == expected, "\(code)")
        }
        for (count, expected) in [("5", "number"), ("100", "number"), ("101", unmatched), ("10a", unmatched)] {
            #expect(
                await answer(session, request("GET", "http://h/n", headers: ["X-Count": count])) == expected,
                "\(count)"
            )
        }
        #expect(await answer(session, request("GET", "http://h/n")) == unmatched, "an absent header never matches")
        withExtendedLifetime(registry) {}
    }

    @Test(
        "values are read as WireMock's Jackson reads them: comments, single quotes, text after the value ignored, but not after a bare number"
    )
    func jacksonReading() {
        #expect(JSONValue.jacksonValue("{'a': 1} // note") == ["a": 1])
        #expect(JSONValue.jacksonValue(#"{"a": 1} trailing"#) == ["a": 1])
        #expect(JSONValue.jacksonValue("12 34") == 12)
        #expect(JSONValue.jacksonValue("10a") == nil)
        #expect(JSONValue.jacksonValue("true1") == nil)
        #expect(JSONValue.jacksonValue("not json") == nil)
        #expect(JSONValue.jacksonValue(#""s"x"#) == "s")
    }

    @Test(
        "an invalid schema is a load error at the schema's place in the file",
        arguments: [
            (
                ##"{"type": "array", "items": {"$ref": "#/does/not/exist"}}"##,
                "$.request.bodyPatterns[0].matchesJsonSchema.items.$ref", ##""#/does/not/exist""##, "points to nothing"
            ),
            (
                ##"{"properties": {"a": {"pattern": "(x"}}}"##,
                "$.request.bodyPatterns[0].matchesJsonSchema.properties.a.pattern", ##""(x""##,
                "invalid regular expression"
            ),
            (
                ##"{"$defs": {"n": {"$dynamicRef": "#n"}}}"##,
                "$.request.bodyPatterns[0].matchesJsonSchema.$defs.n.$dynamicRef", ##""#n""##,
                "'$dynamicRef' is not supported"
            ),
            (
                ##"{"$ref": "https://example.com/person.json"}"##, "$.request.bodyPatterns[0].matchesJsonSchema.$ref",
                ##""https:"##, "not a local JSON pointer"
            ),
            (
                ##""{\"type\": \"object\", \"properties\": {\"a\": {\"$ref\": \"#/nope\"}}}""##,
                "$.request.bodyPatterns[0].matchesJsonSchema", ##""{\"type"##,
                "at $.properties.a.$ref in the schema string: the $ref \"#/nope\" points to nothing"
            ),
            (
                ##""{\"type\": ""##, "$.request.bodyPatterns[0].matchesJsonSchema", ##""{\"type"##,
                "holds a string that is not JSON"
            ),
        ]
    )
    func loadErrors(schema: String, jsonPath: String, value: String, message: String) throws {
        let text = """
            {
              "request": {
                "bodyPatterns": [{"matchesJsonSchema": \(schema)}]
              },
              "response": {"status": 200}
            }
            """
        let root = try TemporaryStubRoot(mappings: ["x.json": text])
        let load = root.load()
        #expect(load.errors.count == 1, "\(load.diagnostics)")
        let error = try #require(load.errors.first)
        let (line, column) = sourcePosition(of: value, in: text)
        #expect(error.jsonPath == jsonPath, "\(error)")
        #expect(error.source.line == line && error.source.column == column, "expected \(line):\(column), got \(error)")
        #expect(
            error.description
                == "\(root.path("mappings/x.json")):\(line):\(column): error: \(jsonPath): \(error.message)"
        )
        #expect(error.message.contains(message), "\(error.message)")
        #expect(load.stubs.isEmpty)
    }

    @Test("an unknown schemaVersion is a load error listing the versions")
    func unknownVersion() throws {
        let text =
            ##"{"request": {"bodyPatterns": [{"matchesJsonSchema": {}, "schemaVersion": "V5"}]}, "response": {}}"##
        let load = try TemporaryStubRoot(mappings: ["x.json": text]).load()
        let error = try #require(load.errors.first)
        #expect(error.jsonPath == "$.request.bodyPatterns[0].schemaVersion")
        #expect(error.message.contains("V4, V6, V7, V201909, V202012"), "\(error.message)")
    }

    @Test(
        "a number that fails is retried as a string, so a number-only keyword without 'type' lets it through, as in WireMock"
    )
    func retriedAsString() throws {
        let root = try TemporaryStubRoot(mappings: [
            "x.json": ##"{"request": {"bodyPatterns": [{"matchesJsonSchema": {"minimum": 10}}]}, "response": {}}"##
        ])
        let registry = try root.registry()
        let answered = registry.answer(
            InterceptedRequest(method: .post, url: URL(string: "http://h/")!, body: Data("5".utf8))
        )
        if case .response = answered {
        } else {
            Issue.record("5 fails minimum 10, but the string \"5\" passes it, and WireMock tries that")
        }
    }

    @Test("schemaVersion changes the reading: V4's boolean exclusiveMinimum, V7's tuple items")
    func versions() throws {
        let root = try TemporaryStubRoot(mappings: [
            "v4.json":
                ##"{"request": {"urlPath": "/v4", "bodyPatterns": [{"matchesJsonSchema": {"type": "number", "minimum": 0, "exclusiveMinimum": true}, "schemaVersion": "V4"}]}, "response": {"body": "v4"}}"##,
            "v7.json":
                ##"{"request": {"urlPath": "/v7", "bodyPatterns": [{"matchesJsonSchema": {"items": [{"type": "string"}], "additionalItems": false}, "schemaVersion": "V7"}]}, "response": {"body": "v7"}}"##,
        ])
        let registry = try root.registry()
        func matches(_ path: String, _ body: String) -> Bool {
            if case .response = registry.answer(
                InterceptedRequest(method: .post, url: URL(string: "http://h\(path)")!, body: Data(body.utf8))
            ) {
                return true
            }
            return false
        }
        #expect(matches("/v4", "1"))
        #expect(!matches("/v4", "0"))
        #expect(!matches("/v4", #""1""#), "a JSON string is no number")
        #expect(matches("/v7", ##"["a"]"##))
        #expect(!matches("/v7", ##"["a", "b"]"##))
        #expect(!matches("/v7", "[1]"))
    }
}
