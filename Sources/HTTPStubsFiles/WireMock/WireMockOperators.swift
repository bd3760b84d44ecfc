import Foundation
import HTTPStubs
import HTTPStubsLanguages
import HTTPStubsTemplates

/// WireMock's value operators, read from stub files with the semantics of WireMock's Java
/// implementation (`StringValuePatternJsonDeserializer` and the pattern classes).
extension WireMockMappingReader {
    /// The operators this toolkit implements.
    static let supportedOperators: Set<String> = [
        "equalTo", "contains", "doesNotContain", "matches", "doesNotMatch", "absent", "anything",
        "equalToJson", "matchesJsonPath", "matchesJsonSchema", "equalToXml", "matchesXPath", "binaryEqualTo", "and",
        "or", "not",
        "before", "after", "equalToDateTime",
    ]

    /// WireMock operators this toolkit does not implement: a stub using one is a load error, never
    /// a stub that silently never matches.
    static let unsupportedOperators: Set<String> = [
        "equalToNumber", "greaterThanNumber",
        "greaterThanEqualNumber", "lessThanNumber", "lessThanEqualNumber", "matchesPathTemplate",
    ]

    static let multiValueOperators: Set<String> = ["hasExactly", "includes"]

    /// Keys that modify an operator, read (or refused) by the operator they belong to.
    static let operatorModifiers: Set<String> = Set<String>([
        "caseInsensitive", "ignoreArrayOrder", "ignoreExtraElements", "xPathNamespaces", "enablePlaceholders",
        "placeholderOpeningDelimiterRegex", "placeholderClosingDelimiterRegex", "exemptedComparisons",
        "ignoreOrderOfSameNode", "namespaceAwareness", "jsonCompareMode", "schemaVersion",
    ]).union(dateTimeModifiers)

    /// Reads a multi-value matcher (headers, query and form parameters).
    func multiValueTest(_ value: JSONValue, at jsonPath: JSONPath) -> MultiValueTest? {
        guard let object = object(value, at: jsonPath, "a matcher") else { return nil }
        for name in Self.multiValueOperators {
            guard let operand = object[name] else { continue }
            let operandPath = jsonPath.appending(.key(name))
            guard let items = operand.arrayValue else {
                error(
                    "'\(name)' takes an array of matchers such as [{\"equalTo\": \"a\"}], found \(operand.article)",
                    at: operandPath
                )
                return nil
            }
            let tests = items.enumerated().compactMap { index, item in
                valueTest(item, at: operandPath.appending(.index(index)))
            }
            guard tests.count == items.count else { return nil }
            return MultiValueTest(tests: tests, exactly: name == "hasExactly")
        }
        return valueTest(value, at: jsonPath).map(MultiValueTest.init)
    }

