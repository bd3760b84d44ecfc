import Foundation
import HTTPStubs
import HTTPStubsFiles

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The streams workload (issue 41): a 1,000-event Server-Sent Events stream read by a delegate,
/// from the toolkit under an `ImmediateStubClock` and from a floor protocol that delivers the same
/// chunks; and 1,000 concurrent short `StubStream`s, about a third cancelled by their client at random.
enum Streams {
    /// Events in the long stream.
    static let eventCount = 1_000
    /// Streams in the concurrent run.
    static let concurrentCount = 1_000

    /// The long stream's events: a token each, a millisecond apart.
    static let events = (0..<eventCount).map { index in
        ServerSentEvent(data: #"{"token": "\#(index)"}"#, id: "\(index)", after: .milliseconds(1))
    }

    /// The chunks a client receives: one per event.
    static let chunks = events.map { Data($0.serialized.utf8) }

    static let url = URL(string: "\(Registries.base)/stream")!

    // MARK: The long stream

    /// A registry answering with the long stream, on an immediate clock, and a session of it.
    static func stubSession(delegate: StreamReader) -> (StubRegistry, URLSession) {
        let registry = StubRegistry(clock: ImmediateStubClock())
        registry.stub(.get(URLPattern(url.absoluteString)), .events(events))
        return (registry, registry.makeSession(delegate: delegate))
    }

    /// A session whose requests the floor protocol answers with the same chunks.
    static func floorSession(delegate: StreamReader) -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [StreamFloorProtocol.self]
        configuration.urlCache = nil
        return URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }

    /// Reads `streams` streams one after the other through `session`, whose delegate is `reader`:
    /// a sample counting events, not requests.
    static func read(_ streams: Int, _ session: URLSession, _ reader: StreamReader) async throws -> Sample {
        let clock = ContinuousClock()
        let start = clock.now
        for _ in 0..<streams {
            let received = try await reader.read(session.dataTask(with: url))
            guard received == eventCount else {
                throw BenchFailure("streams: a client received \(received) chunks of \(eventCount) events")
            }
        }
        return Sample(requests: streams * eventCount, seconds: seconds(clock.now - start))
    }

    // MARK: Concurrent short streams

    /// Opens `concurrentCount` streams at once; each sends 1 to 5 events, then finishes, or (one in
    /// three on average, chosen at random) has its client cancel once it read them. Throws unless every task completed as planned
    /// and no protocol instance outlived its request; returns the wall seconds.
    static func concurrentRun() async throws -> Double {
        let registry = StubRegistry()
        let tally = StreamTally()
        let session = registry.makeSession(delegate: tally)
        defer { session.finishTasksAndInvalidate() }
        let streams = (0..<concurrentCount).map { _ in StubStream() }
        for (index, stream) in streams.enumerated() {
            registry.stub(.get(URLPattern("\(Registries.base)/streams/\(index)")), .stream(stream))
        }
        let clock = ContinuousClock()
        let start = clock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, stream) in streams.enumerated() {
                let events = Int.random(in: 1...5)
                let cancels = Int.random(in: 0..<3) == 0
                let task = session.dataTask(with: URL(string: "\(Registries.base)/streams/\(index)")!)
                tally.expect(task.taskIdentifier)
                task.resume()
                group.addTask {
                    _ = try await stream.waitForRequest(timeout: .seconds(60))
                    for event in 0..<events { stream.send(ServerSentEvent(data: "\(event)")) }
                    guard cancels else {
                        stream.finish()
                        return
                    }
                    // Cancelled while open, never as it finishes: that race can crash corelibs 6.3 (#5412).
                    try await tally.waitUntil(task.taskIdentifier, hasRead: events)
                    task.cancel()
                    guard try await stream.waitForEnd(timeout: .seconds(60)) == .cancelledByClient else {
                        throw BenchFailure("streams: a cancelled stream did not see its client go")
                    }
                }
            }
            try await group.waitForAll()
        }
        try await tally.waitForAll(count: concurrentCount)
        let wall = seconds(clock.now - start)
        guard tally.unexpected == 0 else {
            throw BenchFailure("streams: \(tally.unexpected) streams did not end as planned")
        }
        let deadline = clock.now + .seconds(10)
        while StubRegistry.liveRequestCount > 0, clock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        guard StubRegistry.liveRequestCount == 0 else {
            throw BenchFailure("streams: \(StubRegistry.liveRequestCount) protocol instances outlived their requests")
        }
        return wall
    }
}

/// The floor for a stream: a bare `URLProtocol` that delivers the response and the long stream's
/// chunks, one `didLoad` each, inside `startLoading`.
final class StreamFloorProtocol: URLProtocol {
    override class func canInit(with request: URLRequest) -> Bool { true }

    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    override func startLoading() {
        guard let client else { return }
        client.urlProtocol(self, didReceive: Self.response, cacheStoragePolicy: .notAllowed)
        for chunk in Streams.chunks { client.urlProtocol(self, didLoad: chunk) }
        client.urlProtocolDidFinishLoading(self)
    }

    override func stopLoading() {}

    private static let response = HTTPURLResponse(
        url: Streams.url,
        statusCode: 200,
        httpVersion: "HTTP/1.1",
        headerFields: ["Content-Type": "text/event-stream"]
    )!
}

/// The delegate reading one stream at a time: counts its chunks and says when it completes.
final class StreamReader: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // Invariant: `chunks` and `waiter` are only touched while `lock` is held.
    private let lock = NSLock()
    private var chunks = 0
    private var waiter: CheckedContinuation<Int, any Error>?

    /// Resumes `task` and returns how many chunks it received once it completed.
    func read(_ task: URLSessionDataTask) async throws -> Int {
        try await withCheckedThrowingContinuation { continuation in
            lock.withLock {
                chunks = 0
                waiter = continuation
            }
            task.resume()
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        lock.withLock { chunks += 1 }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let (waiter, count) = lock.withLock { () -> (CheckedContinuation<Int, any Error>?, Int) in
            defer { self.waiter = nil }
            return (self.waiter, chunks)
        }
        if let error { waiter?.resume(throwing: error) } else { waiter?.resume(returning: count) }
    }
}

/// The delegate of the concurrent streams: chunks read and how each task completed.
final class StreamTally: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // Invariant: every field is only touched while `lock` is held.
    private let lock = NSLock()
    private var read: [Int: Int] = [:]
    private var completed = 0
    private var failures = 0

    func expect(_ task: Int) {
        lock.withLock { read[task] = 0 }
    }

    /// Tasks that completed other than as planned: an error but a cancellation.
    var unexpected: Int { lock.withLock { failures } }

    func waitUntil(_ task: Int, hasRead count: Int) async throws {
        try await poll { self.lock.withLock { self.read[task] ?? 0 } >= count }
    }

    func waitForAll(count: Int) async throws {
        try await poll { self.lock.withLock { self.completed } == count }
    }

    private func poll(_ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while !condition() {
            guard ContinuousClock.now < deadline else { throw BenchFailure("streams: a client hung") }
            try await Task.sleep(for: .milliseconds(1))
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        lock.withLock { read[dataTask.taskIdentifier, default: 0] += 1 }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        lock.withLock {
            completed += 1
            if let error, (error as? URLError)?.code != .cancelled { failures += 1 }
        }
    }
}
