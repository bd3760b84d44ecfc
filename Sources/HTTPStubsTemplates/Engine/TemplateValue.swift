import HTTPStubs

/// A value a template reads or a helper returns: the data model of the template engine.
///
/// It mirrors what handlebars.java (the engine behind WireMock) sees in its Java objects, so that
/// truthiness and printing give the same bytes: see ``isFalsy`` and ``printed``.
package enum TemplateValue: Sendable, Hashable {
    /// A string, printed as is (then HTML-escaped by `{{ }}`).
    case string(String)
    /// A number. `text` is how Java prints it (`1`, `2.5`, `1.0E10`): whoever builds the value
    /// decides, because a JSON `1.0` read by Jackson prints `1.0` while the integer literal `1` in a
    /// template prints `1`. `value` is used for truthiness (zero is falsy) and by helpers.
    case number(text: String, value: Double)
    /// `true` or `false`.
    case bool(Bool)
    /// Java's `null`: prints nothing at the top of a tag, `null` inside a list or map.
    case null
    /// A list: `{{#each}}` iterates it, `a.[0]` and `a.0` index it, it prints as `[a, b]`.
    case list([TemplateValue])
    /// A map in insertion order: paths read its keys, `{{#each}}` iterates its entries, it prints
    /// as `{k=v, k2=v2}`.
    case object(TemplateObject)
    /// Text already rendered (handlebars.java's `SafeString`): printed as is, never escaped.
    case safe(String)
    /// A Java object of the request model with its own printing, elements and properties
    /// (``TemplateJavaObject``): falsy only when it is an empty list. Indirect, so that the enum stays
    /// as small as before (deep renders recurse with values in their frames).
    indirect case javaObject(TemplateJavaObject)

    /// A number from an integer, printed as Java prints an `int` or `long`.
    static func integer(_ value: Int) -> TemplateValue {
        .number(text: String(value), value: Double(value))
    }

    /// Handlebars' falsiness (`Handlebars.Utils.isEmpty`): `null`, `false`, the empty string, an
    /// empty list and any number equal to zero (`0`, `0.0`, `-0.0`). A map, even empty, is truthy,
    /// because a Java `Map` is not a `Collection`.
    var isFalsy: Bool {
        switch self {
        case .null: true
        case .bool(let value): !value
        case .string(let text), .safe(let text): text.isEmpty
        case .number(_, let value): value == 0
        case .list(let items): items.isEmpty
        case .object: false
        case .javaObject(let object): object.items?.isEmpty ?? false
        }
    }

    /// The value as Java's `toString()` prints it, which is what a tag writes before escaping:
    /// strings as is, numbers as their `text`, `true`/`false`, lists as `[a, b]` and maps as
    /// `{k=v}` (nested values the same way, `null` as `null`).
    ///
    /// Printing a list or map makes its text anew each time, which is charged to the
    /// ``WorkBudget/current`` budget, a unit per byte: a helper that prints a large list over and
    /// over (a map read with `parseJson`, in a loop) spends the budget, and the render fails when the
    /// helper returns.
    var printed: String {
        switch self {
        case .string(let text), .safe(let text): return text
        case .number(let text, _): return text
        case .bool(let value): return value ? "true" : "false"
        case .null: return "null"
        case .list(let items):
            return Self.charged("[" + items.map(\.printed).joined(separator: ", ") + "]", "a list")
        case .object(let object):
            let entries = object.entries.map { "\($0.key)=\($0.value.printed)" }
            return Self.charged("{" + entries.joined(separator: ", ") + "}", "a map")
        case .javaObject(let object): return object.printed
        }
    }

    /// `text`, once the current work budget is charged for printing it.
    private static func charged(_ text: String, _ what: String) -> String {
        _ = WorkBudget.current?.spend(text.utf8.count, on: "printing \(what) of \(text.utf8.count) bytes")
        return text
    }

    /// Whether this is `null`.
    var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// What making this value costs a response's ``WorkBudget``: a unit per byte of its text, and
    /// ``WorkBudget/Cost/listElement`` per element of a list or entry of a map, counted one level
    /// deep (what a helper returning it made at least). Found without reading the text.
    var workUnits: Int {
        switch self {
        case .string(let text), .safe(let text), .number(let text, _): text.utf8.count
        case .bool, .null: 0
        case .list(let items): items.count * WorkBudget.Cost.listElement
        case .object(let object): object.count * WorkBudget.Cost.listElement
        case .javaObject(let object):
            object.printed.utf8.count + ((object.items?.count ?? 0) + object.properties.count)
                * WorkBudget.Cost.listElement
        }
    }
}
