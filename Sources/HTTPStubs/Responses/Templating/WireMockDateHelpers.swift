import Foundation

/// WireMock's date helpers: `now` and `date` (`HandlebarsCurrentDateHelper`: `offset='3 days'`,
/// `format=` a `SimpleDateFormat` pattern or `epoch`/`unix`, `timezone=`), `parseDate`
/// (ISO 8601, or `format=`), `truncateDate` and handlebars.java's `dateFormat`. `now` reads the
/// environment's clock, so virtual time and tests are deterministic. A date prints as ISO 8601
/// with its offset (`2021-03-04T05:06:07Z`). As in WireMock 2.35.1, `date` on a parsed date
/// ignores `timezone=` and formats in UTC (where `z` prints `UTC`), while `now` honours it.
enum WireMockDateHelpers {
    /// The helpers by name.
    static let all: [String: TemplateHelper] = [
        "now": TemplateHelper { call throws(TemplateRenderError) in
            let now = call.session.environment.now()
            let seconds = now.timeIntervalSince1970.rounded(.down)
            return try render(call, Date(timeIntervalSince1970: seconds), offsetSeconds: 0, honourZone: true)
        },
        "date": TemplateHelper { call throws(TemplateRenderError) in
            guard let (date, offset) = instant(call.params.first) else {
                let now = call.session.environment.now()
                return try render(call, now, offsetSeconds: 0, honourZone: true)
            }
            return try render(call, date, offsetSeconds: offset, honourZone: false)
        },
        "parseDate": TemplateHelper { call throws(TemplateRenderError) in
            let text = try WireMockHelperSupport.requiredString(call, 0)
            if let format = WireMockHelperSupport.hashString(call, "format") {
                let formatter = javaFormatter(format, zone: TimeZone(identifier: "UTC")!)
                guard let date = formatter.date(from: text) else { return .null }
                return dateValue(date, offsetSeconds: 0)
            }
            guard let (date, offset) = parseISO(text) else { return .null }
            return dateValue(date, offsetSeconds: offset)
        },
        "truncateDate": TemplateHelper { call throws(TemplateRenderError) in
            guard let (date, offset) = instant(call.params.first) else {
                throw WireMockHelperSupport.failure(call, "java.lang.NullPointerException: no date to truncate")
            }
            let rule = WireMockHelperSupport.optionalString(call, 1) ?? ""
            guard let truncation = DateTimeTruncation(rawValue: rule) else {
                throw WireMockHelperSupport.failure(
                    call,
                    "unknown truncation '\(rule)'; use one of \(DateTimeTruncation.list)"
                )
            }
            let local = CivilDateTime(epochSecond: Int(date.timeIntervalSince1970.rounded(.down)) + offset)
            let truncated = truncation.truncate(local)
            let epoch = Int(truncated.seconds(since: CivilDateTime(epochSecond: 0))) - offset
            return dateValue(Date(timeIntervalSince1970: TimeInterval(epoch)), offsetSeconds: offset)
        },
        "dateFormat": TemplateHelper { call throws(TemplateRenderError) in
            guard let (date, _) = instant(call.params.first) else { return .null }
            let pattern = WireMockHelperSupport.optionalString(call, 1) ?? "MMM d, yyyy"
            let styles = [
                "full": "EEEE, MMMM d, yyyy", "long": "MMMM d, yyyy", "medium": "MMM d, yyyy", "short": "M/d/yy",
            ]
            return .string(
                javaFormatter(styles[pattern] ?? pattern, zone: TimeZone(identifier: "UTC")!).string(from: date)
            )
        },
    ]

    /// A date value: prints as ISO 8601 at its offset, and carries its instant for other helpers.
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