    /// Reads a single-value matcher.
    func valueTest(_ value: JSONValue, at jsonPath: JSONPath) -> ValueTest? {
        guard let object = object(value, at: jsonPath, "a matcher") else { return nil }
        let operators = object.keys.filter { !Self.operatorModifiers.contains($0) && $0 != "expression" }
        guard let name = operators.first else {
            error(
                "no operator: a matcher needs one of \(Self.supportedOperators.sorted().joined(separator: ", "))",
                at: jsonPath
            )
            return nil
        }
        if operators.count > 1 {
            // WireMock reads the first and ignores the others: say so rather than refuse the file.
            warning(
                "more than one operator (\(operators.joined(separator: ", "))): WireMock uses the first, "
                    + "'\(name)', and ignores the others; remove them, or combine the tests with \"and\" or \"or\"",
                at: jsonPath
            )
        }
        let operandPath = jsonPath.appending(.key(name))
        let operand = object[name] ?? .null
        if Self.unsupportedOperators.contains(name) {
            error(
                "the operator '\(name)' is not supported by swift-http-stubs; use another operator "
                    + "(for example 'matches' with a regular expression) or a stub written in Swift",
                at: operandPath
            )
            return nil
        }
        if Self.multiValueOperators.contains(name) {
            error("'\(name)' applies only to headers, query parameters and form parameters", at: operandPath)
            return nil
        }
        guard Self.supportedOperators.contains(name) else {
            error(
                "unknown operator '\(name)'; use one of \(Self.supportedOperators.sorted().joined(separator: ", "))",
                at: operandPath
            )
            return nil
        }
        if !["before", "after", "equalToDateTime"].contains(name) {
            for key in Self.dateTimeModifiers.sorted() where object[key] != nil {
                warning(
                    key: jsonPath.appending(.key(key)),
                    "'\(key)' applies only to 'before', 'after' and 'equalToDateTime', "
                        + "so it is ignored with '\(name)', as WireMock ignores it"
                )
            }
        }
        switch name {
        case "equalTo":
            guard let expected = text(operand, at: operandPath, name) else { return nil }
            let caseInsensitive = flag("caseInsensitive", in: object, at: jsonPath)
            return stringTest(.equal(expected, caseInsensitive: caseInsensitive))
        case "contains":
            return text(operand, at: operandPath, name).map { stringTest(.contains($0)) }
        case "doesNotContain":
            return text(operand, at: operandPath, name).map { stringTest(.doesNotContain($0)) }
        case "matches", "doesNotMatch":
            guard let pattern = text(operand, at: operandPath, name), let expression = regex(pattern, at: operandPath)
            else { return nil }
            return stringTest(name == "matches" ? .matches(expression) : .doesNotMatch(expression))
        case "absent":
            // WireMock reads any "absent" key as absent, whatever its value.
            if operand.boolValue != true {
                warning(
                    "'absent' is \(operand.article), but WireMock treats any 'absent' as true: "
                        + "the value must be absent",
                    at: operandPath
                )
            }
            return Self.absentTest
        case "anything":
            return Self.anythingTest
        case "equalToJson":
            return jsonEqualityTest(operand, in: object, at: jsonPath)
        case "matchesJsonPath":
            return jsonPathTest(operand, at: operandPath)
        case "matchesJsonSchema":
            return jsonSchemaTest(operand, in: object, at: jsonPath)
        case "equalToXml":
            return xmlEqualityTest(operand, in: object, at: jsonPath)
        case "matchesXPath":
            return xPathTest(operand, in: object, at: jsonPath)
        case "binaryEqualTo":
            return binaryTest(operand, at: operandPath)
        case "before", "after", "equalToDateTime":
            return dateTimeTest(name, in: object, at: jsonPath)
        case "and", "or":
            guard let items = operand.arrayValue, !items.isEmpty else {
                error("'\(name)' takes a non-empty array of matchers, found \(operand.article)", at: operandPath)
                return nil
            }
            let tests = items.enumerated().compactMap { index, item in
                valueTest(item, at: operandPath.appending(.index(index)))
            }
            guard tests.count == items.count else { return nil }
            return name == "and" ? Self.allTest(tests) : Self.anyTest(tests)
        default:  // "not"
            return valueTest(operand, at: operandPath).map(Self.notTest)
        }
    }

    // MARK: Operands

    /// A text operand; numbers and booleans are taken as their text, as Jackson would.
    private func text(_ operand: JSONValue, at jsonPath: JSONPath, _ name: String) -> String? {
        guard let text = operand.scalarText else {
            error("'\(name)' takes a string, found \(operand.article)", at: jsonPath)
            return nil
        }
        return text
    }

    /// A JSON operand of `name`, written as JSON or as a string holding JSON (WireMock takes both);
    /// `nil` after an error saying the string is not JSON and to write `what` itself.
    private func jsonOperand(
        _ operand: JSONValue,
        of name: String,
        _ what: String,
        at jsonPath: JSONPath
    ) -> JSONValue? {
        guard case let .string(text) = operand else { return operand }
        do {
            return try JSONValue(parsing: text)
        } catch {
            self.error(
                "'\(name)' holds a string that is not JSON (\(error.message) at column \(error.column)); "
                    + "write \(what) itself or fix the string",
                at: jsonPath
            )
            return nil
        }
    }

