import Dispatch
import Foundation
import Testing

@testable import HTTPStubs
@testable import HTTPStubsFiles
@testable import HTTPStubsLanguages
@testable import HTTPStubsTemplates

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Start/cancel races against stubs that are still working: during a delay, in the middle of a
/// dribbled body, or never completing. The caller always gets `URLError(.cancelled)`, and no
/// protocol instance or scheduled delivery outlives its request (`RequestDelivery.liveCount` comes back
/// to where it was; a pending wake-up holds its task, and through it the instance, until it is
/// cancelled).
///
/// That the protocol never calls its client after `stopLoading` is shown by the absence of a
/// crash: swift-corelibs-foundation traps on any such call ("Trying to access a behaviour for a
/// task that in not in the registry"), and on a second completion of `data(for:)`.
///
/// Stubs that complete instantly are left out on purpose: cancellation racing an instant
/// completion can crash or deadlock corelibs 6.3 with any protocol (swift-corelibs-foundation
/// #5412); `StressTests` runs that race when `HTTPSTUBS_CANCEL_RACE=1`.
@Suite(
    "Cancellation",
    .serialized,
    .enabled(
        if: reliabilitySuitesEnabled,
        "heavy: run with HTTPSTUBS_RELIABILITY=1 (.ci/run does, after the main suite)"
    )
)
struct CancellationTests {
    /// How many start/cancel races run.
    static let raceCount = 10_000
    /// How many races are in flight at once.
    static let concurrency = 64

