import Foundation
import HTTPStubs

/// WireMock's random helpers, drawing from the environment's random source (seedable):
/// `randomValue` (`length=`, `type=` `ALPHANUMERIC` (default), `ALPHABETIC`, `NUMERIC`,
/// `HEXADECIMAL`, `ALPHANUMERIC_AND_SYMBOLS`, `UUID`; `uppercase=true`), `randomInt` (`lower=`
/// inclusive, `upper=` exclusive), `randomDecimal` and `pickRandom` (one of the parameters or of
/// a list).
enum WireMockRandomHelpers {
    /// The helpers by name.
    static let all: [String: TemplateHelper] = [
        "randomValue": TemplateHelper { call throws(TemplateRenderError) in
            let random = { (bound: Int) in WireMockHelperSupport.random(call, bound) }
            let type = WireMockHelperSupport.hashString(call, "type") ?? "ALPHANUMERIC"
            if type == "UUID" {
                var bytes = (0..<16).map { _ in random(256) }
                bytes[6] = bytes[6] & 0x0f | 0x40
                bytes[8] = bytes[8] & 0x3f | 0x80
                let hex = bytes.map { String(format: "%02x", $0) }
                let groups: [ArraySlice<String>] = [hex[0..<4], hex[4..<6], hex[6..<8], hex[8..<10], hex[10..<16]]
                return .string(groups.map { $0.joined() }.joined(separator: "-"))
            }
            // No name is longer than the longest type: a longer one is not hashed to be looked up.
            let alphabet = (type.utf8.count <= 24 ? alphabets[type] : nil) ?? alphabets["ALPHANUMERIC"]!
            let length = WireMockHelperSupport.integer(call.hash["length"]) ?? 36
            guard length >= 0 else {
                throw WireMockHelperSupport.outOfRange(
                    call,
                    "length=\(length)",
                    range: "a length is 0 or more (WireMock refuses a negative one too)",
                    fix: "give the number of characters wanted"
                )
            }
            try call.charge(
                WireMockHelperSupport.units(length, each: WorkBudget.Cost.randomCharacter),
                for: "\(length) random characters, \(WorkBudget.Cost.randomCharacter) units each"
            )
            var text = String((0..<length).map { _ in alphabet[random(alphabet.count)] })
            if WireMockHelperSupport.hashFlag(call, "uppercase") { text = text.uppercased() }
            return .string(text)
        },
        "randomInt": TemplateHelper { call throws(TemplateRenderError) in
            let lower = WireMockHelperSupport.integer(call.hash["lower"]) ?? Int(Int32.min)
            let upper = WireMockHelperSupport.integer(call.hash["upper"]) ?? Int(Int32.max)
            guard upper > lower else { return .integer(lower) }
            let (width, overflow) = upper.subtractingReportingOverflow(lower)
            guard !overflow else {
                throw WireMockHelperSupport.outOfRange(
                    call,
                    "lower=\(lower) upper=\(upper)",
                    range: "the bounds may be at most \(Int.max) apart (WireMock's are 32-bit integers)",
                    fix: "give bounds closer together"
                )
            }
            // Below `upper`, so the sum cannot overflow.
            return .integer(lower + WireMockHelperSupport.random(call, width))
        },
        "randomDecimal": TemplateHelper { call in
            let lower = WireMockHelperSupport.double(call.hash["lower"]) ?? -Double(Int64.max)
            let upper = WireMockHelperSupport.double(call.hash["upper"]) ?? Double(Int64.max)
            let fraction = Double(WireMockHelperSupport.random(call, 1 << 30)) / Double(1 << 30)
            let value = lower + (upper - lower) * fraction
            return .number(text: JavaNumberFormat.double(value), value: value)
        },
        "pickRandom": TemplateHelper { call throws(TemplateRenderError) in
            // The choice is found among the parameters without copying their lists into one.
            let count = call.params.reduce(0) { $0 + (WireMockHelperSupport.items($1)?.count ?? 1) }
            guard count > 0 else {
                throw WireMockHelperSupport.failure(call, "pickRandom needs at least one value to pick from")
            }
            var index = WireMockHelperSupport.random(call, count)
            for value in call.params {
                let items = WireMockHelperSupport.items(value) ?? [value]
                if index < items.count { return items[index] }
                index -= items.count
            }
            return .null
        },
    ]

    /// The characters of each `type=` of `randomValue` but `UUID`, made once.
    private static let alphabets: [String: [Character]] = [
        "ALPHANUMERIC": Array("abcdefghijklmnopqrstuvwxyz0123456789"),
        "ALPHABETIC": Array("abcdefghijklmnopqrstuvwxyz"),
        "NUMERIC": Array("0123456789"),
        "HEXADECIMAL": Array("0123456789abcdef"),
        "ALPHANUMERIC_AND_SYMBOLS": (33...126).map { Character(UnicodeScalar(UInt8($0))) },
    ]
}
