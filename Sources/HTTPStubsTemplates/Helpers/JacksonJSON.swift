import HTTPStubs

/// JSON as WireMock 3's JSON-editing helpers read and write it, with Jackson and WireMock's object
/// mapper (`Json.getObjectMapper()`: `USE_BIG_DECIMAL_FOR_FLOATS`, `WRITE_BIGDECIMAL_AS_PLAIN`,
/// `NON_NULL`).
///
/// Reading is lenient as Jackson's there (comments, single quotes, anything after the value ignored),
/// and an object keeps each name once, at its first place with its last value, as a Java map does.
/// Writing is compact: `{"a":1,"b":[true,null]}`; a decimal prints as `BigDecimal.toPlainString()`
/// (`1e3` → `1000`, `1.10` → `1.10`, `1E-2` → `0.01`), an integer as Java's `long` (`-0` → `0`); only
/// `"`, `\` and control characters are escaped (`\n`, `\u001F`). Jayway JsonPath's documents
/// (`jsonRemove`, `jsonArrayAdd`, `jsonSort`) are Java maps, whose `null` members `NON_NULL` drops
/// when they are written; `jsonMerge`'s Jackson tree keeps them.
enum JacksonJSON {
    /// `text` read as WireMock's object mapper reads it, `nil` when it is not JSON (empty text included).
    static func read(_ text: String) -> JSONValue? {
        JSONValue.jacksonValue(text).map(uniqueMembers)
    }

    /// `json` with every object keeping each name once, as a Java map holds it.
    private static func uniqueMembers(_ json: JSONValue) -> JSONValue {
        switch json {
        case .object(let object):
            .object(
                JSONObject(
                    members: object.uniqueMembers.map { JSONMember(key: $0.key, value: uniqueMembers($0.value)) }
                )
            )
        case .array(let items): .array(items.map(uniqueMembers))
        default: json
        }
    }

    /// `json` as compact JSON text; `droppingNullMembers` leaves out the members whose value is
    /// `null`, as Jackson writes Jayway JsonPath's maps. The zeros a number written in full adds
    /// (`1e5000` is 5,001 digits) are charged to `call`'s work budget before they are made.
    static func write(
        _ json: JSONValue,
        droppingNullMembers: Bool,
        charging call: TemplateHelperCall
    ) throws(TemplateRenderError) -> String {
        var text = ""
        try write(json, droppingNullMembers: droppingNullMembers, into: &text, call)
        return text
    }

    private static func write(
        _ json: JSONValue,
        droppingNullMembers: Bool,
        into text: inout String,
        _ call: TemplateHelperCall
    ) throws(TemplateRenderError) {
        switch json {
        case .null: text += "null"
        case .bool(let flag): text += flag ? "true" : "false"
        case .number(let number): text += try plain(number.text, charging: call)
        case .string(let string): text += TemplateJSONPrinting.quote(string, slash: false)
        case .array(let items):
            text += "["
            for (index, item) in items.enumerated() {
                if index > 0 { text += "," }
                try write(item, droppingNullMembers: droppingNullMembers, into: &text, call)
            }
            text += "]"
        case .object(let object):
            text += "{"
            var first = true
            for member in object.members where !(droppingNullMembers && member.value == .null) {
                if !first { text += "," }
                first = false
                text += TemplateJSONPrinting.quote(member.key, slash: false)
                text += ":"
                try write(member.value, droppingNullMembers: droppingNullMembers, into: &text, call)
            }
            text += "}"
        }
    }

    /// A JSON number literal as Jackson writes what it read: an integer as its value, a number with
    /// a fraction or an exponent as `BigDecimal.toPlainString()` (the digits as written, no exponent),
    /// the zeros that adds charged to `call`'s work budget.
    static func plain(_ literal: String, charging call: TemplateHelperCall) throws(TemplateRenderError) -> String {
        var negative = false
        var digits = ""
        var fractionDigits = 0
        var exponent = 0
        var part = 0  // 0: integer part, 1: fraction, 2: exponent
        var exponentSign = 1
        for character in literal {
            switch character {
            case "-" where part == 0: negative = true
            case "-": exponentSign = -1
            case ".": part = 1
            case "e", "E": part = 2
            case "0"..."9":
                if part == 2 {
                    exponent = min(exponent * 10 + Int(character.asciiValue! - 48), 100_000)
                } else {
                    digits.append(character)
                    if part == 1 { fractionDigits += 1 }
                }
            default: break
            }
        }
        let significant = String(digits.drop { $0 == "0" })
        let isZero = significant.isEmpty
        let sign = negative && !isZero ? "-" : ""
        let isInteger = !literal.contains { $0 == "." || $0 == "e" || $0 == "E" }
        if isInteger { return sign + (isZero ? "0" : significant) }
        let scale = fractionDigits - exponentSign * exponent
        let unscaled = isZero ? "0" : significant
        try call.charge(abs(scale), for: "writing \(literal) in full")
        if scale <= 0 {
            return isZero ? "0" : sign + unscaled + String(repeating: "0", count: -scale)
        }
        let padded = String(repeating: "0", count: max(0, scale + 1 - unscaled.count)) + unscaled
        let point = padded.index(padded.endIndex, offsetBy: -scale)
        return sign + padded[..<point] + "." + padded[point...]
    }
}
