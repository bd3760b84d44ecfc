import Foundation
import HTTPStubs
import HTTPStubsTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension ScopeEndTests {
    @Test("a request still in flight at the end of its test is named with the secrets of its URL masked")
    func inFlightRequestLineMasksSecrets() async throws {
        let clock = ManualStubClock()
        let outcome = OneShot<Completion>()
        let url = "https://api.example.com/feed?access_token=1n-fl1ght-t0k3n&page=2"
        let issues = try await recordedIssues {
            try await withHTTPStubs(clock: clock) { stubs in
                stubs.stub(.get("https://api.example.com/feed"), .text("never").delayed(by: .seconds(4)))
                stubs.makeSession().dataTask(with: URL(string: url)!) { data, response, error in
                    outcome.fulfill(Completion(data: data, response: response, error: error))
                }.resume()
                try await waitUntil { clock.pendingCount == 1 }
            }
        }
        let completion = try #require(await outcome.value(within: patience))
        let message = completion.urlError?.localizedDescription ?? ""
        #expect(message.contains("GET https://api.example.com/feed?access_token=<redacted:"), "\(message)")
        let issue = try #require(issues.first)
        #expect(issue.description.contains("Request still in flight"), "\(issue)")
        #expect(!issue.description.contains("1n-fl1ght-t0k3n") && !message.contains("1n-fl1ght-t0k3n"), "\(issue)")
    }
}
