import Foundation
import HTTPStubs
import HTTPStubsLanguages

/// WireMock's JSON helpers: `jsonPath` (Jayway JsonPath through the package's one
/// ``JSONPathExpression``, printing as ``TemplateJSONPrinting``), `parseJson`, `array`, `range`,
/// WireMock 3's `toJson`, `formatJson`, `formatXml`, `val` and `arrayJoin`, and Spring Cloud Contract's
/// `jsonpath` (lower case), whose first parameter `this` means the request body (SCC registers it
/// in its own WireMock extension; plain WireMock has no such helper).
enum WireMockJSONHelpers {
    /// The helpers by name.
    static let all: [String: TemplateHelper] = [
        "jsonPath": TemplateHelper(prepare: compiledPath) { call throws(TemplateRenderError) in
            try jsonPath(call, input: call.params.first ?? .null)
        },
        "jsonpath": TemplateHelper(prepare: compiledPath) { call throws(TemplateRenderError) in
            // Spring Cloud Contract: `this` is the request body.
            var input = call.params.first ?? .null
            if case .object(let root) = input, case .object(let request)? = root["request"] {
                input = request["body"] ?? .null
            }
            return try jsonPath(call, input: input)
        },
        "parseJson": TemplateHelper(parseJson),
        "array": TemplateHelper { call in .list(call.params) },
        "range": TemplateHelper { call throws(TemplateRenderError) in
            guard let lower = WireMockHelperSupport.integer(WireMockHelperSupport.param(call, 0)),
                let upper = WireMockHelperSupport.integer(WireMockHelperSupport.param(call, 1))
            else {
                return WireMockHelperSupport.inBandError(
                    "The range helper requires both lower and upper bounds as integer parameters"
                )
            }
            guard upper >= lower else { return .list([]) }
            // The numbers are charged before they are made: a span wider than an Int holds is more
            // than any budget.
            let (span, overflow) = upper.subtractingReportingOverflow(lower)
            let count = overflow || span == Int.max ? nil : span + 1
            try call.charge(
                count.map { WireMockHelperSupport.units($0, each: WorkBudget.Cost.listElement) } ?? Int.max,
                for: "range \(lower) \(upper): \(count.map(String.init) ?? "more than \(Int.max)") numbers, "
                    + "\(WorkBudget.Cost.listElement) units each"
            )
            return .list((lower...upper).map { TemplateValue.integer($0) })
        },
        "toJson": TemplateHelper { call throws(TemplateRenderError) in
            let value = call.params.first ?? .null
            let text = TemplateJSONPrinting.jsonText(value)
            // Written, parsed and printed again.
            try call.charge(
                WireMockHelperSupport.units(text.utf8.count, each: 3 * WorkBudget.Cost.parsedByte),
                for: "writing, parsing and printing \(text.utf8.count) bytes of JSON"
            )
            guard let json = try? JSONValue(parsing: text) else { return .null }
            return .string(TemplateJSONPrinting.pretty(json, level: 0))
        },
        "formatJson": TemplateHelper { call throws(TemplateRenderError) in
            let text = try WireMockHelperSupport.bodyOrFirst(call) ?? ""
            // Parsed and printed again.
            try call.charge(
                WireMockHelperSupport.units(text.utf8.count, each: 2 * WorkBudget.Cost.parsedByte),
                for: "parsing and printing \(text.utf8.count) bytes of JSON"
            )
            guard let json = try? JSONValue(parsing: text) else {
                throw WireMockHelperSupport.failure(call, "formatJson: the input is not JSON")
            }
            if WireMockHelperSupport.hashString(call, "format") == "compact" {
                return .safe(TemplateJSONPrinting.compact(json, smart: false))
            }
            return .safe(TemplateJSONPrinting.pretty(json, level: 0))
        },
        "formatXml": TemplateHelper { call throws(TemplateRenderError) in
            let text = try WireMockHelperSupport.bodyOrFirst(call) ?? ""
            try chargeParsing(text, call, asXML: true)
            let compact = WireMockHelperSupport.hashString(call, "format") == "compact"
            do {
                return .safe(try XPathExpression.formatted(text, compact: compact))
            } catch XMLReadError.malformed {
                throw WireMockHelperSupport.failure(call, "formatXml: the input is not XML")
            } catch {
                throw WireMockHelperSupport.failure(call, "formatXml: \(error)")
            }
        },
        "val": TemplateHelper { call in
            let value = call.params.first ?? .null
            let chosen = value.isNull ? (call.hash["or"] ?? call.hash["default"] ?? .null) : value
            if let name = WireMockHelperSupport.hashString(call, "assign") {
                try WireMockHelperSupport.assign(call, name, chosen)
                return .null
            }
            return chosen
        },
        "arrayJoin": TemplateHelper { call throws(TemplateRenderError) in
            guard let separator = WireMockHelperSupport.optionalString(call, 0) else {
                return WireMockHelperSupport.inBandError("The separator is missing")
            }
            var values: [TemplateValue] = []
            for value in call.params.dropFirst() {
                if let items = WireMockHelperSupport.items(value) { values += items } else { values.append(value) }
            }
            let prefix = WireMockHelperSupport.hashString(call, "prefix") ?? ""
            let suffix = WireMockHelperSupport.hashString(call, "suffix") ?? ""
            if call.isBlock {
                try call.charge(
                    WireMockHelperSupport.units(values.count, each: WorkBudget.Cost.blockIteration),
                    for: "rendering its body for \(values.count) values, \(WorkBudget.Cost.blockIteration) units each"
                )
                var parts: [String] = []
                for value in values { parts.append(try call.renderBody(in: value)) }
                return .safe(
                    try WireMockStringHelpers.joined(parts, separator: separator, prefix: prefix, suffix: suffix, call)
                )
            }
            return .string(
                try WireMockStringHelpers.joined(
                    values.map(\.printed),
                    separator: separator,
                    prefix: prefix,
                    suffix: suffix,
                    call
                )
            )
        },
    ]

