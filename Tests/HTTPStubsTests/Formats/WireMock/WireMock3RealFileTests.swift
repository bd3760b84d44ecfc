import Foundation
import Testing

@testable import HTTPStubs
@testable import HTTPStubsFiles
@testable import HTTPStubsLanguages
@testable import HTTPStubsTemplates

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Real mapping files that use WireMock 3 matchers (`Tests/Fixtures/WireMock3`, listed in its `SOURCES.md`).
/// WireMock 2.35.1 refuses them, or answers them differently from one day to the next, so they have no
/// recorded answers and stay out of the wild corpus's differential harness; each is loaded as its own root
/// and asked, through a real URLSession, requests whose answers follow from WireMock 3's documented
/// semantics (and from the requests the source repository's own tests send to WireMock 3).
@Suite("Real WireMock 3 mapping files")
struct WireMock3RealFileTests {
    static let folder = repositoryRoot.appendingPathComponent("Tests/Fixtures/WireMock3")

    /// The one root of `wiremock/wiremock-testcontainers-go`'s v3 test files, loaded.
    static func stubs() throws -> StubRegistry {
        let stubs = StubRegistry()
        try stubs.load(folder.appendingPathComponent("wiremock__wiremock-testcontainers-go").path)
        return stubs
    }

    /// The root `Tests/Fixtures/WireMock3/<name>`, loaded.
    static func stubs(_ name: String) throws -> StubRegistry {
        let stubs = StubRegistry()
        stubs.onDiagnostic { _ in }  // the real files' own warnings (a repeated key): not what these tests check
        try stubs.load(folder.appendingPathComponent(name).path)
        return stubs
    }

