import Foundation
import HTTPStubs
import HTTPStubsTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The environment variable that enables ``FailureAttachmentFixtures``, set to `1`.
let attachmentFixturesVariable = "HTTPSTUBS_ATTACHMENT_FIXTURES"

/// Whether this run is the child run of ``FailureAttachmentTests``.
let attachmentFixturesRunning = ProcessInfo.processInfo.environment[attachmentFixturesVariable] == "1"

/// Tests that fail on purpose, so that their stub scopes attach evidence: run only by
/// ``FailureAttachmentTests``, in a child run of this test executable with
/// `--attachments-path` that sets ``attachmentFixturesVariable``; skipped in every other run.
@Suite(
    "Failure attachment fixtures (run by FailureAttachmentTests)",
    .enabled(if: attachmentFixturesRunning, "fails on purpose; FailureAttachmentTests runs it")
)
struct FailureAttachmentFixtures {
    @Test func unmatched() async {
        await withHTTPStubs { stubs in
            stubs.stub(.get("https://api.example.com/users/42"), .text("Ada"))
            var request = URLRequest(url: URL(string: "https://api.example.com/users/43")!)
            request.setValue("Bearer s3cr3t-token", forHTTPHeaderField: "Authorization")
            _ = try? await stubs.makeSession().data(for: request)
        }
    }

    @Test(.httpStubs { stubs in stubs.stub(.get("https://api.example.com/feed"), .text("[]"), expecting: .once) })
    func unmetExpectation() {}

    @Test func inFlight() async throws {
        let clock = ManualStubClock()
        try await withHTTPStubs(clock: clock) { stubs in
            stubs.stub(.get("https://api.example.com/feed"), .text("never").delayed(by: .seconds(4)))
            stubs.makeSession().dataTask(with: URL(string: "https://api.example.com/feed")!) { _, _, _ in }.resume()
            try await waitUntil { clock.pendingCount == 1 }
        }
    }

    @Test func passing() async throws {
        try await withHTTPStubs { stubs in
            stubs.stub(.get("https://api.example.com/feed"), .text("[]"), expecting: .once)
            _ = try await stubs.makeSession().data(from: URL(string: "https://api.example.com/feed")!)
        }
    }

    /// Fails only as `withKnownIssue` expects: the test passes.
    @Test func knownIssue() async {
        await withKnownIssue {
            await withHTTPStubs { stubs in
                _ = try? await stubs.makeSession().data(from: URL(string: "https://api.example.com/feed")!)
            }
        }
    }

    /// An 11 MiB body: its HAR is over the 10 MiB limit.
    @Test func hugeBody() async {
        await withHTTPStubs { stubs in
            var request = URLRequest(url: URL(string: "https://api.example.com/upload")!)
            request.httpMethod = "POST"
            request.setValue("text/plain", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data(repeating: UInt8(ascii: "a"), count: 11 * 1_048_576)
            _ = try? await stubs.makeSession().data(for: request)
        }
    }

    /// Records `GET /users/1` from a real server, and fails by an expectation no request met.
    @Test func recording() async throws {
        try await withRecordingFixture { root, server in
            try await withHTTPStubs { stubs in
                try stubs.replay(root.path, mode: .once)
                stubs.stub(.get(.init("\(server.base)/never")), .text("never"), expecting: .once)
                _ = try await stubs.makeSession().data(for: server.request("GET", "/users/1"))
            }
        }
    }
}
