import Foundation
import HTTPStubs
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A task cancelled before it was ever resumed sent nothing: corelibs still creates a protocol
/// instance for it (to fail it with `cancelled`), and the toolkit must not treat that as a request.
@Suite struct CancelledBeforeResumeTests {
    @Test("a task cancelled without being resumed chooses no stub, uses none and is not journaled")
    func cancelledBeforeResume() async throws {
        let stubs = StubRegistry()
        let id = stubs.stub(.get("https://api.example.com/users/42"), .text("Ada"))
        let session = stubs.makeSession()
        let failure = OneShot<URLError.Code?>()
        let task = session.dataTask(with: URL(string: "https://api.example.com/users/42")!) { _, _, error in
            failure.fulfill((error as? URLError)?.code)
        }
        task.cancel()
        let code = try #require(await failure.value(within: patience), "the completion handler never ran")
        #expect(code == .cancelled)
        #expect(stubs.useCount(of: id) == 0)
        #expect(stubs.journal.isEmpty, "\(stubs.journal)")
    }
}