    /// A regular expression operand, or an error saying why it does not compile.
    func regex(_ pattern: String, at jsonPath: JSONPath) -> RegularExpression? {
        let expression = RegularExpression(pattern, writtenAt: place(of: jsonPath))
        if let problem = expression.problem {
            error(problem, at: jsonPath)
            return nil
        }
        return expression
    }

    /// `file:line:column` of the value at `jsonPath`, for messages that outlive the load.
    func place(of jsonPath: JSONPath) -> String {
        let location = self.location(of: jsonPath)
        return "\(path):\(location?.line ?? 0):\(location?.column ?? 0)"
    }

    /// A text operator; as in WireMock, the negative ones (`doesNotContain`, `doesNotMatch`) accept
    /// an absent value.
    private func stringTest(_ matcher: StringMatcher) -> ValueTest {
        let acceptsAbsent: Bool
        switch matcher.kind {
        case .doesNotContain, .doesNotMatch: acceptsAbsent = true
        default: acceptsAbsent = false
        }
        return ValueTest(matcher.description) { value in
            guard let value else {
                return acceptsAbsent
                    ? MatchVerdict(isMatch: true, detail: "absent")
                    : MatchVerdict(isMatch: false, detail: "expected \(matcher.expectation), but it is absent")
            }
            return matcher.matches(value)
                ? MatchVerdict(isMatch: true, detail: quoted(value))
                : MatchVerdict(
                    isMatch: false,
                    distance: matcher.distance(toMismatch: value),
                    detail: "expected \(matcher.expectation), got \(quoted(value))"
                )
        }
    }

    private func jsonEqualityTest(_ operand: JSONValue, in object: JSONObject, at jsonPath: JSONPath) -> ValueTest? {
        let operandPath = jsonPath.appending(.key("equalToJson"))
        guard let expected = jsonOperand(operand, of: "equalToJson", "the JSON", at: operandPath) else { return nil }
        let ignoreExtraElements = flag("ignoreExtraElements", in: object, at: jsonPath)
        var settings = JSONComparisonOptions(
            ignoreArrayOrder: flag("ignoreArrayOrder", in: object, at: jsonPath),
            ignoreExtraMembers: ignoreExtraElements
        )
        // JsonUnit's IGNORING_EXTRA_FIELDS and IGNORING_EXTRA_ARRAY_ITEMS, as WireMock sets both.
        settings.ignoreExtraArrayElements = ignoreExtraElements
        guard
            let placeholders = jsonUnitPlaceholders(
                in: expected,
                at: operandPath,
                insideText: operand.stringValue != nil
            )
        else { return nil }
        settings.placeholders = placeholders
        let options = settings
        let expectedJSON = expected
        var description = "equal to JSON \(expected)"
        if options.ignoreArrayOrder { description += " (ignoring array order)" }
        if options.ignoreExtraMembers { description += " (ignoring extra elements)" }
        return ValueTest(description) { value in
            let expected = expectedJSON
            guard let value else {
                return MatchVerdict(isMatch: false, detail: "expected JSON, but the value is absent")
            }
            guard let actual = try? JSONValue(parsing: value) else {
                return MatchVerdict(
                    isMatch: false,
                    detail: "expected JSON \(expected), got \(quoted(value)), which is not JSON"
                )
            }
            if expected.matches(actual, options: options) { return MatchVerdict(isMatch: true, detail: "JSON equal") }
            return MatchVerdict(
                isMatch: false,
                distance: expected.distance(to: actual, options: options),
                detail: "JSON differs: " + expected.differences(from: actual, options: options).joined(separator: "; ")
            )
        }
    }

