import Foundation
import HTTPStubs

/// A JSON Schema, checked once when a stub file loads and then used to validate values: the engine
/// behind WireMock 3's `matchesJsonSchema`, which runs networknt's json-schema-validator.
///
/// It validates the vocabulary real schemas use (types, enums, object, array, string and number
/// constraints, the combinators, conditionals, boolean schemas and local `$ref`), following
/// networknt where it departs from the letter of the specification: an OpenAPI `"nullable": true`
/// next to `type` also admits `null`; `format` is asserted for the formats listed in
/// ``assertedFormats`` up to draft 7 and is an annotation only from 2019-09 on. Keywords that would
/// change results but are not implemented (`$dynamicRef`, `$recursiveRef`, `unevaluatedProperties`,
/// `unevaluatedItems`, references outside the schema) make the schema invalid rather than ignored.
package struct JSONSchema: Sendable {
    /// The specification a schema is read with: WireMock's `schemaVersion` values.
    package enum Version: Int, Sendable, Comparable, CaseIterable {
        case v4, v6, v7, v201909, v202012

        /// The name stub files use (`V202012`).
        package var name: String {
            switch self {
            case .v4: "V4"
            case .v6: "V6"
            case .v7: "V7"
            case .v201909: "V201909"
            case .v202012: "V202012"
            }
        }

        /// The version named `name` in a stub file's `schemaVersion`.
        package init?(name: String) {
            guard let version = Self.allCases.first(where: { $0.name == name }) else { return nil }
            self = version
        }

        /// The version a `$schema` meta-schema address declares (with or without `#`, http or https).
        init?(metaSchema: String) {
            var address = metaSchema
            if address.hasSuffix("#") { address.removeLast() }
            if address.hasPrefix("https://") { address = "http://" + address.dropFirst("https://".count) }
            switch address {
            case "http://json-schema.org/draft-04/schema": self = .v4
            case "http://json-schema.org/draft-06/schema": self = .v6
            case "http://json-schema.org/draft-07/schema": self = .v7
            case "http://json-schema.org/draft/2019-09/schema": self = .v201909
            case "http://json-schema.org/draft/2020-12/schema": self = .v202012
            default: return nil
            }
        }

        package static func < (lhs: Version, rhs: Version) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// Why a schema cannot be used, and where inside the schema.
    package struct Problem: Error, Sendable {
        package let message: String
        /// The place in the schema, from the schema's root.
        package let schemaPath: JSONPath
    }

    /// One way a value breaks the schema, such as `$.age: 17 is less than minimum 18`.
    package struct Failure: Sendable, Hashable, CustomStringConvertible {
        /// Where in the validated value.
        let instancePath: JSONPath
        /// The keyword that failed (`minimum`).
        let keyword: String
        /// What is wrong, without the path.
        let message: String

        package var description: String { "\(instancePath): \(message)" }
    }

    /// The formats asserted up to draft 7, as networknt asserts them by default there.
    static let assertedFormats: Set<String> = [
        "date", "date-time", "time", "email", "hostname", "ipv4", "ipv6", "uuid", "json-pointer",
        "relative-json-pointer", "utc-millisec",
    ]

    /// How many subschemas may apply one inside the other (a `$ref` to `#` on a deeply nested
    /// value): far beyond real requests, and well within a thread's stack.
    static let maximumDepth = 256

    /// The schema as written.
    let root: JSONValue
    /// The version it is read with: `$schema` when it names a known draft, else the one given.
    package let version: Version
    /// The compiled `pattern` and `patternProperties` expressions, by their text.
    private let expressions: [String: CompiledRegex]

    /// Checks `schema` for `version` (which the schema's own `$schema` overrides); `place` names
    /// where it was written, for the messages of its regular expressions.
    package init(_ schema: JSONValue, version: Version, writtenAt place: String) throws(Problem) {
        root = schema
        var version = version
        if let declared = schema.objectValue?["$schema"]?.stringValue {
            guard let named = Version(metaSchema: declared) else {
                throw Problem(
                    message:
                        "'$schema' names \(quoted(declared)), which is not a JSON Schema "
                        + "draft swift-http-stubs knows (draft-04, -06, -07, 2019-09, 2020-12)",
                    schemaPath: JSONPath.root.appending(.key("$schema"))
                )
            }
            version = named
        }
        self.version = version
        var checker = SchemaChecker(root: schema, version: version, place: place)
        try checker.check(schema, at: .root, insideIdentifiedSchema: false)
        expressions = checker.expressions
    }

    /// The ways `instance` breaks the schema; empty when it is valid.
    ///
    /// A `$ref` followed again at the same place of `instance` gives what it gave the first time,
    /// without applying its schema again. Each subschema applied charges the request's
    /// ``WorkBudget``, and once the budget is spent the validation stops, with a failure saying so.
    package func validate(_ instance: JSONValue) -> [Failure] {
        WorkBudget.metering { budget in
            var run = Run(schema: self, budget: budget)
            run.check(root, instance, at: .root)
            guard let exhaustion = run.gaveUp else { return run.failures }
            return run.failures + [Failure(instancePath: .root, keyword: "budget", message: "\(exhaustion)")]
        }
    }

    /// WireMock's distance for a mismatch: failures per property the schema declares (nested
    /// `properties` included), at most 1; 1 when it declares none.
    package func distance(failures: Int) -> Double {
        func count(_ schema: JSONValue) -> Int {
            guard let properties = schema.objectValue?["properties"]?.objectValue else { return 0 }
            return properties.members.reduce(0) { $0 + 1 + count($1.value) }
        }
        let properties = count(root)
        return properties == 0 ? 1 : min(1, Double(failures) / Double(properties))
    }

    // MARK: Validation

    /// One validation, with the failures found and the `$ref`s being followed (to stop loops).
    private struct Run {
        let schema: JSONSchema
        var failures: [Failure] = []
        /// `$ref` targets being followed, with the instance path they were followed at.
        var following: Set<String> = []
        /// Whether the schema holding the one being checked says `"nullable": true`: networknt's
        /// `type` admits `null` when the schema or its parent is nullable.
        var parentIsNullable = false
        /// How many subschemas are being applied, one inside the other.
        var depth = 0
        /// What each subschema applied is charged to.
        let budget: WorkBudget
        /// Why the validation stopped before the end, once the budget is spent.
        var gaveUp: WorkBudget.Exhaustion?
        /// The failures each `$ref` gave at an instance path (with whether a parent was nullable),
        /// so that a schema whose levels each refer to the next several times applies each level
        /// once per value, rather than a number of times exponential in its depth.
        var applied: [String: [Failure]] = [:]
        /// How many `$ref`s were found leading back to themselves.
        var loopsFound = 0

        init(schema: JSONSchema, budget: WorkBudget) {
            self.schema = schema
            self.budget = budget
        }

        var version: Version { schema.version }

        mutating func fail(_ path: JSONPath, _ keyword: String, _ message: String) {
            failures.append(Failure(instancePath: path, keyword: keyword, message: message))
        }

        /// Whether `instance` is valid against `subschema`, leaving no failures behind.
        mutating func isValid(_ subschema: JSONValue, _ instance: JSONValue, at path: JSONPath) -> Bool {
            failures(of: subschema, instance, at: path).isEmpty
        }

        /// The failures of `instance` against `subschema`, kept apart from this run's.
        mutating func failures(of subschema: JSONValue, _ instance: JSONValue, at path: JSONPath) -> [Failure] {
            let saved = failures
            failures = []
            check(subschema, instance, at: path)
            let found = failures
            failures = saved
            return found
        }

        mutating func check(_ subschema: JSONValue, _ instance: JSONValue, at path: JSONPath) {
            guard gaveUp == nil else { return }
            guard budget.spend(WorkBudget.Cost.schemaStep, on: "the JSON schema") else {
                gaveUp = budget.exhaustion
                return
            }
            guard depth < JSONSchema.maximumDepth else {
                return fail(
                    path,
                    "$ref",
                    "the schema is applied more than \(JSONSchema.maximumDepth) levels deep here; "
                        + "swift-http-stubs stops there rather than exhaust the stack"
                )
            }
            depth += 1
            defer { depth -= 1 }
            switch subschema {
            case .bool(true): return
            case .bool(false): return fail(path, "false", "the schema false admits no value, got \(render(instance))")
            case let .object(keywords): check(keywords, instance, at: path)
            default: return
            }
        }

        mutating func check(_ keywords: JSONObject, _ instance: JSONValue, at path: JSONPath) {
            let nullable = keywords["nullable"]?.boolValue == true
            let admitsNull = instance == .null && (nullable || parentIsNullable)
            let outer = parentIsNullable
            parentIsNullable = nullable
            defer { parentIsNullable = outer }
            if let reference = keywords["$ref"]?.stringValue {
                follow(reference, instance, at: path)
                // Up to draft 7, $ref replaces its siblings.
                if version < .v201909 { return }
            }
            if let type = keywords["type"], !admitsNull {
                checkType(type, instance, at: path)
            }
            checkGeneric(keywords, instance, at: path)
            switch instance {
            case let .number(number): checkNumber(keywords, number, at: path)
            case let .string(text): checkString(keywords, text, at: path)
            case let .array(elements): checkArray(keywords, elements, at: path)
            case let .object(members): checkObject(keywords, members, at: path)
            case .null, .bool: break
            }
            checkCombinators(keywords, instance, at: path)
        }

        mutating func follow(_ reference: String, _ instance: JSONValue, at path: JSONPath) {
            let key = "\(reference) at \(path)"
            guard !following.contains(key) else {
                loopsFound += 1
                return fail(path, "$ref", "the $ref \(quoted(reference)) leads back to itself without reaching a value")
            }
            let known = parentIsNullable ? key + " nullable" : key
            if let found = applied[known] {
                failures += found
                return
            }
            guard let target = JSONSchema.resolve(reference, in: schema.root) else { return }
            following.insert(key)
            let loopsBefore = loopsFound
            let found = failures(of: target, instance, at: path)
            following.remove(key)
            failures += found
            // A result that met a loop depends on the refs being followed around it: not kept.
            if loopsFound == loopsBefore { applied[known] = found }
        }

        mutating func checkType(_ type: JSONValue, _ instance: JSONValue, at path: JSONPath) {
            let names = type.arrayValue?.compactMap(\.stringValue) ?? type.stringValue.map { [$0] } ?? []
            if !names.contains(where: { JSONSchema.has(instance, type: $0, version: version) }) {
                let expected = names.count == 1 ? names[0] : "one of " + names.joined(separator: ", ")
                fail(path, "type", "\(render(instance)) is \(JSONSchema.typeName(instance)), expected \(expected)")
            }
        }

        mutating func checkGeneric(_ keywords: JSONObject, _ instance: JSONValue, at path: JSONPath) {
            if let options = keywords["enum"]?.arrayValue, !options.contains(instance) {
                fail(path, "enum", "\(render(instance)) is not one of \(render(.array(options)))")
            }
            if version >= .v6, let constant = keywords["const"], constant != instance {
                fail(path, "const", "\(render(instance)) is not the constant \(render(constant))")
            }
        }

        mutating func checkNumber(_ keywords: JSONObject, _ number: JSONNumber, at path: JSONPath) {
            for (keyword, below) in [("minimum", true), ("maximum", false)] {
                guard let bound = keywords[keyword]?.numberValue else { continue }
                let exclusive =
                    version == .v4
                    && keywords["exclusive" + keyword.prefix(1).uppercased() + keyword.dropFirst()]?.boolValue == true
                let order = JSONSchema.compare(number, bound)
                let fails =
                    below
                    ? (order == .orderedAscending || (exclusive && order == .orderedSame))
                    : (order == .orderedDescending || (exclusive && order == .orderedSame))
                if fails {
                    let relation =
                        below
                        ? (exclusive ? "not greater than exclusive minimum" : "less than minimum")
                        : (exclusive ? "not less than exclusive maximum" : "greater than maximum")
                    fail(path, keyword, "\(number) is \(relation) \(bound)")
                }
            }
            if version >= .v6 {
                if let bound = keywords["exclusiveMinimum"]?.numberValue,
                    JSONSchema.compare(number, bound) != .orderedDescending
                {
                    fail(path, "exclusiveMinimum", "\(number) is not greater than exclusive minimum \(bound)")
                }
                if let bound = keywords["exclusiveMaximum"]?.numberValue,
                    JSONSchema.compare(number, bound) != .orderedAscending
                {
                    fail(path, "exclusiveMaximum", "\(number) is not less than exclusive maximum \(bound)")
                }
            }
            if let divisor = keywords["multipleOf"]?.numberValue, !JSONSchema.isMultiple(number, of: divisor) {
                fail(path, "multipleOf", "\(number) is not a multiple of \(divisor)")
            }
        }

        mutating func checkString(_ keywords: JSONObject, _ text: String, at path: JSONPath) {
            let length = text.unicodeScalars.count
            if let minimum = keywords["minLength"]?.numberValue?.int64Value, length < minimum {
                fail(
                    path,
                    "minLength",
                    "\(render(.string(text))) is \(length) characters long, shorter than minLength \(minimum)"
                )
            }
            if let maximum = keywords["maxLength"]?.numberValue?.int64Value, length > maximum {
                fail(
                    path,
                    "maxLength",
                    "\(render(.string(text))) is \(length) characters long, longer than maxLength \(maximum)"
                )
            }
            if let pattern = keywords["pattern"]?.stringValue, let expression = schema.expressions[pattern],
                !expression.matches(text)
            {
                fail(path, "pattern", "\(render(.string(text))) does not match the pattern \(quoted(pattern))")
            }
            if version < .v201909, let format = keywords["format"]?.stringValue, !JSONSchema.hasFormat(text, format) {
                fail(path, "format", "\(render(.string(text))) is not a valid \(format)")
            }
            // Draft 7's content keywords, which networknt asserts there (annotations from 2019-09 on).
            if version == .v7 {
                let encoding = keywords["contentEncoding"]?.stringValue
                var content: String? = text
                if encoding == "base64" {
                    content = JSONSchema.base64Decoded(text).map { String(decoding: $0, as: UTF8.self) }
                    if content == nil { fail(path, "contentEncoding", "\(render(.string(text))) is not base64") }
                }
                if keywords["contentMediaType"]?.stringValue == "application/json", let content,
                    (try? JSONValue(parsing: content)) == nil
                {
                    fail(path, "contentMediaType", "\(render(.string(text))) is not application/json")
                }
            }
        }

        mutating func checkArray(_ keywords: JSONObject, _ elements: [JSONValue], at path: JSONPath) {
            if let minimum = keywords["minItems"]?.numberValue?.int64Value, elements.count < minimum {
                fail(path, "minItems", "the array has \(elements.count) items, fewer than minItems \(minimum)")
            }
            if let maximum = keywords["maxItems"]?.numberValue?.int64Value, elements.count > maximum {
                fail(path, "maxItems", "the array has \(elements.count) items, more than maxItems \(maximum)")
            }
            if keywords["uniqueItems"]?.boolValue == true {
                outer: for first in elements.indices {
                    for second in elements.indices where second > first && elements[first] == elements[second] {
                        fail(
                            path,
                            "uniqueItems",
                            "items \(first) and \(second) are equal "
                                + "(\(render(elements[first]))), but uniqueItems is true"
                        )
                        break outer
                    }
                }
            }
            // The schemas for leading positions, then the one for the rest.
            var leading: [JSONValue] = []
            var rest: JSONValue?
            var restKeyword = "items"
            if version == .v202012 {
                leading = keywords["prefixItems"]?.arrayValue ?? []
                rest = keywords["items"]
            } else if let tuple = keywords["items"]?.arrayValue {
                leading = tuple
                rest = keywords["additionalItems"]
                restKeyword = "additionalItems"
            } else {
                rest = keywords["items"]
            }
            for (index, element) in elements.enumerated() {
                let elementPath = path.appending(.index(index))
                if index < leading.count {
                    check(leading[index], element, at: elementPath)
                } else if let rest {
                    if rest == .bool(false) {
                        fail(
                            elementPath,
                            restKeyword,
                            "no item is allowed past the first \(leading.count) (\(restKeyword) is false)"
                        )
                    } else {
                        check(rest, element, at: elementPath)
                    }
                }
            }
            if version >= .v6, let contains = keywords["contains"] {
                let count = elements.enumerated().filter { isValid(contains, $1, at: path.appending(.index($0))) }.count
                let minimum = version >= .v201909 ? keywords["minContains"]?.numberValue?.int64Value ?? 1 : 1
                if count < minimum {
                    fail(
                        path,
                        "contains",
                        minimum == 1
                            ? "no item matches the 'contains' schema"
                            : "\(count) items match the 'contains' schema, fewer than minContains \(minimum)"
                    )
                }
                if version >= .v201909, let maximum = keywords["maxContains"]?.numberValue?.int64Value, count > maximum
                {
                    fail(
                        path,
                        "maxContains",
                        "\(count) items match the 'contains' schema, more than maxContains \(maximum)"
                    )
                }
            }
        }

        mutating func checkObject(_ keywords: JSONObject, _ object: JSONObject, at path: JSONPath) {
            let members = object.uniqueMembers
            if let minimum = keywords["minProperties"]?.numberValue?.int64Value, members.count < minimum {
                fail(
                    path,
                    "minProperties",
                    "the object has \(members.count) properties, fewer than minProperties \(minimum)"
                )
            }
            if let maximum = keywords["maxProperties"]?.numberValue?.int64Value, members.count > maximum {
                fail(
                    path,
                    "maxProperties",
                    "the object has \(members.count) properties, more than maxProperties \(maximum)"
                )
            }
            for name in keywords["required"]?.arrayValue?.compactMap(\.stringValue) ?? [] where object[name] == nil {
                fail(path, "required", "the required property \(quoted(name)) is missing")
            }
            let properties = keywords["properties"]?.objectValue
            let patterns = (keywords["patternProperties"]?.objectValue?.members ?? []).compactMap { member in
                schema.expressions[member.key].map { ($0, member.value) }
            }
            for member in members {
                let memberPath = path.appending(.key(member.key))
                var declared = false
                if let subschema = properties?[member.key] {
                    declared = true
                    check(subschema, member.value, at: memberPath)
                }
                for (expression, subschema) in patterns where expression.matches(member.key) {
                    declared = true
                    check(subschema, member.value, at: memberPath)
                }
                if !declared, let additional = keywords["additionalProperties"] {
                    if additional == .bool(false) {
                        fail(
                            memberPath,
                            "additionalProperties",
                            "the property \(quoted(member.key)) is not allowed (additionalProperties is false)"
                        )
                    } else {
                        check(additional, member.value, at: memberPath)
                    }
                }
                if version >= .v6, let names = keywords["propertyNames"] {
                    for failure in failures(of: names, .string(member.key), at: memberPath) {
                        fail(
                            memberPath,
                            "propertyNames",
                            "the property name \(quoted(member.key)) breaks propertyNames: \(failure.message)"
                        )
                    }
                }
            }
            // networknt keeps draft 7's `dependencies` in every version.
            var required: [(String, [JSONValue])] = []
            var schemas: [(String, JSONValue)] = []
            for member in keywords["dependencies"]?.objectValue?.members ?? [] {
                if let names = member.value.arrayValue {
                    required.append((member.key, names))
                } else {
                    schemas.append((member.key, member.value))
                }
            }
            if version >= .v201909 {
                for member in keywords["dependentRequired"]?.objectValue?.members ?? [] {
                    required.append((member.key, member.value.arrayValue ?? []))
                }
                for member in keywords["dependentSchemas"]?.objectValue?.members ?? [] {
                    schemas.append((member.key, member.value))
                }
            }
            // networknt's own `notAllowed`, in every version: properties that must be absent.
            for name in keywords["notAllowed"]?.arrayValue?.compactMap(\.stringValue) ?? [] where object[name] != nil {
                fail(
                    path.appending(.key(name)),
                    "notAllowed",
                    "the property \(quoted(name)) is not allowed (notAllowed)"
                )
            }
            for (trigger, names) in required where object[trigger] != nil {
                for name in names.compactMap(\.stringValue) where object[name] == nil {
                    fail(
                        path,
                        "dependentRequired",
                        "the property \(quoted(name)) is required when \(quoted(trigger)) is present"
                    )
                }
            }
            for (trigger, subschema) in schemas where object[trigger] != nil {
                check(subschema, .object(object), at: path)
            }
        }

        mutating func checkCombinators(_ keywords: JSONObject, _ instance: JSONValue, at path: JSONPath) {
            for subschema in keywords["allOf"]?.arrayValue ?? [] {
                check(subschema, instance, at: path)
            }
            if let options = keywords["anyOf"]?.arrayValue {
                var closest: [Failure]?
                for option in options {
                    let found = failures(of: option, instance, at: path)
                    if found.isEmpty {
                        closest = nil
                        break
                    }
                    if closest == nil || found.count < closest!.count { closest = found }
                }
                if let closest {
                    fail(
                        path,
                        "anyOf",
                        "\(render(instance)) matches none of the \(options.count) anyOf schemas (the closest: "
                            + "\(closest.map(\.description).joined(separator: "; ")))"
                    )
                }
            }
            if let options = keywords["oneOf"]?.arrayValue {
                let matching = options.indices.filter { isValid(options[$0], instance, at: path) }
                if matching.count != 1 {
                    fail(
                        path,
                        "oneOf",
                        matching.isEmpty
                            ? "\(render(instance)) matches none of the \(options.count) oneOf schemas"
                            : "\(render(instance)) matches \(matching.count) of the oneOf schemas "
                                + "(\(matching.map(String.init).joined(separator: ", "))), expected exactly one"
                    )
                }
            }
            if let negated = keywords["not"], isValid(negated, instance, at: path) {
                fail(path, "not", "\(render(instance)) matches the schema under 'not'")
            }
            if version >= .v7, let condition = keywords["if"] {
                let branch = isValid(condition, instance, at: path) ? "then" : "else"
                if let subschema = keywords[branch] {
                    for failure in failures(of: subschema, instance, at: path) {
                        fail(failure.instancePath, failure.keyword, "\(failure.message) (in '\(branch)')")
                    }
                }
            }
        }
    }

    // MARK: Values

    /// Whether `value` has the JSON Schema type `name`; `integer` is a number without a fraction
    /// (from draft 6 on, `1.0` too; in draft 4 only numbers written without `.` or an exponent).
    static func has(_ value: JSONValue, type name: String, version: Version) -> Bool {
        switch (name, value) {
        case ("null", .null), ("boolean", .bool), ("string", .string), ("array", .array), ("object", .object),
            ("number", .number):
            true
        case let ("integer", .number(number)):
            version == .v4 ? !number.text.contains(where: { ".eE".contains($0) }) : isIntegral(number)
        default: false
        }
    }

    /// The JSON Schema type of a value, with its article (`an object`, `an integer`).
    static func typeName(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "a boolean"
        case let .number(number): isIntegral(number) ? "an integer" : "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    static func isIntegral(_ number: JSONNumber) -> Bool {
        let decimal = CanonicalDecimal(number.text)
        return decimal.digits.count <= decimal.exponent || decimal.digits.isEmpty
    }

    private static func decimal(_ number: JSONNumber) -> Decimal? {
        let decimal = CanonicalDecimal(number.text)
        // Foundation's Decimal holds 38 digits and exponents from -128 to 127.
        guard decimal.digits.count <= 38, abs(decimal.exponent) < 120 else { return nil }
        return Decimal(string: number.text, locale: Locale(identifier: "en_US_POSIX"))
    }

    /// The order of two numbers, exactly when both fit Foundation's `Decimal`.
    static func compare(_ lhs: JSONNumber, _ rhs: JSONNumber) -> ComparisonResult {
        if lhs == rhs { return .orderedSame }
        if let left = decimal(lhs), let right = decimal(rhs) {
            return left < right ? .orderedAscending : left > right ? .orderedDescending : .orderedSame
        }
        let left = lhs.doubleValue
        let right = rhs.doubleValue
        return left < right ? .orderedAscending : left > right ? .orderedDescending : .orderedSame
    }

    /// Whether `number` is an integer times `divisor`, computed in decimal (so 0.3 is a multiple of 0.1).
    static func isMultiple(_ number: JSONNumber, of divisor: JSONNumber) -> Bool {
        if let value = decimal(number), let step = decimal(divisor), !step.isZero {
            var quotient = value / step
            var rounded = Decimal()
            NSDecimalRound(&rounded, &quotient, 0, .plain)
            if quotient.isFinite && !quotient.isNaN { return rounded == quotient }
        }
        let quotient = number.doubleValue / divisor.doubleValue
        return quotient.isFinite && quotient.rounded() == quotient
    }

    /// Whether `text` has `format`; formats outside ``assertedFormats`` pass. The pattern formats
    /// (`hostname`, `ipv4`, `uuid`, `json-pointer`, …) use networknt's expressions; `email` is a
    /// simpler reading of the Apache Commons validator networknt runs (a dot-atom local part, then
    /// a host name or a bracketed address).
    static func hasFormat(_ text: String, _ format: String) -> Bool {
        func matches(_ pattern: String, caseInsensitive: Bool = false) -> Bool {
            text.range(
                of: "\\A(?:\(pattern))\\z",
                options: caseInsensitive ? [.regularExpression, .caseInsensitive] : .regularExpression
            ) != nil
        }
        let label = "[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9\\-]{0,61}[a-zA-Z0-9]"
        let hostname = "(\(label))(\\.(\(label)))*"
        let octet = "([0-9]|[1-9][0-9]|1[0-9][0-9]|2[0-4][0-9]|25[0-5])"
        let ipv4 = "(\(octet)\\.){3}\(octet)"
        let time = "([01][0-9]|2[0-3]):[0-5][0-9]:([0-5][0-9]|60)(\\.[0-9]+)?(z|[+-]([01][0-9]|2[0-3]):[0-5][0-9])"
        let hex = "[0-9a-fA-F]"
        switch format {
        case "date": return isDate(text)
        case "time": return matches(time, caseInsensitive: true)
        case "date-time":
            guard text.count > 11, let separator = text.dropFirst(10).first, separator == "T" || separator == "t" else {
                return false
            }
            return isDate(String(text.prefix(10))) && hasFormat(String(text.dropFirst(11)), "time")
        case "email":
            let atom = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+"
            return matches("\(atom)(\\.\(atom))*@(\(hostname)|\\[(\(ipv4)|IPv6:[0-9a-fA-F:.]+)\\])")
                && text.utf8.count <= 320
        case "hostname": return matches(hostname)
        case "ipv4": return matches(ipv4)
        case "ipv6": return isIPv6(text)
        case "uuid": return matches("\(hex){8}-\(hex){4}-\(hex){4}-\(hex){4}-\(hex){12}")
        case "json-pointer": return matches("(/([^/#~]|[~](?=[01]))*)*")
        case "relative-json-pointer": return matches("(0|([1-9][0-9]*))(#|(/([^/#~]|[~](?=[01]))*)*)")
        case "utc-millisec": return matches("[0-9]+(\\.?[0-9]+)?")
        default: return true
        }
    }

    /// Whether `text` is a full date (`2024-02-29`), with the days each month has.
    static func isDate(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard text.utf8.count == 10, parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]), (1...12).contains(month)
        else { return false }
        return (1...CivilDateTime.length(ofMonth: month, in: year)).contains(day)
    }

    /// Whether `text` is an IPv6 address: eight groups of up to four hex digits, `::` at most once
    /// for a run of zero groups, and optionally a dotted IPv4 address as the last two groups.
    static func isIPv6(_ text: String) -> Bool {
        var groups = text.components(separatedBy: ":")
        var limit = 8
        if let last = groups.last, last.contains(".") {
            guard hasFormat(last, "ipv4"), !last.contains(":") else { return false }
            groups.removeLast()
            groups.append("0")
            limit = 7
        }
        let compressed = text.components(separatedBy: "::").count - 1
        guard compressed <= 1, !text.contains(":::") else { return false }
        let hex = groups.filter { !$0.isEmpty }
        guard hex.allSatisfy({ $0.count <= 4 && $0.allSatisfy(\.isHexDigit) }) else { return false }
        if compressed == 0 { return groups.count == limit && hex.count == limit }
        if text.hasPrefix(":") && !text.hasPrefix("::") || text.hasSuffix(":") && !text.hasSuffix("::") { return false }
        return hex.count < limit
    }

    /// The bytes of base64 text as Java's basic decoder reads it: the standard alphabet, padding
    /// optional, no line breaks.
    static func base64Decoded(_ text: String) -> Data? {
        guard text.utf8.count % 4 != 1 else { return nil }
        let padded = text.hasSuffix("=") ? text : text + String(repeating: "=", count: (4 - text.utf8.count % 4) % 4)
        return Data(base64Encoded: padded)
    }

    /// The subschema a local `$ref` (`#`, `#/definitions/x`, `#/$defs/a~1b`) names, or `nil`.
    static func resolve(_ reference: String, in root: JSONValue) -> JSONValue? {
        guard reference.hasPrefix("#") else { return nil }
        let pointer = PercentDecoding.decode(reference.dropFirst()) ?? String(reference.dropFirst())
        if pointer.isEmpty { return root }
        guard pointer.hasPrefix("/") else { return nil }
        var current = root
        for token in pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            let key = token.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            switch current {
            case let .object(object):
                guard let next = object[key] else { return nil }
                current = next
            case let .array(elements):
                guard let index = Int(key), elements.indices.contains(index) else { return nil }
                current = elements[index]
            default:
                return nil
            }
        }
        return current
    }
}

