import Foundation
import Testing

@testable import HTTPStubs
@testable import HTTPStubsFiles
@testable import HTTPStubsLanguages
@testable import HTTPStubsTemplates

/// The date-time operators against WireMock 3 itself: WireMock 3's own `BeforeDateTimePattern`,
/// `AfterDateTimePattern`, `EqualToDateTimePattern`, `AbstractDateTimePattern`, `DateTimeParser`,
/// `DateTimeOffset`, `DateTimeTruncation` and `DateTimeUnit`, compiled from WireMock's sources (commit
/// 9e93e34) beside the WireMock 2.35.1 jar and run on OpenJDK 17 in UTC, answered each row below:
/// operator, expected value, actualFormat, truncateExpected, truncateActual, applyTruncationLast,
/// expectedOffset, expectedOffsetUnit, actual value, and WireMock's answer (`error` when it refused
/// the pattern). "Now" was 2026-11-23T22:55:33Z when the answers were recorded; the loader's wall clock is fixed there.
@Suite("Date-time operators against WireMock 3's answers")
struct DateTimeWireMockTests {
    static let now = Date(timeIntervalSince1970: 1_795_474_533)  // 2026-11-23T22:55:33Z

    @Test("every recorded answer is WireMock 3's")
    func recorded() throws {
        var compared = 0
        for line in Self.recorded.split(separator: "\n") {
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            try #require(columns.count == 10, "\(line)")
            var matcher: [String: Any] = [columns[0]: columns[1]]
            for (index, key) in [
                (2, "actualFormat"), (3, "truncateExpected"), (4, "truncateActual"), (7, "expectedOffsetUnit"),
            ] where !columns[index].isEmpty {
                matcher[key] = columns[index]
            }
            if columns[5] == "true" { matcher["applyTruncationLast"] = true }
            if let offset = Int(columns[6]) { matcher["expectedOffset"] = offset }
            let data = try JSONSerialization.data(withJSONObject: matcher, options: [.sortedKeys])
            let decoder = WireMockMappingReader(
                path: "row.json",
                document: try JSONValue.parseDocument(data),
                wallClock: .fixed(Self.now)
            )
            let test = decoder.valueTest(decoder.document.root, at: .root)
            let (value, answer) = (columns[8], columns[9])
            let row = "\(String(decoding: data, as: UTF8.self)) with \(quoted(value))"
            if answer == "error" {
                #expect(test == nil, "WireMock refuses \(row)")
            } else if columns[1] == "2021-06-wrongstuff:15:15" {
                // WireMock loads an expected value it cannot read and never matches; this is a load error here.
                #expect(test == nil && answer == "false", "\(row)")
            } else {
                let verdict = try #require(test, "\(row): \(decoder.diagnostics)").test(value)
                #expect(verdict.isMatch == (answer == "true"), "\(row): WireMock says \(answer); \(verdict.detail)")
            }
            compared += 1
        }
        #expect(compared == 184)
    }