    /// The JsonUnit placeholders among the string values of the expected JSON, by their text, or
    /// `nil` after reporting the strings that look like placeholders but are not ones WireMock honours.
    /// - Parameter insideText: Whether the JSON was written as a string, whose inner values have no
    ///   location of their own (the error then names their path inside the string).
    private func jsonUnitPlaceholders(
        in expected: JSONValue,
        at operandPath: JSONPath,
        insideText: Bool
    ) -> [String: JSONUnitPlaceholder]? {
        var placeholders: [String: JSONUnitPlaceholder] = [:]
        var failed = false
        func visit(_ value: JSONValue, at inner: JSONPath) {
            switch value {
            case let .string(text):
                guard placeholders[text] == nil else { return }
                let location = insideText ? operandPath : JSONPath(operandPath.components + inner.components)
                do {
                    if let placeholder = try JSONUnitPlaceholder.parse(text, writtenAt: place(of: location)) {
                        placeholders[text] = placeholder
                    }
                } catch {
                    let within = insideText && !inner.components.isEmpty ? "at \(inner) in the JSON string: " : ""
                    self.error(within + error.message, at: location)
                    failed = true
                }
            case let .array(elements):
                for (index, element) in elements.enumerated() { visit(element, at: inner.appending(.index(index))) }
            case let .object(members):
                for member in members.members { visit(member.value, at: inner.appending(.key(member.key))) }
            case .null, .bool, .number:
                break
            }
        }
        visit(expected, at: .root)
        return failed ? nil : placeholders
    }

    private func jsonPathTest(_ operand: JSONValue, at operandPath: JSONPath) -> ValueTest? {
        let expressionText: String
        var nested: ValueTest?
        var nestedIsJSON = false
        var nestedIsAbsent = false
        switch operand {
        case let .string(text):
            expressionText = text
        case let .object(object):
            guard let text = string("expression", in: object, at: operandPath) else {
                error(
                    "the object form of 'matchesJsonPath' needs an \"expression\" and an operator, "
                        + "such as {\"expression\": \"$.id\", \"equalTo\": \"1\"}",
                    at: operandPath
                )
                return nil
            }
            expressionText = text
            guard let test = valueTest(operand, at: operandPath) else { return nil }
            nested = test
            nestedIsJSON = object["equalToJson"] != nil
            nestedIsAbsent = test.description == Self.absentTest.description
        default:
            error(
                "'matchesJsonPath' takes a JSONPath string or {\"expression\": "
                    + "…, <operator>}, found \(operand.article)",
                at: operandPath
            )
            return nil
        }
        let expression: JSONPathExpression
        do {
            expression = try JSONPathExpression(expressionText)
        } catch {
            self.error("the JSONPath \(quoted(expressionText)) is invalid: \(error)", at: operandPath)
            return nil
        }
        if let nested {
            let forJSON = nestedIsJSON
            let wantsAbsent = nestedIsAbsent
            return ValueTest("JSON path \(expressionText) \(nested.description)") { value in
                guard let value, let document = try? JSONValue(parsing: value) else {
                    return MatchVerdict(
                        isMatch: false,
                        detail: "expected a JSON document for JSON path \(expressionText)"
                    )
                }
                // As WireMock 2.35.1 answers: a path that selects nothing (or null, or an empty
                // array) matches only a sub-matcher that is `absent` itself, not one nested in
                // `or`/`and`, nor a negative such as `doesNotContain`.
                if expression.selectsNothing(in: document, emptyArrayIsNothing: wantsAbsent) {
                    return wantsAbsent
                        ? MatchVerdict(isMatch: true, detail: "\(expressionText) selects nothing")
                        : MatchVerdict(isMatch: false, detail: "\(expressionText) selects nothing")
                }
                return wantsAbsent
                    ? MatchVerdict(isMatch: false, detail: "expected \(expressionText) to select nothing")
                    : nested.testAny(expression.stringValues(in: document, forJSONComparison: forJSON))
            }
        }
        return ValueTest("matches JSON path \(expressionText)") { value in
            guard let value, let document = try? JSONValue(parsing: value) else {
                return MatchVerdict(isMatch: false, detail: "expected a JSON document with \(expressionText)")
            }
            return expression.matchesExistence(in: document)
                ? MatchVerdict(isMatch: true, detail: "\(expressionText) found")
                : MatchVerdict(isMatch: false, detail: "\(expressionText) selects nothing")
        }
    }

