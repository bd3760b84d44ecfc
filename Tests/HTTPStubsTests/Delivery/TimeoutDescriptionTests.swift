import Foundation
import HTTPStubs
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A timeout is a `URLError` the toolkit makes, so `"\(error)"` starts with its message, as for an
/// unmatched request, not with `Error Domain=NSURLErrorDomain Code=-1001 "(null)" UserInfo={…}`.
@Suite struct TimeoutDescriptionTests {
    @Test("a stub slower than the request's timeout fails with a description that starts with why")
    func timeoutDescription() async throws {
        let stubs = StubRegistry(clock: ImmediateStubClock())
        stubs.stub(.get("https://api.example.com/slow"), .text("late").delayed(by: .seconds(30)))
        var request = URLRequest(url: URL(string: "https://api.example.com/slow")!)
        request.timeoutInterval = 10
        let error = await #expect(throws: URLError.self) { _ = try await stubs.makeSession().data(for: request) }
        #expect(error?.code == .timedOut)
        #expect(
            error.map { "\($0)" }
                == "The request timed out: the stub had not answered after 10.0 s, the request's timeout.\n"
                + "(URLError.Code.timedOut, NSURLErrorDomain -1001)"
        )
        #expect(error?.failingURL?.absoluteString == "https://api.example.com/slow")
    }
}
