import HTTPStubs

/// Numbers printed as Java prints them, for number literals in templates (`{{helper 1.50}}`
/// passes `1.5`): handlebars.java reads a literal with `Integer.parseInt`, else
/// `Double.parseDouble`, and prints it with `toString()`.
enum JavaNumberFormat {
    /// The value of the number literal `text` (`-?[0-9]*\.?[0-9]+`): an `Integer` when it is an
    /// integer in 32 bits, else a `Double`.
    static func literal(_ text: String) -> TemplateValue {
        if let integer = Int32(text) { return .integer(Int(integer)) }
        let value = Double(text) ?? 0
        return .number(text: double(value), value: value)
    }

    /// `Double.toString`: the shortest digits that read back as `value`, as `1.0`, `0.5` or
    /// `123.45` between 10⁻³ and 10⁷, else as `1.0E10` or `1.5E-5`.
    static func double(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value < 0 ? "-Infinity" : "Infinity" }
        if value == 0 { return value.sign == .minus ? "-0.0" : "0.0" }
        let magnitude = abs(value)
        let sign = value < 0 ? "-" : ""
        // Swift's description gives the shortest round-trip digits; re-place the decimal point.
        var description = magnitude.description
        var exponent = 0
        if let e = description.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            exponent = Int(description[description.index(after: e)...]) ?? 0
            description = String(description[..<e])
        }
        let parts = description.split(separator: ".", omittingEmptySubsequences: false)
        let integerPart = String(parts[0])
        let fractionPart = parts.count > 1 ? String(parts[1]) : ""
        var digits = integerPart + fractionPart
        var pointPosition = integerPart.count + exponent
        while digits.hasPrefix("0") && digits.count > 1 {
            digits.removeFirst()
            pointPosition -= 1
        }
        while digits.hasSuffix("0") && digits.count > 1 { digits.removeLast() }
        if magnitude >= 1e-3 && magnitude < 1e7 {
            if pointPosition <= 0 {
                return sign + "0." + String(repeating: "0", count: -pointPosition) + digits
            }
            if pointPosition >= digits.count {
                return sign + digits + String(repeating: "0", count: pointPosition - digits.count) + ".0"
            }
            let split = digits.index(digits.startIndex, offsetBy: pointPosition)
            return sign + digits[..<split] + "." + digits[split...]
        }
        let first = digits.prefix(1)
        let rest = digits.dropFirst()
        return sign + first + "." + (rest.isEmpty ? "0" : rest) + "E" + String(pointPosition - 1)
    }
}