    /// `matchesJsonSchema`, the schema written as JSON or as a JSON string, read with
    /// `schemaVersion` (WireMock's default is V202012). As in WireMock, the value is parsed as JSON
    /// and, when it is not JSON, validated as a JSON string; a number, boolean or null that fails
    /// is tried again as the string it was written as (so `12` passes `{"type": "string"}`).
    private func jsonSchemaTest(_ operand: JSONValue, in object: JSONObject, at jsonPath: JSONPath) -> ValueTest? {
        let operandPath = jsonPath.appending(.key("matchesJsonSchema"))
        var version = JSONSchema.Version.v202012
        if let declared = object["schemaVersion"], declared != .null {
            guard let name = declared.stringValue, let named = JSONSchema.Version(name: name) else {
                error(
                    "'schemaVersion' takes one of \(JSONSchema.Version.allCases.map(\.name).joined(separator: ", ")), "
                        + "found \(declared.article)",
                    at: jsonPath.appending(.key("schemaVersion"))
                )
                return nil
            }
            version = named
        }
        let insideText = operand.stringValue != nil
        guard let schemaValue = jsonOperand(operand, of: "matchesJsonSchema", "the schema", at: operandPath) else {
            return nil
        }
        let schema: JSONSchema
        do {
            schema = try JSONSchema(schemaValue, version: version, writtenAt: place(of: operandPath))
        } catch {
            if insideText {
                let within = error.schemaPath.components.isEmpty ? "" : "at \(error.schemaPath) in the schema string: "
                self.error("invalid JSON schema: " + within + error.message, at: operandPath)
            } else {
                self.error(
                    "invalid JSON schema: " + error.message,
                    at: JSONPath(operandPath.components + error.schemaPath.components)
                )
            }
            return nil
        }
        return ValueTest("matches the JSON schema \(schemaValue) (\(schema.version.name))") { value in
            guard let value else {
                return MatchVerdict(
                    isMatch: false,
                    detail: "expected a value valid against the JSON schema, but it is absent"
                )
            }
            let parsed = JSONValue.jacksonValue(value) ?? .string(value)
            var failures = schema.validate(parsed)
            switch parsed {
            case .number, .bool, .null:
                if !failures.isEmpty { failures = schema.validate(.string(value)) }
            case .string, .array, .object:
                break
            }
            if failures.isEmpty { return MatchVerdict(isMatch: true, detail: "valid against the JSON schema") }
            let shown = failures.prefix(5).map(\.description).joined(separator: "; ")
            let more = failures.count > 5 ? " (and \(failures.count - 5) more)" : ""
            return MatchVerdict(
                isMatch: false,
                distance: schema.distance(failures: failures.count),
                detail: "not valid against the JSON schema: " + shown + more
            )
        }
    }

    private func xmlEqualityTest(_ operand: JSONValue, in object: JSONObject, at jsonPath: JSONPath) -> ValueTest? {
        let operandPath = jsonPath.appending(.key("equalToXml"))
        guard let text = text(operand, at: operandPath, "equalToXml") else { return nil }
        let start = mark
        let placeholders = xmlPlaceholderSyntax(in: object, at: jsonPath)
        rejectExemptedComparisons(in: object, at: jsonPath)
        var comparison: XMLEquality
        do {
            comparison = try XMLEquality(
                expected: text,
                ignoreOrderOfSameNode: flag("ignoreOrderOfSameNode", in: object, at: jsonPath)
            )
        } catch {
            self.error("'equalToXml' holds invalid XML: \(error)", at: operandPath)
            return nil
        }
        guard !hasErrors(since: start) else { return nil }
        if let placeholders {
            do {
                comparison = try comparison.withPlaceholders(placeholders)
            } catch {
                self.error("with \"enablePlaceholders\": true, \(error.message)", at: operandPath)
                return nil
            }
        }
        let equality = comparison
        return ValueTest("equal to XML \(quoted(text))") { value in
            guard let value else {
                return MatchVerdict(isMatch: false, detail: "expected XML, but the value is absent")
            }
            let result = equality.compare(value)
            return result.isMatch
                ? MatchVerdict(isMatch: true, detail: "XML equal")
                : MatchVerdict(isMatch: false, detail: "XML differs: " + result.differences.joined(separator: "; "))
        }
    }