    private static let recorded = """
        before\t2021-06-14T15:15:15Z\t\t\t\t\t\t\t2021-06-01T15:15:15Z\ttrue
        before\t2021-06-14T15:15:15Z\t\t\t\t\t\t\t2021-07-01T23:59:59Z\tfalse
        before\t2021-06-14T15:15:15Z\t\t\t\t\t\t\t2021-06-14T15:15:15Z\tfalse
        before\t2021-06-14T15:15:15Z\t\t\t\t\t\t\t2021-06-01T15:15:15\ttrue
        before\t2021-06-14T15:15:15Z\t\t\t\t\t\t\t2021-07-01T23:59:59\tfalse
        before\t2021-06-14T15:15:15Z\t\t\t\t\t\t\tTue, 01 Jun 2021 15:16:17 GMT\ttrue
        before\t2021-06-14T15:15:15Z\t\t\t\t\t\t\tThu, 01 Jul 2021 15:16:17 GMT\tfalse
        before\t2021-06-14T15:15:15Z\t\t\t\t\t\t\tTuesday, 01-Jun-21 14:14:14 GMT\ttrue
        before\t2021-06-14T15:15:15Z\t\t\t\t\t\t\tThursday, 01-Jul-21 15:16:17 GMT\tfalse
        before\t2021-06-14T15:15:15Z\t\t\t\t\t\t\t2021-06-14T15:15:15+01:00[Europe/London]\ttrue
        before\t2021-06-14T15:15:15Z\t\t\t\t\t\t\t2021-06-14T16:15:15+01:00[Europe/London]\tfalse
        before\t2021-06-14T15:15:15Z\t\t\t\t\t\t\t2021-06-01T15:15:blahsdfj123\tfalse
        before\t2021-06-14T15:15:15Z\t\t\t\t\t\t\t2021-06-14T16:15:15 01:00\tfalse
        before\t2021-06-14T15:15:15Z\t\t\t\t\t\t\t2021-06-14T14:15:15-01\tfalse
        before\t2021-06-14T15:15:15Z\t\t\t\t\t\t\t2021-06\ttrue
        before\t2021-06-14T15:15:15Z\t\t\t\t\t\t\t2021\ttrue
        before\t2021-06-14T15:15:15Z\t\t\t\t\t\t\t2021-06-31T00:00:00Z\tfalse
        before\t2021-06-14T15:15:15Z\t\t\t\t\t\t\tMon, 14 Jun 2021 15:15:14 +0000\ttrue
        before\t2021-06-14T15:15:15Z\t\t\t\t\t\t\tMon, 14 Jun 2021 15:15:15 GMT\tfalse
        before\t2021-06-14T01:01:01Z\t\t\t\t\t\t\tTue Jun  1 01:01:01 2021\ttrue
        before\t2021-06-14T01:01:01Z\t\t\t\t\t\t\tThu Jul  1 01:01:01 2021\tfalse
        before\t2021-06-14T01:01:01Z\t\t\t\t\t\t\tThu Jun 10 01:01:01 2021\ttrue
        before\t2021-06-14T01:01:01Z\t\t\t\t\t\t\tSat Jul 10 01:01:01 2021\tfalse
        before\t2021-06-14T01:01:01Z\t\t\t\t\t\t\tWed Jun 10 01:01:01 2021\tfalse
        before\t2021-06-14T15:15:15\t\t\t\t\t\t\t2021-06-01T15:15:15\ttrue
        before\t2021-06-14T15:15:15\t\t\t\t\t\t\t2021-07-01T23:59:59\tfalse
        before\t2021-06-14T15:15:15\t\t\t\t\t\t\t2021-06-01T15:15:15Z\ttrue
        before\t2021-06-14T15:15:15\t\t\t\t\t\t\t2021-07-01T23:59:59Z\tfalse
        before\t2021-06-14T15:15:15\t\t\t\t\t\t\t2021-06-14T15:15:14-08:00\ttrue
        before\t2021-06-14T15:15:15\t\t\t\t\t\t\t2021-06-14\ttrue
        before\t2021-06-14T15:15:15\t\t\t\t\t\t\t2021-06\ttrue
        before\t2021-06-14T15:15:15\t\t\t\t\t\t\t2022\tfalse
        after\t2021-06-14T12:13:14Z\t\t\t\t\t\t\t2022-06-14T12:13:14Z\ttrue
        after\t2021-06-14T12:13:14Z\t\t\t\t\t\t\t2020-06-14T12:13:14Z\tfalse
        after\t2021-06-14T12:13:14Z\t\t\t\t\t\t\t2021-06-14T12:13:14Z\tfalse
        after\t2021-06-14T12:13:14Z\t\t\t\t\t\t\t2021-06-14T12:13:14.001Z\ttrue
        after\t2021-06-14T12:13:14Z\t\t\t\t\t\t\t2021-06-14T12:13:14\tfalse
        after\t2021-06-14T12:13:14\t\t\t\t\t\t\t2022-06-14T12:13:14\ttrue
        after\t2021-06-14T12:13:14\t\t\t\t\t\t\t2020-06-14T12:13:14\tfalse
        after\t2021-06-14T12:13:14\t\t\t\t\t\t\t2022-06-14T12:13:14Z\ttrue
        after\t2021-06-14T12:13:14\t\t\t\t\t\t\t2020-06-14T12:13:14Z\tfalse
        equalToDateTime\t2021-06-24T13:40:27+01:00\t\t\t\t\t\t\t2021-06-24T12:40:27Z\ttrue
        equalToDateTime\t2021-06-24T13:40:27+01:00\t\t\t\t\t\t\t2021-06-24T13:40:27Z\tfalse
        equalToDateTime\t2021-06-24T13:40:27+01:00\t\t\t\t\t\t\tThu, 24 Jun 2021 12:40:27 GMT\ttrue
        equalToDateTime\t2021-06-24T13:40:27+01:00\t\t\t\t\t\t\t2021-06-24T12:40:27\ttrue
        equalToDateTime\t2021-06-24T13:40:27+01:00\t\t\t\t\t\t\t2021-06-24T13:40:27+01:00\ttrue
        equalToDateTime\t2021-06-14T12:13:14\t\t\t\t\t\t\t2021-06-14T12:13:14\ttrue
        equalToDateTime\t2021-06-14T12:13:14\t\t\t\t\t\t\t1921-06-14T12:13:14\tfalse
        equalToDateTime\t2021-06-14T12:13:14\t\t\t\t\t\t\t2021-06-14T12:13:14Z\ttrue
        equalToDateTime\t2021-06-14T12:13:14\t\t\t\t\t\t\t2021-06-14T12:13:14+05:00\ttrue
        equalToDateTime\t2021-06-14T12:13:14\t\t\t\t\t\t\t2021-06-14T12:13:15Z\tfalse
        equalToDateTime\tMon, 14 Jun 2021 15:15:15 GMT\t\t\t\t\t\t\t2021-06-14T15:15:15Z\ttrue
        equalToDateTime\tMon, 14 Jun 2021 15:15:15 GMT\t\t\t\t\t\t\t2021-06-14T00:00:00\tfalse
        equalToDateTime\t2021-06-14\t\t\t\t\t\t\t2021-06-14T15:15:15Z\tfalse
        equalToDateTime\t2021-06-14\t\t\t\t\t\t\t2021-06-14T00:00:00\ttrue
        equalToDateTime\t2021-06\t\t\t\t\t\t\t2021-06-14T15:15:15Z\tfalse
        equalToDateTime\t2021-06\t\t\t\t\t\t\t2021-06-14T00:00:00\tfalse
        equalToDateTime\t2021\t\t\t\t\t\t\t2021-06-14T15:15:15Z\tfalse
        equalToDateTime\t2021\t\t\t\t\t\t\t2021-06-14T00:00:00\tfalse
        equalToDateTime\t2021-06-14T15:15\t\t\t\t\t\t\t2021-06-14T15:15:15Z\tfalse
        equalToDateTime\t2021-06-14T15:15\t\t\t\t\t\t\t2021-06-14T00:00:00\tfalse
        equalToDateTime\t2021-06-14T16:15:15+01:00[Europe/London]\t\t\t\t\t\t\t2021-06-14T15:15:15Z\ttrue
        equalToDateTime\t2021-06-14T16:15:15+01:00[Europe/London]\t\t\t\t\t\t\t2021-06-14T00:00:00\tfalse
        equalToDateTime\t2021-06-14T16:15:15 01:00\t\t\t\t\t\t\t2021-06-14T15:15:15Z\ttrue
        equalToDateTime\t2021-06-14T16:15:15 01:00\t\t\t\t\t\t\t2021-06-14T00:00:00\tfalse
        before\t2021-06-14\tdd/MM/yyyy\t\t\t\t\t\t01/06/2021\ttrue
        before\t2021-06-14\tdd/MM/yyyy\t\t\t\t\t\t01/07/2021\tfalse
        before\t2021-06-14\tdd/MM/yyyy\t\t\t\t\t\t1/06/2021\tfalse
        equalToDateTime\t2021-06-14T15:15:15Z\tyyyy-MM-dd HH:mm:ss\t\t\t\t\t\t2021-06-14 15:15:15\ttrue
        equalToDateTime\t2021-06-14T15:15:15Z\tyyyy-MM-dd HH:mm:ss\t\t\t\t\t\t2021-06-14 15:15:16\tfalse
        equalToDateTime\t2021-06-14T15:15:15\tyyyy-MM-dd HH:mm:ss\t\t\t\t\t\t2021-06-14 15:15:15\ttrue
        equalToDateTime\t2021-06-14\tyyyy-MM-dd HH:mm:ss\t\t\t\t\t\t2021-06-14 15:15:15\tfalse
        equalToDateTime\t2021-06-14T15:15:15Z\tEEE, dd MMM yyyy HH:mm:ss z\t\t\t\t\t\tMon, 14 Jun 2021 15:15:15 GMT\ttrue
        equalToDateTime\t2021-06-14T15:15:15Z\tEEE, dd MMM yyyy HH:mm:ss z\t\t\t\t\t\tTue, 14 Jun 2021 15:15:15 GMT\tfalse
        equalToDateTime\t2021-06-14T15:15:15\tEEE, dd MMM yyyy HH:mm:ss z\t\t\t\t\t\tMon, 14 Jun 2021 15:15:15 GMT\ttrue
        equalToDateTime\t2021-06-14\tEEE, dd MMM yyyy HH:mm:ss z\t\t\t\t\t\tMon, 14 Jun 2021 15:15:15 GMT\tfalse
        equalToDateTime\t2021-06-14T15:15:15Z\tEEEE d MMMM yyyy h:mm:ss a\t\t\t\t\t\tMonday 14 June 2021 3:15:15 PM\ttrue
        equalToDateTime\t2021-06-14T15:15:15Z\tEEEE d MMMM yyyy h:mm:ss a\t\t\t\t\t\tMonday 14 June 2021 3:15:15 AM\tfalse
        equalToDateTime\t2021-06-14T15:15:15\tEEEE d MMMM yyyy h:mm:ss a\t\t\t\t\t\tMonday 14 June 2021 3:15:15 PM\ttrue
        equalToDateTime\t2021-06-14\tEEEE d MMMM yyyy h:mm:ss a\t\t\t\t\t\tMonday 14 June 2021 3:15:15 PM\tfalse
        equalToDateTime\t2021-06-14T15:15:15Z\tyyyy-MM-dd'T'HH:mm:ssXXX\t\t\t\t\t\t2021-06-14T16:15:15+01:00\ttrue
        equalToDateTime\t2021-06-14T15:15:15Z\tyyyy-MM-dd'T'HH:mm:ssXXX\t\t\t\t\t\t2021-06-14T15:15:15+01:00\tfalse
        equalToDateTime\t2021-06-14T15:15:15\tyyyy-MM-dd'T'HH:mm:ssXXX\t\t\t\t\t\t2021-06-14T16:15:15+01:00\tfalse
        equalToDateTime\t2021-06-14\tyyyy-MM-dd'T'HH:mm:ssXXX\t\t\t\t\t\t2021-06-14T16:15:15+01:00\tfalse
        equalToDateTime\t2021-06-14T15:15:15Z\tyyyy-MM-dd'T'HH:mm:ssXXX\t\t\t\t\t\t2021-06-14T16:15:15 01:00\ttrue
        equalToDateTime\t2021-06-14T15:15:15Z\tyyyy-MM-dd'T'HH:mm:ssXXX\t\t\t\t\t\t2021-06-14T15:15:15 01:00\tfalse
        equalToDateTime\t2021-06-14T15:15:15\tyyyy-MM-dd'T'HH:mm:ssXXX\t\t\t\t\t\t2021-06-14T16:15:15 01:00\tfalse
        equalToDateTime\t2021-06-14\tyyyy-MM-dd'T'HH:mm:ssXXX\t\t\t\t\t\t2021-06-14T16:15:15 01:00\tfalse
        equalToDateTime\t2021-06-14T15:15:15Z\tyyyyMMddHHmmssZ\t\t\t\t\t\t20210614161515+0100\ttrue
        equalToDateTime\t2021-06-14T15:15:15Z\tyyyyMMddHHmmssZ\t\t\t\t\t\t20210614161515+0000\tfalse
        equalToDateTime\t2021-06-14T15:15:15\tyyyyMMddHHmmssZ\t\t\t\t\t\t20210614161515+0100\tfalse
        equalToDateTime\t2021-06-14\tyyyyMMddHHmmssZ\t\t\t\t\t\t20210614161515+0100\tfalse
        equalToDateTime\t2021-06-14T15:15:15Z\tdd.MM.yy HH:mm:ss.SSS z\t\t\t\t\t\t14.06.21 17:15:15.000 Europe/Berlin\ttrue
        equalToDateTime\t2021-06-14T15:15:15Z\tdd.MM.yy HH:mm:ss.SSS z\t\t\t\t\t\t14.06.21 15:15:15.000 Europe/Berlin\tfalse
        equalToDateTime\t2021-06-14T15:15:15\tdd.MM.yy HH:mm:ss.SSS z\t\t\t\t\t\t14.06.21 17:15:15.000 Europe/Berlin\tfalse
        equalToDateTime\t2021-06-14\tdd.MM.yy HH:mm:ss.SSS z\t\t\t\t\t\t14.06.21 17:15:15.000 Europe/Berlin\tfalse
        equalToDateTime\t2021-06-14T15:15:15Z\tdd/MM/yyyy HH:mm:ss z\t\t\t\t\t\t14/06/2021 17:15:15 GMT+02:00\ttrue
        equalToDateTime\t2021-06-14T15:15:15Z\tdd/MM/yyyy HH:mm:ss z\t\t\t\t\t\t14/06/2021 17:15:15 GMT\tfalse
        equalToDateTime\t2021-06-14T15:15:15\tdd/MM/yyyy HH:mm:ss z\t\t\t\t\t\t14/06/2021 17:15:15 GMT+02:00\tfalse
        equalToDateTime\t2021-06-14\tdd/MM/yyyy HH:mm:ss z\t\t\t\t\t\t14/06/2021 17:15:15 GMT+02:00\tfalse
        equalToDateTime\t2021-06-14T15:15:15Z\td MMM yyyy HH:mm:ss zzz\t\t\t\t\t\t14 Jun 2021 08:15:15 PDT\ttrue
        equalToDateTime\t2021-06-14T15:15:15Z\td MMM yyyy HH:mm:ss zzz\t\t\t\t\t\t14 Jun 2021 15:15:15 CET\tfalse
        equalToDateTime\t2021-06-14T15:15:15\td MMM yyyy HH:mm:ss zzz\t\t\t\t\t\t14 Jun 2021 08:15:15 PDT\tfalse
        equalToDateTime\t2021-06-14\td MMM yyyy HH:mm:ss zzz\t\t\t\t\t\t14 Jun 2021 08:15:15 PDT\tfalse
        equalToDateTime\t2021-06-14T15:15:15Z\t[EEE, ]dd MMM yyyy HH:mm:ss[ z]\t\t\t\t\t\t14 Jun 2021 15:15:15\ttrue
        equalToDateTime\t2021-06-14T15:15:15Z\t[EEE, ]dd MMM yyyy HH:mm:ss[ z]\t\t\t\t\t\tTue, 14 Jun 2021 15:15:15 UTC\tfalse
        equalToDateTime\t2021-06-14T15:15:15\t[EEE, ]dd MMM yyyy HH:mm:ss[ z]\t\t\t\t\t\t14 Jun 2021 15:15:15\ttrue
        equalToDateTime\t2021-06-14\t[EEE, ]dd MMM yyyy HH:mm:ss[ z]\t\t\t\t\t\t14 Jun 2021 15:15:15\tfalse
        equalToDateTime\t2021-06-14T15:15:15Z\t'at' HH:mm:ss 'on' yyyy/M/d VV\t\t\t\t\t\tat 11:15:15 on 2021/6/14 America/New_York\ttrue
        equalToDateTime\t2021-06-14T15:15:15Z\t'at' HH:mm:ss 'on' yyyy/M/d VV\t\t\t\t\t\tat 15:15:15 on 2021/6/14 America/New_York\tfalse
        equalToDateTime\t2021-06-14T15:15:15\t'at' HH:mm:ss 'on' yyyy/M/d VV\t\t\t\t\t\tat 11:15:15 on 2021/6/14 America/New_York\tfalse
        equalToDateTime\t2021-06-14\t'at' HH:mm:ss 'on' yyyy/M/d VV\t\t\t\t\t\tat 11:15:15 on 2021/6/14 America/New_York\tfalse
        equalToDateTime\t2021-06-14T15:15:15Z\tdd/MM/yyyy\t\t\t\t\t\t14/06/2021\tfalse
        equalToDateTime\t2021-06-14T15:15:15Z\tdd/MM/yyyy\t\t\t\t\t\t15/06/2021\tfalse
        equalToDateTime\t2021-06-14T15:15:15\tdd/MM/yyyy\t\t\t\t\t\t14/06/2021\tfalse
        equalToDateTime\t2021-06-14\tdd/MM/yyyy\t\t\t\t\t\t14/06/2021\ttrue
        equalToDateTime\t2021-06-14T15:15:15Z\tMM/yyyy\t\t\t\t\t\t06/2021\tfalse
        equalToDateTime\t2021-06-14T15:15:15Z\tMM/yyyy\t\t\t\t\t\t13/2021\tfalse
        equalToDateTime\t2021-06-14T15:15:15\tMM/yyyy\t\t\t\t\t\t06/2021\tfalse
        equalToDateTime\t2021-06-14\tMM/yyyy\t\t\t\t\t\t06/2021\tfalse
        equalToDateTime\t2021-06-14T12:13:14Z\tunix\t\t\t\t\t\t1623672794\ttrue
        equalToDateTime\t2021-06-14T12:13:14Z\tunix\t\t\t\t\t\t1623672793\tfalse
        equalToDateTime\t2021-06-14T12:13:14Z\tepoch\t\t\t\t\t\t1623672794000\ttrue
        equalToDateTime\t2021-06-14T12:13:14Z\tepoch\t\t\t\t\t\t1623672793990\tfalse
        equalToDateTime\t2021-06-14T12:13:14Z\tUNIX\t\t\t\t\t\t1623672794\ttrue
        equalToDateTime\t2021-06-14T12:13:14Z\tunix\t\t\t\t\t\t+1623672794\ttrue
        equalToDateTime\t2021-06-14T00:00:00Z\t\t\tfirst hour of day\t\t\t\t2021-06-14T15:15:15Z\ttrue
        equalToDateTime\t2021-06-14T00:00:00Z\t\t\tfirst hour of day\t\t\t\t2021-06-14T15:15:15\tfalse
        equalToDateTime\t2021-06-14T00:00:00Z\t\tfirst hour of day\t\t\t\t\t2021-06-14T15:15:15Z\tfalse
        equalToDateTime\t2021-06-01T00:00:00\t\t\tFIRST_DAY_OF_MONTH\t\t\t\t2021-06-14T15:15:15+05:00\ttrue
        before\t2021-06-01T00:00:00Z\t\t\tfirst day of month\t\t\t\t2021-06-14T15:15:15+01:00[Europe/London]\ttrue
        before\t2021-06-01T00:00:00Z\t\t\tfirst day of month\t\t\t\t2021-06-01T00:30:00+01:00[Europe/London]\ttrue
        before\tnow\t\t\t\t\t\t\t2026-11-21T22:55:33Z\ttrue
        before\tnow\t\t\t\t\t\t\t2026-11-24T02:55:33Z\tfalse
        before\tnow -5 days\t\t\t\t\t\t\t2026-11-16T22:55:33Z\ttrue
        before\tnow -5 days\t\t\t\t\t\t\t2026-11-19T22:55:33Z\tfalse
        before\t-15 days\t\t\t\t\t\t\t2026-11-07T22:55:33Z\ttrue
        before\t-15 days\t\t\t\t\t\t\t2026-11-09T22:55:33Z\tfalse
        before\t15 days\t\t\t\t\t\t\t2026-12-07T22:55:33Z\ttrue
        before\tNOW +15 DAYS\t\t\t\t\t\t\t2026-12-09T22:55:33Z\tfalse
        before\tnow +3 hours\t\t\t\t\t\t\t2026-11-24T00:55:33Z\ttrue
        before\tnow +3 hours\t\t\t\t\t\t\t2026-11-24T02:55:33Z\tfalse
        before\tnow -90 minutes\t\t\t\t\t\t\t2026-11-23T21:15:33Z\ttrue
        before\tnow -90 minutes\t\t\t\t\t\t\t2026-11-23T21:35:33Z\tfalse
        before\tnow +30 seconds\t\t\t\t\t\t\t2026-11-23T22:55:53Z\ttrue
        before\tnow +1 months\t\t\t\t\t\t\t2026-12-18T22:55:33Z\ttrue
        before\tnow +1 years\t\t\t\t\t\t\t2027-11-18T22:55:33Z\ttrue
        before\tnow +1 years\t\t\t\t\t\t\t2027-11-28T22:55:33Z\tfalse
        after\tnow\t\t\t\t\t27\tminutes\t2026-11-23T23:55:33Z\ttrue
        after\tnow\t\t\t\t\t27\tminutes\t2026-11-23T22:54:33Z\tfalse
        before\tnow\t\t\t\t\t-15\tdays\t2026-11-07T22:55:33Z\ttrue
        before\tnow\t\t\t\t\t-15\tdays\t2026-11-09T22:55:33Z\tfalse
        before\tnow +1 days\t\t\t\t\t-15\tdays\t2026-11-07T22:55:33Z\ttrue
        before\tnow\t\t\t\t\t-15\t\t2026-11-22T22:55:33Z\ttrue
        before\tnow +3 day\t\t\t\t\t\t\t2021-06-14T15:15:15Z\terror
        before\tnow +3 weeks\t\t\t\t\t\t\t2021-06-14T15:15:15Z\terror
        before\t2021-06-wrongstuff:15:15\t\t\t\t\t\t\t2021-06-14T15:15:15Z\tfalse
        before\tnow now 3 days\t\t\t\t\t\t\t2021-06-14T15:15:15Z\terror
        before\tnow +99999999999 days\t\t\t\t\t\t\t2021-06-14T15:15:15Z\terror
        before\t2021-06-14\tyyyy-MM-ddThh\t\t\t\t\t\t14/06/2021\terror
        before\t2021-06-14\tddd/MM\t\t\t\t\t\t14/06/2021\terror
        before\tnow\t\tfirst day of week\t\t\t\t\t2021-06-14T15:15:15Z\terror
        equalToDateTime\tnow\t\tfirst hour of day\t\t\t\t\t2026-11-23T00:00:00Z\ttrue
        equalToDateTime\tnow\t\tfirst hour of day\t\t\t\t\t2026-11-23T00:00:01Z\tfalse
        equalToDateTime\tnow\t\tfirst day of month\t\t\t\t\t2026-11-01T00:00:00Z\ttrue
        equalToDateTime\tnow\t\tfirst day of month\t\t\t\t\t2026-11-01T00:00:01Z\tfalse
        equalToDateTime\tnow\t\tfirst day of next month\t\t\t\t\t2026-12-01T00:00:00Z\ttrue
        equalToDateTime\tnow\t\tfirst day of next month\t\t\t\t\t2026-12-01T00:00:01Z\tfalse
        equalToDateTime\tnow\t\tlast day of month\t\t\t\t\t2026-11-30T00:00:00Z\ttrue
        equalToDateTime\tnow\t\tlast day of month\t\t\t\t\t2026-11-30T00:00:01Z\tfalse
        equalToDateTime\tnow\t\tfirst day of year\t\t\t\t\t2026-01-01T00:00:00Z\ttrue
        equalToDateTime\tnow\t\tfirst day of year\t\t\t\t\t2026-01-01T00:00:01Z\tfalse
        equalToDateTime\tnow\t\tfirst day of next year\t\t\t\t\t2027-01-01T00:00:00Z\ttrue
        equalToDateTime\tnow\t\tfirst day of next year\t\t\t\t\t2027-01-01T00:00:01Z\tfalse
        equalToDateTime\tnow\t\tlast day of year\t\t\t\t\t2026-12-31T00:00:00Z\ttrue
        equalToDateTime\tnow\t\tlast day of year\t\t\t\t\t2026-12-31T00:00:01Z\tfalse
        equalToDateTime\tnow\t\tfirst day of month\t\t\t\t\t2026-11\ttrue
        equalToDateTime\tnow\tMM/yyyy\tfirst day of month\t\t\t\t\t11/2026\ttrue
        equalToDateTime\tnow\tyy\tfirst day of year\t\t\t\t\t26\ttrue
        before\t15 days\t\tfirst day of month\tlast day of month\t\t\t\t2026-10-23T22:55:33Z\ttrue
        equalToDateTime\tnow\t\tfirst hour of day\tfirst hour of day\t\t\t\t2026-11-23T05:00:00Z\ttrue
        equalToDateTime\tnow\t\tfirst hour of day\tfirst hour of day\t\t\t\t2026-11-22T19:00:00Z\tfalse
        equalToDateTime\tnow\t\tlast day of month\t\ttrue\t1\tmonths\t2026-12-31T00:00:00Z\ttrue
        equalToDateTime\tnow\t\tfirst day of month\t\tfalse\t0\tdays\t2026-11-01T00:00:00Z\ttrue
        """
}
