import Foundation
import Testing

@testable import HTTPStubs
@testable import HTTPStubsFiles
@testable import HTTPStubsLanguages
@testable import HTTPStubsTemplates

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Issue 41: many short `StubStream`s at once, each read by a delegate, about a third cancelled by
/// their client mid-stream, chosen at random (seeded, so that a failure can be replayed): every task completes (no hang), every stream ends as its client saw it, and no
/// protocol instance outlives its request. The main suite runs 200 (so that the thread sanitizer
/// run covers it); the reliability run, 1,000.
///
/// A stream is cancelled only while it is open, never as it finishes: cancellation racing a
/// completion can crash or deadlock swift-corelibs-foundation 6.3 whatever the protocol (#5412).
@Suite("Concurrent streams")
struct ConcurrentStreamTests {
    @Test("200 concurrent short streams, some cancelled by their client mid-stream", .timeLimit(.minutes(5)))
    func twoHundredStreams() async throws {
        try await Self.run(streams: 200, seed: 41)
    }

    @Test(
        "1,000 concurrent short streams, some cancelled by their client mid-stream",
        .enabled(if: reliabilitySuitesEnabled, "heavy: run with HTTPSTUBS_RELIABILITY=1 (.ci/run does)"),
        .timeLimit(.minutes(5))
    )
    func thousandStreams() async throws {
        try await Self.run(streams: 1_000, seed: 1_000)
    }

    /// What one stream's client is to do: read `events` events, then cancel or let the stream finish.
    private struct Plan: Sendable {
        let index: Int
        let events: Int
        let cancels: Bool
    }

    private static func run(streams count: Int, seed: UInt64) async throws {
        let stubs = StubRegistry()
        let swarm = Swarm()
        let session = stubs.makeSession(delegate: swarm)
        defer { session.finishTasksAndInvalidate() }
        let baseline = RequestDelivery.liveCount
        var random = SeededGenerator(seed: seed)
        let plans = (0..<count).map { index in
            Plan(
                index: index,
                events: Int.random(in: 1...5, using: &random),
                cancels: Int.random(in: 0..<3, using: &random) == 0
            )
        }
        let streams = plans.map { _ in StubStream() }
        for plan in plans {
            stubs.stub(.get("https://api.example.com/streams/\(plan.index)"), .stream(streams[plan.index]))
        }

        try await withThrowingTaskGroup(of: Void.self) { group in
            for plan in plans {
                let stream = streams[plan.index]
                let task = session.dataTask(with: URL(string: "https://api.example.com/streams/\(plan.index)")!)
                swarm.expect(task.taskIdentifier, plan: plan.index)
                task.resume()
                group.addTask {
                    _ = try await stream.waitForRequest(timeout: .seconds(patience))
                    for event in 0..<plan.events { stream.send(ServerSentEvent(data: "\(plan.index).\(event)")) }
                    if plan.cancels {
                        // Cancelled once the client has read every event, while the stream is open.
                        try await waitUntil { swarm.chunks(of: plan.index).count == plan.events }
                        task.cancel()
                    } else {
                        stream.finish()
                    }
                }
            }
            try await group.waitForAll()
        }
        try await waitUntil { swarm.completedCount == count }

        for plan in plans {
            let expected = (0..<plan.events).map { "data: \(plan.index).\($0)\n\n" }
            let outcome = try #require(swarm.outcome(of: plan.index))
            #expect(outcome.chunks.map { String(decoding: $0, as: UTF8.self) } == expected, "stream \(plan.index)")
            let ending = try await streams[plan.index].waitForEnd(timeout: .seconds(patience))
            if plan.cancels {
                #expect((outcome.error as? URLError)?.code == .cancelled, "stream \(plan.index)")
                #expect(ending == .cancelledByClient, "stream \(plan.index)")
            } else {
                #expect(outcome.error == nil, "stream \(plan.index): \(String(describing: outcome.error))")
                #expect(ending == .finished, "stream \(plan.index)")
            }
        }
        let remaining = await liveLoaders(settlingTo: baseline, timeout: .seconds(patience))
        #expect(remaining <= baseline, "\(remaining - baseline) protocol instances outlived their requests")
    }

    /// The delegate of every stream's task: what each received, by stream.
    private final class Swarm: NSObject, URLSessionDataDelegate, Sendable {
        struct Outcome {
            var chunks: [Data] = []
            var completed = false
            var error: (any Error)?
        }

        private struct State {
            var planByTask: [Int: Int] = [:]
            var outcomes: [Int: Outcome] = [:]
            var completedCount = 0
        }

        private let state = Locked(State())

        func expect(_ taskIdentifier: Int, plan: Int) {
            state.withLock { state in
                state.planByTask[taskIdentifier] = plan
                state.outcomes[plan] = Outcome()
            }
        }

        func chunks(of plan: Int) -> [Data] {
            state.withLock { $0.outcomes[plan]?.chunks ?? [] }
        }

        func outcome(of plan: Int) -> Outcome? {
            state.withLock { $0.outcomes[plan] }
        }

        var completedCount: Int {
            state.withLock { $0.completedCount }
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            state.withLock { state in
                guard let plan = state.planByTask[dataTask.taskIdentifier] else { return }
                state.outcomes[plan]?.chunks.append(data)
            }
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            state.withLock { state in
                guard let plan = state.planByTask[task.taskIdentifier] else { return }
                state.outcomes[plan]?.completed = true
                state.outcomes[plan]?.error = error
                state.completedCount += 1
            }
        }
    }
}
