import Foundation
import HTTPStubs
import HTTPStubsTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The messages of issue 18, as a developer reads them: the session's line, the headline first,
/// stubs named by their place, the near miss repaired, what arrived for an unmet expectation, and
/// `"\(error)"` starting with the report.
@Suite struct FailureMessageTests {
    private static let file = "HTTPStubsTests/FailureMessageTests.swift"

    /// A registry with one stub that expects `Accept: application/json`, the session made from it,
    /// and where both were written.
    private static func headerStub() -> (stubs: StubRegistry, session: URLSession, stubLine: Int, sessionLine: Int) {
        let stubs = StubRegistry()
        let stubLine = #line + 1
        stubs.stub(.get("https://api.example.com/users/{id}").header("Accept", "application/json"), .status(200))
        let sessionLine = #line + 1
        let session = stubs.makeSession()
        return (stubs, session, stubLine, sessionLine)
    }

    /// The report of a request that missed the stub of ``headerStub()`` only on its header.
    private static func headerReport(stubLine: Int, sessionLine: Int) -> String {
        """
        Unmatched request: GET https://api.example.com/users/42
          Accept: text/plain
        Sent through the session made at \(file):\(sessionLine):40.

        Closest stubs (1 of 1):
        1. \(file):\(stubLine):19, distance 0.02
           ✓ method GET
           ✓ scheme = "https"
           ✓ host = "api.example.com"
           ✓ port 443
           ✓ path template "/users/{id}"
           ✗ header Accept: expected "application/json", got "text/plain"

        To answer it, correct the closest stub, \(file):\(stubLine):19, to:
            stubs.stub(.get("https://api.example.com/users/{id}")
                .header("Accept", "text/plain"), <#its response#>)
        """
    }

    @Test("\"\\(error)\" of an unmatched request starts with the report (completion handler)")
    func errorDescriptionCompletionHandler() async throws {
        let (stubs, session, stubLine, sessionLine) = Self.headerStub()
        let completion = await complete(
            session,
            request("GET", "https://api.example.com/users/42", headers: ["Accept": "text/plain"])
        )
        let error = try #require(completion.error)
        let report = Self.headerReport(stubLine: stubLine, sessionLine: sessionLine)
        #expect("\(error)" == report + "\n(URLError.Code.resourceUnavailable, NSURLErrorDomain -1008)")
        #expect(String(describing: error) == "\(error)")
        #expect(error.localizedDescription == report)
        #expect((error as? URLError)?.code == .resourceUnavailable)
        #expect((error as? URLError)?.failingURL?.absoluteString == "https://api.example.com/users/42")
        #expect(stubs.unmatchedRequests.count == 1)
    }

    @Test("\"\\(error)\" of an unmatched request starts with the report (async)")
    func errorDescriptionAsync() async throws {
        let (stubs, session, stubLine, sessionLine) = Self.headerStub()
        var sent = URLRequest(url: URL(string: "https://api.example.com/users/42")!)
        sent.setValue("text/plain", forHTTPHeaderField: "Accept")
        let error = await #expect(throws: URLError.self) { _ = try await session.data(for: sent) }
        let report = Self.headerReport(stubLine: stubLine, sessionLine: sessionLine)
        #expect(error.map { "\($0)" } == report + "\n(URLError.Code.resourceUnavailable, NSURLErrorDomain -1008)")
        #expect(error?.localizedDescription == report)
        #expect(stubs.unmatchedRequests.count == 1)
    }

