import Foundation
import HTTPStubs

/// A parser of date-time text laid out by a Java `DateTimeFormatter` pattern (`dd/MM/yyyy`,
/// `EEE, dd MMM yyyy HH:mm:ss z`), as WireMock's `actualFormat` takes it, plus the fixed layouts
/// WireMock tries when there is no `actualFormat` (ISO 8601, RFC 1123, RFC 1036, asctime).
///
/// Parsing follows `java.time`: the whole text must be consumed, numbers have the widths the letter
/// count gives (`d` one or two digits, `dd` exactly two, `yyyy` four, `yy` two digits read as
/// 2000–2099), month and day names are English (`Jun`, `June`, `Tue`, `Tuesday`) and, in a pattern,
/// case-sensitive; a variable-width number followed directly by fixed-width ones leaves them their
/// digits (`yyyyMMdd`); a day of the week must agree with the date. Patterns resolve "smartly" as
/// `DateTimeFormatter.ofPattern` does (the 31st of a 30-day month is its 30th); the ISO layouts are
/// strict.
package struct DateTimeFormat: Sendable {
    /// A part of a layout.
    indirect enum Element: Sendable {
        case literal(String)
        /// A decimal field; `reserve` digits are left to the fixed-width numbers that follow.
        case number(Field, minWidth: Int, maxWidth: Int, reserve: Int)
        /// `yy`: two digits, read as 2000–2099.
        case reducedYear
        /// ISO's year: four digits, or more after a sign (`+12021`); `lenient`, as `Year.parse`
        /// reads it, one to nine digits with an optional sign.
        case isoYear(lenient: Bool)
        /// Fractional seconds (`SSS`, or ISO's optional `.123456789`).
        case fraction(minDigits: Int, maxDigits: Int, decimalPoint: Bool)
        case monthName(full: Bool)
        case dayOfWeekName(full: Bool)
        case amPm
        /// `z`: a zone's short name (`GMT`, `UTC`, `PST`, `CET`) or region (`Europe/London`).
        case zoneName
        /// `VV` and ISO's bracketed zone: a region identifier.
        case zoneRegion
        /// An offset from UTC in one of Java's offset patterns (`+HH:MM:ss`, `+HHMM`, …), with the
        /// text that stands for a zero offset (`Z`, `+0000`, `GMT`).
        case offset(pattern: String, zero: String)
        case optional([Element])
    }

    /// The numeric fields.
    enum Field: Sendable {
        case year, month, day, hour, clockHour, minute, second
    }

    /// The layout.
    let elements: [Element]
    /// Whether names, literals and `T`/`Z` match in any case (the ISO and RFC 1123 layouts).
    var caseInsensitive = false
    /// Whether a day past the end of its month is an error rather than clamped (Java's STRICT resolver).
    var strict = false
    /// The offset to assume when the text names no zone (asctime's GMT).
    var defaultOffset: Int?

    // MARK: Parsing

    /// What a successful parse read, before resolution.
    struct Fields {
        var year: Int?
        var month: Int?
        var day: Int?
        var hour: Int?
        var clockHour: Int?
        var isPM: Bool?
        var minute: Int?
        var second: Int?
        var nanosecond: Int?
        var dayOfWeek: Int?
        var offset: Int?
        var region: TimeZone?
    }

    /// The fields of `text`, or `nil` when it does not follow the layout to its end or holds an
    /// impossible value.
    func fields(of text: String) -> Fields? {
        let characters = Array(text)
        var position = 0
        var fields = Fields()
        guard parse(elements, characters, &position, &fields), position == characters.count else { return nil }
        return fields
    }

    /// A zoned date-time: a date, a time and a zone (or the layout's default zone).
    func zoned(_ text: String) -> ZonedCivilDateTime? {
        guard let fields = fields(of: text), let local = resolve(fields)?.dateTime else { return nil }
        if let offset = fields.offset { return ZonedCivilDateTime(local: local, offset: offset, region: fields.region) }
        if let region = fields.region {
            return ZonedCivilDateTime(
                local: local,
                offset: ZonedCivilDateTime.offset(of: local, in: region),
                region: region
            )
        }
        return defaultOffset.map { ZonedCivilDateTime(local: local, offset: $0) }
    }

    /// A local date-time, or a date, year and month, or year at the start of its first day: what
    /// WireMock tries in turn for a value without a zone (`LocalDateTime`, `LocalDate`, `YearMonth`,
    /// `Year`), all with this layout.
    func local(_ text: String) -> CivilDateTime? {
        guard let fields = fields(of: text), let resolved = resolve(fields) else { return nil }
        return resolved.dateTime ?? resolved.date ?? Self.yearMonth(fields)
            ?? fields.year.map { CivilDateTime(year: $0, month: 1, day: 1) }
    }

    /// The text as a `LocalDateTime`, or `nil`.
    func localDateTime(_ text: String) -> CivilDateTime? {
        fields(of: text).flatMap(resolve)?.dateTime
    }

    /// The text as a `LocalDate`, at the start of its day, or `nil`.
    func localDate(_ text: String) -> CivilDateTime? {
        fields(of: text).flatMap(resolve)?.date
    }

    /// The text as a `YearMonth`, at the start of its first day, or `nil`.
    func yearMonth(_ text: String) -> CivilDateTime? {
        guard let fields = fields(of: text), resolve(fields) != nil else { return nil }
        return Self.yearMonth(fields)
    }

    /// The text as a `Year`, at the start of its first day, or `nil`.
    func year(_ text: String) -> CivilDateTime? {
        guard let fields = fields(of: text), resolve(fields) != nil else { return nil }
        return fields.year.map { CivilDateTime(year: $0, month: 1, day: 1) }
    }

    private static func yearMonth(_ fields: Fields) -> CivilDateTime? {
        guard let year = fields.year, let month = fields.month, (1...12).contains(month) else { return nil }
        return CivilDateTime(year: year, month: month, day: 1)
    }

    /// The date, and the date-time, the fields make, as `java.time` resolves them: `nil` when they
    /// conflict (an impossible day under the strict layouts, a day of the week or AM/PM that
    /// disagrees, 24:00 with minutes), which fails every reading of the text, local ones included.
    /// A time needs an hour (`H`, or `h` with `a`); missing minutes and seconds are 0; 24:00 is the
    /// next day's midnight except under the strict layouts.
    private func resolve(_ fields: Fields) -> (date: CivilDateTime?, dateTime: CivilDateTime?)? {
        var date: CivilDateTime?
        if let year = fields.year, let month = fields.month, var day = fields.day {
            // A month out of range is found when a date is made of it (a year alone still reads).
            guard (1...12).contains(month) else { return nil }
            let length = CivilDateTime.length(ofMonth: month, in: year)
            if day > length {
                guard !strict else { return nil }
                day = length
            }
            let resolved = CivilDateTime(year: year, month: month, day: day)
            if let dayOfWeek = fields.dayOfWeek, dayOfWeek != resolved.dayOfWeek { return nil }
            date = resolved
        }
        var hour: Int?
        if let hourOfDay = fields.hour {
            if let isPM = fields.isPM, isPM != (hourOfDay >= 12) { return nil }
            hour = hourOfDay
        } else if let clockHour = fields.clockHour, let isPM = fields.isPM {
            hour = clockHour % 12 + (isPM ? 12 : 0)
        }
        // Java builds no time when a smaller unit is given without the one above it.
        guard let hour, var dateTime = date,
            fields.minute != nil || (fields.second == nil && fields.nanosecond == nil),
            fields.second != nil || fields.nanosecond == nil
        else {
            return (date, nil)
        }
        (dateTime.minute, dateTime.second, dateTime.nanosecond) = (
            fields.minute ?? 0, fields.second ?? 0, fields.nanosecond ?? 0
        )
        if hour == 24 {
            guard !strict, dateTime.minute == 0, dateTime.second == 0, dateTime.nanosecond == 0 else { return nil }
            let nextDay = dateTime.addingDays(1)
            return (nextDay, nextDay)
        }
        dateTime.hour = hour
        return (date, dateTime)
    }

    private func parse(
        _ elements: [Element],
        _ text: [Character],
        _ position: inout Int,
        _ fields: inout Fields
    ) -> Bool {
        for element in elements {
            guard parse(element, text, &position, &fields) else { return false }
        }
        return true
    }

    private func parse(_ element: Element, _ text: [Character], _ position: inout Int, _ fields: inout Fields) -> Bool {
        switch element {
        case let .literal(literal):
            guard let end = match(literal, in: text, at: position) else { return false }
            position = end
            return true
        case let .number(field, minWidth, maxWidth, reserve):
            var end = position
            while end < text.count, end - position < maxWidth + reserve, text[end].isASCII, text[end].isNumber {
                end += 1
            }
            let own = end - position - reserve
            guard own >= minWidth, own <= maxWidth, let value = Int(String(text[position..<(position + own)])) else {
                return false
            }
            position += own
            return set(field, value, &fields)
        case let .isoYear(lenient):
            var index = position
            let sign: Character? = index < text.count && (text[index] == "+" || text[index] == "-") ? text[index] : nil
            if sign != nil { index += 1 }
            var end = index
            while end < text.count, end - index < 10, text[end].isASCII, text[end].isNumber { end += 1 }
            let count = end - index
            let widths = lenient ? 1...9 : sign == "+" ? 5...10 : sign == "-" ? 4...10 : 4...4
            guard widths.contains(count), let magnitude = Int(String(text[index..<end])), magnitude <= 999_999_999
            else { return false }
            fields.year = sign == "-" ? -magnitude : magnitude
            position = end
            return true
        case .reducedYear:
            guard let value = digits(text, position, count: 2) else { return false }
            position += 2
            fields.year = 2000 + value
            return true
        case let .fraction(minDigits, maxDigits, decimalPoint):
            var start = position
            if decimalPoint {
                guard start < text.count, text[start] == "." else { return minDigits == 0 }
                start += 1
            }
            var end = start
            while end < text.count, end - start < maxDigits, text[end].isASCII, text[end].isNumber { end += 1 }
            guard end - start >= minDigits else { return false }
            let digits = String(text[start..<end])
            fields.nanosecond = Int((digits + String(repeating: "0", count: 9 - digits.count)).prefix(9)) ?? 0
            position = end
            return true
        case let .monthName(full):
            let names = full ? Self.monthNames : Self.monthNames.map { String($0.prefix(3)) }
            guard let (index, end) = longestName(names, text, position) else { return false }
            position = end
            fields.month = index + 1
            return true
        case let .dayOfWeekName(full):
            let names = full ? Self.dayNames : Self.dayNames.map { String($0.prefix(3)) }
            guard let (index, end) = longestName(names, text, position) else { return false }
            position = end
            fields.dayOfWeek = index + 1
            return true
        case .amPm:
            guard let (index, end) = longestName(["AM", "PM"], text, position) else { return false }
            position = end
            fields.isPM = index == 1
            return true
        case .zoneName:
            return parseZoneName(text, &position, &fields)
        case .zoneRegion:
            var end = position
            while end < text.count, text[end].isLetter || text[end].isNumber || "/_-+~.".contains(text[end]) {
                end += 1
            }
            guard end > position, let region = TimeZone(identifier: String(text[position..<end])) else { return false }
            fields.region = region
            position = end
            return true
        case let .offset(pattern, zero):
            return parseOffset(pattern: pattern, zero: zero, text, &position, &fields)
        case let .optional(inner):
            var trial = position
            var trialFields = fields
            if parse(inner, text, &trial, &trialFields) {
                position = trial
                fields = trialFields
            }
            return true
        }
    }

    private func set(_ field: Field, _ value: Int, _ fields: inout Fields) -> Bool {
        switch field {
        case .year:
            // Java refuses a year outside its range, which also keeps the date arithmetic in range.
            guard CivilDateTime.javaYears.contains(value) else { return false }
            fields.year = value
        case .month: fields.month = value
        case .day:
            guard (1...31).contains(value) else { return false }
            fields.day = value
        case .hour:
            guard (0...24).contains(value) else { return false }
            fields.hour = value
        case .clockHour:
            guard (1...12).contains(value) else { return false }
            fields.clockHour = value
        case .minute:
            guard (0...59).contains(value) else { return false }
            fields.minute = value
        case .second:
            guard (0...59).contains(value) else { return false }
            fields.second = value
        }
        return true
    }

    /// The end of `literal` when the text holds it at `position`.
    private func match(_ literal: String, in text: [Character], at position: Int) -> Int? {
        var index = position
        for character in literal {
            guard index < text.count else { return nil }
            let same = caseInsensitive ? text[index].lowercased() == character.lowercased() : text[index] == character
            guard same else { return nil }
            index += 1
        }
        return index
    }

    private func digits(_ text: [Character], _ position: Int, count: Int) -> Int? {
        guard position + count <= text.count else { return nil }
        let slice = text[position..<(position + count)]
        guard slice.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(String(slice))
    }

    private func longestName(_ names: [String], _ text: [Character], _ position: Int) -> (Int, Int)? {
        var best: (Int, Int)?
        for (index, name) in names.enumerated() {
            if let end = match(name, in: text, at: position), end > (best?.1 ?? -1) { best = (index, end) }
        }
        return best
    }

    /// Reads a zone as Java's zone-text parser does: an offset (`+01:00`), `GMT`, `UTC` or `UT`
    /// alone or followed by an offset, a region (`Europe/London`) or a short name (`PST`, `CET`).
    private func parseZoneName(_ text: [Character], _ position: inout Int, _ fields: inout Fields) -> Bool {
        if position < text.count, text[position] == "+" || text[position] == "-" {
            return parseOffset(pattern: "+HH:MM:ss", zero: "Z", text, &position, &fields)
        }
        for prefix in ["GMT", "UTC", "UT"] {
            guard let end = match(prefix, in: text, at: position), end < text.count,
                text[end] == "+" || text[end] == "-"
            else { continue }
            var offsetEnd = end
            var offsetFields = fields
            if parseOffset(pattern: "+HH:MM:ss", zero: "Z", text, &offsetEnd, &offsetFields) {
                position = offsetEnd
                fields = offsetFields
                return true
            }
        }
        var end = position
        while end < text.count, text[end].isLetter || text[end] == "/" || text[end] == "_" { end += 1 }
        let name = String(text[position..<end])
        if ["GMT", "UTC", "UT", "Z"].contains(name) {
            fields.offset = 0
        } else if name.contains("/"), let region = TimeZone(identifier: name) {
            fields.region = region
        } else if name.count >= 3, let region = TimeZone(abbreviation: name) {
            fields.region = region.identifier.hasPrefix("GMT") ? nil : region
            if fields.region == nil { fields.offset = region.secondsFromGMT() }
        } else {
            return false
        }
        position = end
        return true
    }

    /// Reads an offset as Java's `appendOffset(pattern, zero)` does: `HH` always, then minutes and
    /// seconds when the pattern requires them (upper case) or the text has them (lower case).
    private func parseOffset(
        pattern: String,
        zero: String,
        _ text: [Character],
        _ position: inout Int,
        _ fields: inout Fields
    ) -> Bool {
        if let end = match(zero, in: text, at: position) {
            position = end
            fields.offset = 0
            return true
        }
        guard position < text.count, text[position] == "+" || text[position] == "-" else { return false }
        let sign = text[position] == "-" ? -1 : 1
        var index = position + 1
        guard let hours = digits(text, index, count: 2), hours <= 18 else { return false }
        index += 2
        let colon = pattern.contains(":")
        var total = hours * 3600
        for (required, optional, scale) in [("MM", "mm", 60), ("SS", "ss", 1)] {
            let isRequired = pattern.contains(required)
            guard isRequired || pattern.contains(optional) else { break }
            var next = index
            if colon {
                guard next < text.count, text[next] == ":" else {
                    if isRequired { return false } else { break }
                }
                next += 1
            }
            guard let value = digits(text, next, count: 2), value < 60 else {
                if isRequired { return false } else { break }
            }
            total += value * scale
            index = next + 2
        }
        fields.offset = sign * total
        position = index
        return true
    }

    static let monthNames = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November",
        "December",
    ]
    static let dayNames = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
}

