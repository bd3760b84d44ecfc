import Foundation
import Testing

@testable import HTTPStubs

#if canImport(FoundationNetworking)
import FoundationNetworking

/// A `startLoading` that comes after the load ended has nothing to deliver, and must not make the
/// loader hold its protocol instance again (the instance owns the loader: nothing would end that cycle).
@Suite struct ResumedTwiceTests {
    @Test("a task resumed twice before its protocol instance exists keeps no instance after its answer")
    func resumedTwiceInASessionWithACache() async throws {
        let stubs = StubRegistry()
        stubs.stub(.get("https://api.example.com/twice"), .text("once"))
        // `.ephemeral` keeps a urlCache: corelibs makes the instance after looking the request up, and
        // gives it both `resume()` calls, so `startLoading` comes twice, the second after the answer.
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [stubs.protocolClass]
        let session = URLSession(configuration: configuration)
        let baseline = RequestDelivery.liveCount
        for _ in 0..<50 {
            let text: String? = await withCheckedContinuation { continuation in
                let task = session.dataTask(with: URL(string: "https://api.example.com/twice")!) { data, _, _ in
                    continuation.resume(returning: data.map { String(decoding: $0, as: UTF8.self) })
                }
                task.resume()
                task.resume()  // a no-op on Apple platforms
            }
            #expect(text == "once")
        }
        let remaining = await liveLoaders(settlingTo: baseline)
        #expect(remaining <= baseline, "\(remaining - baseline) protocol instances outlived their requests")
    }
}
#endif