/// A value in a failure message: JSON, cut short past 60 characters.
private func render(_ value: JSONValue) -> String {
    // Masked first while a report is built: a cut would leave half a secret readable.
    let text = LogMasking.beforeCutting(value.description)
    return text.count > 60 ? String(text.prefix(60)) + "…" : text
}

/// The load-time check of a schema: every subschema is an object or a boolean, keywords have
/// values of the right kind, regular expressions compile and `$ref`s resolve.
private struct SchemaChecker {
    let root: JSONValue
    let version: JSONSchema.Version
    let place: String
    var expressions: [String: CompiledRegex] = [:]

    init(root: JSONValue, version: JSONSchema.Version, place: String) {
        self.root = root
        self.version = version
        self.place = place
    }

    static let singleSchemaKeywords = [
        "additionalProperties", "additionalItems", "contains", "propertyNames", "not", "if", "then", "else",
    ]
    static let schemaMapKeywords = ["properties", "patternProperties", "definitions", "$defs", "dependentSchemas"]
    static let schemaListKeywords = ["allOf", "anyOf", "oneOf", "prefixItems"]
    static let refused: [String: String] = [
        "$dynamicRef":
            "'$dynamicRef' is not supported by swift-http-stubs; use a local '$ref' such as \"#/$defs/name\"",
        "$recursiveRef":
            "'$recursiveRef' is not supported by swift-http-stubs; use a local '$ref' such as \"#/$defs/name\"",
        "unevaluatedProperties":
            "'unevaluatedProperties' is not supported by swift-http-stubs; "
            + "use 'additionalProperties' with the properties listed in the same schema",
        "unevaluatedItems":
            "'unevaluatedItems' is not supported by swift-http-stubs; "
            + "use 'items' (or 'prefixItems' and 'items') in the same schema",
    ]