    @Test("10,000 start/cancel races against delayed, dribbling and never-completing stubs", .timeLimit(.minutes(2)))
    func startCancelRaces() async throws {
        let fixture = Fixture()
        let baseline = RequestDelivery.liveCount
        let clock = ContinuousClock()
        let start = clock.now

        let tally = await withTaskGroup(of: Tally.self) { group in
            var random = SeededGenerator(seed: 10_000)
            var tally = Tally()
            for index in 0..<Self.raceCount {
                if index >= Self.concurrency, let finished = await group.next() { tally.add(finished) }
                if index.isMultiple(of: 250) {
                    tally.peakLive = max(tally.peakLive, RequestDelivery.liveCount - baseline)
                }
                let race = Race(index: index, random: &random)
                group.addTask { await race.run(fixture) }
            }
            for await finished in group { tally.add(finished) }
            return tally
        }
        let raced = clock.now - start
        let remaining = await liveLoaders(settlingTo: baseline)
        let tasksAlive = await fixture.tasks.settle()
        let settled = clock.now - start - raced

        #expect(tally.runs == Self.raceCount)
        #expect(
            tally.peakLive > 0,
            """
            the races never had a live protocol instance: RequestDelivery.liveCount does not see them, or \
            another suite's instances, alive at the start (baseline \(baseline)), hid them: the count is \
            process-wide, so run this suite on its own, as .ci/run does
            """
        )
        #expect(
            tally.cancelled == Self.raceCount,
            "\(tally.unexpected.count) races did not end in URLError(.cancelled), first: \(tally.unexpected.prefix(5))"
        )
        #expect(
            remaining <= baseline,
            "\(remaining - baseline) protocol instances (with their scheduled deliveries) outlived their requests"
        )
        // The count above is process-wide; these references are this test's own: a task still
        // alive would be held by a scheduled delivery (or by URLSession).
        #expect(tasksAlive == 0, "\(tasksAlive) of \(fixture.tasks.count) URLSessionTasks outlived their requests")
        #expect(
            tally.lateEvents.isEmpty,
            "the delegate heard from a task after it completed: \(tally.lateEvents.prefix(5))"
        )
        // The dribbled response arrives 1 ms after the start; races that wait 3–6 ms before
        // cancelling mostly see it first (a few may not, on a loaded machine).
        #expect(
            tally.responseBeforeCancel > 0,
            "no delegate race received the dribbled response before being cancelled"
        )
        print(
            "Cancellation: \(tally.runs) races (\(tally.byAPI.map { "\($0.key) \($0.value)" }.sorted().joined(separator: ", "))) in \(raced), all cancelled: \(tally.cancelled == tally.runs); \(tally.responseBeforeCancel) delegate races had the response before the cancel; at most \(tally.peakLive) live instances at once, back to \(remaining) (baseline \(baseline)) and \(fixture.tasks.count) tasks released \(settled) later"
        )
    }

    @Test("suspend, resume and cancel in every order end in URLError(.cancelled) and release the instance")
    func suspendResumeCancel() async throws {
        let fixture = Fixture()
        let baseline = RequestDelivery.liveCount
        var failures: [String] = []
        for (name, steps) in SuspendSequence.all {
            for path in ["/delayed", "/dribble", "/never"] {
                let completion = await fixture.run(path, steps)
                if completion.urlError?.code != .cancelled {
                    failures.append(
                        "\(name) \(path): \(completion.error.map { "\($0)" } ?? "completed with \(completion.text ?? "nil")")"
                    )
                }
            }
        }
        #expect(failures.isEmpty, "\(failures)")
        let remaining = await liveLoaders(settlingTo: baseline)
        #expect(remaining <= baseline, "\(remaining - baseline) protocol instances outlived their requests")
    }

    @Test("a task cancelled after its delayed answer arrived changes nothing and keeps no instance")
    func cancelAfterCompletion() async throws {
        let stubs = StubRegistry()
        stubs.stub(.get("https://api.example.com/soon"), .text("soon").delayed(by: .milliseconds(5)))
        let session = stubs.makeSession()
        let baseline = RequestDelivery.liveCount
        for _ in 0..<200 {
            let box = Locked<URLSessionDataTask?>(nil)
            let completion: Completion = await withCheckedContinuation { continuation in
                let task = session.dataTask(with: URL(string: "https://api.example.com/soon")!) {
                    data,
                    response,
                    error in
                    continuation.resume(returning: Completion(data: data, response: response, error: error))
                }
                box.withLock { $0 = task }
                task.resume()
            }
            box.withLock {
                $0?.cancel()
                $0 = nil
            }
            #expect(completion.text == "soon")
        }
        let remaining = await liveLoaders(settlingTo: baseline)
        #expect(remaining <= baseline)
    }

    @Test("a never-completing stub with timeouts switched off waits without spinning")
    func enormousDelayDoesNotSpin() async throws {
        // 95 years fits in DispatchTime's nanoseconds: one wake-up is scheduled, and it waits.
        let fits = try await wakeUps(whileWaiting: .seconds(3_000_000_000))
        #expect(fits <= 2, "the wake-up was scheduled \(fits) times in 300 ms")
        // 317 years does not: SystemStubClock's wait overflows to a negative one.
        let overflows = try await wakeUps(whileWaiting: .seconds(10_000_000_000))
        #expect(overflows <= 2, "the wake-up was scheduled \(overflows) times in 300 ms")
    }

    /// Requests a stub delayed by `delay` with the request's and the session's timeouts at zero
    /// (off), so that only the delay bounds the wait; cancels it after 300 ms and returns how many
    /// wake-ups were scheduled meanwhile.
    private func wakeUps(whileWaiting delay: Duration) async throws -> Int {
        let clock = CountingClock()
        let stubs = StubRegistry(clock: clock)
        stubs.stub(.get("https://api.example.com/forever"), .text("never").delayed(by: delay))
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 0
        let session = stubs.makeSession(configuration: configuration)
        var request = URLRequest(url: URL(string: "https://api.example.com/forever")!)
        request.timeoutInterval = 0
        let baseline = RequestDelivery.liveCount

        let task = Task { try await session.data(for: request) }
        try await Task.sleep(for: .milliseconds(300))
        let count = clock.scheduled
        task.cancel()
        let error = await #expect(throws: URLError.self) { _ = try await task.value }
        #expect(error?.code == .cancelled)
        let remaining = await liveLoaders(settlingTo: baseline)
        #expect(remaining <= baseline)
        return count
    }
}

// MARK: - The races

extension CancellationTests {
    /// The registry, sessions and stubs the races run against.
    struct Fixture: Sendable {
        let stubs = StubRegistry(randomSeed: 1)
        /// A session whose completion-handler and `async` tasks the races use.
        let session: URLSession
        /// A session with a delegate, for delegate-style data tasks.
        let delegateSession: URLSession
        /// Records what the delegate session's tasks receive.
        let recorder = EventRecorder()
        /// Weak references to the `URLSessionTask`s the races create.
        let tasks = WeakTasks()

