import HTTPStubs

/// handlebars.java's built-in helpers that WireMock templates use: `if`, `unless`, `each`, `with`,
/// `lookup` and `log`, with the Java behaviour (see each function). The first parameter is the value the
/// helper works on; without parameters it is the current context.
enum TemplateBuiltinHelpers {
    /// The built-ins by name.
    static let all: [String: TemplateHelper] = [
        "if": TemplateHelper(ifHelper),
        "unless": TemplateHelper(unless),
        "each": TemplateHelper(each),
        "with": TemplateHelper(with),
        "lookup": TemplateHelper(lookup),
        "log": TemplateHelper(log),
    ]

    /// `LogHelper`: handlebars.java logs its parameters and prints nothing; here it prints nothing.
    static func log(_ call: TemplateHelperCall) throws(TemplateRenderError) -> TemplateValue {
        .null
    }

    /// `IfHelper`: the body when the value is truthy (``TemplateValue/isFalsy``), else the inverse.
    static func ifHelper(_ call: TemplateHelperCall) throws(TemplateRenderError) -> TemplateValue {
        let value = call.params.first ?? call.context
        return .safe(try value.isFalsy ? call.renderInverse() : call.renderBody())
    }

    /// `UnlessHelper`: the body when the value is falsy, else the inverse.
    static func unless(_ call: TemplateHelperCall) throws(TemplateRenderError) -> TemplateValue {
        let value = call.params.first ?? call.context
        return .safe(try value.isFalsy ? call.renderBody() : call.renderInverse())
    }

    /// `WithHelper`: the body with the value as `this` when it is truthy, else the inverse (also
    /// with the value as `this`).
    static func with(_ call: TemplateHelperCall) throws(TemplateRenderError) -> TemplateValue {
        let value = call.params.first ?? call.context
        return .safe(try value.isFalsy ? call.renderInverse(in: value) : call.renderBody(in: value))
    }

    /// `EachHelper`: the body once per element of a list or entry of a map, with the element as
    /// `this`; the inverse when there is none (or the value is `null`).
    ///
    /// Over a list: `@index` and `@key` are the index (from the hash argument `base`, default 0),
    /// `@first` is the string `first` on the first element and empty otherwise, `@last` is `last`
    /// on the last, `@odd`/`@even` are `odd`/`even` or empty, `@index_1` is the index plus one.
    /// Over a map: `@key` is the key, `@index` counts from 0, `@first`/`@last` as for lists.
    /// handlebars.java iterates the Java bean properties of other values (a string's `bytes`,
    /// `empty`, …); here a string, number or boolean has no entries, so the inverse renders.
    static func each(_ call: TemplateHelperCall) throws(TemplateRenderError) -> TemplateValue {
        var value = call.params.first ?? call.context
        if case .javaObject(let object) = value {
            value = object.items.map(TemplateValue.list) ?? .object(object.properties)
        }
        var output = ""
        switch value {
        case .list(let items):
            let base = try indexBase(call)
            try charge(items.count, call)
            for (offset, item) in items.enumerated() {
                let index = base + offset
                let even = offset % 2 == (base % 2 == 0 ? 0 : 1) ? true : false
                let data = TemplateObject([
                    ("@key", .integer(index)), ("@index", .integer(index)),
                    ("@first", .string(offset == 0 ? "first" : "")),
                    ("@last", .string(offset == items.count - 1 ? "last" : "")),
                    ("@odd", .string(even ? "" : "odd")), ("@even", .string(even ? "even" : "")),
                    ("@index_1", .integer(index + 1)),
                ])
                output += try call.renderBody(in: item, data: data, blockValues: [item, .integer(index)])
            }
            if items.isEmpty { output = try call.renderInverse() }
        case .object(let object):
            try charge(object.count, call)
            for (offset, entry) in object.entries.enumerated() {
                let data = TemplateObject([
                    ("@key", .string(entry.key)), ("@index", .integer(offset)),
                    ("@first", .string(offset == 0 ? "first" : "")),
                    ("@last", .string(offset == object.count - 1 ? "last" : "")),
                ])
                output += try call.renderBody(
                    in: entry.value,
                    data: data,
                    blockValues: [entry.value, .string(entry.key)]
                )
            }
            if object.count == 0 { output = try call.renderInverse() }
        default:
            output = try call.renderInverse()
        }
        return .safe(output)
    }

    /// Charges the work budget for rendering the body once for each of `count` elements, before
    /// the first (the body's own work is counted as it renders).
    private static func charge(_ count: Int, _ call: TemplateHelperCall) throws(TemplateRenderError) {
        try call.charge(
            WireMockHelperSupport.units(count, each: WorkBudget.Cost.blockIteration),
            for: "rendering its body for \(count) elements, \(WorkBudget.Cost.blockIteration) units each"
        )
    }

    /// The `base=` of `each` over a list, the index of its first element (0 when it is not a
    /// number): a Java `int`, as handlebars.java reads it, so that no index overflows.
    private static func indexBase(_ call: TemplateHelperCall) throws(TemplateRenderError) -> Int {
        guard case .number(let text, let number)? = call.hash["base"] else { return 0 }
        guard let base = Int32(exactly: number.rounded(.towardZero)) else {
            throw TemplateRenderError(
                location: call.location,
                message:
                    "helper '\(call.name)' failed: base=\(text) is out of range: the base is a Java int, "
                    + "from -2147483648 to 2147483647; give a smaller one"
            )
        }
        return Int(base)
    }

    /// `LookupHelper`: `{{lookup value key}}` reads `key` (printed, then read as a path) from
    /// `value`, looking further up the contexts when `value` lacks it. handlebars.java returns
    /// `value` itself when nothing is found, and `null` when `value` is `null`.
    static func lookup(_ call: TemplateHelperCall) throws(TemplateRenderError) -> TemplateValue {
        let value = call.params.first ?? call.context
        if value.isNull { return .null }
        guard call.params.count > 1 else { return value }
        let key = call.params[1].printed
        try call.charge(key.utf8.count * WorkBudget.Cost.parsedByte, for: "reading a key of \(key.utf8.count) bytes")
        let scope = TemplateScope(value: value, parent: call.scope, data: TemplateObject())
        return call.session.lookup(TemplatePath(key), in: scope) ?? value
    }
}