    /// The XMLUnit placeholder syntax when `"enablePlaceholders": true`, else `nil`; delimiters
    /// without it are warned about, as WireMock ignores them.
    private func xmlPlaceholderSyntax(in object: JSONObject, at jsonPath: JSONPath) -> XMLUnitPlaceholderSyntax? {
        let delimiterKeys = ["placeholderOpeningDelimiterRegex", "placeholderClosingDelimiterRegex"]
        let delimiters = delimiterKeys.map { string($0, in: object, at: jsonPath) }
        guard flag("enablePlaceholders", in: object, at: jsonPath) else {
            for key in delimiterKeys where object[key] != nil && object[key] != .null {
                warning(
                    "'\(key)' has no effect without \"enablePlaceholders\": "
                        + "true (WireMock ignores it too); add \"enablePlaceholders\": true or remove it",
                    at: jsonPath.appending(.key(key))
                )
            }
            return nil
        }
        for (key, delimiter) in zip(delimiterKeys, delimiters) {
            if let delimiter, !delimiter.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty,
                regex(delimiter, at: jsonPath.appending(.key(key))) == nil
            {
                return nil
            }
        }
        do {
            return try XMLUnitPlaceholderSyntax(
                opening: delimiters[0],
                closing: delimiters[1],
                writtenAt: place(of: jsonPath.appending(.key("equalToXml")))
            )
        } catch {
            self.error(error.message, at: jsonPath)
            return nil
        }
    }

    /// Reports `exemptedComparisons` unless it is empty: this toolkit's XML comparison cannot leave
    /// out XMLUnit's comparison types one by one, and a stub must not silently compare more than it says.
    private func rejectExemptedComparisons(in object: JSONObject, at jsonPath: JSONPath) {
        guard let exempted = object["exemptedComparisons"], exempted != .null, exempted.arrayValue?.isEmpty != true
        else { return }
        let names = exempted.arrayValue?.compactMap(\.stringValue).joined(separator: ", ") ?? exempted.article
        error(
            "'exemptedComparisons' (\(names)) is not supported by swift-http-stubs: "
                + "its XML comparison cannot leave out XMLUnit comparison types; "
                + "use \"enablePlaceholders\": true with ${xmlunit.ignore} for the "
                + "values that may differ, or 'matchesXPath' for the parts that matter",
            at: jsonPath.appending(.key("exemptedComparisons"))
        )
    }

    private func xPathTest(_ operand: JSONValue, in object: JSONObject, at jsonPath: JSONPath) -> ValueTest? {
        let operandPath = jsonPath.appending(.key("matchesXPath"))
        var namespaces: [String: String] = [:]
        if let declared = object["xPathNamespaces"] {
            guard let map = declared.objectValue else {
                error(
                    "'xPathNamespaces' must map prefixes to namespace URIs, found \(declared.article)",
                    at: jsonPath.appending(.key("xPathNamespaces"))
                )
                return nil
            }
            for member in map.members {
                namespaces[member.key] = member.value.stringValue ?? ""
            }
        }
        let expressionText: String
        var nested: ValueTest?
        switch operand {
        case let .string(text):
            expressionText = text
        case let .object(inner):
            guard let text = string("expression", in: inner, at: operandPath) else {
                error("the object form of 'matchesXPath' needs an \"expression\" and an operator", at: operandPath)
                return nil
            }
            expressionText = text
            guard let test = valueTest(operand, at: operandPath) else { return nil }
            nested = test
        default:
            error(
                "'matchesXPath' takes an XPath string or {\"expression\": …, <operator>}, found \(operand.article)",
                at: operandPath
            )
            return nil
        }
        let expression: XPathExpression
        do {
            expression = try XPathExpression(expressionText, namespaces: namespaces)
        } catch {
            self.error("the XPath \(quoted(expressionText)) is invalid: \(error)", at: operandPath)
            return nil
        }
        let nestedTest = nested
        return ValueTest("matches XPath \(expressionText)\(nested.map { " \($0.description)" } ?? "")") { value in
            guard let value else {
                return MatchVerdict(isMatch: false, detail: "expected an XML document for XPath \(expressionText)")
            }
            let results: [String]
            do {
                results = try expression.evaluate(value)
            } catch let XMLReadError.malformed(reason) {
                return MatchVerdict(
                    isMatch: false,
                    detail: "expected an XML document for XPath \(expressionText): \(reason)"
                )
            } catch {
                return MatchVerdict(isMatch: false, detail: "XPath \(expressionText) not evaluated: \(error)")
            }
            if let nested = nestedTest { return results.isEmpty ? nested.test(nil) : nested.testAny(results) }
            return results.isEmpty
                ? MatchVerdict(isMatch: false, detail: "\(expressionText) selects nothing")
                : MatchVerdict(isMatch: true, detail: "\(expressionText) found")
        }
    }

