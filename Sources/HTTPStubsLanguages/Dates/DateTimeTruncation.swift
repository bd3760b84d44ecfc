import HTTPStubs

/// How WireMock's date-time operators round a date-time before comparing (`truncateExpected`,
/// `truncateActual`): to the start of its minute, hour or day, or to the first or last day of its
/// month or year (WireMock's `DateTimeTruncation`). Every truncation but the first three also sets
/// the time to the start of the day.
package enum DateTimeTruncation: String, CaseIterable, Sendable {
    case firstSecondOfMinute = "first second of minute"
    case firstMinuteOfHour = "first minute of hour"
    case firstHourOfDay = "first hour of day"
    case firstDayOfMonth = "first day of month"
    case firstDayOfNextMonth = "first day of next month"
    case lastDayOfMonth = "last day of month"
    case firstDayOfYear = "first day of year"
    case firstDayOfNextYear = "first day of next year"
    case lastDayOfYear = "last day of year"

    /// The truncation named `text` as WireMock reads it: any case, words separated by single
    /// spaces or underscores (`first day of month`, `FIRST_DAY_OF_MONTH`).
    package init?(named text: String) {
        self.init(rawValue: text.lowercased().replacingOccurrences(of: "_", with: " "))
    }

    /// The names, for messages.
    package static let list = allCases.map { quoted($0.rawValue) }.joined(separator: ", ")

    /// `date` truncated, on its own wall clock.
    package func truncate(_ date: CivilDateTime) -> CivilDateTime {
        var result = date
        switch self {
        case .firstSecondOfMinute:
            (result.second, result.nanosecond) = (0, 0)
            return result
        case .firstMinuteOfHour:
            (result.minute, result.second, result.nanosecond) = (0, 0, 0)
            return result
        case .firstHourOfDay: return date.startOfDay
        case .firstDayOfMonth: return CivilDateTime(year: date.year, month: date.month, day: 1)
        case .firstDayOfNextMonth: return CivilDateTime(year: date.year, month: date.month, day: 1).addingMonths(1)
        case .lastDayOfMonth:
            return CivilDateTime(
                year: date.year,
                month: date.month,
                day: CivilDateTime.length(ofMonth: date.month, in: date.year)
            )
        case .firstDayOfYear: return CivilDateTime(year: date.year, month: 1, day: 1)
        case .firstDayOfNextYear: return CivilDateTime(year: date.year + 1, month: 1, day: 1)
        case .lastDayOfYear: return CivilDateTime(year: date.year, month: 12, day: 31)
        }
    }

    /// `date` truncated on its wall clock, its region's offset looked up again.
    func truncate(_ date: ZonedCivilDateTime) -> ZonedCivilDateTime {
        date.with(local: truncate(date.local))
    }
}