        init() {
            // A 60 s delay: cancelled long before it is over.
            stubs.stub(.get("https://api.example.com/delayed"), .text("delayed").delayed(by: .seconds(60)))
            // The response after 1 ms, then 10 chunks over 60 s.
            stubs.stub(
                .get("https://api.example.com/dribble"),
                .text(String(repeating: "d", count: 100)).delayed(by: .milliseconds(1)).dribbled(
                    chunks: 10,
                    over: .seconds(60)
                )
            )
            // A year, with timeouts longer than that: it never completes on its own.
            stubs.stub(.get("https://api.example.com/never"), .text("never").delayed(by: .seconds(365 * 86_400)))
            let configuration = URLSessionConfiguration.ephemeral
            configuration.timeoutIntervalForRequest = 400 * 86_400
            session = stubs.makeSession(configuration: configuration)
            delegateSession = stubs.makeSession(configuration: configuration, delegate: recorder)
        }

        /// A GET of `path`, with a timeout longer than any stub's delay.
        func request(_ path: String) -> URLRequest {
            var request = URLRequest(url: URL(string: "https://api.example.com\(path)")!)
            request.timeoutInterval = 400 * 86_400
            return request
        }

        /// Runs `steps` on a completion-handler data task of `path`, and waits for its completion.
        func run(_ path: String, _ steps: [SuspendSequence.Step]) async -> Completion {
            let completion: Completion = await withCheckedContinuation { continuation in
                let task = session.dataTask(with: request(path)) { data, response, error in
                    continuation.resume(returning: Completion(data: data, response: response, error: error))
                }
                for step in steps {
                    switch step {
                    case .resume: task.resume()
                    case .suspend: task.suspend()
                    case .cancel: task.cancel()
                    case let .pause(microseconds): usleep(UInt32(microseconds))
                    }
                }
            }
            return completion
        }
    }

    /// The caller a race uses.
    enum API: String, CaseIterable, Sendable {
        /// `dataTask(with:completionHandler:)`, then `URLSessionTask.cancel()`.
        case completionHandler = "completion handler + cancel()"
        /// `try await session.data(for:)` in a Swift task, then `Task.cancel()`.
        case swiftTask = "data(for:) + Task.cancel()"
        /// A delegate-style data task, then `URLSessionTask.cancel()`.
        case delegate = "delegate + cancel()"
        /// A completion-handler task suspended (and maybe resumed) before `cancel()`.
        case suspended = "suspend/resume + cancel()"
    }

    /// When a race cancels, after starting the request.
    enum Moment: Sendable {
        /// At once, before URLSession has necessarily called `startLoading`.
        case immediately
        /// After giving other tasks a turn.
        case afterYield
        /// After busy-waiting this many microseconds (0–200): around `startLoading`.
        case afterSpin(Int)
        /// After sleeping this many milliseconds (3–6): during the delay, or after the dribbled
        /// response arrived.
        case afterSleep(Int)
    }

    /// One start/cancel race: which stub, which caller, and when it cancels, drawn from the seeded
    /// generator.
    struct Race: Sendable {
        let path: String
        let api: API
        let moment: Moment
        /// For ``API/suspended``: whether the task is resumed again before the cancel.
        let resumesAgain: Bool

        init(index: Int, random: inout SeededGenerator) {
            path = ["/delayed", "/dribble", "/never"][index % 3]
            // Half the races cancel a Swift task, half a URLSessionTask.
            api =
                index.isMultiple(of: 2)
                ? .swiftTask : [.completionHandler, .completionHandler, .delegate, .suspended][(index / 2) % 4]
            switch Int.random(in: 0..<8, using: &random) {
            case 0, 1: moment = .immediately
            case 2: moment = .afterYield
            case 3, 4, 5: moment = .afterSpin(Int.random(in: 0...200, using: &random))
            default: moment = .afterSleep(Int.random(in: 3...6, using: &random))
            }
            resumesAgain = Bool.random(using: &random)
        }

