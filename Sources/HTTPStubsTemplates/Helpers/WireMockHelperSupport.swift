import Foundation
import HTTPStubs

/// What WireMock's helpers share: reading parameters as Java does, failing as a Java exception
/// does (a render error, WireMock's 500), and WireMock's in-band `[ERROR: …]` answers.
enum WireMockHelperSupport {
    /// A render error at the helper's tag, as a Java exception thrown by the helper would give.
    static func failure(_ call: TemplateHelperCall, _ message: String) -> TemplateRenderError {
        TemplateRenderError(location: call.location, message: "helper '\(call.name)' failed: \(message)")
    }

    /// A render error for an argument outside the range the helper accepts, saying what was given,
    /// the range and how to fix it: `helper 'randomValue' failed: length=-1 is out of range: …`.
    static func outOfRange(
        _ call: TemplateHelperCall,
        _ argument: String,
        range: String,
        fix: String
    ) -> TemplateRenderError {
        failure(call, "\(argument) is out of range: \(range); \(fix)")
    }

    /// `count` things of `size` units each, for a charge to the work budget: `Int.max` when the
    /// product does not fit, which no budget holds.
    static func units(_ count: Int, each size: Int) -> Int {
        let (product, overflow) = max(count, 0).multipliedReportingOverflow(by: max(size, 0))
        return overflow ? Int.max : product
    }

    /// The sum of `parts`, for a charge to the work budget: `Int.max` when it does not fit.
    static func units(adding parts: Int...) -> Int {
        var total = 0
        for part in parts {
            let (sum, overflow) = total.addingReportingOverflow(max(part, 0))
            if overflow { return Int.max }
            total = sum
        }
        return total
    }

    /// WireMock's in-band error (`HandlebarsHelper.handleError`): the text `[ERROR: message]`.
    static func inBandError(_ message: String) -> TemplateValue {
        .string("[ERROR: \(message)]")
    }

    /// The parameter at `index`, `nil` when absent.
    static func param(_ call: TemplateHelperCall, _ index: Int) -> TemplateValue? {
        call.params.indices.contains(index) ? call.params[index] : nil
    }

    /// The first parameter as a string (`toString()`), failing like Java's `NullPointerException`
    /// when it is missing or `null`.
    static func requiredString(_ call: TemplateHelperCall, _ index: Int = 0) throws(TemplateRenderError) -> String {
        guard let value = param(call, index), !value.isNull else {
            throw failure(call, "java.lang.NullPointerException: parameter \(index + 1) is missing or null")
        }
        return value.printed
    }

    /// The parameter as a string, `nil` when missing or `null`.
    static func optionalString(_ call: TemplateHelperCall, _ index: Int) -> String? {
        guard let value = param(call, index), !value.isNull else { return nil }
        return value.printed
    }

    /// A hash argument as a string, `nil` when absent or `null`.
    static func hashString(_ call: TemplateHelperCall, _ key: String) -> String? {
        guard let value = call.hash[key], !value.isNull else { return nil }
        return value.printed
    }

    /// A hash argument read as Handlebars reads a boolean option: `true` or the string `true`.
    static func hashFlag(_ call: TemplateHelperCall, _ key: String) -> Bool {
        switch call.hash[key] {
        case .bool(let flag)?: flag
        case .string(let text)?, .safe(let text)?: text == "true"
        default: false
        }
    }

    /// A value read as an integer (a number, or text that parses as one). Text longer than
    /// ``longestNumber`` is not read (no integer is that long), so that reading costs nothing
    /// whatever text a request sends.
    static func integer(_ value: TemplateValue?) -> Int? {
        switch value {
        case .number(let text, let number)?:
            Int(text) ?? (number.isFinite && abs(number) < 9e18 ? Int(number) : nil)
        case .string(let text)?, .safe(let text)?:
            text.utf8.count > longestNumber ? nil : Int(text.trimmingCharacters(in: .whitespaces))
        case .javaObject(let object)?:
            object.printed.utf8.count > longestNumber ? nil : Int(object.printed)
        default: nil
        }
    }

    /// A value read as a double (a number, or text that parses as one, of at most
    /// ``longestNumber`` bytes).
    static func double(_ value: TemplateValue?) -> Double? {
        switch value {
        case .number(_, let number)?: number
        case .string(let text)?, .safe(let text)?:
            text.utf8.count > longestNumber ? nil : Double(text.trimmingCharacters(in: .whitespaces))
        case .javaObject(let object)?: object.printed.utf8.count > longestNumber ? nil : Double(object.printed)
        default: nil
        }
    }

    /// The longest text read as a number: far longer than any integer, or any double written
    /// with its digits and spaces around it.
    static let longestNumber = 1_000

    /// The items of a list-like value (a list, or a Java list of the request model).
    static func items(_ value: TemplateValue) -> [TemplateValue]? {
        switch value {
        case .list(let items): items
        case .javaObject(let object): object.items
        default: nil
        }
    }

    /// The block's body or inverse as handlebars.java's conditional helpers answer: a block renders
    /// one of them, a tag prints `yes`/`no` from the hash or `true`/`false`.
    static func conditional(_ call: TemplateHelperCall, _ result: Bool) throws(TemplateRenderError) -> TemplateValue {
        if call.isBlock { return .safe(try result ? call.renderBody() : call.renderInverse()) }
        if result { return call.hash["yes"] ?? .bool(true) }
        return call.hash["no"] ?? .bool(false)
    }

    /// A block's body rendered, or the first parameter: how WireMock's helpers that accept both
    /// (`{{#trim}}…{{/trim}}`, `{{#base64}}…{{/base64}}`) read their input.
    static func bodyOrFirst(_ call: TemplateHelperCall) throws(TemplateRenderError) -> String? {
        if call.isBlock && call.params.isEmpty { return try call.renderBody() }
        return optionalString(call, 0)
    }

    /// Stores `value` under `name` for the rest of the template, as WireMock's helpers do with
    /// their variable-name parameter (`options.context.data(name, value)`).
    static func assign(_ call: TemplateHelperCall, _ name: String, _ value: TemplateValue) throws(TemplateRenderError) {
        try call.charge(name.utf8.count, for: "naming a variable of \(name.utf8.count) bytes")
        call.session.setVariable(name, value)
    }

    /// Charges `call`'s work budget for compiling `text`, a pattern, path or expression the
    /// template or the request gives (a parsed byte each), before it is compiled.
    static func chargeCompiling(_ text: String, _ call: TemplateHelperCall) throws(TemplateRenderError) {
        try call.charge(text.utf8.count * WorkBudget.Cost.parsedByte, for: "compiling \(text.utf8.count) bytes")
    }

    /// A number in `0..<bound` from the environment's random source, clamped into range so that
    /// a source that misbehaves cannot make a helper index out of bounds.
    static func random(_ call: TemplateHelperCall, _ bound: Int) -> Int {
        guard bound > 0 else { return 0 }
        return min(max(call.session.environment.random(bound), 0), bound - 1)
    }
}