// MARK: - Layouts

extension DateTimeFormat {
    /// ISO 8601 date-time without a zone: `2021-06-14T15:15:15`, `2021-06-14T15:15`, with up to
    /// nine fractional digits (Java's `ISO_LOCAL_DATE_TIME`).
    static let isoLocalDateTime = DateTimeFormat(elements: isoDateTimeElements, caseInsensitive: true, strict: true)

    /// ISO 8601 date: `2021-06-14` (`ISO_LOCAL_DATE`).
    static let isoLocalDate = DateTimeFormat(elements: isoDateElements, strict: true)

    /// ISO year and month: `2021-06` (`YearMonth.parse`).
    static let isoYearMonth = DateTimeFormat(
        elements: [.isoYear(lenient: false), .literal("-"), .number(.month, minWidth: 2, maxWidth: 2, reserve: 0)],
        strict: true
    )

    /// A year as `Year.parse` reads it, leniently: `2021`, but also `21` (the year 21) and `-44`.
    static let isoYear = DateTimeFormat(elements: [.isoYear(lenient: true)], strict: true)

    /// The layouts WireMock tries, in order, for a zoned value (`DateTimeParser.ZONED_PARSERS`):
    /// ISO 8601 with an offset and an optional region (`2021-06-14T15:15:15+01:00[Europe/London]`),
    /// RFC 1123 as HTTP dates are written (`Tue, 01 Jun 2021 15:16:17 GMT`), RFC 1036
    /// (`Tuesday, 01-Jun-21 14:14:14 GMT`) and asctime in GMT (`Tue Jun  1 01:01:01 2021`).
    package static let zonedLayouts: [DateTimeFormat] = {
        let isoZoned = DateTimeFormat(
            elements: isoDateTimeElements + [
                .offset(pattern: "+HH:mm:ss", zero: "Z"), .optional([.literal("["), .zoneRegion, .literal("]")]),
            ],
            caseInsensitive: true,
            strict: true
        )
        // RFC 1123 is parsed leniently in Java: numbers of one to nine digits, offsets of hours
        // with optional minutes and seconds.
        func number(_ field: Field) -> Element { .number(field, minWidth: 1, maxWidth: 9, reserve: 0) }
        let rfc1123 = DateTimeFormat(
            elements: [
                .optional([.dayOfWeekName(full: false), .literal(", ")]),
                number(.day), .literal(" "), .monthName(full: false), .literal(" "), number(.year), .literal(" "),
                number(.hour), .literal(":"), number(.minute), .optional([.literal(":"), number(.second)]),
                .literal(" "),
                .offset(pattern: "+HHmmss", zero: "GMT"),
            ],
            caseInsensitive: true,
            strict: true
        )
        // These three patterns are WireMock's own; they compile.
        var asctime1 = try! DateTimeFormat(pattern: "EEE MMM dd HH:mm:ss yyyy")
        asctime1.defaultOffset = 0
        var asctime2 = try! DateTimeFormat(pattern: "EEE MMM  d HH:mm:ss yyyy")
        asctime2.defaultOffset = 0
        return [isoZoned, rfc1123, try! DateTimeFormat(pattern: "EEEE, dd-MMM-yy HH:mm:ss zzz"), asctime1, asctime2]
    }()

