import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A HAR `startedDateTime`: ISO 8601 date and time, which HAR requires to carry a time zone
/// (`2023-03-29T17:37:42.482-07:00`, `2023-03-30T00:00:54.250Z`).
package enum HARTimestamp: Equatable {
    /// A valid timestamp, in nanoseconds since 1970-01-01T00:00:00Z.
    case instant(Int64)
    /// A date and time without a time zone, which HAR does not allow.
    case missingTimeZone
    /// Not an ISO 8601 date and time.
    case invalid

    /// Reads `YYYY-MM-DDThh:mm[:ss[.fraction]]` followed by `Z` or `±hh[:mm]`.
    package init(_ text: String) {
        var scanner = DigitScanner(bytes: Array(text.utf8))
        guard let year = scanner.number(digits: 4), scanner.skip("-"),
            let month = scanner.number(digits: 2), (1...12).contains(month), scanner.skip("-"),
            let day = scanner.number(digits: 2), (1...31).contains(day),
            scanner.skip("T") || scanner.skip("t") || scanner.skip(" "),
            let hour = scanner.number(digits: 2), hour <= 24, scanner.skip(":"),
            let minute = scanner.number(digits: 2), minute <= 59
        else {
            self = .invalid
            return
        }
        var second = 0
        var nanoseconds = 0
        if scanner.skip(":") {
            guard let value = scanner.number(digits: 2), value <= 60 else {
                self = .invalid
                return
            }
            second = value
            if scanner.skip(".") || scanner.skip(",") {
                var digits = 0
                while let digit = scanner.number(digits: 1) {
                    if digits < 9 { nanoseconds = nanoseconds * 10 + digit }
                    digits += 1
                }
                guard digits > 0 else {
                    self = .invalid
                    return
                }
                if digits < 9 {
                    for _ in digits..<9 { nanoseconds *= 10 }
                }
            }
        }
        var offset = 0
        if scanner.isAtEnd {
            self = .missingTimeZone
            return
        } else if scanner.skip("Z") || scanner.skip("z") {
            offset = 0
        } else if let sign = scanner.skip("+") ? 1 : (scanner.skip("-") ? -1 : nil),
            let hours = scanner.number(digits: 2), hours <= 23
        {
            _ = scanner.skip(":")
            let minutes = scanner.isAtEnd ? 0 : scanner.number(digits: 2) ?? 60
            guard minutes <= 59 else {
                self = .invalid
                return
            }
            offset = sign * (hours * 3_600 + minutes * 60)
        } else {
            self = .invalid
            return
        }
        guard scanner.isAtEnd else {
            self = .invalid
            return
        }
        let seconds =
            Self.daysSinceEpoch(year: year, month: month, day: day) * 86_400
            + hour * 3_600 + minute * 60 + second - offset
        self = .instant(Int64(seconds) * 1_000_000_000 + Int64(nanoseconds))
    }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (Howard Hinnant's algorithm).
    private static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * ((month + 9) % 12) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// Reads fixed-width numbers and single characters from ASCII bytes.
    private struct DigitScanner {
        /// The text.
        let bytes: [UInt8]
        /// The next byte to read.
        var index = 0

        /// Whether every byte was read.
        var isAtEnd: Bool { index == bytes.count }

        /// Reads exactly `digits` decimal digits; `nil` (reading nothing) otherwise.
        mutating func number(digits: Int) -> Int? {
            guard index + digits <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[index..<index + digits] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            index += digits
            return value
        }

        /// Reads `character` if it comes next.
        mutating func skip(_ character: Unicode.Scalar) -> Bool {
            guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
            index += 1
            return true
        }
    }
}