    @Test("matchesJsonSchema with schemaVersion V202012 (testdata/200-v3-json-schema.json)")
    func jsonSchema() async throws {
        let stubs = try Self.stubs()
        let session = stubs.makeSession()
        defer { session.invalidateAndCancel() }
        let url = "https://api.example.test/schema-match"
        // As the repository's TestV3JsonSchema: a body with the required string `name` matches…
        let valid = await complete(session, request("POST", url, body: #"{"name": "WireMock","tag": "v3"}"#))
        #expect(valid.status == 200, "\(String(describing: valid.error))")
        // …and one without it does not (WireMock 3 answers 404).
        #expect(await complete(session, request("POST", url, body: #"{"tag": "v2"}"#)).isUnmatched)
        // `name` must be a string, `tag` too; a body that is not JSON fails the schema.
        #expect(await complete(session, request("POST", url, body: #"{"name": 3}"#)).isUnmatched)
        #expect(await complete(session, request("POST", url, body: #"{"name": "a", "tag": 2}"#)).isUnmatched)
        #expect(await complete(session, request("POST", url, body: "not json")).isUnmatched)
        // Extra properties are allowed (no additionalProperties), and the method is part of the stub.
        #expect(await complete(session, request("POST", url, body: #"{"name": "a", "other": [1]}"#)).status == 200)
        #expect(await complete(session, request("PUT", url, body: #"{"name": "a"}"#)).isUnmatched)
    }

    @Test("hasExactly on a repeated query parameter (testdata/v3-url-with-multi-query-values.json)")
    func hasExactly() async throws {
        let stubs = try Self.stubs()
        let session = stubs.makeSession()
        defer { session.invalidateAndCancel() }
        let base = "https://api.example.test/things"
        // As the repository's TestV3MultipQueryValues.
        #expect(await complete(session, base + "?id=1&id=2&id=3").status == 200)
        // Every value must be matched by one of the patterns and every pattern by a value, in any order.
        #expect(await complete(session, base + "?id=3&id=1&id=2").status == 200)
        #expect(await complete(session, base + "?id=1&id=2").isUnmatched)
        #expect(await complete(session, base + "?id=1&id=2&id=3&id=4").isUnmatched)
        #expect(await complete(session, base + "?id=1&id=2&id=5").isUnmatched)
        #expect(await complete(session, base).isUnmatched)
        #expect(await complete(session, request("POST", base + "?id=1&id=2&id=3")).isUnmatched)
    }

    /// serenity-bdd/serenity-core's recorded proxy mappings match the `Host` header; two of them also match
    /// their query parameters with `hasExactly` (their eight siblings, without it, are in the wild corpus).
    @Test("Host header and hasExactly in recorded proxy mappings (serenity-core proxied-sites)")
    func hostAndHasExactly() async throws {
        let stubs = try Self.stubs("serenity-bdd__serenity-core")
        let session = stubs.makeSession()
        defer { session.invalidateAndCancel() }
        let files = Self.folder.appendingPathComponent("serenity-bdd__serenity-core/__files")

        let page = await complete(session, "https://reqres.in/api/users?page=2")
        #expect(page.status == 200, "\(String(describing: page.error))")
        #expect(
            page.data
                == (try Data(
                    contentsOf: files.appendingPathComponent("api_users-9117b180-6289-4ac5-a150-7c09c499dc6d.json")
                ))
        )
        #expect(page.http?.value(forHTTPHeaderField: "Content-Type") == "application/json; charset=utf-8")
        // The Host header is compared case-insensitively (`"caseInsensitive": true`); another host is not it.
        #expect(await complete(session, "https://REQRES.in/api/users?page=2").status == 200)
        #expect(await complete(session, "https://other.reqres.in/api/users?page=2").isUnmatched)
        // hasExactly [equalTo "2"]: exactly one value, "2".
        #expect(await complete(session, "https://reqres.in/api/users?page=3").isUnmatched)
        #expect(await complete(session, "https://reqres.in/api/users?page=2&page=3").isUnmatched)
        #expect(await complete(session, "https://reqres.in/api/users").isUnmatched)

        let echo = await complete(session, "https://postman-echo.com/get?foo1=bar1&foo2=bar2")
        #expect(echo.status == 200, "\(String(describing: echo.error))")
        #expect(
            echo.data
                == (try Data(contentsOf: files.appendingPathComponent("get-9e2e8487-24cc-4726-9a50-37f00416295e.json")))
        )
        #expect(echo.http?.value(forHTTPHeaderField: "ETag") == #"W/"236-PLm04YH3UKHXBaGRWpWTpUb6e8Y""#)
        #expect(await complete(session, "https://postman-echo.com/get?foo2=bar2&foo1=bar1").status == 200)
        #expect(await complete(session, "https://postman-echo.com/get?foo1=bar1").isUnmatched)
        #expect(await complete(session, "https://postman-echo.com/get?foo1=bar1&foo1=bar1b&foo2=bar2").isUnmatched)
        #expect(await complete(session, "https://reqres.in/get?foo1=bar1&foo2=bar2").isUnmatched)
    }

