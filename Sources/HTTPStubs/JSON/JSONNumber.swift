/// A JSON number that keeps its literal text, so huge integers and precise
/// decimals survive a round trip.
///
/// Two numbers are equal when they denote the same decimal value: `1`, `1.0`
/// and `1e0` are equal. The comparison is exact for any number of digits.
public struct JSONNumber: Sendable, Hashable, CustomStringConvertible {
    /// The number exactly as written, for example `"1.50"` or `"-2e10"`.
    public let text: String

    /// Creates a number from text that is already known to follow the JSON grammar.
    init(uncheckedText text: String) {
        self.text = text
    }

    /// Creates a number from an integer.
    public init(_ value: Int) {
        self.text = String(value)
    }

    /// Creates a number from a finite double; returns `nil` for NaN and infinities,
    /// which JSON cannot represent.
    public init?(_ value: Double) {
        guard value.isFinite else { return nil }
        self.text = value.description
    }

    /// Creates a number from its literal text; returns `nil` unless `text` is a
    /// valid JSON number such as `-12.5e3` (surrounding whitespace is ignored).
    public init?(text: String) {
        guard case .number(let number)? = try? JSONValue(parsing: text) else { return nil }
        self = number
    }

    /// The nearest double; infinite when the magnitude is too large for `Double`.
    public var doubleValue: Double {
        Double(text) ?? .nan
    }

    /// The value as an `Int64` when it is integral and fits, for example for `42`, `4.2e1` or `42.0`.
    public var int64Value: Int64? {
        let decimal = CanonicalDecimal(text)
        guard !decimal.digits.isEmpty else { return 0 }
        guard decimal.exponent >= decimal.digits.count, decimal.exponent <= 19 else { return nil }
        var magnitude: UInt64 = 0
        for position in 0..<decimal.exponent {
            let digit = position < decimal.digits.count ? UInt64(decimal.digits[position] - UInt8(ascii: "0")) : 0
            let (shifted, shiftOverflow) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, sumOverflow) = shifted.addingReportingOverflow(digit)
            guard !shiftOverflow, !sumOverflow else { return nil }
            magnitude = sum
        }
        if decimal.isNegative {
            return magnitude == UInt64(Int64.max) + 1 ? Int64.min : Int64(exactly: magnitude).map { -$0 }
        }
        return Int64(exactly: magnitude)
    }

    /// The literal text.
    public var description: String {
        text
    }

    /// Whether both numbers denote the same decimal value.
    public static func == (lhs: JSONNumber, rhs: JSONNumber) -> Bool {
        lhs.text == rhs.text || CanonicalDecimal(lhs.text) == CanonicalDecimal(rhs.text)
    }

    /// Hashes the decimal value, consistently with `==`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(CanonicalDecimal(text))
    }
}

/// The value of a JSON number literal in a unique form: `0.digits × 10^exponent`,
/// with no leading or trailing zeros in `digits` (zero has no digits).
package struct CanonicalDecimal: Hashable {
    /// Whether the value is below zero (zero is never negative).
    package let isNegative: Bool
    /// The significant ASCII digits.
    package let digits: [UInt8]
    /// The power of ten; saturates for absurd exponents beyond ±2^40.
    package let exponent: Int

    /// Reads `text`, which must follow the JSON number grammar.
    package init(_ text: String) {
        var isNegative = false
        var digits: [UInt8] = []
        var pointPosition = 0
        var exponent = 0
        var exponentIsNegative = false
        var part = 0  // 0: integer part, 1: fraction, 2: exponent
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "-") where part == 0:
                isNegative = true
            case UInt8(ascii: "-"):
                exponentIsNegative = true
            case UInt8(ascii: "."):
                part = 1
            case UInt8(ascii: "e"), UInt8(ascii: "E"):
                part = 2
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                if part == 2 {
                    if exponent < 1 << 40 { exponent = exponent * 10 + Int(byte - UInt8(ascii: "0")) }
                } else if digits.isEmpty && byte == UInt8(ascii: "0") {
                    if part == 1 { pointPosition -= 1 }
                } else {
                    digits.append(byte)
                    if part == 0 { pointPosition += 1 }
                }
            default:
                break
            }
        }
        while digits.last == UInt8(ascii: "0") { digits.removeLast() }
        self.isNegative = isNegative && !digits.isEmpty
        self.digits = digits
        self.exponent = digits.isEmpty ? 0 : pointPosition + (exponentIsNegative ? -exponent : exponent)
    }
}
