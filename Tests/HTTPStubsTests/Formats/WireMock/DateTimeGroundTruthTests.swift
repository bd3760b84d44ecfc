import Foundation
import Testing

@testable import HTTPStubs
@testable import HTTPStubsFiles
@testable import HTTPStubsLanguages
@testable import HTTPStubsTemplates

/// How actual date-time values are read, checked against `java.time` itself: each row is a format
/// (empty for WireMock's default parsers), a value, and what OpenJDK 17.0.15 made of it when parsed
/// in WireMock 3's sequence (`DateTimeParser.ZONED_PARSERS` with its `+` restored from a space,
/// then `LocalDateTime`, `LocalDate`, `YearMonth`, `Year`): the zoned result as UTC, and the local
/// result, `-` for none. Rows whose pattern this toolkit refuses (`kk`) must be refused at load.
@Suite("Date-time parsing against java.time")
struct DateTimeGroundTruthTests {
    @Test("every recorded value is read as java.time read it")
    func recorded() throws {
        var compared = 0
        for line in Self.recorded.split(separator: "\n") {
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            try #require(columns.count == 4, "\(line)")
            let (format, value, zoned, local) = (columns[0], columns[1], columns[2], columns[3])
            var pattern = DateTimePattern(comparison: .before, expected: .now(.none), expectedText: "now")
            if !format.isEmpty {
                guard let compiled = try? DateTimeFormat(pattern: format) else {
                    #expect(format.contains("k"), "\(format) is refused")
                    continue
                }
                pattern.actualFormat = .pattern(compiled, format)
            }
            let actual = pattern.actual(value)
            #expect(
                actual.zoned.map { Self.text($0.utc) } ?? "-" == zoned,
                "zoned: \(format.isEmpty ? "default" : format) \(value)"
            )
            #expect(
                actual.local.map(Self.text) ?? "-" == local,
                "local: \(format.isEmpty ? "default" : format) \(value)"
            )
            compared += 1
        }
        #expect(compared > 80)
    }

    private static func text(_ date: CivilDateTime) -> String {
        func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        // As Java's %04d prints a year: -44 is -044.
        let year = date.year < 0 ? "-" + pad(-date.year, 3) : pad(date.year, 4)
        return
            "\(year)-\(pad(date.month, 2))-\(pad(date.day, 2)) \(pad(date.hour, 2)):\(pad(date.minute, 2)):\(pad(date.second, 2)).\(pad(date.nanosecond, 9))"
    }

    /// format, value, zoned (as UTC), local: recorded with OpenJDK 17.0.15.
    private static let recorded = """
        \t2021-06-14T15:15:15Z\t2021-06-14 15:15:15.000000000\t-
        \t2021-06-14T15:15:15.123456789Z\t2021-06-14 15:15:15.123456789\t-
        \t2021-06-14T15:15Z\t2021-06-14 15:15:00.000000000\t-
        \t2021-06-14t15:15:15z\t2021-06-14 15:15:15.000000000\t-
        \t2021-06-14T15:15:15+01:00\t2021-06-14 14:15:15.000000000\t-
        \t2021-06-14T15:15:15+0100\t-\t-
        \t2021-06-14T15:15:15+01\t2021-06-14 14:15:15.000000000\t-
        \t2021-06-14T15:15:15+01:00:30\t2021-06-14 14:14:45.000000000\t-
        \t2021-06-14T15:15:15+01:00[Europe/London]\t2021-06-14 14:15:15.000000000\t-
        \t2021-06-14T15:15:15Z[UTC]\t2021-06-14 15:15:15.000000000\t-
        \t2021-06-14T15:15:15 01:00\t2021-06-14 14:15:15.000000000\t-
        \t2021-06-14T15:15:15.5 01:00\t2021-06-14 14:15:15.500000000\t-
        \t2021-06-14T15:15:15\t-\t2021-06-14 15:15:15.000000000
        \t2021-06-14T15:15\t-\t2021-06-14 15:15:00.000000000
        \t2021-06-14 15:15:15\t-\t-
        \t2021-06-14\t-\t2021-06-14 00:00:00.000000000
        \t2021-06-31\t-\t-
        \t2021-02-29\t-\t-
        \t2021-06\t-\t2021-06-01 00:00:00.000000000
        \t2021\t-\t2021-01-01 00:00:00.000000000
        \t21\t-\t0021-01-01 00:00:00.000000000
        \t2021-6-14\t-\t-
        \tMon, 14 Jun 2021 15:15:15 GMT\t2021-06-14 15:15:15.000000000\t-
        \tMon, 14 Jun 2021 15:15:15 +0100\t2021-06-14 14:15:15.000000000\t-
        \t14 Jun 2021 15:15 GMT\t2021-06-14 15:15:00.000000000\t-
        \tmon, 14 jun 2021 15:15:15 gmt\t2021-06-14 15:15:15.000000000\t-
        \tTue, 14 Jun 2021 15:15:15 GMT\t-\t-
        \tMon, 4 Jun 2021 15:15:15 GMT\t-\t-
        \tMon, 14 Jun 2021 15:15:15 UTC\t-\t-
        \tMonday, 14-Jun-21 15:15:15 GMT\t2021-06-14 15:15:15.000000000\t-
        \tMonday, 14-Jun-21 15:15:15 PST\t2021-06-14 22:15:15.000000000\t-
        \tMon Jun 14 15:15:15 2021\t2021-06-14 15:15:15.000000000\t-
        \tFri Jun  4 15:15:15 2021\t2021-06-04 15:15:15.000000000\t-
        \t2021-06-14T24:00:00\t-\t-
        \t1623683715\t-\t-
        \t+12021-06-14T15:15:15Z\t12021-06-14 15:15:15.000000000\t-
        dd/MM/yyyy\t01/06/2021\t-\t2021-06-01 00:00:00.000000000
        dd/MM/yyyy\t1/06/2021\t-\t-
        dd/MM/yyyy\t31/06/2021\t-\t2021-06-30 00:00:00.000000000
        dd/MM/yyyy\t30/02/2021\t-\t2021-02-28 00:00:00.000000000
        dd/MM/yyyy\t32/01/2021\t-\t-
        dd/MM/yyyy\t01/06/20211\t-\t-
        d/M/yyyy\t14/6/2021\t-\t2021-06-14 00:00:00.000000000
        d/M/y\t14/6/21\t-\t0021-06-14 00:00:00.000000000
        dd/MM/yyyy hh:mm\t14/06/2021 03:15\t-\t2021-06-14 00:00:00.000000000
        dd/MM/yyyy hh:mm a\t14/06/2021 03:15 PM\t-\t2021-06-14 15:15:00.000000000
        dd/MM/yyyy hh:mm a\t14/06/2021 12:15 AM\t-\t2021-06-14 00:15:00.000000000
        dd/MM/yyyy HH:mm a\t14/06/2021 15:15 PM\t-\t2021-06-14 15:15:00.000000000
        dd/MM/yyyy HH:mm a\t14/06/2021 15:15 AM\t-\t-
        yyyyMMdd\t20210614\t-\t2021-06-14 00:00:00.000000000
        yyyyMMddHHmmss\t20210614151515\t-\t2021-06-14 15:15:15.000000000
        dMMyyyy\t14062021\t-\t-
        yyyyMMddHHmmssSSS\t20210614151515250\t-\t2021-06-14 15:15:15.250000000
        EEE, dd MMM yyyy HH:mm:ss z\tMon, 14 Jun 2021 15:15:15 GMT\t2021-06-14 15:15:15.000000000\t2021-06-14 15:15:15.000000000
        EEE, dd MMM yyyy HH:mm:ss z\tMon, 14 Jun 2021 08:15:15 PDT\t2021-06-14 15:15:15.000000000\t2021-06-14 08:15:15.000000000
        EEE, dd MMM yyyy HH:mm:ss z\tMon, 14 Jun 2021 08:15:15 PST\t2021-06-14 15:15:15.000000000\t2021-06-14 08:15:15.000000000
        EEE, dd MMM yyyy HH:mm:ss z\tMon, 14 Jun 2021 17:15:15 Europe/Paris\t2021-06-14 15:15:15.000000000\t2021-06-14 17:15:15.000000000
        EEE, dd MMM yyyy HH:mm:ss z\tMon, 14 Jun 2021 17:15:15 CET\t2021-06-14 15:15:15.000000000\t2021-06-14 17:15:15.000000000
        EEE, dd MMM yyyy HH:mm:ss z\tMon, 14 Jun 2021 17:15:15 +02:00\t2021-06-14 15:15:15.000000000\t2021-06-14 17:15:15.000000000
        EEE, dd MMM yyyy HH:mm:ss z\tMon, 14 Jun 2021 17:15:15 GMT+02:00\t2021-06-14 15:15:15.000000000\t2021-06-14 17:15:15.000000000
        EEE, dd MMM yyyy HH:mm:ss z\tMon, 14 Jun 2021 15:15:15 UTC\t2021-06-14 15:15:15.000000000\t2021-06-14 15:15:15.000000000
        EEE, dd MMM yyyy HH:mm:ss z\tmon, 14 jun 2021 15:15:15 GMT\t-\t-
        EEE, dd MMM yyyy HH:mm:ss z\tTue, 14 Jun 2021 15:15:15 GMT\t-\t-
        EEEE d MMMM yyyy\tMonday 14 June 2021\t-\t2021-06-14 00:00:00.000000000
        EEEE d MMMM yyyy\tMonday 14 Jun 2021\t-\t-
        MMM d, yyyy\tSep 4, 2021\t-\t2021-09-04 00:00:00.000000000
        HH:mm\t15:15\t-\t-
        yyyy-MM\t2021-06\t-\t2021-06-01 00:00:00.000000000
        MM/yyyy\t06/2021\t-\t2021-06-01 00:00:00.000000000
        yy\t26\t-\t2026-01-01 00:00:00.000000000
        yyyy\t2026\t-\t2026-01-01 00:00:00.000000000
        h:mm a, dd.MM.yyyy\t3:15 PM, 14.06.2021\t-\t2021-06-14 15:15:00.000000000
        yyyy-MM-dd'T'HH:mm:ssX\t2021-06-14T15:15:15+01\t2021-06-14 14:15:15.000000000\t2021-06-14 15:15:15.000000000
        yyyy-MM-dd'T'HH:mm:ssX\t2021-06-14T15:15:15+0130\t2021-06-14 13:45:15.000000000\t2021-06-14 15:15:15.000000000
        yyyy-MM-dd'T'HH:mm:ssX\t2021-06-14T15:15:15Z\t2021-06-14 15:15:15.000000000\t2021-06-14 15:15:15.000000000
        yyyy-MM-dd'T'HH:mm:ssXXX\t2021-06-14T15:15:15+01:00\t2021-06-14 14:15:15.000000000\t2021-06-14 15:15:15.000000000
        yyyy-MM-dd'T'HH:mm:ssXXX\t2021-06-14T15:15:15 01:00\t2021-06-14 14:15:15.000000000\t-
        yyyy-MM-dd'T'HH:mm:ssxx\t2021-06-14T15:15:15+0000\t2021-06-14 15:15:15.000000000\t2021-06-14 15:15:15.000000000
        yyyy-MM-dd'T'HH:mm:ssZ\t2021-06-14T15:15:15+0000\t2021-06-14 15:15:15.000000000\t2021-06-14 15:15:15.000000000
        yyyy-MM-dd'T'HH:mm:ssZ\t2021-06-14T15:15:15-0130\t2021-06-14 16:45:15.000000000\t2021-06-14 15:15:15.000000000
        yyyy-MM-dd'T'HH:mm:ssZZZZZ\t2021-06-14T15:15:15Z\t2021-06-14 15:15:15.000000000\t2021-06-14 15:15:15.000000000
        yyyy-MM-dd HH:mm:ss.SSS\t2021-06-14 15:15:15.250\t-\t2021-06-14 15:15:15.250000000
        yyyy-MM-dd HH:mm:ss.SSS\t2021-06-14 15:15:15.25\t-\t-
        yyyy-MM-dd HH\t2021-06-14 15\t-\t2021-06-14 15:00:00.000000000
        yyyy-MM-dd HH:mm:ss VV\t2021-06-14 15:15:15 America/New_York\t2021-06-14 19:15:15.000000000\t2021-06-14 15:15:15.000000000
        [EEE, ]dd MMM yyyy HH:mm:ss[ z]\t14 Jun 2021 15:15:15\t-\t2021-06-14 15:15:15.000000000
        [EEE, ]dd MMM yyyy HH:mm:ss[ z]\tMon, 14 Jun 2021 15:15:15 GMT\t2021-06-14 15:15:15.000000000\t2021-06-14 15:15:15.000000000
        yyyy-MM-dd'T'HH:mm:ss\t2021-06-14T15:15:15\t-\t2021-06-14 15:15:15.000000000
        'Date: 'yyyy-MM-dd\tDate: 2021-06-14\t-\t2021-06-14 00:00:00.000000000
        yyyy-MM-dd''HH\t2021-06-14'15\t-\t2021-06-14 15:00:00.000000000
        dd MMM yyyy\t14 JUN 2021\t-\t-
        dd-MMM-yyyy HH:mm:ss\t14-Jun-2021 24:00:00\t-\t2021-06-15 00:00:00.000000000
        yyyy-MM-dd kk:mm\t2021-06-14 24:00\t-\t2021-06-14 00:00:00.000000000
        \tMon, 14 Jun 21 15:15:15 GMT\t0021-06-14 15:15:15.000000000\t-
        \t14 Jun 2021 5:15:15 GMT\t2021-06-14 05:15:15.000000000\t-
        \tMon, 14 Jun 2021 15:15:15 +01\t2021-06-14 14:15:15.000000000\t-
        \tMon, 14 Jun 2021 15:15:15 +013000\t2021-06-14 13:45:15.000000000\t-
        \tMon, 14 Jun 2021 15:15:15 +01:00\t-\t-
        \tMON, 14 JUN 2021 15:15:15 GMT\t2021-06-14 15:15:15.000000000\t-
        \t2021-06-14T15:15:15+01:30\t2021-06-14 13:45:15.000000000\t-
        \t2021-06-14T15:15:15-05\t2021-06-14 20:15:15.000000000\t-
        \t-0044-03-15T12:00:00Z\t-044-03-15 12:00:00.000000000\t-
        \t+2021-06-14T15:15:15Z\t-\t-
        \t20210-06-14T15:15:15Z\t-\t-
        \t-44\t-\t-044-01-01 00:00:00.000000000
        \t+2021\t-\t2021-01-01 00:00:00.000000000
        \t2021-13\t-\t-
        \tTuesday, 15-Jun-21 15:15:15 CET\t2021-06-15 13:15:15.000000000\t-
        \tMon Jun 14 15:15:15 2021 GMT\t-\t-
        \tMon, 14 Jun 2021 15:15 GMT\t2021-06-14 15:15:00.000000000\t-
        dd/MM/yyyy HH:mm:ss\t14/06/2021 24:00:00\t-\t2021-06-15 00:00:00.000000000
        MM/yyyy\t13/2021\t-\t2021-01-01 00:00:00.000000000
        yyyy-MM-dd HH:mm\t2021-06-14 24:01\t-\t-
        dd/MM/yyyy\t31/04/2021\t-\t2021-04-30 00:00:00.000000000
        hh:mm a dd/MM/yyyy\t12:00 AM 14/06/2021\t-\t2021-06-14 00:00:00.000000000
        hh:mm a dd/MM/yyyy\t12:00 PM 14/06/2021\t-\t2021-06-14 12:00:00.000000000
        """
}
