import HTTPStubs

extension TemplateValue {
    /// `json` as WireMock's Jackson reads it into Java objects (`Map`, `List`, `Integer`, `Long`,
    /// `BigInteger`, `Double`, `String`, `Boolean`, `null`), so it prints the same: an integer
    /// keeps its digits (`-0` prints `0`), any number with a fraction or exponent becomes a
    /// `Double` (`1.50` prints `1.5`, `1e2` prints `100.0`). A repeated key keeps its last value.
    package init(json: JSONValue) {
        switch json {
        case .null:
            self = .null
        case .bool(let value):
            self = .bool(value)
        case .string(let text):
            self = .string(text)
        case .number(let number):
            let text = number.text
            if !text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) {
                var digits = Substring(text)
                let negative = digits.first == "-"
                if negative { digits = digits.dropFirst() }
                while digits.count > 1 && digits.first == "0" { digits = digits.dropFirst() }
                let printed = (negative && digits != "0" ? "-" : "") + digits
                self = .number(text: printed, value: number.doubleValue)
            } else {
                self = .number(text: JavaNumberFormat.double(number.doubleValue), value: number.doubleValue)
            }
        case .array(let items):
            self = .list(items.map(TemplateValue.init(json:)))
        case .object(let object):
            self = .object(TemplateObject(object.members.map { ($0.key, TemplateValue(json: $0.value)) }))
        }
    }
}
