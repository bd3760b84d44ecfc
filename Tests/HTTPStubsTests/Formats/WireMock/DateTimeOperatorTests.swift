import Foundation
import Testing

@testable import HTTPStubs
@testable import HTTPStubsFiles
@testable import HTTPStubsLanguages
@testable import HTTPStubsTemplates

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// WireMock 3's date-time operators (`before`, `after`, `equalToDateTime`) read from mapping files
/// in a temporary stub root and asked through a real URLSession. The expectations are those of
/// WireMock 3's own `BeforeDateTimePatternTest`, `AfterDateTimePatternTest` and
/// `EqualToDateTimePatternTest` (WireMock 3 cannot run here), with "now" fixed by the loader's wall
/// clock instead of mocking Java's `ZonedDateTime.now`.
@Suite("WireMock date-time operators")
struct DateTimeOperatorTests {
    /// 2026-03-15T10:30:45.5Z, "now" for the tests that use it.
    static let now = Date(timeIntervalSince1970: 1_773_570_645.5)

    // MARK: Literal expected values

    @Test("before a zoned date-time: zoned, local, RFC 1123, RFC 1036, asctime and region-zoned actual values")
    func beforeZoned() async throws {
        let stubs = try DateTimeStubs(#"{"before": "2021-06-14T15:15:15Z"}"#)
        #expect(await stubs.header("2021-06-01T15:15:15Z"))
        #expect(await !stubs.header("2021-07-01T23:59:59Z"))
        #expect(await !stubs.header("2021-06-14T15:15:15Z"), "equal is not before")
        #expect(await stubs.header("2021-06-01T15:15:15"), "a local actual value is read as UTC")
        #expect(await !stubs.header("2021-07-01T23:59:59"))
        #expect(await stubs.header("Tue, 01 Jun 2021 15:16:17 GMT"))
        #expect(await !stubs.header("Thu, 01 Jul 2021 15:16:17 GMT"))
        #expect(await stubs.header("Tuesday, 01-Jun-21 14:14:14 GMT"))
        #expect(await !stubs.header("Thursday, 01-Jul-21 15:16:17 GMT"))
        #expect(await stubs.header("2021-06-14T15:15:15+01:00[Europe/London]"))
        #expect(await !stubs.header("2021-06-14T16:15:15+01:00[Europe/London]"))
        #expect(await !stubs.header("2021-06-01T15:15:blahsdfj123"), "unreadable values never match")
        #expect(await !stubs.header(nil), "an absent value never matches")

        let asctime = try DateTimeStubs(#"{"before": "2021-06-14T01:01:01Z"}"#)
        #expect(await asctime.query("Tue Jun  1 01:01:01 2021"))
        #expect(await !asctime.query("Thu Jul  1 01:01:01 2021"))
        #expect(await asctime.query("Thu Jun 10 01:01:01 2021"))
        #expect(await !asctime.query("Sat Jul 10 01:01:01 2021"))
        #expect(await !asctime.query("Wed Jun 10 01:01:01 2021"), "the day of the week must agree with the date")
    }

    @Test("before a local date-time compares wall-clock times, whatever the actual value's offset")
    func beforeLocal() async throws {
        let stubs = try DateTimeStubs(#"{"before": "2021-06-14T15:15:15"}"#)
        #expect(await stubs.header("2021-06-01T15:15:15"))
        #expect(await !stubs.header("2021-07-01T23:59:59"))
        #expect(await stubs.header("2021-06-01T15:15:15Z"))
        #expect(await !stubs.header("2021-07-01T23:59:59Z"))
        #expect(await stubs.header("2021-06-14T15:15:14-08:00"), "the actual value's own wall clock")
        #expect(await stubs.header("2021-06-14"), "a date is its first instant")
        #expect(await stubs.header("2021-06"))
        #expect(await !stubs.header("2022"))
    }

    @Test("after: zoned, local and mixed")
    func after() async throws {
        let zoned = try DateTimeStubs(#"{"after": "2021-06-14T12:13:14Z"}"#)
        #expect(await zoned.header("2022-06-14T12:13:14Z"))
        #expect(await !zoned.header("2020-06-14T12:13:14Z"))
        #expect(await !zoned.header("2021-06-14T12:13:14Z"))
        #expect(await zoned.header("2021-06-14T12:13:14.001Z"))
        let local = try DateTimeStubs(#"{"after": "2021-06-14T12:13:14"}"#)
        #expect(await local.header("2022-06-14T12:13:14"))
        #expect(await !local.header("2020-06-14T12:13:14"))
        #expect(await local.header("2022-06-14T12:13:14Z"))
        #expect(await !local.header("2020-06-14T12:13:14Z"))
        let zonedWithLocal = try DateTimeStubs(#"{"after": "2021-06-14T15:15:15Z"}"#)
        #expect(await zonedWithLocal.header("2021-07-01T23:59:59"))
        #expect(await !zonedWithLocal.header("2021-06-01T15:15:15"))
    }

    @Test("equalToDateTime compares instants across offsets, and wall-clock times when the expected value has no zone")
    func equalToDateTime() async throws {
        let offset = try DateTimeStubs(#"{"equalToDateTime": "2021-06-24T13:40:27+01:00"}"#)
        #expect(await offset.header("2021-06-24T12:40:27Z"))
        #expect(await !offset.header("2021-06-24T13:40:27Z"))
        #expect(await offset.header("Thu, 24 Jun 2021 12:40:27 GMT"))
        #expect(await offset.header("2021-06-24T12:40:27"), "a local actual value is read as UTC")
        let local = try DateTimeStubs(#"{"equalToDateTime": "2021-06-14T12:13:14"}"#)
        #expect(await local.header("2021-06-14T12:13:14"))
        #expect(await !local.header("1921-06-14T12:13:14"))
        #expect(await local.header("2021-06-14T12:13:14Z"))
        #expect(await local.header("2021-06-14T12:13:14+05:00"))
        #expect(await !local.header("2021-06-14T12:13:15Z"))
    }

    // MARK: Now

    @Test("now, with offsets written in the value or as expectedOffset and expectedOffsetUnit")
    func nowOffsets() async throws {
        // Now is 2026-03-15T10:30:45.5Z.
        let beforeNow = try DateTimeStubs(#"{"before": "now"}"#)
        #expect(await beforeNow.header("2026-03-13T10:30:45Z"))
        #expect(await !beforeNow.header("2026-03-15T14:30:45Z"))
        let fiveDaysAgo = try DateTimeStubs(#"{"before": "now -5 days"}"#)
        #expect(await fiveDaysAgo.header("2026-03-08T10:30:45Z"))
        #expect(await !fiveDaysAgo.header("2026-03-11T10:30:45Z"))
        let shortForm = try DateTimeStubs(#"{"before": "-15 days"}"#)
        #expect(await shortForm.header("2026-02-27T10:30:45Z"))
        #expect(await !shortForm.header("2026-03-01T10:30:45Z"))
        let separate = try DateTimeStubs(#"{"before": "now", "expectedOffset": -15, "expectedOffsetUnit": "days"}"#)
        #expect(await separate.header("2026-02-27T10:30:45Z"))
        #expect(await !separate.header("2026-03-01T10:30:45Z"))
        let minutes = try DateTimeStubs(#"{"after": "now", "expectedOffset": 27, "expectedOffsetUnit": "minutes"}"#)
        #expect(await minutes.header("2026-03-15T11:30:45Z"))
        #expect(await !minutes.header("2026-03-15T10:29:45Z"))
        for (spec, exact) in [
            ("now +3 days", "2026-03-18T10:30:45.5Z"), ("now -15 seconds", "2026-03-15T10:30:30.5Z"),
            ("now +2 hours", "2026-03-15T12:30:45.5Z"), ("NOW -1 MONTHS", "2026-02-15T10:30:45.5Z"),
            ("now +1 years", "2027-03-15T10:30:45.5Z"), ("+90 minutes", "2026-03-15T12:00:45.5Z"),
        ] {
            let stubs = try DateTimeStubs(#"{"equalToDateTime": "\#(spec)"}"#)
            #expect(await stubs.header(exact), "\(spec)")
            #expect(await !stubs.header(exact.replacingOccurrences(of: ".5Z", with: ".6Z")), "\(spec)")
        }
    }

    @Test("every truncation of the expected now")
    func truncateExpected() async throws {
        for (truncation, exact) in [
            ("first second of minute", "2026-03-15T10:30:00Z"), ("first minute of hour", "2026-03-15T10:00:00Z"),
            ("first hour of day", "2026-03-15T00:00:00Z"), ("first day of month", "2026-03-01T00:00:00Z"),
            ("first day of next month", "2026-04-01T00:00:00Z"), ("last day of month", "2026-03-31T00:00:00Z"),
            ("first day of year", "2026-01-01T00:00:00Z"), ("first day of next year", "2027-01-01T00:00:00Z"),
            ("last day of year", "2026-12-31T00:00:00Z"),
        ] {
            let stubs = try DateTimeStubs(#"{"equalToDateTime": "now", "truncateExpected": "\#(truncation)"}"#)
            #expect(await stubs.header(exact), "\(truncation)")
            #expect(await !stubs.header(exact.replacingOccurrences(of: ":00Z", with: ":01Z")), "\(truncation)")
        }
        let yearMonth = try DateTimeStubs(#"{"equalToDateTime": "now", "truncateExpected": "first day of month"}"#)
        #expect(await yearMonth.header("2026-03"))
        #expect(await !yearMonth.header("2026-02"))
        let year = try DateTimeStubs(#"{"equalToDateTime": "now", "truncateExpected": "first day of year"}"#)
        #expect(await year.header("2026"))
        #expect(await !year.header("2025"))
        let formattedYearMonth = try DateTimeStubs(
            #"{"equalToDateTime": "now", "truncateExpected": "first day of month", "actualFormat": "MM/yyyy"}"#
        )
        #expect(await formattedYearMonth.header("03/2026"))
        #expect(await !formattedYearMonth.header("2026-03"))
        let formattedYear = try DateTimeStubs(
            #"{"equalToDateTime": "now", "truncateExpected": "FIRST_DAY_OF_YEAR", "actualFormat": "yy"}"#
        )
        #expect(await formattedYear.header("26"))
        #expect(await !formattedYear.header("2026"))
    }

    @Test("truncateActual, and the offset before the truncation (applyTruncationLast)")
    func truncateActual() async throws {
        // Before the 16th of this month: the first of the month, then 15 days on.
        let stubs = try DateTimeStubs(
            #"{"before": "15 days", "truncateExpected": "first day of month", "truncateActual": "last day of month"}"#
        )
        #expect(await stubs.header("2026-02-15T10:30:45Z"), "a month ago: the 28th of February")
        #expect(await !stubs.header("2026-03-30T10:30:45Z"), "the second-last day of this month: its last day")
        #expect(await stubs.header("2026-03-15T10:30:45"), "local actual values are not truncated, as in WireMock")
        let day = try DateTimeStubs(
            #"{"equalToDateTime": "now", "truncateExpected": "first hour of day", "truncateActual": "first hour of day"}"#
        )
        #expect(await day.header("2026-03-15T00:00:00Z"))
        #expect(await day.header("2026-03-15T23:59:59Z"))
        #expect(await !day.header("2026-03-14T19:00:00Z"))

        // WireMock's own example: now 2024-02-01, one month on, last day of month.
        let february = Date(timeIntervalSince1970: 1_706_745_600)
        let last = try DateTimeStubs(
            #"{"equalToDateTime": "now", "expectedOffset": 1, "expectedOffsetUnit": "months", "truncateExpected": "last day of month", "applyTruncationLast": true}"#,
            now: february
        )
        #expect(await last.header("2024-03-31T00:00:00Z"))
        let first = try DateTimeStubs(
            #"{"equalToDateTime": "now", "expectedOffset": 1, "expectedOffsetUnit": "months", "truncateExpected": "last day of month"}"#,
            now: february
        )
        #expect(await first.header("2024-03-29T00:00:00Z"))
        #expect(await !first.header("2024-03-31T00:00:00Z"))
    }

    // MARK: Formats

    @Test("actualFormat: DateTimeFormatter patterns")
    func actualFormats() async throws {
        let day = try DateTimeStubs(#"{"before": "2021-06-14", "actualFormat": "dd/MM/yyyy"}"#)
        #expect(await day.header("01/06/2021"))
        #expect(await !day.header("01/07/2021"))
        #expect(await !day.header("1/06/2021"), "dd is two digits")
        #expect(await !day.header("2021-06-01"), "only the format is read")

        let cases: [(format: String, good: String, bad: String)] = [
            ("yyyy-MM-dd HH:mm:ss", "2021-06-14 15:15:15", "2021-06-14 15:15:16"),
            ("EEE, dd MMM yyyy HH:mm:ss z", "Mon, 14 Jun 2021 15:15:15 GMT", "Tue, 14 Jun 2021 15:15:15 GMT"),
            ("EEEE d MMMM yyyy h:mm:ss a", "Monday 14 June 2021 3:15:15 PM", "Monday 14 June 2021 3:15:15 AM"),
            ("yyyy-MM-dd'T'HH:mm:ssXXX", "2021-06-14T16:15:15+01:00", "2021-06-14T15:15:15+01:00"),
            ("yyyy-MM-dd'T'HH:mm:ssX", "2021-06-14T15:15:15Z", "2021-06-14T15:15:15+01"),
            ("yyyyMMddHHmmssZ", "20210614161515+0100", "20210614161515+0000"),
            ("dd.MM.yy HH:mm:ss.SSS z", "14.06.21 17:15:15.000 Europe/Berlin", "14.06.21 15:15:15.000 Europe/Berlin"),
            ("dd/MM/yyyy HH:mm:ss z", "14/06/2021 17:15:15 GMT+02:00", "14/06/2021 17:15:15 GMT"),
            ("d MMM yyyy HH:mm:ss zzz", "14 Jun 2021 08:15:15 PDT", "14 Jun 2021 15:15:15 CET"),
            ("ddMMyyyy HHmmss", "14062021 151515", "14062021 151516"),
            ("[EEE, ]dd MMM yyyy HH:mm:ss[ z]", "14 Jun 2021 15:15:15", "Tue, 14 Jun 2021 15:15:15 UTC"),
            (
                "'at' HH:mm:ss 'on' yyyy/M/d VV", "at 11:15:15 on 2021/6/14 America/New_York",
                "at 15:15:15 on 2021/6/14 America/New_York"
            ),
        ]
        for (format, good, bad) in cases {
            let stubs = try DateTimeStubs(#"{"equalToDateTime": "2021-06-14T15:15:15Z", "actualFormat": "\#(format)"}"#)
            #expect(await stubs.header(good), "\(format)")
            #expect(await !stubs.header(bad), "\(format)")
        }
        let fraction = try DateTimeStubs(
            #"{"equalToDateTime": "2021-06-14T15:15:15.25", "actualFormat": "yyyy-MM-dd HH:mm:ss.SSS"}"#
        )
        #expect(await fraction.header("2021-06-14 15:15:15.250"))
        #expect(await !fraction.header("2021-06-14 15:15:15.25"), "SSS is exactly three digits")
        let unencodedPlus = try DateTimeStubs(
            #"{"equalToDateTime": "2021-06-14T15:15:15Z", "actualFormat": "yyyy-MM-dd'T'HH:mm:ssXXX"}"#
        )
        #expect(
            await unencodedPlus.query("2021-06-14T16:15:15 01:00"),
            "a + turned into a space is read as +, as WireMock does"
        )
    }

    @Test("actualFormat unix (seconds) and epoch (milliseconds)")
    func epochFormats() async throws {
        let unix = try DateTimeStubs(#"{"equalToDateTime": "2021-06-14T12:13:14Z", "actualFormat": "unix"}"#)
        #expect(await unix.header("1623672794"))
        #expect(await !unix.header("1623672793"))
        #expect(await !unix.header("soon"))
        let epoch = try DateTimeStubs(#"{"equalToDateTime": "2021-06-14T12:13:14Z", "actualFormat": "epoch"}"#)
        #expect(await epoch.header("1623672794000"))
        #expect(await !epoch.header("1623672793990"))
        let beforeEpoch = try DateTimeStubs(#"{"equalToDateTime": "1969-12-31T23:59:58.5Z", "actualFormat": "epoch"}"#)
        #expect(await beforeEpoch.header("-1500"))
        #expect(await !beforeEpoch.header("-1499"))
    }

    @Test("in JSON bodies through matchesJsonPath, and combined with and")
    func jsonBody() async throws {
        let stubs = try DateTimeStubs(
            body: #"{"matchesJsonPath": {"expression": "$.due", "and": [{"after": "now"}, {"before": "now +7 days"}]}}"#
        )
        #expect(await stubs.body(#"{"due": "2026-03-20T09:00:00Z"}"#))
        #expect(await !stubs.body(#"{"due": "2026-03-25T09:00:00Z"}"#))
        #expect(await !stubs.body(#"{"due": "2026-03-10T09:00:00Z"}"#))
        #expect(await !stubs.body(#"{"due": "next week"}"#))
    }

    @Test("now is the system's calendar time when stubs are loaded by the registry")
    func systemNow() async throws {
        let root = try TemporaryStubRoot(mappings: [
            "d.json": DateTimeStubs.headerMapping(
                #"{"before": "now +1 days", "truncateActual": "first second of minute"}"#
            )
        ])
        let registry = try root.registry()
        let session = registry.makeSession()
        let today = ISO8601DateFormatter().string(from: Date())
        #expect(await answer(session, request("GET", "http://h/d", headers: ["X-Date": today])) == "yes")
        #expect(
            await answer(session, request("GET", "http://h/d", headers: ["X-Date": "2999-01-01T00:00:00Z"]))
                == unmatched
        )
        withExtendedLifetime(registry) {}
    }

    @Test("hasExactly and includes take date-time operators, as in WireMock's tests")
    func multiValue() async throws {
        let root = try TemporaryStubRoot(mappings: [
            "exactly.json":
                #"{"request": {"urlPath": "/exactly", "queryParameters": {"d": {"hasExactly": [{"equalToDateTime": "2024-03-27T00:00:00Z"}, {"equalToDateTime": "2024-03-28T00:00:00Z"}]}}}, "response": {"body": "yes"}}"#,
            "includes.json":
                #"{"request": {"urlPath": "/includes", "queryParameters": {"d": {"includes": [{"equalToDateTime": "2024-03-27T00:00:00Z"}, {"equalToDateTime": "2024-03-28T00:00:00Z"}]}}}, "response": {"body": "yes"}}"#,
        ])
        let registry = try root.registry()
        let session = registry.makeSession()
        #expect(await answer(session, "http://h/exactly?d=2024-03-27T00:00:00&d=2024-03-28T00:00:00") == "yes")
        #expect(await answer(session, "http://h/exactly?d=2024-03-27T00:00:00&d=2024-03-27T23:59:59") == unmatched)
        #expect(
            await answer(session, "http://h/includes?d=2024-03-27T00:00:00&d=2024-03-28T00:00:00&d=2024-03-29T00:00:00")
                == "yes"
        )
        #expect(
            await answer(session, "http://h/includes?d=2024-03-27T00:00:00&d=2024-03-27T23:59:59&d=2024-03-29T00:00:00")
                == unmatched
        )
        withExtendedLifetime(registry) {}
    }

    @Test("calendar arithmetic agrees with Foundation's Gregorian calendar in UTC")
    func calendarArithmetic() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        for seconds in stride(from: -12_000_000_000, through: 12_000_000_000, by: 7_777_777) {
            let date = CivilDateTime(epochSecond: seconds)
            let parts = calendar.dateComponents(
                [.year, .month, .day, .hour, .minute, .second, .weekday],
                from: Date(timeIntervalSince1970: TimeInterval(seconds))
            )
            #expect(
                [date.year, date.month, date.day, date.hour, date.minute, date.second] == [
                    parts.year, parts.month, parts.day, parts.hour, parts.minute, parts.second,
                ],
                "\(seconds)"
            )
            #expect(date.dayOfWeek == (parts.weekday! + 5) % 7 + 1, "\(seconds)")
            #expect(date.epochSecond == seconds)
            let later = try #require(
                calendar.date(byAdding: .month, value: 13, to: Date(timeIntervalSince1970: TimeInterval(seconds)))
            )
            #expect(date.addingMonths(13).epochSecond == Int(later.timeIntervalSince1970), "\(seconds)")
        }
    }

    // MARK: Reports

    @Test("near misses describe the operator and what the value was")
    func nearMiss() throws {
        let stubs = try DateTimeStubs(#"{"before": "2021-05-01T00:00:00Z"}"#)
        let request = InterceptedRequest(url: URL(string: "http://h/d")!, headers: ["X-Date": "2021-06-01T00:00:00Z"])
        guard case let .unmatched(report) = stubs.registry.answer(request) else {
            Issue.record("expected no match")
            return
        }
        #expect(report.text.contains("before 2021-05-01T00:00:00Z"), "\(report.text)")
        #expect(report.text.contains("2021-06-01T00:00:00Z"), "\(report.text)")

        let relative = try DateTimeStubs(
            #"{"after": "now", "expectedOffset": -2, "expectedOffsetUnit": "hours", "truncateExpected": "first hour of day", "actualFormat": "dd/MM/yyyy"}"#
        )
        let test = try #require(
            relative.registry.answer(
                InterceptedRequest(url: URL(string: "http://h/d")!, headers: ["X-Date": "2026-03-13"])
            ).unmatchedText
        )
        #expect(
            test.contains(
                "after now -2 hours (expected truncated to first hour of day) (actual format dd/MM/yyyy) (2026-03-14T22:00Z)"
            ),
            "\(test)"
        )
        #expect(test.contains("which is not a date-time in the format \"dd/MM/yyyy\""), "\(test)")
    }

    // MARK: Errors

    @Test(
        "invalid operands are load errors at the operand's line and column",
        arguments: [
            (
                #"{"before": "2021-06-wrongstuff:15:15"}"#, "before",
                #""2021-06-wrongstuff:15:15" is not a date-time WireMock can read"#
            ),
            (
                #"{"before": "now +3 day"}"#, "before",
                #"the unit "day" is not one WireMock knows; use seconds, minutes, hours, days, months or years"#
            ),
            (#"{"after": "now +99999999999 days"}"#, "after", #"the amount "+99999999999" is not a 32-bit integer"#),
            (#"{"after": true}"#, "after", "'after' takes a date-time"),
            (
                #"{"equalToDateTime": "now", "truncateExpected": "first day of week"}"#, "truncateExpected",
                #"'truncateExpected' must be one of "first second of minute""#
            ),
            (#"{"equalToDateTime": "now", "truncateActual": 3}"#, "truncateActual", "'truncateActual' must be one of"),
            (
                #"{"before": "now", "expectedOffset": 3, "expectedOffsetUnit": "weeks"}"#, "expectedOffsetUnit",
                "'expectedOffsetUnit' must be one of seconds, minutes, hours, days, months or years"
            ),
            (
                #"{"before": "now", "expectedOffset": "3", "expectedOffsetUnit": "days"}"#, "expectedOffset",
                "'expectedOffset' must be a whole number of units"
            ),
            (#"{"before": 2021}"#, "before", "'before' takes a date-time string"),
            (
                #"{"before": "2021-06-14", "actualFormat": "DDD/yyyy"}"#, "actualFormat",
                "uses 'DDD' (day of year), which swift-http-stubs does not support"
            ),
            (
                #"{"before": "2021-06-14", "actualFormat": "yyyy-MM-ddThh"}"#, "actualFormat",
                "'T' is not a DateTimeFormatter pattern letter"
            ),
            (
                #"{"before": "2021-06-14", "actualFormat": "yyyy-MM-dd'T"}"#, "actualFormat",
                "it ends inside a quoted literal"
            ),
            (#"{"before": "2021-06-14", "actualFormat": "ddd/MM"}"#, "actualFormat", "it has 3 'd' in a row"),
            (
                #"{"before": "2021-06-14", "actualFormat": "dd MMM yyyy ZZZZ"}"#, "actualFormat",
                "'ZZZZ' (localized offsets"
            ),
        ]
    )
    func invalidOperands(matcher: String, key: String, message: String) throws {
        let root = try TemporaryStubRoot(mappings: [
            "d.json":
                "{\n  \"request\": {\n    \"headers\": {\n      \"X-Date\": \(matcher)\n    }\n  },\n  \"response\": {}\n}\n"
        ])
        let load = root.load()
        let error = try #require(load.errors.first, "\(load.diagnostics)")
        #expect(load.errors.count == 1, "\(load.errors)")
        #expect(load.stubs.isEmpty)
        #expect(error.message.contains(message), "\(error)")
        #expect(error.jsonPath == "$.request.headers['X-Date'].\(key)", "\(error)")
        // The operand's value on line 4: column 17 is the matcher's brace.
        let column = try #require(matcher.range(of: "\"\(key)\": ")).upperBound.utf16Offset(in: matcher) + 17
        #expect(error.source.line == 4 && error.source.column == column, "\(error)")
        #expect(
            error.description.hasPrefix(
                "\(root.path("mappings/d.json")):4:\(column): error: $.request.headers['X-Date'].\(key): "
            ),
            "\(error)"
        )
    }

    @Test("modifiers WireMock ignores are warned about, and the stub loads")
    func ignoredModifiers() throws {
        for (matcher, key) in [
            (#"{"before": "2021-06-14T00:00:00Z", "truncateExpected": "first day of month"}"#, "truncateExpected"),
            (
                #"{"before": "2021-06-14T00:00:00Z", "expectedOffset": 3, "expectedOffsetUnit": "days"}"#,
                "expectedOffset"
            ),
            (#"{"before": "now", "expectedOffset": 3}"#, "expectedOffset"),
            (#"{"before": "now", "caseInsensitive": true}"#, "caseInsensitive"),
            (#"{"equalTo": "2021-06-14", "actualFormat": "dd/MM/yyyy"}"#, "actualFormat"),
        ] {
            let root = try TemporaryStubRoot(mappings: ["d.json": DateTimeStubs.headerMapping(matcher)])
            let load = root.load()
            #expect(load.errors.isEmpty, "\(load.errors)")
            #expect(load.stubs.count == 1)
            #expect(
                load.warnings.contains {
                    $0.jsonPath == "$.request.headers['X-Date'].\(key)" && $0.message.contains("ignored")
                },
                "\(matcher): \(load.warnings)"
            )
        }
    }
}

// MARK: - Support

/// One mapping that answers "yes" when its header, query parameter or body matcher passes, loaded
/// with "now" fixed, and a URLSession that asks it.
private struct DateTimeStubs {
    let root: TemporaryStubRoot
    let registry: StubRegistry
    let session: URLSession

    /// A mapping whose `X-Date` header and `d` query parameter (either) must pass `matcher`.
    init(_ matcher: String, now: Date = DateTimeOperatorTests.now) throws {
        try self.init(
            mappings: [
                "header.json": Self.headerMapping(matcher),
                "query.json":
                    #"{"request": {"urlPath": "/q", "queryParameters": {"d": \#(matcher)}}, "response": {"body": "yes"}}"#,
            ],
            now: now
        )
    }

    /// A mapping whose POST body must pass `matcher`.
    init(body matcher: String, now: Date = DateTimeOperatorTests.now) throws {
        try self.init(
            mappings: [
                "body.json":
                    #"{"request": {"method": "POST", "url": "/b", "bodyPatterns": [\#(matcher)]}, "response": {"body": "yes"}}"#
            ],
            now: now
        )
    }

    private init(mappings: [String: String], now: Date) throws {
        root = try TemporaryStubRoot(mappings: mappings)
        let load = StubFiles.load([root.path], wallClock: .fixed(now))
        guard load.refusals.isEmpty else { throw StubFileError(diagnostics: load.diagnostics) }
        #expect(load.warnings.isEmpty, "\(load.warnings)")
        registry = StubRegistry()
        registry.add(contentsOf: load.stubs)
        session = registry.makeSession()
    }

    static func headerMapping(_ matcher: String) -> String {
        #"{"request": {"urlPath": "/d", "headers": {"X-Date": \#(matcher)}}, "response": {"body": "yes"}}"#
    }

    /// Whether a GET with `X-Date: value` (none when `nil`) is answered.
    func header(_ value: String?) async -> Bool {
        await answer(session, request("GET", "http://h/d", headers: value.map { ["X-Date": $0] } ?? [:])) == "yes"
    }

    /// Whether a GET with the query parameter `d=value` (percent-encoded) is answered.
    func query(_ value: String) async -> Bool {
        var components = URLComponents(string: "http://h/q")!
        components.queryItems = [URLQueryItem(name: "d", value: value)]
        return await answer(session, components.url!.absoluteString) == "yes"
    }

    /// Whether a POST of `json` is answered.
    func body(_ json: String) async -> Bool {
        await answer(session, request("POST", "http://h/b", body: json, headers: ["Content-Type": "application/json"]))
            == "yes"
    }
}

extension StubAnswer {
    /// The unmatched-request report's text, if no stub matched.
    fileprivate var unmatchedText: String? {
        if case let .unmatched(report) = self { return report.text }
        return nil
    }
}