    private static let isoDateElements: [Element] = [
        .isoYear(lenient: false), .literal("-"),
        .number(.month, minWidth: 2, maxWidth: 2, reserve: 0), .literal("-"),
        .number(.day, minWidth: 2, maxWidth: 2, reserve: 0),
    ]

    private static let isoDateTimeElements: [Element] =
        isoDateElements + [
            .literal("T"),
            .number(.hour, minWidth: 2, maxWidth: 2, reserve: 0), .literal(":"),
            .number(.minute, minWidth: 2, maxWidth: 2, reserve: 0),
            .optional([
                .literal(":"), .number(.second, minWidth: 2, maxWidth: 2, reserve: 0),
                .optional([.fraction(minDigits: 0, maxDigits: 9, decimalPoint: true)]),
            ]),
        ]
}

// MARK: - Patterns

extension DateTimeFormat {
    /// Why a pattern cannot be used.
    package struct PatternProblem: Error {
        package let message: String
    }

    /// The pattern letters this parser reads.
    static let supportedLetters = "y u M L d H h m s S a E z Z X x VV"

    /// Compiles a Java `DateTimeFormatter` pattern.
    /// - Throws: ``PatternProblem`` naming a letter this parser does not read, a letter Java does
    ///   not know, a letter count Java refuses, or an unbalanced quote or bracket.
    package init(pattern: String) throws(PatternProblem) {
        var characters = Array(pattern)[...]
        var stack: [[Element]] = [[]]
        while let character = characters.first {
            if character == "'" {
                characters.removeFirst()
                var literal = ""
                var closed = false
                while let next = characters.first {
                    characters.removeFirst()
                    if next == "'" {
                        if characters.first == "'" {
                            characters.removeFirst()
                            literal.append("'")
                        } else {
                            closed = true
                            break
                        }
                    } else {
                        literal.append(next)
                    }
                }
                guard closed else {
                    throw PatternProblem(
                        message:
                            "it ends inside a quoted literal; "
                            + "close it with a single quote (write '' for a quote itself)"
                    )
                }
                stack[stack.count - 1].append(.literal(literal.isEmpty ? "'" : literal))
            } else if character == "[" {
                characters.removeFirst()
                stack.append([])
            } else if character == "]" {
                characters.removeFirst()
                guard stack.count > 1 else { throw PatternProblem(message: "it has a ']' without an earlier '['") }
                let inner = stack.removeLast()
                stack[stack.count - 1].append(.optional(Self.reserving(inner)))
            } else if "{}#".contains(character) {
                throw PatternProblem(
                    message:
                        "it uses '\(character)', which Java reserves; "
                        + "put it in single quotes to mean the character itself"
                )
            } else if character.isASCII, character.isLetter {
                var count = 0
                while characters.first == character {
                    characters.removeFirst()
                    count += 1
                }
                stack[stack.count - 1].append(try Self.element(for: character, count: count))
            } else {
                characters.removeFirst()
                stack[stack.count - 1].append(.literal(String(character)))
            }
        }
        guard stack.count == 1 else { throw PatternProblem(message: "it has a '[' without a closing ']'") }
        self.init(elements: Self.reserving(stack[0]))
    }

