import Foundation
import HTTPStubs
import HTTPStubsLanguages

/// WireMock's date helpers: `now` and `date` (`HandlebarsCurrentDateHelper`: `offset='3 days'`,
/// `format=` a `SimpleDateFormat` pattern or `epoch`/`unix`, `timezone=`), `parseDate`
/// (ISO 8601, or `format=`), `truncateDate` and handlebars.java's `dateFormat`. `now` reads the
/// environment's clock, so virtual time and tests are deterministic. A date prints as ISO 8601
/// with its offset (`2021-03-04T05:06:07Z`). As in WireMock 2.35.1, `date` on a parsed date
/// ignores `timezone=` and formats in UTC (where `z` prints `UTC`), while `now` honours it.
///
/// Dates are those Java holds, in the years -999,999,999 to 999,999,999: a clock, an offset or a
/// truncation that leaves them fails with the date and the range, as WireMock's `DateTimeException`
/// does, and every conversion to whole seconds or milliseconds is checked.
enum WireMockDateHelpers {
    /// The helpers by name.
    static let all: [String: TemplateHelper] = [
        "now": TemplateHelper { call throws(TemplateRenderError) in
            let now = try clockDate(call)
            let seconds = now.timeIntervalSince1970.rounded(.down)
            return try render(call, Date(timeIntervalSince1970: seconds), offsetSeconds: 0, honourZone: true)
        },
        "date": TemplateHelper { call throws(TemplateRenderError) in
            guard let (date, offset) = try instant(call.params.first, call) else {
                return try render(call, try clockDate(call), offsetSeconds: 0, honourZone: true)
            }
            return try render(call, date, offsetSeconds: offset, honourZone: false)
        },
        "parseDate": TemplateHelper { call throws(TemplateRenderError) in
            let text = try WireMockHelperSupport.requiredString(call, 0)
            if let format = WireMockHelperSupport.hashString(call, "format") {
                try WireMockStringHelpers.read(text, call)
                let formatter = try javaFormatter(format, zone: TimeZone(identifier: "UTC")!, call)
                // A date Java cannot hold does not parse there either.
                guard let date = formatter.date(from: text), epochSecond(of: date) != nil else { return .null }
                return dateValue(date, offsetSeconds: 0)
            }
            guard let (date, offset) = try parseISO(text, call) else { return .null }
            return dateValue(date, offsetSeconds: offset)
        },
        "truncateDate": TemplateHelper { call throws(TemplateRenderError) in
            guard let (date, offset) = try instant(call.params.first, call) else {
                throw WireMockHelperSupport.failure(call, "java.lang.NullPointerException: no date to truncate")
            }
            let rule = WireMockHelperSupport.optionalString(call, 1) ?? ""
            try WireMockStringHelpers.read(rule, call)
            guard let truncation = DateTimeTruncation(rawValue: rule) else {
                throw WireMockHelperSupport.failure(
                    call,
                    "unknown truncation '\(rule)'; use one of \(DateTimeTruncation.list)"
                )
            }
            guard let second = epochSecond(of: date) else { throw outOfRange(date, call) }
            let truncated = truncation.truncate(CivilDateTime(epochSecond: second + offset))
            let result = Date(timeIntervalSince1970: TimeInterval(truncated.epochSecond - offset))
            guard epochSecond(of: result) != nil else { throw outOfRange(result, call) }
            return dateValue(result, offsetSeconds: offset)
        },
        "dateFormat": TemplateHelper { call throws(TemplateRenderError) in
            guard let (date, _) = try instant(call.params.first, call) else { return .null }
            guard epochSecond(of: date) != nil else { throw outOfRange(date, call) }
            let pattern = WireMockHelperSupport.optionalString(call, 1) ?? "MMM d, yyyy"
            let styles = [
                "full": "EEEE, MMMM d, yyyy", "long": "MMMM d, yyyy", "medium": "MMM d, yyyy", "short": "M/d/yy",
            ]
            return .string(
                try javaFormatter(styles[pattern] ?? pattern, zone: TimeZone(identifier: "UTC")!, call).string(
                    from: date
                )
            )
        },
    ]

