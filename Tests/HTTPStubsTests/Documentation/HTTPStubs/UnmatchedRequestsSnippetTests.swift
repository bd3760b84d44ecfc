import Foundation
import HTTPStubs
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The Swift code of `Sources/HTTPStubs/HTTPStubs.docc/UnmatchedRequests.md`, run as the article says it runs.
@Suite("Docs: UnmatchedRequests")
struct UnmatchedRequestsSnippetTests {
    @Test("an unmatched request fails at once, and the journal holds the report")
    func report() async throws {
        let stubs = StubRegistry()
        stubs.stub(.get("https://api.example.com/users/42"), .json(User(id: 42, name: "Ada")))
        let session = stubs.makeSession()

        let error = await #expect(throws: URLError.self) {
            _ = try await session.data(from: URL(string: "https://api.example.com/users/43")!)
        }
        #expect(error?.code == .resourceUnavailable)
        let entry = try #require(stubs.unmatchedRequests.first)
        guard case let .unmatched(report) = entry.outcome else {
            Issue.record("not unmatched")
            return
        }
        #expect(report.nearMisses.first?.distance ?? 0 > 0)
        #expect(report.suggestedStub == #"stubs.stub(.get("https://api.example.com/users/43"), .status(200))"#)

        #expect(report.stubCount == 1)
        #expect(report.request.url.absoluteString == "https://api.example.com/users/43")
        #expect(error?.localizedDescription.contains(report.text) == true)
        for line in [
            "Unmatched request: GET https://api.example.com/users/43",
            "Closest stubs (1 of 1):",
            #"   ✗ path: expected "/users/42", got "/users/43""#,
            "To answer it, correct the closest stub, \(stubs.stubs[0].source), keeping its response:",
        ] {
            #expect(report.text.contains(line), "\(line)")
        }
    }

    @Test("the report shown in the article and in the README is the report a test gets")
    func reportAsShown() async throws {
        let stubs = StubRegistry()
        stubs.stub(.get("https://api.example.com/users/42"), .json(User(id: 42, name: "Ada")))
        let session = stubs.makeSession()
        let text = try #require(
            await complete(session, "https://api.example.com/users/43").urlError?.localizedDescription
        )
        let report = try #require(
            stubs.unmatchedRequests.first.flatMap { entry -> UnmatchedRequestReport? in
                guard case let .unmatched(report) = entry.outcome else { return nil }
                return report
            }
        )
        // The documents show the stub and the session as written in a MyAppTests/UserTests.swift.
        let shown = text.replacingOccurrences(of: "\(stubs.stubs[0].source)", with: "MyAppTests/UserTests.swift:11:15")
            .replacingOccurrences(of: "\(report.sessionOrigins[0])", with: "MyAppTests/UserTests.swift:12:28")
        #expect(try textBlocks(of: "Sources/HTTPStubs/HTTPStubs.docc/UnmatchedRequests.md").first == shown, "\(shown)")
        #expect(try textBlocks(of: "README.md").contains(shown))
    }

    @Test("secrets are masked in the report, the request is not")
    func secretsMasked() async throws {
        let stubs = StubRegistry()
        stubs.stub(.get("https://api.example.com/me").header("Authorization", "Bearer expected-token"), .ok)
        let sent = request("GET", "https://api.example.com/me", headers: ["Authorization": "Bearer actual-token"])
        #expect(await complete(stubs.makeSession(), sent).isUnmatched)
        let entry = try #require(stubs.unmatchedRequests.first)
        guard case let .unmatched(report) = entry.outcome else {
            Issue.record("not unmatched")
            return
        }
        #expect(!report.text.contains("expected-token") && !report.text.contains("actual-token"))
        #expect(report.text.contains("Bearer <redacted:"))
        #expect(report.request.header("Authorization") == "Bearer actual-token")
    }

    @Test("with no stubs at all, the report says so")
    func noStubs() async throws {
        let stubs = StubRegistry()
        let failure = await complete(stubs.makeSession(), "https://api.example.com/")
        #expect(failure.urlError?.localizedDescription.contains("No stubs are registered.") == true)
    }

    @Test("pass-through sends unmatched requests to those hosts to the real network")
    func passThrough() async throws {
        let server = try RecordingServer.start()
        defer { server.stop() }
        let stubs = StubRegistry()
        stubs.passThrough = .hosts(["localhost"])  // or .all
        let session = stubs.makeSession()
        let live = await complete(
            session,
            URLRequest(url: URL(string: "http://localhost:\(server.port)/users/1")!, timeoutInterval: 10)
        )
        #expect(live.status == 200)
        #expect(live.text?.contains("Ada") == true)
        #expect(await complete(session, "https://api.example.com/users/1").isUnmatched)
        guard case .passedThrough = try #require(stubs.journal.first).outcome else {
            Issue.record("not passed through: \(stubs.journal)")
            return
        }
        #expect(StubRegistry().passThrough == .never)
    }
}