    /// The element for a run of `count` copies of a pattern letter.
    private static func element(for letter: Character, count: Int) throws(PatternProblem) -> Element {
        func tooMany() -> PatternProblem {
            PatternProblem(message: "it has \(count) '\(letter)' in a row, more than Java allows")
        }
        func number(_ field: Field) throws(PatternProblem) -> Element {
            switch count {
            case 1: return .number(field, minWidth: 1, maxWidth: 19, reserve: 0)
            case 2: return .number(field, minWidth: 2, maxWidth: 2, reserve: 0)
            default: throw tooMany()
            }
        }
        switch letter {
        case "y", "u":
            switch count {
            case 2: return .reducedYear
            case 1, 3: return .number(.year, minWidth: count, maxWidth: 19, reserve: 0)
            default: return .number(.year, minWidth: count, maxWidth: count, reserve: 0)
            }
        case "M", "L":
            switch count {
            case 1, 2: return try number(.month)
            case 3: return .monthName(full: false)
            case 4: return .monthName(full: true)
            case 5: throw unsupported(letter, count, "narrow month names")
            default: throw tooMany()
            }
        case "d": return try number(.day)
        case "H": return try number(.hour)
        case "h": return try number(.clockHour)
        case "m": return try number(.minute)
        case "s": return try number(.second)
        case "S":
            guard count <= 9 else { throw tooMany() }
            return .fraction(minDigits: count, maxDigits: count, decimalPoint: false)
        case "a":
            guard count == 1 else { throw tooMany() }
            return .amPm
        case "E":
            switch count {
            case 1...3: return .dayOfWeekName(full: false)
            case 4: return .dayOfWeekName(full: true)
            case 5: throw unsupported(letter, count, "narrow day names")
            default: throw tooMany()
            }
        case "z":
            switch count {
            case 1...3: return .zoneName
            case 4: throw unsupported(letter, count, "full time-zone names")
            default: throw tooMany()
            }
        case "Z":
            switch count {
            case 1...3: return .offset(pattern: "+HHMM", zero: "+0000")
            case 4: throw unsupported(letter, count, "localized offsets such as GMT+01:00")
            case 5: return .offset(pattern: "+HH:MM:ss", zero: "Z")
            default: throw tooMany()
            }
        case "X", "x":
            let patterns = ["+HHmm", "+HHMM", "+HH:MM", "+HHMMss", "+HH:MM:ss"]
            let zeros = ["+00", "+0000", "+00:00", "+0000", "+00:00"]
            guard count <= 5 else { throw tooMany() }
            return .offset(pattern: patterns[count - 1], zero: letter == "X" ? "Z" : zeros[count - 1])
        case "V":
            guard count == 2 else {
                throw PatternProblem(message: "it has \(count) 'V'; Java takes exactly VV (a zone identifier)")
            }
            return .zoneRegion
        default:
            if let meaning = unsupportedLetters[letter] { throw unsupported(letter, count, meaning) }
            throw PatternProblem(
                message:
                    "'\(letter)' is not a DateTimeFormatter pattern letter (Java refuses it too); "
                    + "put literal text in single quotes, as in 'T'"
            )
        }
    }