    /// The first and last whole seconds of the instants Java holds (`Instant.MIN`, `Instant.MAX`:
    /// the years -1,000,000,000 to 1,000,000,000, whose dates as `ZonedDateTime` reach the years
    /// -999,999,999 to 999,999,999).
    static let javaSeconds = -31_557_014_167_219_200...31_556_889_864_403_199

    /// The whole seconds of `date` since 1970 (rounded down), or `nil` when Java holds no such
    /// instant (or the date is not finite).
    static func epochSecond(of date: Date) -> Int? {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        guard seconds.isFinite, seconds >= Double(javaSeconds.lowerBound), seconds <= Double(javaSeconds.upperBound)
        else { return nil }
        return Int(seconds)
    }

    /// The error for a date Java cannot hold, as WireMock's `DateTimeException`.
    static func outOfRange(_ date: Date, _ call: TemplateHelperCall) -> TemplateRenderError {
        let years = (date.timeIntervalSince1970 / 31_556_952).rounded()
        let when = years.isFinite ? "about \(years.formatted(.number.grouping(.never))) years from 1970" : "not a date"
        return WireMockHelperSupport.outOfRange(
            call,
            "the date (\(when))",
            range: "Java's dates are in the years -999,999,999 to 999,999,999",
            fix: "use a smaller offset, or a clock and dates within those years"
        )
    }

    /// The environment's clock, checked to read a date Java holds (a virtual clock can be moved
    /// anywhere).
    static func clockDate(_ call: TemplateHelperCall) throws(TemplateRenderError) -> Date {
        let now = call.session.environment.now()
        guard epochSecond(of: now) != nil else { throw outOfRange(now, call) }
        return now
    }

    /// A date value: prints as ISO 8601 at its offset, and carries its instant for other helpers.
    /// The date is one Java holds (``epochSecond(of:)``).
    static func dateValue(_ date: Date, offsetSeconds: Int) -> TemplateValue {
        .javaObject(
            TemplateJavaObject(
                printed: iso(date, offsetSeconds: offsetSeconds),
                properties: TemplateObject([
                    ("@epochMillis", .number(text: "", value: date.timeIntervalSince1970 * 1000)),
                    ("@offsetSeconds", .integer(offsetSeconds)),
                ])
            )
        )
    }

    /// The offsets from UTC Java's `ZoneOffset` holds, in seconds: up to 18 hours either way.
    static let javaOffsets = -64_800...64_800

    /// The instant and offset of a date value (or of ISO 8601 text). The offset is one Java holds
    /// (a request's JSON read by `jsonPath` can hold members named like a date value's).
    static func instant(_ value: TemplateValue?, _ call: TemplateHelperCall) throws(TemplateRenderError) -> (Date, Int)?
    {
        switch value {
        case .javaObject(let object)?:
            if case .number(_, let millis)? = object.properties["@epochMillis"] {
                let offset = WireMockHelperSupport.integer(object.properties["@offsetSeconds"]) ?? 0
                guard javaOffsets.contains(offset) else { return nil }
                return (Date(timeIntervalSince1970: millis / 1000), offset)
            }
            return try parseISO(object.printed, call)
        case .string(let text)?, .safe(let text)?:
            return try parseISO(text, call)
        default:
            return nil
        }
    }

    /// ISO 8601 with `Z` or an offset, seconds always written, no fraction. The date is one Java
    /// holds (``epochSecond(of:)``; 0 stands for any other).
    static func iso(_ date: Date, offsetSeconds: Int) -> String {
        let local = CivilDateTime(epochSecond: (epochSecond(of: date) ?? 0) + offsetSeconds)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let day = "\(local.year)-\(two(local.month))-\(two(local.day))"
        var text = "\(day)T\(two(local.hour)):\(two(local.minute)):\(two(local.second))"
        if offsetSeconds == 0 {
            text += "Z"
        } else {
            let magnitude = abs(offsetSeconds)
            text += (offsetSeconds < 0 ? "-" : "+") + two(magnitude / 3600) + ":" + two(magnitude % 3600 / 60)
        }
        return text
    }

