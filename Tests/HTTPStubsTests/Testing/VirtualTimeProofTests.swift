import Foundation
import Testing

/// The Virtual time article's example (ReadmeVirtualTimeExample.swift), run again and again: `ManualStubClock.advance`
/// must let a request started from a `Task` reach the clock before it moves time, every time. Before it did, the
/// example hung in 20 of 20 runs (the request then waited for a virtual instant already past).
///
/// 20 runs in the default suite; 1,000 with `HTTPSTUBS_RELIABILITY=1`, as `.ci/run` does.
@Suite("Virtual time proof")
struct VirtualTimeProofTests {
    static let runs = ProcessInfo.processInfo.environment["HTTPSTUBS_RELIABILITY"] == "1" ? 1_000 : 20

    @Test("the Virtual time article's ManualStubClock example passes every time, never hanging")
    func readmeExampleNeverHangs() async throws {
        for run in 1...Self.runs {
            let finished = await within {
                (try? await FeedLoadingTests().showsLoadingUntilTheServerAnswers()) != nil
            }
            try #require(finished != nil, "run \(run) of \(Self.runs) hung for \(Int(patience)) s")
            #expect(finished == true, "run \(run) of \(Self.runs) threw")
        }
    }
}
