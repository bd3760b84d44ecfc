import Foundation
import HTTPStubs
import Testing

@testable import HTTPStubsTesting

/// The bounds of a failing scope's attachments, checked on what the scope would attach (the
/// child run of ``FailureAttachmentTests`` shows them recorded).
@Suite("Failure attachment limits")
struct FailureAttachmentLimitTests {
    @Test("the failures text stops before 1 MiB, between failures, and counts the ones left out")
    func textStopsAtOneMebibyte() throws {
        let failure = "Unmatched request: GET https://api.example.com/feed\n" + String(repeating: "x", count: 2_000)
        let attachments = FailureAttachment.evidence(
            failures: Array(repeating: failure, count: 600),
            stubs: StubRegistry(),
            testName: "Suite/test()"
        )
        #expect(attachments.map(\.name) == ["Suite.test-failures.txt", "Suite.test-journal.har"])
        let text = String(decoding: try #require(attachments.first).contents, as: UTF8.self)
        #expect(text.utf8.count <= FailureAttachment.textLimit)
        #expect(text.utf8.count > FailureAttachment.textLimit - 3_000, "\(text.utf8.count)")
        // Each failure takes about 2,080 bytes with its separator: 504 fit in 1 MiB with the heading.
        #expect(text.components(separatedBy: "\n── ").count - 1 == 504)
        #expect(
            text.hasSuffix("\n── 504 of 600 ──\n\(failure)\n\n… 96 more failures left out: this text stops at 1 MiB.\n")
        )
    }

    @Test("a scope that reported no failure attaches nothing, whatever its journal holds")
    func noFailureNoAttachment() {
        #expect(FailureAttachment.evidence(failures: [], stubs: StubRegistry(), testName: "Suite/test()") == [])
    }
}