        /// Runs the race and reports how it ended.
        func run(_ fixture: Fixture) async -> Tally {
            switch api {
            case .swiftTask:
                let task = Task { try await fixture.session.data(for: fixture.request(path)) }
                await wait()
                task.cancel()
                do {
                    let (data, _) = try await task.value
                    return Tally(api, unexpected: "\(path): completed with \(data.count) bytes")
                } catch {
                    return Tally(api, error: error, path: path)
                }
            case .completionHandler, .suspended:
                let completion: Completion = await withCheckedContinuation { continuation in
                    let task = fixture.session.dataTask(with: fixture.request(path)) { data, response, error in
                        continuation.resume(returning: Completion(data: data, response: response, error: error))
                    }
                    fixture.tasks.add(task)
                    task.resume()
                    let box = UncheckedSendable(value: task)  // URLSessionTask is thread-safe.
                    Task {
                        await wait()
                        if api == .suspended {
                            box.value.suspend()
                            if resumesAgain { box.value.resume() }
                        }
                        box.value.cancel()
                    }
                }
                return Tally(api, error: completion.error, path: path)
            case .delegate:
                let task = fixture.delegateSession.dataTask(with: fixture.request(path))
                fixture.tasks.add(task)
                let events = fixture.recorder.watch(task)
                task.resume()
                await wait()
                let receivedResponse = fixture.recorder.hasResponse(task.taskIdentifier)
                task.cancel()
                let error = await events.completion()
                // Anything the delegate hears after the completion is a client call after stopLoading.
                try? await Task.sleep(for: .milliseconds(2))
                var tally = Tally(api, error: error, path: path)
                tally.lateEvents = fixture.recorder.finish(task.taskIdentifier)
                tally.responseBeforeCancel = receivedResponse && path == "/dribble" ? 1 : 0
                return tally
            }
        }

        /// Waits until the race's moment to cancel.
        private func wait() async {
            switch moment {
            case .immediately: break
            case .afterYield: await Task.yield()
            case let .afterSpin(microseconds): StressTests.spin(microseconds: microseconds)
            case let .afterSleep(milliseconds): try? await Task.sleep(for: .milliseconds(milliseconds))
            }
        }
    }

    /// How races ended.
    struct Tally: Sendable {
        var runs = 0
        var cancelled = 0
        var byAPI: [String: Int] = [:]
        var unexpected: [String] = []
        var lateEvents: [String] = []
        var responseBeforeCancel = 0
        /// The most protocol instances seen alive at once, above the baseline.
        var peakLive = 0

        init() {}

        /// One race that ended with `error` (`nil`: it completed).
        init(_ api: API, error: (any Error)?, path: String) {
            runs = 1
            byAPI[api.rawValue] = 1
            if let error, (error as? URLError)?.code == .cancelled {
                cancelled = 1
            } else {
                unexpected = ["\(api.rawValue) \(path): \(error.map { "\($0)" } ?? "completed")"]
            }
        }

        /// One race that ended in an unexpected way.
        init(_ api: API, unexpected description: String) {
            runs = 1
            byAPI[api.rawValue] = 1
            unexpected = ["\(api.rawValue) \(description)"]
        }

        mutating func add(_ other: Tally) {
            runs += other.runs
            cancelled += other.cancelled
            byAPI.merge(other.byAPI, uniquingKeysWith: +)
            unexpected += other.unexpected
            lateEvents += other.lateEvents
            responseBeforeCancel += other.responseBeforeCancel
            peakLive = max(peakLive, other.peakLive)
        }
    }

    /// Orders of `resume`, `suspend` and `cancel` on one task.
    enum SuspendSequence {
        enum Step: Sendable {
            case resume, suspend, cancel
            /// Sleeps this many microseconds on the calling thread.
            case pause(Int)
        }

        /// Every sequence, named.
        static let all: [(String, [Step])] = [
            ("cancel before resume", [.cancel, .resume]),
            ("cancel, never resumed", [.cancel]),
            ("resume, cancel", [.resume, .cancel]),
            ("resume, suspend, cancel", [.resume, .suspend, .cancel]),
            ("resume, wait, suspend, cancel", [.resume, .pause(3_000), .suspend, .cancel]),
            ("resume, suspend, resume, cancel", [.resume, .suspend, .resume, .cancel]),
            (
                "resume, wait, suspend, wait, resume, wait, cancel",
                [.resume, .pause(3_000), .suspend, .pause(1_000), .resume, .pause(3_000), .cancel]
            ),
            ("suspend, resume, cancel", [.suspend, .resume, .cancel]),
            (
                "resume, suspend, suspend, resume, resume, cancel",
                [.resume, .suspend, .suspend, .resume, .resume, .cancel]
            ),
            ("resume, cancel, cancel, resume", [.resume, .cancel, .cancel, .resume]),
        ]
    }
}