    /// ISO 8601 date-time text (`2021-03-04T05:06:07Z`, `…+02:00`, a date alone at midnight UTC):
    /// `yyyy-MM-dd`, then optionally `T` or a space with `HH:mm`, `:ss` and `.fraction`, then
    /// optionally `Z` or `±HH[:]mm`. Read byte by byte (a `Regex` made on each call costs a
    /// thousand times more), after charging `call`'s work budget a unit per byte.
    static func parseISO(_ text: String, _ call: TemplateHelperCall) throws(TemplateRenderError) -> (Date, Int)? {
        try WireMockStringHelpers.read(text, call)
        var reader = ISOReader(text)
        guard let year = reader.digits(4), reader.skip("-"), let month = reader.digits(2), reader.skip("-"),
            let day = reader.digits(2), (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        var (hour, minute, second) = (0, 0, 0)
        if reader.skip("T") || reader.skip(" ") {
            guard let hours = reader.digits(2), reader.skip(":"), let minutes = reader.digits(2) else { return nil }
            (hour, minute) = (hours, minutes)
            if reader.skip(":") {
                guard let seconds = reader.digits(2) else { return nil }
                second = seconds
                if reader.skip("."), !reader.skipDigits() { return nil }
            }
        }
        var offset = 0
        if reader.skip("+") || reader.skip("-") {
            let negative = reader.last == UInt8(ascii: "-")
            guard let hours = reader.digits(2) else { return nil }
            _ = reader.skip(":")
            guard let minutes = reader.digits(2) else { return nil }
            offset = (hours * 3600 + minutes * 60) * (negative ? -1 : 1)
            // As `ZoneOffset` refuses them.
            guard minutes < 60, javaOffsets.contains(offset) else { return nil }
        } else {
            _ = reader.skip("Z")
        }
        guard reader.isAtEnd else { return nil }
        let local = CivilDateTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        return (Date(timeIntervalSince1970: TimeInterval(local.epochSecond - offset)), offset)
    }

    /// A formatter for a `SimpleDateFormat` pattern in the US locale and `zone`, charged to
    /// `call`'s work budget.
    static func javaFormatter(
        _ pattern: String,
        zone: TimeZone,
        _ call: TemplateHelperCall
    ) throws(TemplateRenderError) -> DateFormatter {
        try call.charge(
            WireMockHelperSupport.units(adding: WorkBudget.Cost.formatter, pattern.utf8.count),
            for: "a date format"
        )
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = pattern
        formatter.isLenient = false
        return formatter
    }

    /// `date`/`now` output: `offset=` applied, then `format=` (`epoch`, `unix`, a pattern, or ISO).
    static func render(
        _ call: TemplateHelperCall,
        _ date: Date,
        offsetSeconds: Int,
        honourZone: Bool
    ) throws(TemplateRenderError) -> TemplateValue {
        var date = date
        let options = ["offset", "timezone", "format"].compactMap { WireMockHelperSupport.hashString(call, $0) }
        try call.charge(options.reduce(0) { $0 + $1.utf8.count }, for: "reading the date's options")
        if let offset = WireMockHelperSupport.hashString(call, "offset") {
            date = try shifted(date, by: offset, call)
        }
        let zoneName = honourZone ? WireMockHelperSupport.hashString(call, "timezone") : nil
        let zone = zoneName.flatMap(TimeZone.init(identifier:)) ?? TimeZone(identifier: "UTC")!
        guard let second = epochSecond(of: date) else { throw outOfRange(date, call) }
        switch WireMockHelperSupport.hashString(call, "format") {
        case "epoch"?:
            // Java counts milliseconds in a `long`: about 292 million years either side of 1970.
            let milliseconds = (date.timeIntervalSince1970 * 1000).rounded(.down)
            guard milliseconds >= -9.2e18, milliseconds <= 9.2e18 else {
                throw WireMockHelperSupport.outOfRange(
                    call,
                    "format='epoch' of a date about \(second / 31_556_952) years from 1970",
                    range: "milliseconds since 1970 count in a 64-bit integer, about 292 million years either "
                        + "side (WireMock fails with 'long overflow')",
                    fix: "use format='unix', or a date nearer 1970"
                )
            }
            return .integer(Int(milliseconds))
        case "unix"?:
            return .integer(second)
        case let pattern?:
            var output = try javaFormatter(pattern, zone: zone, call).string(from: date)
            // Without a zone WireMock formats in the JVM's zone, UTC, which `z` names `UTC`.
            if zoneName == nil, pattern.contains("z") { output = output.replacingOccurrences(of: "GMT", with: "UTC") }
            return .string(output)
        case nil:
            if let zoneName, let zone = TimeZone(identifier: zoneName) {
                return dateValue(date, offsetSeconds: zone.secondsFromGMT(for: date))
            }
            return dateValue(date, offsetSeconds: offsetSeconds)
        }
    }

    /// `date` moved by an offset such as `3 days`, `-2 hours`, `+1 months`, with Foundation's
    /// Gregorian calendar in UTC (Julian before 1582, as Java's `GregorianCalendar`, which WireMock
    /// moves dates with); the amount is a Java `int`, and the date moved one Java holds.
    static func shifted(_ date: Date, by spec: String, _ call: TemplateHelperCall) throws(TemplateRenderError) -> Date {
        let parts = spec.split(separator: " ")
        let amountText = parts.first.map { $0.hasPrefix("+") ? $0.dropFirst() : $0 } ?? ""
        guard parts.count == 2, !amountText.isEmpty,
            amountText.drop(while: { $0 == "-" }).allSatisfy({ $0.isASCII && $0.isNumber })
        else {
            throw WireMockHelperSupport.failure(call, "offset '\(spec)' is not like '3 days' or '-2 hours'")
        }
        guard let amount = Int32(amountText).map(Int.init) else {
            throw WireMockHelperSupport.outOfRange(
                call,
                "the amount \(amountText) of offset '\(spec)'",
                range: "it must be a Java int, from -2147483648 to 2147483647 (WireMock fails on more too)",
                fix: "use a smaller amount or a larger unit"
            )
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let units: [String: Calendar.Component] = [
            "seconds": .second, "minutes": .minute, "hours": .hour, "days": .day, "weeks": .weekOfYear,
            "months": .month, "years": .year,
        ]
        var unit = parts[1].lowercased()
        if !unit.hasSuffix("s") { unit += "s" }
        guard let component = units[unit] else {
            throw WireMockHelperSupport.failure(call, "offset '\(spec)': unknown unit '\(parts[1])'")
        }
        guard epochSecond(of: date) != nil else { throw outOfRange(date, call) }
        guard let moved = calendar.date(byAdding: component, value: amount, to: date), epochSecond(of: moved) != nil
        else {
            throw WireMockHelperSupport.outOfRange(
                call,
                "offset '\(spec)'",
                range: "it must leave the date in the years Java holds, -999,999,999 to 999,999,999",
                fix: "use a smaller offset"
            )
        }
        return moved
    }
}

/// A reader of ISO 8601 text's bytes, for ``WireMockDateHelpers/parseISO(_:_:)``.
private struct ISOReader {
    private let bytes: [UInt8]
    private var index = 0

    init(_ text: String) {
        bytes = Array(text.utf8)
    }

    /// Whether every byte has been read.
    var isAtEnd: Bool { index == bytes.count }

    /// The byte read last.
    var last: UInt8? { index > 0 ? bytes[index - 1] : nil }

    /// Reads `character` when it comes next.
    mutating func skip(_ character: Unicode.Scalar) -> Bool {
        guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
        index += 1
        return true
    }

    /// The number written by the next `count` ASCII digits, read; `nil` (nothing read) when they
    /// are not all there.
    mutating func digits(_ count: Int) -> Int? {
        guard bytes.count - index >= count else { return nil }
        var value = 0
        for byte in bytes[index..<(index + count)] {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        index += count
        return value
    }

    /// Reads the ASCII digits that come next: whether there was at least one.
    mutating func skipDigits() -> Bool {
        let start = index
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
        return index > start
    }
}
