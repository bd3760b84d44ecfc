import HTTPStubs

/// An amount of calendar time added to "now" by WireMock's date-time operators: the `+3 days` of
/// `"before": "now +3 days"`, or `"expectedOffset": 3, "expectedOffsetUnit": "days"` (WireMock's
/// `DateTimeOffset` and `DateTimeUnit`).
package struct DateTimeOffset: Sendable, CustomStringConvertible {
    /// WireMock's units, written in the plural and in any case (`days`, `DAYS`; never `day`).
    package enum Unit: String, CaseIterable, Sendable {
        case seconds, minutes, hours, days, months, years

        /// The unit named `text`, in any case, or `nil`.
        package init?(named text: String) {
            self.init(rawValue: text.lowercased())
        }

        /// The units, for messages: `seconds, minutes, hours, days, months or years`.
        package static let list =
            allCases.dropLast().map(\.rawValue).joined(separator: ", ") + " or " + allCases.last!.rawValue
    }

    /// How many units; negative for the past.
    package let amount: Int
    let unit: Unit

    /// No offset: "now" itself.
    static let none = DateTimeOffset(amount: 0, unit: .seconds)

    /// Whether WireMock reads `spec` as "now" with an offset rather than as a date-time: `now`,
    /// `now +3 days`, `now -15 seconds`, or the short form `15 days` (any case; the sign optional).
    package static func isNowExpression(_ spec: String) -> Bool {
        if spec.lowercased() == "now" { return true }
        // WireMock strips every "now " (any case) and then wants `[+-]digits letters`.
        var rest = spec
        while let range = rest.range(of: "now ", options: .caseInsensitive) { rest.removeSubrange(range) }
        let parts = rest.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return false }
        var amount = Substring(parts[0])
        if amount.first == "+" || amount.first == "-" { amount = amount.dropFirst() }
        return !amount.isEmpty && amount.allSatisfy { $0.isASCII && $0.isNumber }
            && !parts[1].isEmpty && parts[1].allSatisfy { $0.isASCII && $0.isLetter }
    }

    /// Why a "now" expression cannot be read.
    package struct Problem: Error {
        package let message: String
    }

    /// Reads a "now" expression (one that ``isNowExpression(_:)`` accepts) as WireMock's
    /// `DateTimeOffset.fromString` does: `now` alone is no offset; otherwise the text splits at
    /// spaces into `<amount> <unit>` or `now <amount> <unit>`, the amount a 32-bit integer.
    package init(parsing spec: String) throws(Problem) {
        if spec.lowercased() == "now" {
            self = .none
            return
        }
        let parts = spec.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3 else {
            throw Problem(
                message:
                    "write an offset as <amount> <unit> (\"8 seconds\") or now +/-<amount> <unit> (\"now +5 years\")"
            )
        }
        let amountText = parts[parts.count - 2]
        guard let amount = Int32(amountText.hasPrefix("+") ? amountText.dropFirst() : amountText) else {
            throw Problem(message: "the amount \(quoted(String(amountText))) is not a 32-bit integer")
        }
        let unitText = String(parts[parts.count - 1])
        guard let unit = Unit(named: unitText) else {
            throw Problem(
                message:
                    "the unit \(quoted(unitText)) is not one WireMock knows; "
                    + "use \(Unit.list) (plural, as WireMock spells them)"
            )
        }
        self.init(amount: Int(amount), unit: unit)
    }

    package init(amount: Int, unit: Unit) {
        self.amount = amount
        self.unit = unit
    }

    /// `date` moved by this offset, as Java's `ZonedDateTime.plus`: seconds, minutes and hours
    /// move the instant; days, months and years move the wall-clock date (a month or year from the
    /// 31st lands on the last day of a shorter month).
    func shift(_ date: ZonedCivilDateTime) -> ZonedCivilDateTime {
        switch unit {
        case .seconds, .minutes, .hours:
            let seconds = amount * (unit == .seconds ? 1 : unit == .minutes ? 60 : 3600)
            var moved = date
            moved.local = date.local.addingSeconds(seconds)
            return date.region.map { moved.converted(to: $0) } ?? moved
        case .days: return date.with(local: date.local.addingDays(amount))
        case .months: return date.with(local: date.local.addingMonths(amount))
        case .years: return date.with(local: date.local.addingMonths(amount * 12))
        }
    }

    /// `3 days`, `-15 seconds`.
    package var description: String { "\(amount) \(unit.rawValue)" }
}
