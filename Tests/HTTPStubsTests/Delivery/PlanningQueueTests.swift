import Dispatch
import Foundation
import HTTPStubs
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking

/// Where a request is planned on Linux: inside `resume()` when corelibs makes the protocol
/// instance there, holding URLSession's work queue; in `startLoading`, on that queue, otherwise.
/// Planning reads corelibs' task and session fields that only that queue may touch (the session's
/// task registry among them), so it must never run while the queue is free.
@Suite(.serialized) struct PlanningQueueTests {
    @Test(
        "a request is planned while URLSession's work queue is held, also in a session that keeps a urlCache",
        arguments: [false, true]
    )
    func plannedHoldingTheWorkQueue(keepsURLCache: Bool) async throws {
        let probeSession = URLSession(configuration: .ephemeral)
        // Never resumed: only its `priority`, which corelibs reads inside `workQueue.sync`, is used.
        let probeTask = probeSession.dataTask(with: URL(string: "http://127.0.0.1:1/probe")!)
        let clock = WorkQueueProbeClock(probeTask: probeTask)
        let stubs = StubRegistry(clock: clock)
        stubs.stub(.get("https://api.example.com/users/42"), .text("Ada"))
        let session: URLSession
        if keepsURLCache {
            // As a hand-made configuration (or URLSession.shared) has it: `.ephemeral` has a urlCache,
            // so corelibs looks the request up there first and makes the protocol instance on a
            // global queue, after `resume()` has returned.
            let configuration = URLSessionConfiguration.ephemeral
            configuration.protocolClasses = [stubs.protocolClass]
            #expect(configuration.urlCache != nil)
            session = URLSession(configuration: configuration)
        } else {
            session = stubs.makeSession()
        }
        clock.arm()
        let (data, _) = try await session.data(from: URL(string: "https://api.example.com/users/42")!)
        #expect(String(decoding: data, as: UTF8.self) == "Ada")
        #expect(clock.firstReadingHeldWorkQueue == true, "the request was planned while the work queue was free")
    }
}

/// The system clock, whose first reading once armed (taken when a request is planned) finds out whether
/// URLSession's work queue, which the tasks of every session share, is held at that moment.
private final class WorkQueueProbeClock: StubClock, @unchecked Sendable {
    // Invariant: `first` is only touched under its lock.
    private let system = SystemStubClock()
    private let probeTask: URLSessionTask
    private let first = Locked<(armed: Bool, taken: Bool, held: Bool?)>((false, false, nil))

    init(probeTask: URLSessionTask) {
        self.probeTask = probeTask
    }

    /// From now on, the first reading probes (the registry reads the clock when it is made).
    func arm() {
        first.withLock { $0.armed = true }
    }

    var firstReadingHeldWorkQueue: Bool? {
        first.withLock { $0.held }
    }

    var now: Duration {
        let isFirst = first.withLock { state -> Bool in
            guard state.armed, !state.taken else { return false }
            state.taken = true
            return true
        }
        if isFirst {
            let answered = DispatchSemaphore(value: 0)
            let task = UncheckedBox(probeTask)
            DispatchQueue.global().async {
                _ = task.value.priority  // `workQueue.sync`: waits while another thread holds the queue
                answered.signal()
            }
            let held = answered.wait(timeout: .now() + .milliseconds(500)) == .timedOut
            first.withLock { $0.held = held }
        }
        return system.now
    }

    func schedule(at deadline: Duration, _ action: @escaping @Sendable () -> Void) -> any StubClockTimer {
        system.schedule(at: deadline, action)
    }
}

private struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
#endif
