import HTTPStubs
import HTTPStubsLanguages

/// WireMock 3's helpers that edit JSON text and answer JSON text: `jsonMerge` (`JsonMergeHelper`),
/// `jsonRemove` (`JsonRemoveHelper`), `jsonArrayAdd` (`JsonArrayAddHelper`) and `jsonSort`
/// (``WireMockJSONSortHelper``), read and written as ``JacksonJSON`` describes, their paths in Jayway
/// JsonPath through the package's one ``JSONPathExpression``.
///
/// Their answers, and their in-band `[ERROR: …]` answers on bad input (the same messages as
/// WireMock's), are never HTML-escaped, as in WireMock 3, which does not escape by default: so
/// `{{jsonMerge a b}}` prints JSON, not `&quot;`.
enum WireMockJSONEditHelpers {
    /// The helpers by name.
    static let all: [String: TemplateHelper] = [
        "jsonMerge": TemplateHelper(jsonMerge),
        "jsonRemove": TemplateHelper(jsonRemove),
        "jsonArrayAdd": TemplateHelper(jsonArrayAdd),
        "jsonSort": TemplateHelper(WireMockJSONSortHelper.jsonSort),
    ]

    /// `jsonMerge base other` (or `{{#jsonMerge base}}other{{/jsonMerge}}`): the JSON object `other`
    /// merged into `base`, member by member, objects recursively; `removeNulls=true` removes the
    /// members that `other` sets to `null`.
    static func jsonMerge(_ call: TemplateHelperCall) throws(TemplateRenderError) -> TemplateValue {
        guard let baseText = string(call.params.first ?? call.context) else {
            return error("Base JSON parameter must be a string")
        }
        guard let base = try read(baseText, call) else { return error("Base JSON is not valid JSON ('\(baseText)')") }
        guard case .object(let baseObject) = base else {
            return error("Base JSON is not a JSON object ('\(baseText)')")
        }
        let otherValue = call.isBlock ? .string(try call.renderBody()) : WireMockHelperSupport.param(call, 1) ?? .null
        guard let otherText = string(otherValue) else { return error("JSON to merge must be a string") }
        guard let other = try read(otherText, call) else {
            return error("JSON to merge is not valid JSON ('\(otherText)')")
        }
        guard case .object(let otherObject) = other else {
            return error("JSON to merge is not a JSON object ('\(otherText)')")
        }
        let removeNulls: Bool
        switch call.hash["removeNulls"] {
        case nil: removeNulls = false
        case .bool(let flag)?: removeNulls = flag
        case let value?:
            throw WireMockHelperSupport.failure(
                call,
                "java.lang.ClassCastException: removeNulls=\(value.printed) is not a java.lang.Boolean"
            )
        }
        let merged = merge(otherObject, into: baseObject, removeNulls: removeNulls)
        return .safe(try JacksonJSON.write(.object(merged), droppingNullMembers: false, charging: call))
    }

    /// `JsonMergeHelper.merge`: each member of `other` replaces `base`'s (in place, or at the end when
    /// new), except that an object merges into an object and, with `removeNulls`, `null` removes.
    private static func merge(_ other: JSONObject, into base: JSONObject, removeNulls: Bool) -> JSONObject {
        var base = base
        for member in other.members {
            switch (member.value, base[member.key]) {
            case (.object(let object), .object(let baseChild)?):
                base[member.key] = .object(merge(object, into: baseChild, removeNulls: removeNulls))
            case (.null, _) where removeNulls:
                base[member.key] = nil
            default:
                base[member.key] = member.value
            }
        }
        return base
    }

    /// `jsonRemove json path`: the JSON with what the path selects removed; the input as given when
    /// the path selects nothing (or the input is `null`).
    static func jsonRemove(_ call: TemplateHelperCall) throws(TemplateRenderError) -> TemplateValue {
        guard let text = string(call.params.first ?? call.context) else { return error("Input JSON must be a string") }
        if text == "null" { return .safe(text) }
        guard call.params.count == 2 else { return error("A single JSONPath expression parameter must be supplied") }
        guard let pathText = string(call.params[1]) else { return error("JSONPath parameter must be a string") }
        guard let json = try jaywayDocument(text, call) else {
            return error("Input JSON string is not valid JSON ('\(text)')")
        }
        guard let path = try jaywayPath(pathText, call) else {
            return error("JSONPath parameter is not a valid JSONPath expression ('\(pathText)')")
        }
        guard let located = path.locate(in: json), !located.isEmpty else { return .safe(text) }
        if located.contains(where: \.location.isEmpty) {
            return error("Delete operation cannot be applied to JSONPath expression ('\(pathText)')")
        }
        return .safe(
            try JacksonJSON.write(json.removing(located.map(\.location)), droppingNullMembers: true, charging: call)
        )
    }

