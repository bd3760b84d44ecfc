import Foundation
import HTTPStubs

/// WireMock 3's date-time operators, `before`, `after` and `equalToDateTime`: the value is read
/// as a date-time and compared with an expected one (WireMock's `AbstractDateTimePattern` and its
/// three subclasses).
///
/// Values with an offset (zoned) compare as instants; values without one (local) compare as
/// wall-clock times. A local expected value compared with a zoned actual one uses the actual's
/// wall-clock time; a zoned expected value compared with a local actual one reads the actual in
/// UTC (WireMock uses the JVM's default zone, which is UTC where WireMock usually runs).
/// An actual value that cannot be read never matches.
package struct DateTimePattern: Sendable, CustomStringConvertible {
    /// Which way the actual value must compare with the expected one.
    package enum Comparison: String, Sendable {
        case before, after, equalToDateTime

        /// `before`, `after`, `equal to date-time`.
        var phrase: String { self == .equalToDateTime ? "equal to date-time" : rawValue }

        func holds(_ order: ComparisonResult) -> Bool {
            switch self {
            case .before: return order == .orderedAscending
            case .after: return order == .orderedDescending
            case .equalToDateTime: return order == .orderedSame
            }
        }
    }

    /// The expected date-time.
    package enum Expected: Sendable {
        /// A date-time with an offset, such as `2021-06-14T15:15:15Z`.
        case zoned(ZonedCivilDateTime)
        /// A date-time without one, such as `2021-06-14T15:15:15` or `2021-06-14`.
        case local(CivilDateTime)
        /// The time of the request, moved by an offset.
        case now(DateTimeOffset)
    }

    /// How actual values are written.
    package enum ActualFormat: Sendable {
        /// A `DateTimeFormatter` pattern, with its text.
        case pattern(DateTimeFormat, String)
        /// Whole seconds since 1970-01-01T00:00:00Z (`unix`).
        case unixSeconds
        /// Milliseconds since then (`epoch`).
        case epochMilliseconds
    }

    let comparison: Comparison
    let expected: Expected
    /// The expected value as the stub file wrote it (with `expectedOffset` folded in), for descriptions.
    let expectedText: String
    package var actualFormat: ActualFormat?
    /// Applied to "now" only, as in WireMock.
    package var truncateExpected: DateTimeTruncation?
    /// Applied to zoned actual values only, as in WireMock.
    package var truncateActual: DateTimeTruncation?
    /// Whether "now" is moved by the offset before being truncated rather than after.
    package var applyTruncationLast = false
    package var clock = WallClock.system

    /// `before 2021-05-01T00:00:00Z`, `after now +3 days (expected truncated to first day of month)`.
    package var description: String {
        var text = "\(comparison.phrase) \(expectedText)"
        if case .now = expected, let truncateExpected {
            text +=
                " (expected truncated to \(truncateExpected.rawValue)\(applyTruncationLast ? " after the offset" : ""))"
        }
        switch actualFormat {
        case let .pattern(_, pattern)?: text += " (actual format \(pattern))"
        case .unixSeconds?: text += " (actual in unix seconds)"
        case .epochMilliseconds?: text += " (actual in epoch milliseconds)"
        case nil: break
        }
        if let truncateActual { text += " (actual truncated to \(truncateActual.rawValue))" }
        return text
    }

    /// The expected date-time now: "now" is read from the clock, moved and truncated.
    func resolvedExpected() -> (zoned: ZonedCivilDateTime?, local: CivilDateTime?) {
        switch expected {
        case let .zoned(date): return (date, nil)
        case let .local(date): return (nil, date)
        case let .now(offset):
            let now = ZonedCivilDateTime(clock.now())
            if applyTruncationLast {
                let shifted = offset.shift(now)
                return (truncateExpected.map { $0.truncate(shifted) } ?? shifted, nil)
            }
            return (offset.shift(truncateExpected.map { $0.truncate(now) } ?? now), nil)
        }
    }

    /// The actual value read as WireMock reads it: zoned (then truncated) and local, either or
    /// both `nil` when the text is not such a date-time.
    func actual(_ value: String) -> (zoned: ZonedCivilDateTime?, local: CivilDateTime?) {
        var zoned: ZonedCivilDateTime?
        var local: CivilDateTime?
        switch actualFormat {
        case nil:
            zoned = DateTimeFormat.zonedLayouts.lazy.compactMap { Self.zoned(value, $0) }.first
            local = Self.defaultLocal(value)
        case let .pattern(format, _)?:
            zoned = Self.zoned(value, format)
            local = format.local(value)
        case .unixSeconds?, .epochMilliseconds?:
            // Java's Long.parseLong; unix seconds become milliseconds (WireMock multiplies by 1000).
            guard let number = Self.javaLong(value) else { break }
            let unix = actualFormat.map { if case .unixSeconds = $0 { true } else { false } } ?? false
            let (milliseconds, overflow) = unix ? number.multipliedReportingOverflow(by: 1000) : (number, false)
            guard !overflow else { break }
            // Rounded down without overflowing, even at Int.min.
            let remainder = (milliseconds % 1000 + 1000) % 1000
            let seconds = milliseconds / 1000 - (milliseconds % 1000 < 0 ? 1 : 0)
            let utc = CivilDateTime(epochSecond: seconds, nanoseconds: remainder * 1_000_000)
            zoned = ZonedCivilDateTime(local: utc, offset: 0)
            local = utc
        }
        return (zoned.map { date in truncateActual.map { $0.truncate(date) } ?? date }, local)
    }

    /// Tests a value.
    package func test(_ value: String?) -> MatchVerdict {
        let expected = resolvedExpected()
        let expectedText = expected.zoned?.description ?? expected.local?.description ?? self.expectedText
        let shown = if case .now = self.expected { "\(description) (\(expectedText))" } else { description }
        guard let value else {
            return MatchVerdict(isMatch: false, detail: "expected \(shown), but it is absent")
        }
        let actual = actual(value)
        // WireMock's order: zoned with zoned, local with local, then the mixed pairs.
        let seconds: Double
        if let zonedExpected = expected.zoned, let zonedActual = actual.zoned {
            seconds = zonedActual.seconds(since: zonedExpected)
        } else if let localExpected = expected.local, let localActual = actual.local {
            seconds = localActual.seconds(since: localExpected)
        } else if let localExpected = expected.local, let zonedActual = actual.zoned {
            seconds = zonedActual.local.seconds(since: localExpected)
        } else if let zonedExpected = expected.zoned, let localActual = actual.local {
            seconds = ZonedCivilDateTime(local: localActual, offset: 0).seconds(since: zonedExpected)
        } else {
            return MatchVerdict(
                isMatch: false,
                detail: "expected \(shown), got \(quoted(value)), which is not a date-time in \(formatName)"
            )
        }
        let order: ComparisonResult = seconds < 0 ? .orderedAscending : seconds > 0 ? .orderedDescending : .orderedSame
        if comparison.holds(order) { return MatchVerdict(isMatch: true, detail: quoted(value)) }
        // WireMock's distance: the gap against itself plus two years.
        let milliseconds = (abs(seconds) * 1000).rounded(.down)
        let distance = milliseconds / (milliseconds + 2 * 365 * 86_400_000)
        return MatchVerdict(isMatch: false, distance: distance, detail: "expected \(shown), got \(quoted(value))")
    }

    /// A value without a zone as WireMock reads it by default: ISO 8601 date-time, date, year and
    /// month, or year (`LocalDateTime.parse`, `LocalDate.parse`, `YearMonth.parse`, `Year.parse`).
    package static func defaultLocal(_ value: String) -> CivilDateTime? {
        DateTimeFormat.isoLocalDateTime.localDateTime(value) ?? DateTimeFormat.isoLocalDate.localDate(value)
            ?? DateTimeFormat.isoYearMonth.yearMonth(value) ?? DateTimeFormat.isoYear.year(value)
    }

    /// What actual values are expected to look like, for messages.
    private var formatName: String {
        switch actualFormat {
        case let .pattern(_, pattern)?: return "the format \(quoted(pattern))"
        case .unixSeconds?: return "unix seconds"
        case .epochMilliseconds?: return "epoch milliseconds"
        case nil: return "ISO 8601, RFC 1123, RFC 1036 or asctime form"
        }
    }

    /// `value` read by `format` as a zoned date-time; failing that, with a space before a two-digit
    /// hour turned back into `+` (WireMock's allowance for unencoded `+` in query parameters).
    package static func zoned(_ value: String, _ format: DateTimeFormat) -> ZonedCivilDateTime? {
        if let date = format.zoned(value) { return date }
        return plusRestored(value).flatMap(format.zoned)
    }

    /// `value` with the first `hh:mm[:ss][.fff] hh` written `hh:mm[:ss][.fff]+hh`, or `nil` if it
    /// has no such place.
    static func plusRestored(_ value: String) -> String? {
        let text = Array(value)
        func digit(_ index: Int, upTo limit: Character = "9") -> Bool {
            index < text.count && text[index].isASCII && ("0"..."9").contains(text[index]) && text[index] <= limit
        }
        for start in text.indices {
            var index = start
            guard digit(index, upTo: "5"), digit(index + 1), index + 2 < text.count, text[index + 2] == ":",
                digit(index + 3, upTo: "5"), digit(index + 4)
            else { continue }
            index += 5
            if index + 2 < text.count, text[index] == ":", digit(index + 1, upTo: "5"), digit(index + 2) { index += 3 }
            if index + 1 < text.count, text[index] == ".", digit(index + 1) {
                index += 1
                while digit(index) { index += 1 }
            }
            guard index < text.count, text[index] == " ", digit(index + 1, upTo: "2"), digit(index + 2) else {
                continue
            }
            var restored = text
            restored[index] = "+"
            return String(restored)
        }
        return nil
    }

    /// A Java `Long.parseLong` number: an optional sign and decimal digits.
    private static func javaLong(_ text: String) -> Int? {
        guard let first = text.first else { return nil }
        let digits = first == "+" || first == "-" ? text.dropFirst() : Substring(text)
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(first == "+" ? String(digits) : text)
    }

    package init(
        comparison: Comparison,
        expected: Expected,
        expectedText: String,
        actualFormat: ActualFormat? = nil,
        truncateExpected: DateTimeTruncation? = nil,
        truncateActual: DateTimeTruncation? = nil
    ) {
        self.comparison = comparison
        self.expected = expected
        self.expectedText = expectedText
        self.actualFormat = actualFormat
        self.truncateExpected = truncateExpected
        self.truncateActual = truncateActual
    }
}
