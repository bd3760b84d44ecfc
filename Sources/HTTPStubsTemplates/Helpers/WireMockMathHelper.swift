import Foundation
import HTTPStubs

/// WireMock's `math` helper (`MathsHelper`): `{{math a op b}}` with `+ - * x / %`, on
/// `BigDecimal`s. Integers stay integers (`10 '/' 3` is `3`), and a decimal result keeps the
/// left operand's scale for division (`1 '/' 3.0` is `0`, `10.0 '/' 4` is `2.5`); a text that is
/// not a number counts as 0; a missing operand fails, a bad operator is `[ERROR: …]`, and dividing
/// by zero fails.
enum WireMockMathHelper {
    /// The helper.
    static let helper = TemplateHelper(math)

    /// A number read as WireMock reads an operand: its digits and whether it had a fraction.
    private struct Operand {
        let value: Decimal
        let scale: Int
    }

    private static func operand(
        _ value: TemplateValue,
        _ call: TemplateHelperCall
    ) throws(TemplateRenderError) -> Operand {
        if value.isNull {
            throw WireMockHelperSupport.failure(call, "java.lang.NullPointerException: a missing operand")
        }
        let printed = value.printed
        try WireMockStringHelpers.read(printed, call)
        let text = printed.trimmingCharacters(in: .whitespaces)
        guard let decimal = Decimal(string: text, locale: Locale(identifier: "en_US")),
            text.allSatisfy({ "0123456789.-+eE".contains($0) })
        else { return Operand(value: 0, scale: 0) }
        // BigDecimal's scale: the digits after the point less the exponent (never below 0 here).
        // `Decimal` reads exponents of at most a few hundred; clamping keeps the subtraction exact
        // for those and the scales small enough to add for any text.
        let mantissa = text.split(whereSeparator: { $0 == "e" || $0 == "E" }).first.map(String.init) ?? text
        let exponent = text.split(whereSeparator: { $0 == "e" || $0 == "E" }).dropFirst().first.flatMap { Int($0) } ?? 0
        let fraction = mantissa.firstIndex(of: ".").map { mantissa.distance(from: $0, to: mantissa.endIndex) - 1 } ?? 0
        let scale = max(0, fraction - min(max(exponent, -100_000), 100_000))
        return Operand(value: decimal, scale: scale)
    }

    static func math(_ call: TemplateHelperCall) throws(TemplateRenderError) -> TemplateValue {
        guard call.params.count >= 3 else {
            return WireMockHelperSupport.inBandError(
                "All maths functions require two operands and an operator as parameters e.g. 3 '+' 2"
            )
        }
        let left = try operand(call.params[0], call)
        let operation = call.params[1].printed
        let right = try operand(call.params[2], call)
        var result: Decimal
        var scale = max(left.scale, right.scale)
        switch operation {
        case "+": result = left.value + right.value
        case "-": result = left.value - right.value
        case "*", "x":
            result = left.value * right.value
            scale = left.scale + right.scale
        case "/", "%":
            guard right.value != 0 else {
                throw WireMockHelperSupport.failure(call, "java.lang.ArithmeticException: Division by zero")
            }
            if operation == "%" {
                var quotient = left.value / right.value
                var truncated = Decimal()
                NSDecimalRound(&truncated, &quotient, 0, .down)
                result = left.value - truncated * right.value
            } else {
                var exact = left.value / right.value
                var rounded = Decimal()
                NSDecimalRound(&rounded, &exact, left.scale, .plain)
                result = rounded
                scale = left.scale
            }
        default:
            return WireMockHelperSupport.inBandError("\(operation) is not a valid mathematical operator")
        }
        if scale == 0 {
            let text = NSDecimalNumber(decimal: result).stringValue
            return .number(text: text, value: NSDecimalNumber(decimal: result).doubleValue)
        }
        let double = NSDecimalNumber(decimal: result).doubleValue
        return .number(text: JavaNumberFormat.double(double), value: double)
    }
}