    /// `jsonArrayAdd json item` (or `{{#jsonArrayAdd json}}item{{/jsonArrayAdd}}`): the JSON with the
    /// item added to the array at its root, or at `jsonPath=`; `flatten=true` adds an array's items one
    /// by one; `maxItems=n` then keeps the last `n`.
    static func jsonArrayAdd(_ call: TemplateHelperCall) throws(TemplateRenderError) -> TemplateValue {
        guard let text = string(call.params.first ?? call.context) else { return error("Base JSON must be a string") }
        guard let root = try jaywayDocument(text, call) else { return error("Base JSON is not valid JSON ('\(text)')") }
        let pathValue = call.hash["jsonPath"].flatMap { $0.isNull ? nil : $0 }
        var target: (value: JSONValue?, location: [JSONPathKey]?) = (root, [])
        var detail = "'\(text)'"
        if let pathValue {
            guard let pathText = string(pathValue) else { return error("jsonPath option must be a string") }
            guard let path = try jaywayPath(pathText, call) else {
                return error("jsonPath option is not valid JSONPath expression ('\(pathText)')")
            }
            target = read(path, in: root)
            detail = "root: '\(text)', jsonPath: '\(pathText)'"
        }
        guard case .array(var list)? = target.value else {
            return error("Target JSON is not a JSON array (\(detail))")
        }
        let itemValue = call.isBlock ? .string(try call.renderBody()) : WireMockHelperSupport.param(call, 1) ?? .null
        guard let itemText = string(itemValue) else { return error("Item-to-add JSON must be a string") }
        guard let item = try read(itemText, call) else {
            return error("Item-to-add JSON is not valid JSON ('\(itemText)')")
        }
        let flatten: Bool
        switch call.hash["flatten"] {
        case nil, .null?: flatten = false
        case .bool(let flag)?: flatten = flag
        default: return error("flatten option must be a boolean")
        }
        if flatten, case .array(let items) = item { list += items } else { list.append(item) }
        if let maxItems = call.hash["maxItems"], !maxItems.isNull {
            guard let limit = javaInteger(maxItems) else { return error("maxItems option must be an integer") }
            guard limit >= 0 else { return error("maxItems option integer must be positive") }
            if list.count > limit { list.removeFirst(list.count - limit) }
        }
        // An indefinite path reads a new list, so the document does not change (as in Jayway).
        let edited = target.location.map { root.replacing(at: $0[...], with: .array(list)) } ?? root
        return .safe(try JacksonJSON.write(edited, droppingNullMembers: true, charging: call))
    }

    /// What Jayway's `read` of `path` gives with WireMock's configuration, and where it is in `root`:
    /// for a definite path the value (`null` for a missing last member) or `nil` when nothing is
    /// there; for an indefinite path a new array of the values, which is nowhere in `root`.
    static func read(_ path: JSONPathExpression, in root: JSONValue) -> (value: JSONValue?, location: [JSONPathKey]?) {
        guard let located = path.locate(in: root) else { return (nil, nil) }
        guard path.isDefinite else { return (.array(located.map(\.value)), nil) }
        guard let only = located.first else { return (nil, nil) }
        return (only.value, only.location)
    }

    /// A JSON document as Jayway JsonPath parses it with WireMock's Jackson provider: `nil` when it is
    /// not JSON or is `null` (Jayway refuses a `null` document).
    static func jaywayDocument(_ text: String, _ call: TemplateHelperCall) throws(TemplateRenderError) -> JSONValue? {
        guard let json = try read(text, call), json != .null else { return nil }
        return json
    }

    /// `text` read as ``JacksonJSON`` reads it, once `call`'s work budget is charged for parsing it.
    static func read(_ text: String, _ call: TemplateHelperCall) throws(TemplateRenderError) -> JSONValue? {
        try WireMockJSONHelpers.chargeParsing(text, call)
        return JacksonJSON.read(text)
    }

    /// A path as Jayway compiles it: trimmed, `$.` put in front unless it starts with `$` or `@`;
    /// `nil` when it is empty or does not parse. Compiling is charged to `call`'s work budget.
    static func jaywayPath(
        _ text: String,
        _ call: TemplateHelperCall
    ) throws(TemplateRenderError) -> JSONPathExpression? {
        try WireMockHelperSupport.chargeCompiling(text, call)
        let scalars = Array(text.unicodeScalars)
        guard let first = scalars.firstIndex(where: { $0.value > 0x20 }),
            let last = scalars.lastIndex(where: { $0.value > 0x20 })
        else { return nil }
        var trimmed = ""
        trimmed.unicodeScalars.append(contentsOf: scalars[first...last])
        let full = trimmed.hasPrefix("$") || trimmed.hasPrefix("@") ? trimmed : "$." + trimmed
        return try? JSONPathExpression(full)
    }

    /// A template value that is a Java `String`: text, rendered or not.
    static func string(_ value: TemplateValue) -> String? {
        switch value {
        case .string(let text), .safe(let text): text
        default: nil
        }
    }

    /// A template value that is a Java `Integer`: a whole number that fits 32 bits.
    static func javaInteger(_ value: TemplateValue) -> Int? {
        guard case .number(let text, _) = value, let integer = Int32(text) else { return nil }
        return Int(integer)
    }

    /// WireMock's in-band `[ERROR: message]`, unescaped.
    static func error(_ message: String) -> TemplateValue {
        WireMockArrayHelpers.unescapedError(message)
    }
}