    /// WireMock's `HandlebarsJsonPathHelper` on `input`.
    static func jsonPath(_ call: TemplateHelperCall, input: TemplateValue) throws(TemplateRenderError) -> TemplateValue
    {
        guard let path = WireMockHelperSupport.optionalString(call, 1), !path.isEmpty else {
            return WireMockHelperSupport.inBandError("The JSONPath cannot be empty")
        }
        let text: String
        switch input {
        case .null: return defaultValue(call)  // WireMock 3: a missing body gives empty
        case .string(let string), .safe(let string): text = string
        case .object, .list:
            text = TemplateJSONPrinting.jsonText(input)
            try call.charge(text.utf8.count, for: "writing \(text.utf8.count) bytes of JSON")
        case .javaObject(let object):
            let isJSON = object.items != nil || object.properties.count > 0 || object.printed.hasPrefix("{")
            text = isJSON ? TemplateJSONPrinting.jsonText(input) : object.printed
            if isJSON { try call.charge(text.utf8.count, for: "writing \(text.utf8.count) bytes of JSON") }
        case .number, .bool: text = input.printed
        }
        if text.isEmpty { return defaultValue(call) }
        let expression: JSONPathExpression
        if case .jsonPath(let compiled)? = call.prepared {
            expression = compiled
        } else {
            try WireMockHelperSupport.chargeCompiling(path, call)
            do {
                expression = try JSONPathExpression(path)
            } catch {
                return WireMockHelperSupport.inBandError("\(path) is not a valid JSONPath expression")
            }
        }
        guard let json = try call.session.json(parsing: text, for: call) else { return defaultValue(call) }
        switch expression.evaluate(json) {
        case .notFound, .value(.null): return defaultValue(call)
        case .value(let value): return try TemplateJSONPrinting.value(value, charging: call)
        case .values(let values): return try TemplateJSONPrinting.value(.array(values), charging: call)
        }
    }

    /// The JSONPath expression of a tag whose path (the second parameter) is a literal string,
    /// compiled once when the template is parsed; `nil` for a path read at render time, or one
    /// that does not compile (the render then answers WireMock's error as before).
    static func compiledPath(_ expression: TemplateExpression) -> TemplatePrepared? {
        guard expression.params.count > 1, case .literal(.string(let path)) = expression.params[1], !path.isEmpty,
            let compiled = try? JSONPathExpression(path)
        else { return nil }
        return .jsonPath(compiled)
    }

    /// Charges `call`'s work budget for parsing `text` as JSON or XML (``WorkBudget/Cost/parsedByte``
    /// a byte, and for XML a parser set up as costly as a helper call), before it is parsed.
    static func chargeParsing(
        _ text: String,
        _ call: TemplateHelperCall,
        asXML: Bool = false
    ) throws(TemplateRenderError) {
        try call.charge(
            WireMockHelperSupport.units(
                adding: text.utf8.count * WorkBudget.Cost.parsedByte,
                asXML ? WorkBudget.Cost.helperCall : 0
            ),
            for: "parsing \(text.utf8.count) bytes"
        )
    }

    /// The `default=` hash argument, or nothing.
    static func defaultValue(_ call: TemplateHelperCall) -> TemplateValue {
        call.hash["default"] ?? .null
    }

    /// WireMock's `ParseJsonHelper`: the JSON text (the first parameter or the block's body) as
    /// maps and lists that print as Java's (`{a=1, b=[1, 2]}`), stored under the variable name
    /// when one is given (the second parameter, or the first for a block).
    static func parseJson(_ call: TemplateHelperCall) throws(TemplateRenderError) -> TemplateValue {
        let text: String
        var variable: String?
        if call.isBlock {
            text = try call.renderBody()
            variable = WireMockHelperSupport.optionalString(call, 0)
        } else {
            text = try WireMockHelperSupport.requiredString(call, 0)
            variable = WireMockHelperSupport.optionalString(call, 1)
        }
        let value: TemplateValue
        if text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            value = .object(TemplateObject())
        } else {
            // Parsed once per render (a loop reads the same text again); the values it makes are
            // charged each time, as many bytes as their text, each made of several objects.
            try call.charge(
                WireMockHelperSupport.units(text.utf8.count, each: 2 * WorkBudget.Cost.parsedByte),
                for: "making the values of \(text.utf8.count) bytes of JSON"
            )
            guard let json = try call.session.json(parsing: text, for: call) else {
                throw WireMockHelperSupport.failure(
                    call,
                    "com.fasterxml.jackson.core.JsonParseException: not JSON: \(text)"
                )
            }
            value = TemplateValue(json: json)
        }
        if let variable {
            try WireMockHelperSupport.assign(call, variable, value)
            return .null
        }
        return value
    }
}
