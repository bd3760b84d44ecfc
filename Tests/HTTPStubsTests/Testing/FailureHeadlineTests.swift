import Foundation
import HTTPStubs
import HTTPStubsTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Under Swift Testing the first line a developer reads names the problem: the issue's error is the
/// headline (`Caught error: Unmatched request: GET …` in the console), its comment the rest.
@Suite struct FailureHeadlineTests {
    private static let file = "HTTPStubsTests/FailureHeadlineTests.swift"

    @Test("an unmatched request: the headline as the issue's error, the report as its comment")
    func unmatchedHeadline() async throws {
        var lines = (scope: 0, stub: 0, session: 0)
        let issues = try await recordedIssues {
            lines.scope = #line + 1
            await withHTTPStubs { stubs in
                lines.stub = #line + 1
                stubs.stub(.post("https://api.example.com/v1/users"), .status(201))
                lines.session = #line + 1
                let session = stubs.makeSession()
                _ = await complete(session, request("PUT", "https://api.example.com/v1/users"))
            }
        }
        try #require(issues.count == 1)
        let issue = issues[0]
        #expect(issue.error.map { "\($0)" } == "Unmatched request: PUT https://api.example.com/v1/users")
        #expect(
            issue.comments.map(\.rawValue) == [
                """
                Sent through the session made at \(Self.file):\(lines.session):48.

                Closest stubs (1 of 1):
                1. \(Self.file):\(lines.stub):27, distance 0.08
                   ✗ method: expected POST, got PUT
                   ✓ scheme = "https"
                   ✓ host = "api.example.com"
                   ✓ port 443
                   ✓ path = "/v1/users"

                To answer it, correct the closest stub, \(Self.file):\(lines.stub):27, to:
                    stubs.stub(.put("https://api.example.com/v1/users"), <#its response#>)
                """
            ]
        )
        // What a withKnownIssue matcher can rely on: the description holds the headline and the report.
        #expect(issue.description.hasPrefix("Caught error: Unmatched request: PUT https://api.example.com/v1/users"))
        #expect(issue.sourceLocation?.line == lines.scope)
    }

    @Test("an unmet expectation lists the requests that arrived, closest first, with why each missed")
    func unmetExpectationListsArrivals() async throws {
        var stubLine = 0
        var otherLine = 0
        let issues = try await recordedIssues {
            await withHTTPStubs { stubs in
                stubLine = #line + 1
                stubs.stub(.post("https://api.example.com/orders"), .status(201), expecting: .once)
                otherLine = #line + 1
                stubs.stub(.get("https://api.example.com/feed"), .status(200))
                let session = stubs.makeSession()
                _ = await complete(session, "https://api.example.com/feed")
                _ = await complete(session, request("POST", "https://api.example.com/order"))
            }
        }
        let unmet = try #require(issues.first { $0.description.contains("Unmet expectation") })
        #expect(
            unmet.error.map { "\($0)" }
                == #"Unmet expectation: the stub (method POST and scheme = "https" and host = "api.example.com" "#
                + #"and port 443 and path = "/orders") was expected to answer exactly once, but answered 0 requests"#
        )
        #expect(
            unmet.comments.map(\.rawValue) == [
                """
                Requests received (2 of 2), closest first:
                1. POST https://api.example.com/order → unmatched, distance 0.04
                   ✗ path: expected "/orders", got "/order"
                2. GET https://api.example.com/feed → answered by \(Self.file):\(otherLine):27, distance 0.28
                   ✗ method: expected POST, got GET
                   ✗ path: expected "/orders", got "/feed"
                """
            ]
        )
        #expect(unmet.sourceLocation?.line == stubLine)
        // The article shows this listing, for a stub written in a MyAppTests/OrderTests.swift.
        let shown = try #require(unmet.comments.first?.rawValue).replacingOccurrences(
            of: "\(Self.file):\(otherLine):27",
            with: "MyAppTests/OrderTests.swift:14:15"
        )
        #expect(try textBlocks(of: "Sources/HTTPStubs/HTTPStubs.docc/UnmatchedRequests.md").contains(shown), "\(shown)")
    }

    @Test("an unmet expectation's headline masks the token its stub expects, as near-miss reports do")
    func unmetExpectationMasksSecrets() async throws {
        let token = "Bearer eyJhbGciOiJIUzI1NiJ9.c2VjcmV0LXVzZXI.c2lnbmF0dXJl"
        let issues = try await recordedIssues {
            await withHTTPStubs { stubs in
                stubs.stub(
                    .get("https://api.example.com/me").header("Authorization", token),
                    .status(200),
                    expecting: .once
                )
                _ = await complete(stubs.makeSession(), "https://api.example.com/me")
            }
        }
        let unmet = try #require(issues.first { $0.description.contains("Unmet expectation") })
        let headline = try #require(unmet.error.map { "\($0)" })
        #expect(!unmet.description.contains("eyJhbGciOiJIUzI1NiJ9"), "\(unmet.description)")
        #expect(headline.hasPrefix(#"Unmet expectation: the stub (method GET and "#), "\(headline)")
        #expect(headline.contains(#" and header Authorization = "Bearer <redacted:"#), "\(headline)")
        #expect(
            unmet.comments.map(\.rawValue).first?.contains(#"   ✗ header Authorization: expected "Bearer <redacted:"#)
                == true,
            "\(unmet.comments)"
        )
    }

    @Test("an unmet expectation lists the 3 closest of 5 requests that arrived")
    func unmetExpectationListsThreeArrivals() async throws {
        let issues = try await recordedIssues {
            await withHTTPStubs { stubs in
                stubs.stub(.get("https://api.example.com/orders"), .status(200), expecting: .once)
                let session = stubs.makeSession()
                for path in ["/a", "/orde", "/b", "/order", "/ordersX"] {
                    _ = await complete(session, "https://api.example.com\(path)")
                }
            }
        }
        let unmet = try #require(issues.first { $0.description.contains("Unmet expectation") })
        let listing = try #require(unmet.comments.first?.rawValue).split(separator: "\n")
        #expect(
            listing.filter { !$0.hasPrefix("   ") } == [
                "Requests received (3 of 5), closest first:",
                "1. GET https://api.example.com/ordersX → unmatched, distance 0.03",
                "2. GET https://api.example.com/order → unmatched, distance 0.04",
                "3. GET https://api.example.com/orde → unmatched, distance 0.08",
            ],
            "\(listing)"
        )
    }

    @Test("an unmet expectation with no request at all says so, and names the likely cause and its fix")
    func unmetExpectationWithNothingReceived() async throws {
        let issues = try await recordedIssues {
            await withHTTPStubs { (stubs: StubRegistry) async in
                _ = stubs.stub(.delete("https://api.example.com/users/7"), .status(204), expecting: .atLeast(1))
                // The mistake of issue 40: a session the stubs do not serve (here a URL no server answers).
                var request = URLRequest(url: URL(string: "http://127.0.0.1:9/users/7")!)
                request.httpMethod = "DELETE"
                _ = try? await URLSession(configuration: .ephemeral).data(for: request)
            }
        }
        try #require(issues.count == 1, "only the unmet expectation; no warning besides: \(issues)")
        let comment = try #require(issues[0].comments.first?.rawValue)
        #expect(comment.hasPrefix("No other requests were received.\nNo request reached this test's stubs."))
        #expect(comment.contains("give the code under test the session stubs.makeSession() makes"))
        #expect(comment.contains("stubUsage: .noRequests"))
    }

    @Test("an unmet expectation after a huge request stays short")
    func unmetExpectationWithHugeRequest() async throws {
        let issues = try await recordedIssues {
            await withHTTPStubs { stubs in
                stubs.stub(.post("https://api.example.com/items").header("X-Big", "x"), .status(201), expecting: .once)
                var odd = URLRequest(url: URL(string: "https://api.example.com/items")!)
                odd.httpMethod = "POST"
                odd.httpBody = Data(repeating: UInt8(ascii: "h"), count: 10 * 1024 * 1024)
                odd.setValue(String(repeating: "y", count: 64 * 1024), forHTTPHeaderField: "X-Big")
                _ = await complete(stubs.makeSession(), odd)
            }
        }
        let unmet = try #require(issues.first { $0.description.contains("Unmet expectation") })
        #expect(unmet.description.contains("(65536 bytes)"), "the 64 KB header is quoted cut short")
        #expect(unmet.description.utf8.count < 2_000, "the message is \(unmet.description.utf8.count) bytes")
    }
}