    private func binaryTest(_ operand: JSONValue, at operandPath: JSONPath) -> ValueTest? {
        guard let text = operand.stringValue, let expected = Data(base64Encoded: text) else {
            error("'binaryEqualTo' takes base64 text, found \(operand.article)", at: operandPath)
            return nil
        }
        let description = "equal to \(expected.count) bytes"
        let compare: @Sendable (Data) -> MatchVerdict = { actual in
            actual == expected
                ? MatchVerdict(isMatch: true, detail: "\(actual.count) bytes")
                : MatchVerdict(
                    isMatch: false,
                    detail:
                        "expected \(expected.count) bytes (base64 \(LogMasking.beforeCutting(text).prefix(40))), "
                        + "got \(actual.count) different bytes"
                )
        }
        return ValueTest(description, bytesTest: compare) { value in compare(Data((value ?? "").utf8)) }
    }

    // MARK: Combinators

    static let absentTest = ValueTest("absent") { value in
        value == nil
            ? MatchVerdict(isMatch: true, detail: "absent")
            : MatchVerdict(isMatch: false, detail: "expected it absent, got \(quoted(value!))")
    }

    static let anythingTest = ValueTest("anything") { _ in MatchVerdict(isMatch: true, detail: "anything") }

    static func allTest(_ tests: [ValueTest]) -> ValueTest {
        ValueTest("(" + tests.map(\.description).joined(separator: " and ") + ")") { value in
            let verdicts = tests.map { $0.test(value) }
            let failures = verdicts.filter { !$0.isMatch }
            return failures.isEmpty
                ? MatchVerdict(isMatch: true, detail: value.map(quoted) ?? "absent")
                : MatchVerdict(
                    isMatch: false,
                    distance: verdicts.map(\.distance).reduce(0, +) / Double(verdicts.count),
                    detail: failures.map(\.detail).joined(separator: "; ")
                )
        }
    }

    static func anyTest(_ tests: [ValueTest]) -> ValueTest {
        ValueTest("(" + tests.map(\.description).joined(separator: " or ") + ")") { value in
            let verdicts = tests.map { $0.test(value) }
            if let match = verdicts.first(where: \.isMatch) { return match }
            return MatchVerdict(
                isMatch: false,
                distance: verdicts.map(\.distance).min() ?? 1,
                detail: verdicts.map(\.detail).joined(separator: " | ")
            )
        }
    }

    static func notTest(_ test: ValueTest) -> ValueTest {
        ValueTest("not (\(test.description))") { value in
            test.test(value).isMatch
                ? MatchVerdict(
                    isMatch: false,
                    detail: "expected not \(test.description), got \(value.map(quoted) ?? "absent")"
                )
                : MatchVerdict(isMatch: true, detail: value.map(quoted) ?? "absent")
        }
    }
}