    private static func unsupported(_ letter: Character, _ count: Int, _ meaning: String) -> PatternProblem {
        PatternProblem(
            message:
                "it uses '\(String(repeating: letter, count: count))' (\(meaning)), which swift-http-stubs "
                + "does not support; use the letters \(supportedLetters), literal text in single quotes "
                + "and [optional] sections, or match the value with 'matches' and a regular expression"
        )
    }

    /// Java pattern letters this parser does not read, with what they mean.
    private static let unsupportedLetters: [Character: String] = [
        "G": "era", "Q": "quarter", "q": "quarter", "Y": "week-based year", "w": "week of year", "W": "week of month",
        "e": "localized day of week", "c": "localized day of week", "F": "aligned week of month", "D": "day of year",
        "A": "milli of day", "n": "nano of second", "N": "nano of day", "K": "hour of am-pm (0-11)",
        "k": "clock hour of day (1-24)", "B": "period of day", "O": "localized offset", "v": "generic time-zone name",
        "g": "modified Julian day",
    ]

    /// Lets a variable-width number keep digits for the fixed-width numbers right after it, as
    /// Java's adjacent value parsing does (`yyyyMMdd`, `HHmmssSSS`). As in Java, a variable-width
    /// number later in the same run (`yyyy` counts as one: it takes a sign and more digits) cancels
    /// the reservation, so `dMMyyyy` never parses.
    private static func reserving(_ elements: [Element]) -> [Element] {
        func fixedWidth(_ element: Element) -> Int? {
            switch element {
            case let .number(field, min, max, _) where min == max && field != .year: return min
            case .reducedYear: return 2
            case let .fraction(min, max, false) where min == max: return min
            default: return nil
            }
        }
        var result = elements
        for index in result.indices {
            guard case let .number(field, minWidth, maxWidth, _) = result[index], minWidth != maxWidth else { continue }
            var reserve = 0
            scan: for next in result[(index + 1)...] {
                if let width = fixedWidth(next) {
                    reserve += width
                } else {
                    if case .number = next { reserve = 0 }
                    break scan
                }
            }
            result[index] = .number(field, minWidth: minWidth, maxWidth: maxWidth, reserve: reserve)
        }
        return result
    }
}
