import Foundation
import HTTPStubs

/// A calendar date and wall-clock time with no time zone, in the proleptic Gregorian calendar:
/// Java's `LocalDateTime`, which WireMock's date-time operators compare when a value has no offset.
///
/// The arithmetic is done here, on fields, rather than with Foundation's `Calendar`, so that
/// adding months and truncating to a month's last day give Java's answers on every platform.
///
/// Its years are Java's (``javaYears``), and the offsets added to them 32-bit amounts: within
/// those, no intermediate value comes near the limits of `Int` (a day count is at most about
/// 10¹², a second count 10¹⁷). Text read as a date keeps to Java's years (``DateTimeFormat``).
package struct CivilDateTime: Comparable, Sendable, CustomStringConvertible {
    /// The years Java's `java.time` holds (`Year.MIN_VALUE`, `Year.MAX_VALUE`).
    static let javaYears = -999_999_999...999_999_999

    package var year: Int
    package var month: Int
    package var day: Int
    package var hour = 0
    package var minute = 0
    package var second = 0
    var nanosecond = 0

    /// Days since 1970-01-01 (negative before it).
    var epochDay: Int {
        // Howard Hinnant's days_from_civil.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date `days` after 1970-01-01, at midnight.
    init(epochDay days: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * mp + 2) / 5 + 1
        month = mp < 10 ? mp + 3 : mp - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    }

    package init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0, nanosecond: Int = 0)
    {
        (self.year, self.month, self.day) = (year, month, day)
        (self.hour, self.minute, self.second, self.nanosecond) = (hour, minute, second, nanosecond)
    }

    /// The wall-clock time `seconds` (plus `nanoseconds`) after 1970-01-01T00:00.
    package init(epochSecond seconds: Int, nanoseconds: Int = 0) {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        self.init(epochDay: days)
        hour = secondOfDay / 3600
        minute = secondOfDay / 60 % 60
        second = secondOfDay % 60
        nanosecond = nanoseconds
    }

    /// Seconds since 1970-01-01T00:00, reading this wall-clock time as UTC.
    package var epochSecond: Int { epochDay * 86_400 + hour * 3600 + minute * 60 + second }

    /// Whether `year` has a 29th of February.
    static func isLeap(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    /// The number of days in a month of a year.
    static func length(ofMonth month: Int, in year: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Monday 1 … Sunday 7, as Java numbers days of the week.
    var dayOfWeek: Int {
        let days = epochDay
        return ((days + 3) % 7 + 7) % 7 + 1  // 1970-01-01 was a Thursday.
    }

    /// This date-time `count` months later (earlier when negative), the day clamped to the end of
    /// a shorter month, as Java's `plusMonths`.
    func addingMonths(_ count: Int) -> CivilDateTime {
        var result = self
        let total = year * 12 + (month - 1) + count
        result.year = total >= 0 ? total / 12 : (total - 11) / 12
        result.month = total - result.year * 12 + 1
        result.day = min(day, Self.length(ofMonth: result.month, in: result.year))
        return result
    }

    /// This date-time `count` days later, at the same wall-clock time.
    func addingDays(_ count: Int) -> CivilDateTime {
        var result = CivilDateTime(epochDay: epochDay + count)
        (result.hour, result.minute, result.second, result.nanosecond) = (hour, minute, second, nanosecond)
        return result
    }

    /// This date-time `seconds` later on the wall clock.
    func addingSeconds(_ seconds: Int) -> CivilDateTime {
        CivilDateTime(epochSecond: epochSecond + seconds, nanoseconds: nanosecond)
    }

    /// The start of this date-time's day.
    var startOfDay: CivilDateTime { CivilDateTime(year: year, month: month, day: day) }

    /// Seconds (with the fraction) from `other` to this date-time, both read on the same clock.
    func seconds(since other: CivilDateTime) -> Double {
        Double(epochSecond - other.epochSecond) + Double(nanosecond - other.nanosecond) / 1e9
    }

    package static func < (lhs: CivilDateTime, rhs: CivilDateTime) -> Bool {
        (lhs.epochSecond, lhs.nanosecond) < (rhs.epochSecond, rhs.nanosecond)
    }

    /// ISO 8601, as Java prints a `LocalDateTime`: `2021-06-14T15:15:15`, seconds and fraction
    /// only when not zero.
    package var description: String {
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let digits = String(year)
        let yearText =
            (0...9999).contains(year)
            ? String(repeating: "0", count: 4 - digits.count) + digits : (year > 9999 ? "+" + digits : digits)
        var text = "\(yearText)-\(two(month))-\(two(day))T\(two(hour)):\(two(minute))"
        if second != 0 || nanosecond != 0 { text += ":\(two(second))" }
        if nanosecond != 0 {
            var fraction = String(nanosecond)
            fraction = String(repeating: "0", count: 9 - fraction.count) + fraction
            while fraction.hasSuffix("000") { fraction.removeLast(3) }
            text += ".\(fraction)"
        }
        return text
    }
}

/// A date-time at a known offset from UTC, and the region whose rules gave it (when named):
/// Java's `ZonedDateTime`, which WireMock compares as an instant.
package struct ZonedCivilDateTime: Sendable, CustomStringConvertible {
    /// The wall-clock date-time.
    var local: CivilDateTime
    /// Seconds east of UTC.
    var offset: Int
    /// The named region (`Europe/London`), whose rules re-resolve the offset after arithmetic;
    /// `nil` for a fixed offset.
    var region: TimeZone?

    /// Seconds since the epoch of the instant this stands for.
    var epochSecond: Int { local.epochSecond - offset }

    /// The instant as UTC wall-clock time.
    var utc: CivilDateTime { CivilDateTime(epochSecond: epochSecond, nanoseconds: local.nanosecond) }

    /// The instant `date` (a clock's), as UTC wall-clock time; a date beyond Java's years (which
    /// no clock reads) is taken at their end, so that no conversion overflows.
    init(_ date: Date) {
        let limit = 31_556_889_864_403_199.0
        let seconds = date.timeIntervalSince1970.isFinite ? min(max(date.timeIntervalSince1970, -limit), limit) : 0
        let whole = Int(seconds.rounded(.down))
        let nanos = Int(((seconds - Double(whole)) * 1e9).rounded(.down))
        self.init(local: CivilDateTime(epochSecond: whole, nanoseconds: min(max(nanos, 0), 999_999_999)), offset: 0)
    }

    init(local: CivilDateTime, offset: Int, region: TimeZone? = nil) {
        self.local = local
        self.offset = offset
        self.region = region
    }

    /// The same instant rules on a new wall-clock time: a region's offset is looked up again (as
    /// Java's `ZonedDateTime` does after `plusDays` or a truncation); a fixed offset stays.
    func with(local newLocal: CivilDateTime) -> ZonedCivilDateTime {
        guard let region else { return ZonedCivilDateTime(local: newLocal, offset: offset) }
        return ZonedCivilDateTime(local: newLocal, offset: Self.offset(of: newLocal, in: region), region: region)
    }

    /// The same instant on the wall clock of `region`.
    func converted(to region: TimeZone) -> ZonedCivilDateTime {
        let offset = region.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(epochSecond)))
        return ZonedCivilDateTime(
            local: CivilDateTime(epochSecond: epochSecond + offset, nanoseconds: local.nanosecond),
            offset: offset,
            region: region
        )
    }

    /// The offset of `region` at the wall-clock time `local`.
    static func offset(of local: CivilDateTime, in region: TimeZone) -> Int {
        let guess = Date(timeIntervalSince1970: TimeInterval(local.epochSecond))
        let first = region.secondsFromGMT(for: guess)
        return region.secondsFromGMT(for: guess.addingTimeInterval(TimeInterval(-first)))
    }

    /// Seconds (with the fraction) from `other` to this instant.
    func seconds(since other: ZonedCivilDateTime) -> Double {
        Double(epochSecond - other.epochSecond) + Double(local.nanosecond - other.local.nanosecond) / 1e9
    }

    /// ISO 8601 with the offset (`Z` for UTC) and the region in brackets, as Java prints it.
    package var description: String {
        var text = local.description
        if offset == 0 {
            text += "Z"
        } else {
            let magnitude = abs(offset)
            func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
            text += (offset < 0 ? "-" : "+") + two(magnitude / 3600) + ":" + two(magnitude / 60 % 60)
            if magnitude % 60 != 0 { text += ":" + two(magnitude % 60) }
        }
        if let region { text += "[\(region.identifier)]" }
        return text
    }
}
