// Shown in Sources/HTTPStubsTesting/HTTPStubsTesting.docc/VirtualTime.md; VirtualTimeProofTests runs it 1,000 times in
// .ci/run.
import Foundation
import HTTPStubs
import HTTPStubsTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite struct FeedLoadingTests {
    /// What the screen shows while the feed loads.
    actor FeedModel {
        enum State: Equatable {
            case idle, loading
            case loaded(String)
        }
        private(set) var state = State.idle
        let session: URLSession

        init(session: URLSession) { self.session = session }

        func load() async throws {
            state = .loading
            let (data, _) = try await session.data(from: URL(string: "https://api.example.com/feed")!)
            state = .loaded(String(decoding: data, as: UTF8.self))
        }
    }

    @Test func showsLoadingUntilTheServerAnswers() async throws {
        let clock = ManualStubClock()  // time moves when the test says
        try await withHTTPStubs(clock: clock) { stubs in
            stubs.stub(.get("https://api.example.com/feed"), .text("3 items").delayed(by: .seconds(2)))
            let model = FeedModel(session: stubs.makeSession())

            let load = Task { try await model.load() }
            await clock.advance(by: .milliseconds(1999))  // first lets the request reach the clock
            #expect(await model.state == .loading)
            await clock.advance(by: .milliseconds(1))  // delivers exactly what is due at 2 s
            try await load.value
            #expect(await model.state == .loaded("3 items"))
            #expect(clock.now == .seconds(2))
        }
    }
}