    mutating func check(_ schema: JSONValue, at path: JSONPath, insideIdentifiedSchema: Bool) throws(JSONSchema.Problem)
    {
        guard let keywords = schema.objectValue else {
            guard schema.boolValue != nil else {
                throw JSONSchema.Problem(
                    message: "expected a schema (an object, or true or false), found \(schema.article)",
                    schemaPath: path
                )
            }
            return
        }
        func at(_ key: String) -> JSONPath { path.appending(.key(key)) }
        var identified = insideIdentifiedSchema
        let identifier = version == .v4 ? "id" : "$id"
        if path != .root, let id = keywords[identifier]?.stringValue, !id.hasPrefix("#") { identified = true }
        for (keyword, message) in Self.refused.sorted(by: { $0.key < $1.key }) where keywords[keyword] != nil {
            if keyword.hasPrefix("unevaluated") && version < .v201909 { continue }
            throw JSONSchema.Problem(message: message, schemaPath: at(keyword))
        }
        if version >= .v6, keywords["id"] != nil {
            // networknt knows `id` from draft 4 and has no validator for it later: it refuses the
            // schema, and WireMock then never matches (its own test uses {"id": 1, "name": "alice"}).
            throw JSONSchema.Problem(
                message:
                    "'id' is draft 4's identifier, and from V6 on WireMock's validator "
                    + "refuses a schema holding it, so the stub would never match; "
                    + "write '$id', or check that this is a schema and not an example value",
                schemaPath: at("id")
            )
        }
        if let reference = keywords["$ref"] {
            guard let text = reference.stringValue else {
                throw JSONSchema.Problem(
                    message: "'$ref' takes a string such as \"#/$defs/name\", found \(reference.article)",
                    schemaPath: at("$ref")
                )
            }
            guard text.hasPrefix("#/") || text == "#" else {
                throw JSONSchema.Problem(
                    message:
                        "the $ref \(quoted(text)) is not a local JSON pointer; "
                        + "swift-http-stubs resolves only references inside the schema, "
                        + "such as \"#/$defs/name\" (inline the referenced schema instead)",
                    schemaPath: at("$ref")
                )
            }
            if identified {
                throw JSONSchema.Problem(
                    message:
                        "the $ref \(quoted(text)) is inside a subschema with its own \(identifier), which "
                        + "swift-http-stubs does not resolve against; move the definitions to the root schema",
                    schemaPath: at("$ref")
                )
            }
            guard let target = JSONSchema.resolve(text, in: root) else {
                throw JSONSchema.Problem(
                    message: "the $ref \(quoted(text)) points to nothing in the schema",
                    schemaPath: at("$ref")
                )
            }
            guard target.objectValue != nil || target.boolValue != nil else {
                throw JSONSchema.Problem(
                    message: "the $ref \(quoted(text)) points to \(target.article), not a schema",
                    schemaPath: at("$ref")
                )
            }
        }
        if let type = keywords["type"] {
            let names = type.arrayValue ?? [type]
            let known: Set<String> = ["null", "boolean", "object", "array", "number", "string", "integer"]
            for name in names where !(name.stringValue.map(known.contains) ?? false) {
                throw JSONSchema.Problem(
                    message:
                        "'type' takes \(known.sorted().joined(separator: ", ")) "
                        + "or an array of them, found \(name.article)",
                    schemaPath: at("type")
                )
            }
        }
        if let pattern = keywords["pattern"] {
            guard let text = pattern.stringValue else {
                throw JSONSchema.Problem(
                    message: "'pattern' takes a regular expression string, found \(pattern.article)",
                    schemaPath: at("pattern")
                )
            }
            try compile(text, at: at("pattern"))
        }
        for keyword in ["enum", "required"] where keywords[keyword] != nil && keywords[keyword]?.arrayValue == nil {
            throw JSONSchema.Problem(
                message: "'\(keyword)' takes an array, found \(keywords[keyword]!.article)",
                schemaPath: at(keyword)
            )
        }
        for keyword in [
            "minimum", "maximum", "multipleOf", "minLength", "maxLength", "minItems", "maxItems", "minProperties",
            "maxProperties", "minContains", "maxContains",
        ] {
            if let value = keywords[keyword], value.numberValue == nil {
                throw JSONSchema.Problem(
                    message: "'\(keyword)' takes a number, found \(value.article)",
                    schemaPath: at(keyword)
                )
            }
        }
        if let divisor = keywords["multipleOf"]?.numberValue,
            JSONSchema.compare(divisor, JSONNumber(0)) != .orderedDescending
        {
            throw JSONSchema.Problem(
                message: "'multipleOf' must be greater than 0, found \(divisor)",
                schemaPath: at("multipleOf")
            )
        }
        if version < .v201909, let format = keywords["format"]?.stringValue,
            !JSONSchema.assertedFormats.contains(format), Self.assertedByNetworknt.contains(format)
        {
            throw JSONSchema.Problem(
                message:
                    "'format': \(quoted(format)) is asserted by WireMock up to draft 7 but "
                    + "not checked by swift-http-stubs, "
                    + "which checks \(JSONSchema.assertedFormats.sorted().joined(separator: ", ")); "
                    + "use 'pattern', or \"schemaVersion\": \"V202012\" where format is an annotation",
                schemaPath: at("format")
            )
        }
        for keyword in Self.singleSchemaKeywords {
            if let subschema = keywords[keyword] {
                try check(subschema, at: at(keyword), insideIdentifiedSchema: identified)
            }
        }
        if let items = keywords["items"] {
            if let tuple = items.arrayValue {
                if version == .v202012 {
                    throw JSONSchema.Problem(
                        message:
                            "in V202012 'items' takes one schema; write a list of schemas "
                            + "as 'prefixItems', or set \"schemaVersion\" to V201909 or earlier",
                        schemaPath: at("items")
                    )
                }
                for (index, subschema) in tuple.enumerated() {
                    try check(subschema, at: at("items").appending(.index(index)), insideIdentifiedSchema: identified)
                }
            } else {
                try check(items, at: at("items"), insideIdentifiedSchema: identified)
            }
        }
        for keyword in Self.schemaListKeywords {
            guard let list = keywords[keyword] else { continue }
            guard let subschemas = list.arrayValue, !subschemas.isEmpty || keyword == "prefixItems" else {
                throw JSONSchema.Problem(
                    message: "'\(keyword)' takes a non-empty array of schemas, found \(list.article)",
                    schemaPath: at(keyword)
                )
            }
            for (index, subschema) in subschemas.enumerated() {
                try check(subschema, at: at(keyword).appending(.index(index)), insideIdentifiedSchema: identified)
            }
        }
        for keyword in Self.schemaMapKeywords + ["dependencies"] {
            guard let map = keywords[keyword] else { continue }
            guard let members = map.objectValue?.members else {
                throw JSONSchema.Problem(
                    message: "'\(keyword)' takes an object whose values are schemas, found \(map.article)",
                    schemaPath: at(keyword)
                )
            }
            for member in members {
                if keyword == "patternProperties" {
                    try compile(member.key, at: at(keyword).appending(.key(member.key)))
                }
                if keyword == "dependencies", member.value.arrayValue != nil { continue }
                try check(member.value, at: at(keyword).appending(.key(member.key)), insideIdentifiedSchema: identified)
            }
        }
    }

    /// The formats networknt knows beyond ``JSONSchema/assertedFormats``: asserted up to draft 7,
    /// so a schema using them is refused there rather than checked less than WireMock checks it.
    static let assertedByNetworknt: Set<String> = [
        "idn-email", "idn-hostname", "iri", "iri-reference", "regex", "uri", "uri-reference", "uri-template",
        "duration",
    ]

    /// Compiles a `pattern` or `patternProperties` key as an unanchored search, as ECMA-262's `test` runs.
    mutating func compile(_ pattern: String, at path: JSONPath) throws(JSONSchema.Problem) {
        guard expressions[pattern] == nil else { return }
        do {
            expressions[pattern] = try CompiledRegex(pattern, extent: .anywhere)
        } catch {
            throw JSONSchema.Problem(message: error.message(pattern: pattern, at: place), schemaPath: path)
        }
    }
}