    /// ministryofjustice/prepare-a-case's hand-written stub: `hasExactly` with three values on one query parameter.
    @Test("hasExactly with three values (prepare-a-case hearing-outcomes-list-filter-courtroom.json)")
    func hasExactlyThreeValues() async throws {
        let stubs = try Self.stubs("ministryofjustice__prepare-a-case")
        let session = stubs.makeSession()
        defer { session.invalidateAndCancel() }
        let base = "https://court-case-service.test/courts/B14LO/hearing-outcomes"

        let all = await complete(session, base + "?courtRoom=01&courtRoom=1&courtRoom=Courtroom%201")
        #expect(all.status == 200, "\(String(describing: all.error))")
        #expect(all.text?.contains("Court Room Stub Loaded") == true)
        #expect(all.http?.value(forHTTPHeaderField: "Content-Type") == "application/json")
        // In any order; `+` in a query is a space too.
        #expect(await complete(session, base + "?courtRoom=Courtroom+1&courtRoom=1&courtRoom=01").status == 200)
        // Two of the three, a fourth value, a value that is none of them, or no parameter: not matched.
        #expect(await complete(session, base + "?courtRoom=01&courtRoom=1").isUnmatched)
        #expect(
            await complete(session, base + "?courtRoom=01&courtRoom=1&courtRoom=Courtroom%201&courtRoom=2").isUnmatched
        )
        #expect(await complete(session, base + "?courtRoom=01&courtRoom=1&courtRoom=Courtroom%202").isUnmatched)
        #expect(await complete(session, base).isUnmatched)
        // The path pattern wants five capitals or digits.
        #expect(
            await complete(
                session,
                "https://court-case-service.test/courts/b14lo/hearing-outcomes?courtRoom=01&courtRoom=1&courtRoom=Courtroom%201"
            ).isUnmatched
        )
    }

    /// apache/camel-quarkus's recorded mappings: every query parameter matched with a one-value `hasExactly`.
    @Test("hasExactly in recorded mappings (camel-quarkus google-bigquery and jira)")
    func recordedHasExactly() async throws {
        let bigQuery = try Self.stubs("apache__camel-quarkus/integration-tests_google-bigquery_src_test_resources")
        let session = bigQuery.makeSession()
        defer { session.invalidateAndCancel() }
        let jobs = "https://bigquery.googleapis.com/bigquery/v2/projects/test-project/jobs"
        // The recorded request body (equalToJson with ignoreExtraElements: an extra member is allowed).
        let job =
            #"{"configuration":{"query":{"query":"INSERT INTO `test-project.google_bigquery_test_dataset.google_bigquery_table_for_sql_crud` VALUES(@id, 3, 4)","queryParameters":[{"name":"id","parameterType":{"type":"INT64"},"parameterValue":{"value":"2"}}],"useLegacySql":false}},"jobReference":{"jobId":"job01","projectId":"test-project","location":"US"}}"#
        let created = await complete(
            session,
            request("POST", jobs + "?prettyPrint=false", body: job, headers: ["Content-Type": "application/json"])
        )
        #expect(created.status == 200, "\(String(describing: created.error))")
        #expect(created.text?.hasPrefix(#"{"kind":"bigquery#job","etag":"8CxCo+dTnKENiG7LbmciYQ==""#) == true)
        #expect(created.http?.value(forHTTPHeaderField: "Vary") == "Origin, X-Origin, Referer")
        #expect(await complete(session, request("POST", jobs + "?prettyPrint=true", body: job)).isUnmatched)
        #expect(
            await complete(session, request("POST", jobs + "?prettyPrint=false&prettyPrint=true", body: job))
                .isUnmatched
        )
        #expect(await complete(session, request("POST", jobs, body: job)).isUnmatched)

        let jira = try Self.stubs("apache__camel-quarkus/integration-tests_jira_src_test_resources")
        let jiraSession = jira.makeSession()
        defer { jiraSession.invalidateAndCancel() }
        let search = "https://jira.test/rest/api/latest/search"
        let query =
            "jql=created%20%3E%20%222025-10-23%2012%3A26%22%20AND%20project%3DTEST%20ORDER%20BY%20created%20DESC&expand=schema,names&fields=*navigable&maxResults=1&startAt=0"
        let found = await complete(jiraSession, search + "?" + query)
        #expect(found.status == 200, "\(String(describing: found.error))")
        #expect(found.text?.hasPrefix(#"{"expand":"names,schema","startAt":0,"maxResults":1,"total":2,"#) == true)
        // The decoded value is compared: the same JQL encoded with `+` for spaces matches too.
        #expect(
            await complete(jiraSession, search + "?" + query.replacingOccurrences(of: "%20", with: "+")).status == 200
        )
        #expect(
            await complete(jiraSession, search + "?" + query.replacingOccurrences(of: "12%3A26", with: "12%3A27"))
                .isUnmatched
        )
        #expect(
            await complete(jiraSession, search + "?" + query.replacingOccurrences(of: "&startAt=0", with: ""))
                .isUnmatched
        )
        #expect(await complete(jiraSession, search + "?" + query + "&maxResults=2").isUnmatched)
    }

    /// Sundsvallskommun/api-service-billing-data-collector's `bpp-createbillingrecord.json`: an `equalToJson`
    /// body pattern with json-unit placeholders, and a `matchesJsonPath` whose `$.invoice.dueDate` must equal
    /// "now" truncated to the last day of the month (`equalToDateTime`, `actualFormat` `yyyy-MM-dd`).
    ///
    /// The answer depends on the day, so "now" is read once and the file is loaded with the wall clock fixed
    /// to it (as the matcher reads it: UTC); the due date is that month's last day. Real WireMock 2.35.1, run by
    /// hand on 2026-11-24 (UTC) with this file as its only mapping, answered 201 with
    /// `Location: /billingrecords/a13607c3-1cba-44b8-904e-49f9b968acfe` for the due date 2026-11-30, and 404
    /// ("Request was not matched") for 2026-11-29, 2026-11-01, 2026-12-01 and 2026-12-31, and for 2026-11-30
    /// without the `Authorization` header.
    @Test(
        "equalToDateTime now, truncated to the last day of the month, inside matchesJsonPath (billing-data-collector)"
    )
    func equalToDateTimeLastDayOfMonth() async throws {
        let now = Date()
        let root = Self.folder.appendingPathComponent("Sundsvallskommun__api-service-billing-data-collector")
        let load = StubFiles.load([root.path], wallClock: .fixed(now))
        #expect(load.diagnostics.isEmpty, "\(load.diagnostics)")
        let stubs = StubRegistry()
        stubs.add(contentsOf: load.stubs)
        let session = stubs.makeSession()
        defer { session.invalidateAndCancel() }

        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        let day = calendar.dateComponents([.year, .month, .day], from: now)
        let year = try #require(day.year)
        let month = try #require(day.month)
        let today = try #require(day.day)
        let lastDay = try #require(calendar.range(of: .day, in: .month, for: now)).count
        func date(_ year: Int, _ month: Int, _ day: Int) -> String {
            String(format: "%04d-%02d-%02d", year, month, day)
        }
        let (nextYear, nextMonth) = month == 12 ? (year + 1, 1) : (year, month + 1)

        // The body the mapping expects: its equalToJson with each `${json-unit.any-string}` given a string.
        let mapping = try #require(
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: root.appendingPathComponent("mappings/bpp-createbillingrecord.json"))
            ) as? [String: Any]
        )
        let patterns = try #require((mapping["request"] as? [String: Any])?["bodyPatterns"] as? [[String: Any]])
        let expected = try #require(patterns.first?["equalToJson"] as? [String: Any])
        func body(dueDate: String) throws -> String {
            var body = expected
            var invoice = try #require(body["invoice"] as? [String: Any])
            var rows = try #require(invoice["invoiceRows"] as? [[String: Any]])
            var descriptions = try #require(rows.first?["detailedDescriptions"] as? [String])
            descriptions[1] = "Period \(date(year, month, 1)) - \(date(year, month, lastDay))"
            rows[0]["detailedDescriptions"] = descriptions
            invoice["invoiceRows"] = rows
            invoice["date"] = date(year, month, today)
            invoice["dueDate"] = dueDate
            body["invoice"] = invoice
            body["transferDate"] = date(year, month, today)
            return try #require(String(data: JSONSerialization.data(withJSONObject: body), encoding: .utf8))
        }
        let url = "https://billing-preprocessor.test/bpp/2281/billingrecords"
        let headers = ["Authorization": "Bearer MTQ0NjJkZmQ5OTM2NDE1ZTZjNGZmZjI3", "Content-Type": "application/json"]

        let created = await complete(
            session,
            request("POST", url, body: try body(dueDate: date(year, month, lastDay)), headers: headers)
        )
        #expect(created.status == 201, "\(String(describing: created.error))")
        #expect(
            created.http?.value(forHTTPHeaderField: "Location")
                == "/billingrecords/a13607c3-1cba-44b8-904e-49f9b968acfe"
        )
        #expect(created.data?.isEmpty ?? true)
        // Another day, of this month or the next, is not the last day of this month.
        for other in [date(year, month, lastDay - 1), date(year, month, 1), date(nextYear, nextMonth, 1)] {
            #expect(
                await complete(session, request("POST", url, body: try body(dueDate: other), headers: headers))
                    .isUnmatched,
                "due date \(other)"
            )
        }
        var noAuthorization = headers
        noAuthorization["Authorization"] = nil
        #expect(
            await complete(
                session,
                request("POST", url, body: try body(dueDate: date(year, month, lastDay)), headers: noAuthorization)
            ).isUnmatched
        )
    }
}
