import Foundation
import HTTPStubs
import HTTPStubsTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The record workflow as the README shows it: `replay` inside a test's own stub scope.
extension RecordingTests {
    @Test(
        "README workflow: replay inside withHTTPStubs records with .once, replays in mode none, and an unrecorded request fails the test naming HTTPSTUBS_RECORD"
    )
    func readmeWorkflow() async throws {
        try await withRecordingFixture { root, server in

            // A developer's first run: the root does not exist yet, so `.once` records.
            let live = try await withHTTPStubs { stubs in
                let mode = try stubs.replay(root.path, mode: .once)
                #expect(mode == .once)
                return try Answer(await complete(stubs.makeSession(), server.request("GET", "/users/1")))
            }
            #expect(live.status == 200)
            #expect(root.mappingNames().count == 1, "\(root.mappingNames())")
            server.stop()

            // CI, with HTTPSTUBS_RECORD=none (here the mode in code: this suite runs without the
            // variable), replays the checked-in root; the server is gone.
            try await withHTTPStubs { stubs in
                let mode = try stubs.replay(root.path, mode: .once)
                let replayed = try Answer(await complete(stubs.makeSession(), server.request("GET", "/users/1")))
                #expect(mode == .once)
                #expect(replayed == live.redacted, "the root exists now: .once only replays")
            }
            try await withHTTPStubs { stubs in
                try stubs.replay(root.path, mode: .none)
                let replayed = try Answer(await complete(stubs.makeSession(), server.request("GET", "/users/1")))
                #expect(replayed == live.redacted)
            }

            // A request nobody recorded fails at once, and fails the test with the variable to set.
            try await withKnownIssue {
                try await withHTTPStubs { stubs in
                    try stubs.replay(root.path, mode: .none)
                    let unrecorded = await complete(stubs.makeSession(), server.request("GET", "/search?q=unrecorded"))
                    #expect(unrecorded.urlError?.code == .resourceUnavailable)
                }
            } matching: { issue in
                let message = issue.description
                return message.contains("Unmatched request: GET \(server.base)/search?q=unrecorded")
                    && message.contains("It was not recorded in \(root.path).")
                    && message.contains("HTTPSTUBS_RECORD=new_episodes")
            }

            // A checkout without the root (it was never checked in) fails the same way, and says so.
            let missing = root.folder.appendingPathComponent("not-checked-in").path
            try await withKnownIssue {
                try await withHTTPStubs { stubs in
                    try stubs.replay(missing, mode: .none)
                    #expect(
                        await complete(stubs.makeSession(), server.request("GET", "/users/1")).urlError?.code
                            == .resourceUnavailable
                    )
                }
            } matching: { issue in
                let message = issue.description
                return message.contains("the stub root \(missing) does not exist")
                    && message.contains("HTTPSTUBS_RECORD=new_episodes")
            }
            #expect(!FileManager.default.fileExists(atPath: missing), "mode none created the root")
        }
    }
}
