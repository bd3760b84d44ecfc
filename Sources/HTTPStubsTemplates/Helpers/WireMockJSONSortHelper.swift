import HTTPStubs
import HTTPStubsLanguages

/// WireMock's `jsonSort json '$.items[*].field'` (`JsonSortHelper`, added in 4.0.0-beta.21): the JSON
/// with the array before the first `[*]` sorted by the values the whole path reads from its
/// elements, stably; `order='desc'` reverses, `nulls='last'` moves the elements whose value is
/// `null` or missing to the end (`desc` reverses that too, as Java's reversed comparator does).
/// Numbers compare as decimals, strings by UTF-16 code units (as Java's `compareTo`), `false`
/// before `true`; values of other or mixed types are an error.
enum WireMockJSONSortHelper {
    /// The helper.
    static func jsonSort(_ call: TemplateHelperCall) throws(TemplateRenderError) -> TemplateValue {
        typealias Edit = WireMockJSONEditHelpers
        guard let text = Edit.string(call.params.first ?? call.context) else {
            return Edit.error("Input JSON must be a string")
        }
        if text == "null" { return Edit.error("Cannot sort a JSON null value - input must be a JSON array") }
        guard call.params.count == 2 else {
            return Edit.error("A single JSONPath expression parameter must be supplied")
        }
        guard let pathText = Edit.string(call.params[1]) else {
            return Edit.error("JSONPath parameter must be a string")
        }
        var descending = false
        if let order = call.hash["order"], !order.isNull {
            guard let name = Edit.string(order) else { return Edit.error("order parameter must be a string") }
            guard name == "asc" || name == "desc" else { return Edit.error("order parameter must be 'asc' or 'desc'") }
            descending = name == "desc"
        }
        var nullsLast = false
        if let nulls = call.hash["nulls"], !nulls.isNull {
            guard let name = Edit.string(nulls) else { return Edit.error("nulls parameter must be a string") }
            guard name == "first" || name == "last" else {
                return Edit.error("nulls parameter must be 'first' or 'last'")
            }
            nullsLast = name == "last"
        }
        try WireMockHelperSupport.chargeCompiling(pathText, call)
        guard let wildcard = pathText.range(of: "[*]") else {
            return Edit.error(
                "JSONPath must include [*] to specify array location (e.g., '$[*].name' or '$.users[*].name')"
            )
        }
        let arrayPathText = pathText[..<wildcard.lowerBound].isEmpty ? "$" : String(pathText[..<wildcard.lowerBound])
        guard let document = try Edit.jaywayDocument(text, call) else {
            return Edit.error("Input JSON string is not valid JSON ('\(text)')")
        }
        guard let path = try Edit.jaywayPath(pathText, call) else {
            return Edit.error("Invalid JSONPath expression ('\(pathText)')")
        }
        guard let sortValues = Edit.read(path, in: document).value?.arrayValue else {
            return Edit.error("JSONPath expression did not match any values ('\(pathText)')")
        }
        guard let arrayPath = try Edit.jaywayPath(arrayPathText, call) else {
            return Edit.error("Error reading array at path ('\(arrayPathText)')")
        }
        let (arrayValue, arrayLocation) = Edit.read(arrayPath, in: document)
        guard let arrayValue else { return Edit.error("Array not found at path ('\(arrayPathText)')") }
        guard case .array(let array) = arrayValue else {
            return Edit.error("JSONPath does not reference an array ('\(arrayPathText)')")
        }
        guard sortValues.count == array.count else {
            var message = "Number of sort values (\(sortValues.count)) does not match array size (\(array.count))"
            let wildcards = pathText.components(separatedBy: "[*]").count - 1
            if wildcards > 1 {
                message +=
                    ". JSONPath contains \(wildcards) wildcards [*] but only single-level array sorting is supported"
            }
            return Edit.error(message)
        }
        if array.isEmpty { return .safe(try JacksonJSON.write(document, droppingNullMembers: true, charging: call)) }
        guard let kind = commonKind(sortValues) else {
            return Edit.error("All sort field values must be of the same comparable type (Number, String, or Boolean)")
        }
        // A sort compares about n log2 n pairs, each reading two values.
        let comparisons = WireMockHelperSupport.units(array.count, each: Int.bitWidth - array.count.leadingZeroBitCount)
        try call.charge(
            WireMockHelperSupport.units(comparisons, each: WorkBudget.Cost.sortComparison),
            for: "sorting \(array.count) elements"
        )
        let order = array.indices.sorted { left, right in
            var result = compare(sortValues[left], sortValues[right], kind: kind, nullsLast: nullsLast)
            if descending { result = -result }
            return result != 0 ? result < 0 : left < right
        }
        let sorted = JSONValue.array(order.map { array[$0] })
        var edited = sorted
        if arrayPathText != "$" {
            // Jayway's `set` on an indefinite path replaces every value it selects.
            let locations = arrayLocation.map { [$0] } ?? (arrayPath.locate(in: document) ?? []).map(\.location)
            edited = locations.reduce(document) { $0.replacing(at: $1[...], with: sorted) }
        }
        return .safe(try JacksonJSON.write(edited, droppingNullMembers: true, charging: call))
    }

    /// What the sort values are compared as.
    private enum Kind {
        case number, string, bool
    }

    /// The one type of the values that are not `null` (strings when all are), `nil` when they mix
    /// types or one is an array or object.
    private static func commonKind(_ values: [JSONValue]) -> Kind? {
        var kind: Kind?
        for value in values {
            let current: Kind
            switch value {
            case .null: continue
            case .number: current = .number
            case .string: current = .string
            case .bool: current = .bool
            case .array, .object: return nil
            }
            if let kind, kind != current { return nil }
            kind = current
        }
        return kind ?? .string
    }

    /// Java's `Comparator.nullsFirst` (or `nullsLast`) around the comparison of `kind`: negative,
    /// zero or positive.
    private static func compare(_ left: JSONValue, _ right: JSONValue, kind: Kind, nullsLast: Bool) -> Int {
        switch (left, right) {
        case (.null, .null): return 0
        case (.null, _): return nullsLast ? 1 : -1
        case (_, .null): return nullsLast ? -1 : 1
        case (.number(let a), .number(let b)): return decimalOrder(a, b)
        case (.string(let a), .string(let b)):
            return a == b ? 0 : (a.utf16.lexicographicallyPrecedes(b.utf16) ? -1 : 1)
        case (.bool(let a), .bool(let b)): return a == b ? 0 : (a ? 1 : -1)
        default: return 0
        }
    }

    /// The exact order of two numbers, as `BigDecimal.compareTo`.
    private static func decimalOrder(_ a: JSONNumber, _ b: JSONNumber) -> Int {
        let left = CanonicalDecimal(a.text)
        let right = CanonicalDecimal(b.text)
        let leftSign = left.digits.isEmpty ? 0 : (left.isNegative ? -1 : 1)
        let rightSign = right.digits.isEmpty ? 0 : (right.isNegative ? -1 : 1)
        guard leftSign == rightSign, leftSign != 0 else {
            return leftSign < rightSign ? -1 : (leftSign > rightSign ? 1 : 0)
        }
        var magnitude = 0
        if left.exponent != right.exponent {
            magnitude = left.exponent < right.exponent ? -1 : 1
        } else if left.digits != right.digits {
            magnitude = left.digits.lexicographicallyPrecedes(right.digits) ? -1 : 1
        }
        return magnitude * leftSign
    }
}
