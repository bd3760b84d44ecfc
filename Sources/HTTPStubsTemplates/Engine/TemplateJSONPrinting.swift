import Foundation
import HTTPStubs

/// How WireMock prints JSON values: objects as Jackson's default pretty printer writes them
/// (`{\n  "a" : 1,\n  "b" : [ 1, 2 ]\n}`, `{ }`, null members dropped, as `JsonData` does) and lists
/// as json-smart's compact form (`[1,"two",3.0,null,true]`, `/` escaped as `\/`); and the JSON
/// text of any template value, for helpers that read JSON back (`jsonPath` on a `jsonPath`
/// result, `toJson`).
enum TemplateJSONPrinting {
    /// A JSON value as a template value that prints as WireMock prints a `jsonPath` result:
    /// scalars as Jackson reads them, objects and lists as ``TemplateJavaObject``s that keep
    /// their members readable by paths and `#each`.
    ///
    /// Each object and list holds its printed text, so a value nested `n` deep is printed `n`
    /// times: every text is charged to `call`'s work budget as it is made.
    static func value(_ json: JSONValue, charging call: TemplateHelperCall) throws(TemplateRenderError) -> TemplateValue
    {
        switch json {
        case .object(let object):
            let printed = pretty(json, level: 0)
            try charge(printed, object.members.count, call)
            var properties: [(key: String, value: TemplateValue)] = []
            properties.reserveCapacity(object.members.count)
            for member in object.members { properties.append((member.key, try value(member.value, charging: call))) }
            return .javaObject(TemplateJavaObject(printed: printed, properties: TemplateObject(properties)))
        case .array(let items):
            let printed = compact(json, smart: true)
            try charge(printed, items.count, call)
            var values: [TemplateValue] = []
            values.reserveCapacity(items.count)
            for item in items { values.append(try value(item, charging: call)) }
            return .javaObject(TemplateJavaObject(printed: printed, items: values))
        case .number(let number) where number.text.count > 18 && number.text.contains("."):
            // json-smart reads a long decimal as a BigDecimal, which prints as written.
            return .number(text: number.text, value: number.doubleValue)
        default:
            return TemplateValue(json: json)
        }
    }

    /// Charges `call`'s work budget for a printed object or list of `count` members or elements.
    private static func charge(_ printed: String, _ count: Int, _ call: TemplateHelperCall) throws(TemplateRenderError)
    {
        try call.charge(
            WireMockHelperSupport.units(
                adding: WireMockHelperSupport.units(printed.utf8.count, each: WorkBudget.Cost.parsedByte),
                WireMockHelperSupport.units(count, each: WorkBudget.Cost.listElement)
            ),
            for: "printing a JSON value of \(printed.utf8.count) bytes"
        )
    }

    /// Jackson's pretty printing at object nesting `level`, dropping `null` members.
    static func pretty(_ json: JSONValue, level: Int) -> String {
        switch json {
        case .object(let object):
            let members = object.members.filter { $0.value != .null }
            if members.isEmpty { return "{ }" }
            let indent = String(repeating: "  ", count: level + 1)
            let body = members.map { indent + quote($0.key, slash: false) + " : " + pretty($0.value, level: level + 1) }
            return "{\n" + body.joined(separator: ",\n") + "\n" + String(repeating: "  ", count: level) + "}"
        case .array(let items):
            if items.isEmpty { return "[ ]" }
            return "[ " + items.map { pretty($0, level: level) }.joined(separator: ", ") + " ]"
        default:
            return compact(json, smart: false)
        }
    }

    /// Compact JSON; `smart` escapes `/` as json-smart does.
    static func compact(_ json: JSONValue, smart: Bool) -> String {
        switch json {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .number: return TemplateValue(json: json).printed
        case .string(let text): return quote(text, slash: smart)
        case .array(let items): return "[" + items.map { compact($0, smart: smart) }.joined(separator: ",") + "]"
        case .object(let object):
            return "{"
                + object.members.map { quote($0.key, slash: smart) + ":" + compact($0.value, smart: smart) }
                .joined(separator: ",") + "}"
        }
    }

    /// A JSON string literal.
    ///
    /// Jackson and json-smart alike escape `"`, `\` and control characters, the latter with
    /// upper-case hex digits (`\u001F`); `slash` also escapes `/` as json-smart does.
    static func quote(_ text: String, slash: Bool) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "/" where slash: result += "\\/"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\u{08}": result += "\\b"
            case "\u{0C}": result += "\\f"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }

    /// The JSON text of a template value (compact), for helpers that read values as JSON.
    static func jsonText(_ value: TemplateValue) -> String {
        switch value {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .number(let text, let number):
            return number.isFinite
                ? (text.contains("E") ? JavaNumberFormat.double(number).replacingOccurrences(of: "E", with: "e") : text)
                : "null"
        case .string(let text), .safe(let text): return quote(text, slash: false)
        case .list(let items): return "[" + items.map(jsonText).joined(separator: ",") + "]"
        case .object(let object):
            return "{"
                + object.entries.map { quote($0.key, slash: false) + ":" + jsonText($0.value) }.joined(separator: ",")
                + "}"
        case .javaObject(let object):
            if let items = object.items { return "[" + items.map(jsonText).joined(separator: ",") + "]" }
            if object.properties.count > 0 || object.printed.hasPrefix("{") {
                return "{"
                    + object.properties.entries.map { quote($0.key, slash: false) + ":" + jsonText($0.value) }
                    .joined(separator: ",") + "}"
            }
            return quote(object.printed, slash: false)
        }
    }
}