    /// The instant and offset of a date value (or of ISO 8601 text).
    static func instant(_ value: TemplateValue?) -> (Date, Int)? {
        switch value {
        case .javaObject(let object)?:
            if case .number(_, let millis)? = object.properties["@epochMillis"] {
                let offset = WireMockHelperSupport.integer(object.properties["@offsetSeconds"]) ?? 0
                return (Date(timeIntervalSince1970: millis / 1000), offset)
            }
            return parseISO(object.printed)
        case .string(let text)?, .safe(let text)?:
            return parseISO(text)
        default:
            return nil
        }
    }

    /// ISO 8601 with `Z` or an offset, seconds always written, no fraction.
    static func iso(_ date: Date, offsetSeconds: Int) -> String {
        let local = CivilDateTime(epochSecond: Int(date.timeIntervalSince1970.rounded(.down)) + offsetSeconds)
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

    /// ISO 8601 date-time text (`2021-03-04T05:06:07Z`, `…+02:00`, a date alone at midnight UTC).
    static func parseISO(_ text: String) -> (Date, Int)? {
        let pattern = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?)?(Z|[+-]\d{2}:?\d{2})?$/
        guard let match = text.wholeMatch(of: pattern),
            let year = Int(match.1), let month = Int(match.2), let day = Int(match.3),
            (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        let hour = match.4.flatMap { Int($0) } ?? 0
        let minute = match.5.flatMap { Int($0) } ?? 0
        let second = match.6.flatMap { Int($0) } ?? 0
        var offset = 0
        if let zone = match.8, zone != "Z" {
            let digits = zone.filter(\.isNumber)
            let hours = Int(digits.prefix(2)) ?? 0
            let minutes = Int(digits.suffix(2)) ?? 0
            offset = (hours * 3600 + minutes * 60) * (zone.hasPrefix("-") ? -1 : 1)
        }
        let local = CivilDateTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        let epoch = Int(local.seconds(since: CivilDateTime(epochSecond: 0))) - offset
        return (Date(timeIntervalSince1970: TimeInterval(epoch)), offset)
    }

    /// A formatter for a `SimpleDateFormat` pattern in the US locale and `zone`.
    static func javaFormatter(_ pattern: String, zone: TimeZone) -> DateFormatter {
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
        if let offset = WireMockHelperSupport.hashString(call, "offset") {
            date = try shifted(date, by: offset, call)
        }
        let zoneName = honourZone ? WireMockHelperSupport.hashString(call, "timezone") : nil
        let zone = zoneName.flatMap(TimeZone.init(identifier:)) ?? TimeZone(identifier: "UTC")!
        switch WireMockHelperSupport.hashString(call, "format") {
        case "epoch"?:
            return .integer(Int((date.timeIntervalSince1970 * 1000).rounded(.down)))
        case "unix"?:
            return .integer(Int(date.timeIntervalSince1970.rounded(.down)))
        case let pattern?:
            var output = javaFormatter(pattern, zone: zone).string(from: date)
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

    /// `date` moved by an offset such as `3 days`, `-2 hours`, `+1 months`.
    static func shifted(_ date: Date, by spec: String, _ call: TemplateHelperCall) throws(TemplateRenderError) -> Date {
        let parts = spec.split(separator: " ")
        guard parts.count == 2, let amount = Int(parts[0].hasPrefix("+") ? parts[0].dropFirst() : parts[0]) else {
            throw WireMockHelperSupport.failure(call, "offset '\(spec)' is not like '3 days' or '-2 hours'")
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let units: [String: Calendar.Component] = [
            "seconds": .second, "minutes": .minute, "hours": .hour, "days": .day, "weeks": .weekOfYear,
            "months": .month, "years": .year,
        ]
        var unit = parts[1].lowercased()
        if !unit.hasSuffix("s") { unit += "s" }
        guard let component = units[unit], let moved = calendar.date(byAdding: component, value: amount, to: date)
        else {
            throw WireMockHelperSupport.failure(call, "offset '\(spec)': unknown unit '\(parts[1])'")
        }
        return moved
    }
}