    @Test("a stub that missed on two parts is corrected; on three, a fresh stub is suggested")
    func closeMeansAtMostTwoCorrections() async throws {
        let stubs = StubRegistry()
        stubs.stub(
            .post("https://api.example.com/orders").header("Accept", "application/json").query("draft", "true"),
            .status(201)
        )
        let session = stubs.makeSession(configuration: .ephemeral)
        _ = await complete(
            session,
            request("POST", "https://api.example.com/orders?draft=false", headers: ["Accept": "text/plain"])
        )
        _ = await complete(session, request("GET", "https://api.example.com/order?draft=false"))
        let reports = stubs.unmatchedRequests.compactMap { entry -> UnmatchedRequestReport? in
            guard case let .unmatched(report) = entry.outcome else { return nil }
            return report
        }
        try #require(reports.count == 2)
        #expect(
            reports[0].suggestedStub == """
                stubs.stub(.post("https://api.example.com/orders")
                        .header("Accept", "text/plain")
                        .query("draft", "false"), <#its response#>)
                """
        )
        #expect(reports[0].correctedStub?.id == stubs.stubs.first?.id)
        #expect(reports[1].correctedStub == nil)
        #expect(
            reports[1].suggestedStub == #"stubs.stub(.get("https://api.example.com/order?draft=false"), .status(200))"#
        )
        #expect(reports[1].text.contains("To answer it, add a stub such as:"))
    }

    @Test("the stub to paste answers the request that missed")
    func correctedStubAnswers() async throws {
        let (stubs, session, _, _) = Self.headerStub()
        let sent = request("GET", "https://api.example.com/users/42", headers: ["Accept": "text/plain"])
        #expect(await complete(session, sent).isUnmatched)
        // What the report suggests, pasted.
        stubs.stub(.get("https://api.example.com/users/{id}").header("Accept", "text/plain"), .status(200))
        #expect(await complete(session, sent).status == 200)
    }

    @Test("sessions made at several places, or from a configuration, are named honestly")
    func sessionOrigins() async throws {
        let stubs = StubRegistry()
        let first = #line + 1
        let one = stubs.makeSession()
        let second = #line + 1
        _ = stubs.makeSession()
        #expect(await complete(one, "https://api.example.com/a").isUnmatched)
        guard case let .unmatched(report)? = stubs.journal.last?.outcome else {
            Issue.record("not unmatched")
            return
        }
        #expect(report.sessionOrigins.map(\.line) == [first, second])
        #expect(
            report.text.contains(
                "Sent through one of the sessions made at \(Self.file):\(first):36, \(Self.file):\(second):30."
            )
        )
        // A configuration's sessions are not seen being made: the report names none.
        let other = URLSession(configuration: stubs.configuration())
        #expect(await complete(other, "https://api.example.com/b").isUnmatched)
        guard case let .unmatched(later)? = stubs.journal.last?.outcome else {
            Issue.record("not unmatched")
            return
        }
        #expect(later.sessionOrigins.isEmpty)
        #expect(!later.text.contains("Sent through"))
    }

    @Test("sessions made at four places: the report names three and counts the fourth")
    func fourSessionOrigins() async throws {
        let stubs = StubRegistry()
        let first = #line + 1
        let one = stubs.makeSession()
        let second = #line + 1
        _ = stubs.makeSession()
        let third = #line + 1
        _ = stubs.makeSession()
        _ = stubs.makeSession()
        let report = try #require(await complete(one, "https://api.example.com/a").urlError?.localizedDescription)
        #expect(
            report.split(separator: "\n").map(String.init).dropFirst().first
                == "Sent through one of the sessions made at \(Self.file):\(first):36, \(Self.file):\(second):30, "
                + "\(Self.file):\(third):30 and 1 more place.",
            "\(report)"
        )
    }

    @Test(
        "a stub from a mapping file with a name: named by its name, file, line and column in a near miss and the journal"
    )
    func fileStubNames() async throws {
        let root = try TemporaryStubRoot(mappings: [
            "users.json":
                #"{"name": "get user", "request": {"method": "GET", "url": "/users/42"}, "response": {"status": 200}}"#
        ])
        let stubs = try root.registry()
        let session = stubs.makeSession()
        let place = root.path("mappings/users.json") + ":1:1"

        let report = try #require(
            await complete(session, "https://api.example.com/users/43").urlError?.localizedDescription
        )
        let lines = report.split(separator: "\n").map(String.init)
        let candidate = try #require(lines.firstIndex { $0.hasPrefix("1. ") }, "\(report)")
        #expect(
            Array(lines[candidate...(candidate + 2)]) == [
                #"1. "get user" (\#(place)), distance 0.09"#,
                "   ✓ method GET",
                #"   ✗ path and query: expected "/users/42", got "/users/43""#,
            ],
            "\(report)"
        )
        #expect(await complete(session, "https://api.example.com/users/42").status == 200)
        #expect(
            stubs.journal.map(\.description) == [
                "#1 GET https://api.example.com/users/43 → unmatched",
                #"#2 GET https://api.example.com/users/42 → "get user" (\#(place))"#,
            ]
        )
    }

    @Test("stubs are named by their place: code by file and line, files by path and name")
    func stubNames() async throws {
        let stubs = StubRegistry()
        var ids: [Stub.ID] = []
        let line = #line + 2
        for index in 0..<2 {
            ids.append(stubs.stub(.get("https://api.example.com/items/\(index)"), .status(200)))
        }
        #expect(ids.map(\.description) == Array(repeating: "\(Self.file):\(line):34", count: 2))
        #expect(ids[0] != ids[1], "one line, two identities")
        #expect(stubs.remove(ids[0]))
        #expect(stubs.stubs.map(\.id) == [ids[1]])
        let named = stubs.add(Stub(.get("https://api.example.com/me"), .status(200)).named("me"))
        _ = await complete(stubs.makeSession(), "https://api.example.com/me")
        let entry = try #require(stubs.journal.last)
        #expect(entry.description == #"#1 GET https://api.example.com/me → "me" (\#(named))"#)
        _ = await complete(stubs.makeSession(), "https://api.example.com/items/1")
        #expect(stubs.journal.last?.description == "#2 GET https://api.example.com/items/1 → \(Self.file):\(line):34")
    }

    @Test("a near miss on a 64 KB header: the corrected stub tests the value's first 200 characters, and answers")
    func hugeHeaderRepair() async throws {
        let stubs = StubRegistry()
        stubs.stub(.get("https://api.example.com/feed").header("X-Big", "x"), .status(200))
        let big = String(repeating: "y", count: 64 * 1024)
        let sent = request("GET", "https://api.example.com/feed", headers: ["X-Big": big])
        let session = stubs.makeSession()
        let report = try #require(await complete(session, sent).urlError?.localizedDescription)
        let start = String(repeating: "y", count: 200)
        #expect(
            report.hasSuffix(
                """
                    stubs.stub(.get("https://api.example.com/feed")
                        .header("X-Big", .hasPrefix("\(start)")), <#its response#>)
                """
            ),
            "\(report)"
        )
        #expect(report.utf8.count < 2_000, "the report is \(report.utf8.count) bytes")
        // What the report suggests, pasted, answers the request.
        stubs.stub(.get("https://api.example.com/feed").header("X-Big", .hasPrefix(start)), .status(204))
        #expect(await complete(session, sent).status == 204)
    }

    @Test("a request to a 64 KB URL: a short headline, and a stub to paste that tests the URL's first 200 characters")
    func hugeURL() async throws {
        let stubs = StubRegistry()
        stubs.stub(.get("https://api.example.com/feed"), .status(200))
        let url = "https://api.example.com/search?q=" + String(repeating: "y", count: 64 * 1024)
        let session = stubs.makeSession()
        let asyncError = await #expect(throws: URLError.self) { _ = try await session.data(from: URL(string: url)!) }
        let report = try #require(asyncError?.localizedDescription)
        #expect(
            report.split(separator: "\n").first
                == "Unmatched request: GET \(url.prefix(200))… (\(url.utf8.count) bytes)",
            "\(report.prefix(300))"
        )
        #expect(
            report.hasSuffix(
                """
                    stubs.stub(RequestPattern([.method("GET"), .absoluteURL(.hasPrefix("\(url.prefix(200))"))]), \
                <#its response#>)
                """
            ),
            "\(report.suffix(500))"
        )
        #expect(report.utf8.count < 2_000, "the report is \(report.utf8.count) bytes")
        stubs.stub(RequestPattern([.method("GET"), .absoluteURL(.hasPrefix(String(url.prefix(200))))]), .status(204))
        #expect(await complete(session, url).status == 204)
    }
}

extension FailureMessageTests {
    /// Inside `withSharedSessionStubs`, which lets one test at a time use `URLProtocolStub.registry`.
    @Test("URLProtocolStub's registry serves sessions it never sees made, so its reports name none")
    func urlProtocolStubNamesNoSession() async throws {
        let issues = try await recordedIssues {
            await withSharedSessionStubs { stubs in
                _ = stubs.makeSession()
                _ = await complete(stubs.makeSession(), "https://api.example.com/never-stubbed")
            }
        }
        let unmatched = try #require(issues.first { $0.description.contains("Unmatched request") })
        #expect(unmatched.error.map { "\($0)" } == "Unmatched request: GET https://api.example.com/never-stubbed")
        #expect(!unmatched.description.contains("Sent through"), "\(unmatched)")
    }
}