extension CancellationTests {
    // MARK: - Helpers

    /// A session delegate that records, per task, whether the response arrived and anything that
    /// arrives after the task completed.
    final class EventRecorder: NSObject, URLSessionDataDelegate, Sendable {
        /// What one task has received so far.
        private struct Record {
            var response = false
            var completed = false
            var late: [String] = []
            var waiter: CheckedContinuation<(any Error)?, Never>?
            var error: (any Error)?
        }

        private let records = Locked<[Int: Record]>([:])

        /// Awaits the completion of one watched task.
        struct Watch: Sendable {
            let recorder: EventRecorder
            let id: Int

            /// The error the task completed with (`nil` for success).
            func completion() async -> (any Error)? {
                await withCheckedContinuation { continuation in
                    let completed = recorder.records.withLock { records -> Record? in
                        if let record = records[id], record.completed { return record }
                        records[id, default: Record()].waiter = continuation
                        return nil
                    }
                    if let completed { continuation.resume(returning: completed.error) }
                }
            }
        }

        /// Starts recording `task`, before it is resumed.
        func watch(_ task: URLSessionTask) -> Watch {
            records.withLock { $0[task.taskIdentifier] = Record() }
            return Watch(recorder: self, id: task.taskIdentifier)
        }

        /// Whether the task has received its response.
        func hasResponse(_ id: Int) -> Bool {
            records.withLock { $0[id]?.response ?? false }
        }

        /// Stops recording a task; returns what it received after it completed.
        func finish(_ id: Int) -> [String] {
            records.withLock { $0.removeValue(forKey: id)?.late ?? [] }
        }

        private func note(_ task: URLSessionTask, _ event: String, _ update: (inout Record) -> Void) {
            records.withLock { records in
                guard var record = records[task.taskIdentifier] else { return }
                if record.completed { record.late.append("task \(task.taskIdentifier): \(event) after completion") }
                update(&record)
                records[task.taskIdentifier] = record
            }
        }

        func urlSession(
            _ session: URLSession,
            dataTask: URLSessionDataTask,
            didReceive response: URLResponse,
            completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
        ) {
            note(dataTask, "a response") { $0.response = true }
            completionHandler(.allow)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            note(dataTask, "\(data.count) bytes") { _ in }
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            var waiter: CheckedContinuation<(any Error)?, Never>?
            note(task, "a second completion") { record in
                record.completed = true
                record.error = error
                waiter = record.waiter
                record.waiter = nil
            }
            waiter?.resume(returning: error)
        }
    }

    /// Weak references to tasks, to see that nothing keeps them once they completed.
    final class WeakTasks: Sendable {
        private struct Reference {
            weak var task: URLSessionTask?
        }

        private let references = Locked<[Reference]>([])

        /// Remembers `task` without keeping it alive.
        func add(_ task: URLSessionTask) {
            references.withLock { $0.append(Reference(task: task)) }
        }

        /// How many tasks were added.
        var count: Int {
            references.withLock { $0.count }
        }

        /// How many are still alive.
        var alive: Int {
            references.withLock { $0.filter { $0.task != nil }.count }
        }

        /// Waits up to `timeout` for every task to be released; returns how many are still alive.
        func settle(timeout: Duration = .seconds(5)) async -> Int {
            let deadline = ContinuousClock.now + timeout
            var remaining = alive
            while remaining > 0, ContinuousClock.now < deadline {
                try? await Task.sleep(for: .milliseconds(10))
                remaining = alive
            }
            return remaining
        }
    }

    /// The system clock, counting how many wake-ups are scheduled on it.
    final class CountingClock: StubClock, Sendable {
        private let count = Counter()
        private let system = SystemStubClock()

        /// How many wake-ups have been scheduled.
        var scheduled: Int { count.value }

        var now: Duration { system.now }

        func schedule(at deadline: Duration, _ action: @escaping @Sendable () -> Void) -> any StubClockTimer {
            count.increment()
            return system.schedule(at: deadline, action)
        }
    }
}
