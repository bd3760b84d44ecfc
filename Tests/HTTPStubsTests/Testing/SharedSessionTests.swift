import Foundation
import Testing

// Child processes (`Process`) can only be started on macOS and Linux.
#if os(macOS) || os(Linux)
/// `URLSession.shared` in a process of its own (`shared-session-probe`), because in this test
/// process other tests have long created sessions: when interception starts before any session
/// exists, `URLSession.shared` is served by the stubs; when a session came first, the status and a
/// reported issue say so, and the stubs never answer a request they cannot see.
@Suite("URLSession.shared in a fresh process")
struct SharedSessionTests {
    @Test("interception started before any session: URLSession.shared answers from the stubs")
    func startedFirst() async throws {
        let probe = try builtExecutable(named: "shared-session-probe")
        let run = try await run(probe, ["first"], within: patience)
        #expect(run.status == 0, "\(run.output)")
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(lines.contains("status: active"), "\(run.output)")
        #expect(lines.contains("answer: served by the stub"), "\(run.output)")
        #expect(!lines.contains { $0.hasPrefix("issue:") }, "\(run.output)")
    }

    // Linux only: on Apple platforms `URLSession.shared` consults the registered protocol classes
    // for each request, so a session created first changes nothing (SharedSessionInterception is
    // always `.active` there; expected, untested).
    #if os(Linux)
    @Test("a session created first: the status is unavailable and an issue says why and what to do")
    func startedTooLate() async throws {
        let probe = try builtExecutable(named: "shared-session-probe")
        let run = try await run(probe, ["late"], within: patience)
        #expect(run.status == 0, "\(run.output)")
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(lines.contains("status: unavailable"), "\(run.output)")
        let issue = try #require(lines.first { $0.hasPrefix("issue:") }, "\(run.output)")
        #expect(issue.contains("URLSession.shared cannot be intercepted"))
        #expect(issue.contains("Inject a session from URLProtocolStub.makeSession()"))
        #expect(
            !lines.contains("answer: served by the stub"),
            "the stubs cannot see URLSession.shared then: \(run.output)"
        )
    }
    #endif
}
#endif
