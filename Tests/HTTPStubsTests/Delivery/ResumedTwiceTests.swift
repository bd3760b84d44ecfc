import Foundation
import Testing

@testable import HTTPStubs
@testable import HTTPStubsFiles
@testable import HTTPStubsLanguages
@testable import HTTPStubsTemplates

#if canImport(FoundationNetworking)
import FoundationNetworking

/// A `startLoading` that comes after the load ended has nothing to deliver, and must not make the
/// loader hold its protocol instance again (the instance owns the loader: nothing would end that cycle).
@Suite struct ResumedTwiceTests {
    @Test("a task resumed twice before its protocol instance exists keeps no instance after its answer")
    func resumedTwiceInASessionWithACache() async throws {
        let stubs = StubRegistry()
        stubs.stub(.get("https://api.example.com/twice"), .text("once"))
        // With a urlCache, corelibs makes the instance only when the cache answers its lookup, and
        // gives it every `resume()` made meanwhile: `startLoading` comes twice, the second after the
        // answer. The cache answers when the test says so, after both `resume()` calls: left to
        // corelibs' own cache (which answers on a global queue), a busy machine can let the whole
        // load end before the second `resume()`, which corelibs then fails as "unsupported URL" on
        // a task it already removed: a trap in `URLSession.behaviour(for:)`, not the toolkit's.
        let cache = HeldCacheLookups()
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = cache
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
                cache.answerAll()
            }
            #expect(text == "once")
        }
        let remaining = await liveLoaders(settlingTo: baseline)
        #expect(remaining <= baseline, "\(remaining - baseline) protocol instances outlived their requests")
    }
}

/// A cache that finds nothing, and answers a data task's lookup only when ``answerAll()`` is called.
private final class HeldCacheLookups: URLCache, @unchecked Sendable {
    // Invariant: `waiting` is only read or written while `lock` is held; the handlers run after it
    // is released (they make the protocol instance and call back into corelibs).
    private let lock = NSLock()
    private var waiting: [@Sendable (CachedURLResponse?) -> Void] = []

    init() {
        super.init(memoryCapacity: 0, diskCapacity: 0, diskPath: nil)
    }

    override func getCachedResponse(
        for dataTask: URLSessionDataTask,
        completionHandler: @Sendable @escaping (CachedURLResponse?) -> Void
    ) {
        lock.withLock { waiting.append(completionHandler) }
    }

    func answerAll() {
        let handlers = lock.withLock {
            defer { waiting = [] }
            return waiting
        }
        for handler in handlers { handler(nil) }
    }
}
#endif
