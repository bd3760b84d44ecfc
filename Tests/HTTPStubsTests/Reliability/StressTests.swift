import Foundation
import Testing

@testable import HTTPStubs
@testable import HTTPStubsFiles
@testable import HTTPStubsLanguages
@testable import HTTPStubsTemplates

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Many requests at once through real URLSession calls, while other tasks change the registry and
/// read its journal: every answer is the right one, nothing crashes or hangs, and no journal entry
/// is lost.
///
/// The race between cancellation and an instant completion is not in the default run: it can crash
/// or deadlock swift-corelibs-foundation 6.3 with any `URLProtocol` (swift-corelibs-foundation
/// issue #5412, fixed in 6.4). Set `HTTPSTUBS_CANCEL_RACE=1` as well as `HTTPSTUBS_RELIABILITY=1` to run
/// it on a toolchain with the fix.
@Suite(
    "Stress",
    .serialized,
    .enabled(
        if: reliabilitySuitesEnabled,
        "heavy: run with HTTPSTUBS_RELIABILITY=1 (.ci/run does, after the main suite)"
    )
)
struct StressTests {
    /// How many item requests the workers send in all.
    static let requestCount = 20_000
    /// How many tasks send them at once.
    static let workerCount = 64
    /// How many `/items/<n>` stubs answer them.
    static let itemCount = 1_000
    /// How many tasks add and remove `/churn/<k>` stubs meanwhile.
    static let churnCount = 2

    @Test(
        "20,000 requests from 64 tasks against 1,000 stubs, while stubs come and go and the journal is read",
        .timeLimit(.minutes(3))
    )
    func concurrentRequestsWithChurn() async throws {
        let stubs = StubRegistry(randomSeed: 20_000)
        stubs.onDiagnostic { issue in Issue.record("unexpected stub issue: \(issue)") }
        let stubIDs = (0..<Self.itemCount).map { ItemStub.add($0, to: stubs) }
        // Two sessions from one registry: each serves half the workers.
        let sessions = [stubs.makeSession(), stubs.makeSession()]
        let done = Locked(false)
        let clock = ContinuousClock()
        let start = clock.now

        let (workerResults, churnResults, readerResult) = await withTaskGroup(of: Void.self) { group in
            let workers = Locked([WorkerResult]())
            let churns = Locked([ChurnResult]())
            let reader = Locked(ReaderResult())
            for churner in 0..<Self.churnCount {
                group.addTask {
                    let result = await Self.churn(
                        stubs,
                        session: sessions[churner % sessions.count],
                        churner: churner,
                        until: done
                    )
                    churns.withLock { $0.append(result) }
                }
            }
            group.addTask {
                let result = await Self.readJournal(stubs, until: done)
                reader.withLock { $0 = result }
            }
            // The workers run in a group of their own, so that `done` is set when the last one ends.
            await withTaskGroup(of: WorkerResult.self) { requests in
                for worker in 0..<Self.workerCount {
                    requests.addTask {
                        let share =
                            Self.requestCount / Self.workerCount
                            + (worker < Self.requestCount % Self.workerCount ? 1 : 0)
                        return await Self.work(worker, requests: share, session: sessions[worker % sessions.count])
                    }
                }
                for await result in requests {
                    workers.withLock { $0.append(result) }
                }
            }
            done.withLock { $0 = true }
            await group.waitForAll()
            return (workers.withLock { $0 }, churns.withLock { $0 }, reader.withLock { $0 })
        }
        let elapsed = clock.now - start

        // Every response is the right one.
        let failures = workerResults.flatMap(\.failures)
        #expect(failures.isEmpty, "\(failures.count) wrong answers, first: \(failures.prefix(5))")
        let sent = workerResults.reduce(into: [Int](repeating: 0, count: Self.itemCount)) { counts, result in
            for (item, count) in result.sent.enumerated() { counts[item] += count }
        }
        #expect(sent.reduce(0, +) == Self.requestCount)
        let churnFailures = churnResults.flatMap(\.failures)
        #expect(churnFailures.isEmpty, "\(churnFailures.prefix(5))")
        #expect(readerResult.failures.isEmpty, "\(readerResult.failures.prefix(5))")
        #expect(readerResult.reads > 0)

        // No journal entry is lost, duplicated or attributed to the wrong stub.
        let churnSent = churnResults.reduce(0) { $0 + $1.requests }
        let journal = stubs.journal
        #expect(journal.count == Self.requestCount + churnSent)
        #expect(journal.map(\.id) == Array(1...journal.count))
        var journaled = [Int](repeating: 0, count: Self.itemCount)
        var misattributed: [String] = []
        var churnEntries = 0
        for entry in journal {
            let path = entry.request.path
            if path.hasPrefix("/churn/") {
                churnEntries += 1
                if entry.stub == nil { misattributed.append("\(entry)") }
            } else if let item = ItemStub.item(inPath: path) {
                journaled[item] += 1
                if entry.stub?.id != stubIDs[item] { misattributed.append("\(entry)") }
            } else {
                misattributed.append("\(entry)")
            }
        }
        #expect(journaled == sent, "the journal's count of requests per item differs from what was sent")
        #expect(churnEntries == churnSent)
        #expect(
            misattributed.isEmpty,
            "\(misattributed.count) entries with the wrong stub, first: \(misattributed.prefix(3))"
        )
        #expect(stubs.unmatchedRequests.isEmpty)
        let miscounted = (0..<Self.itemCount).filter { stubs.useCount(of: stubIDs[$0]) != sent[$0] }
        #expect(miscounted.isEmpty, "the use counts of items \(miscounted.prefix(10)) differ from the requests sent")

        print(
            "Stress: \(Self.requestCount) item requests + \(churnSent) churn requests from \(Self.workerCount) tasks against \(Self.itemCount) stubs in \(elapsed); churn added \(churnResults.reduce(0) { $0 + $1.added }) stubs, the journal was read \(readerResult.reads) times"
        )
    }

    /// Whether the cancellation-versus-instant-completion race runs (`HTTPSTUBS_CANCEL_RACE=1`).
    static let cancelRaceEnabled = ProcessInfo.processInfo.environment["HTTPSTUBS_CANCEL_RACE"] == "1"

    /// How many cancellations race an instant completion when the race is enabled.
    static let cancelRaceCount = 10_000

    @Test(
        "10,000 cancellations racing an instant completion (HTTPSTUBS_CANCEL_RACE=1; needs the swift-corelibs-foundation #5412 fix)",
        .enabled(
            if: cancelRaceEnabled,
            "can crash or deadlock swift-corelibs-foundation 6.3 (#5412); set HTTPSTUBS_CANCEL_RACE=1 on a toolchain with the fix"
        ),
        .timeLimit(.minutes(3))
    )
    func cancelRacingInstantCompletion() async throws {
        let stubs = StubRegistry(randomSeed: 5_412)
        stubs.stub(.get("https://api.example.com/instant"), .text("instant"))
        let session = stubs.makeSession()
        let url = URL(string: "https://api.example.com/instant")!
        let baseline = RequestDelivery.liveCount
        let concurrency = 16

        let outcomes = await withTaskGroup(of: RaceOutcome.self) { group in
            var random = SeededGenerator(seed: 5_412)
            var tally = RaceOutcome()
            for index in 0..<Self.cancelRaceCount {
                if index >= concurrency, let outcome = await group.next() { tally.add(outcome) }
                // A third cancel at once, the others after up to 20 µs: the window in which
                // corelibs 6.3 crashes or deadlocks.
                let spin = index % 3 == 0 ? 0 : Int.random(in: 0...20, using: &random)
                switch index % 3 {
                case 0:
                    group.addTask {
                        await Self.raceTaskCancel(session, url, spinMicroseconds: spin, fromAnotherThread: false)
                    }
                case 1:
                    group.addTask {
                        await Self.raceTaskCancel(session, url, spinMicroseconds: spin, fromAnotherThread: true)
                    }
                default: group.addTask { await Self.raceSwiftTaskCancel(session, url, spinMicroseconds: spin) }
                }
            }
            for await outcome in group { tally.add(outcome) }
            return tally
        }
        #expect(outcomes.succeeded + outcomes.cancelled == Self.cancelRaceCount, "\(outcomes.unexpected.prefix(5))")
        #expect(outcomes.unexpected.isEmpty)
        let remaining = await liveLoaders(settlingTo: baseline)
        #expect(remaining <= baseline, "\(remaining - baseline) protocol instances outlived their requests")
        print(
            "Cancel race: \(Self.cancelRaceCount) cancellations racing an instant completion: \(outcomes.succeeded) completed, \(outcomes.cancelled) cancelled"
        )
    }
}

// MARK: - The item stubs

/// The 1,000 item stubs, each matched a different way, and the requests they answer.
private enum ItemStub {
    /// How item `n` is matched: `n % 6` picks one of these.
    enum Kind: Int, CaseIterable {
        /// A full URL: scheme, host, port and path.
        case fullURL
        /// The path on any host.
        case pathOnly
        /// A regular expression on the path, for `PUT`.
        case regex
        /// A JSON body, for `POST`.
        case jsonBody
        /// A header value.
        case header
        /// A query parameter, answered by a computed response.
        case query
    }

    /// Adds the stub of item `n` to `registry`; returns its identity.
    static func add(_ n: Int, to registry: StubRegistry) -> Stub.ID {
        let answer = StubResponse.text("item \(n)", headers: ["X-Item": "\(n)"])
        switch Kind(rawValue: n % Kind.allCases.count)! {
        case .fullURL:
            return registry.stub(.get("https://api.example.com/items/\(n)"), answer)
        case .pathOnly:
            return registry.stub(.get("/items/\(n)"), answer)
        case .regex:
            return registry.stub(.put(.pathMatching("/items/\(n)")), answer)
        case .jsonBody:
            return registry.stub(
                .post("/items/\(n)").body(.json(["id": .number(JSONNumber(n)), "kind": "item"])),
                answer
            )
        case .header:
            return registry.stub(.get("/items/\(n)").header("X-Item", .equal("\(n)")), answer)
        case .query:
            return registry.stub(.get("/items/\(n)?v=\(n)")) { _ in answer }
        }
    }

    /// The request item `n`'s stub answers.
    static func urlRequest(_ n: Int) -> URLRequest {
        switch Kind(rawValue: n % Kind.allCases.count)! {
        case .fullURL:
            return URLRequest(url: URL(string: "https://api.example.com/items/\(n)")!)
        case .pathOnly:
            return URLRequest(url: URL(string: "http://host\(n % 7).example.org:8080/items/\(n)")!)
        case .regex:
            return request("PUT", "https://api.example.com/items/\(n)", body: "payload \(n)")
        case .jsonBody:
            return request(
                "POST",
                "https://api.example.com/items/\(n)",
                body: #"{"kind": "item", "id": \#(n)}"#,
                headers: ["Content-Type": "application/json"]
            )
        case .header:
            return request("GET", "https://api.example.com/items/\(n)", headers: ["X-Item": "\(n)"])
        case .query:
            return URLRequest(url: URL(string: "https://api.example.com/items/\(n)?extra=1&v=\(n)")!)
        }
    }

    /// The item number in a path `/items/<n>`, if it is one.
    static func item(inPath path: String) -> Int? {
        guard path.hasPrefix("/items/") else { return nil }
        return Int(path.dropFirst("/items/".count))
    }
}

// MARK: - Workers, churn and journal reader

extension StressTests {
    /// What one worker saw.
    struct WorkerResult: Sendable {
        /// How many requests it sent for each item.
        var sent = [Int](repeating: 0, count: StressTests.itemCount)
        /// The wrong answers it received.
        var failures: [String] = []
    }

    /// Sends `requests` requests for random items (seeded by the worker's number), through
    /// completion handlers for even workers and `async` `data(for:)` for odd ones, and checks each
    /// answer names the item asked for.
    static func work(_ worker: Int, requests: Int, session: URLSession) async -> WorkerResult {
        var random = SeededGenerator(seed: 0x5EED_0000 + UInt64(worker))
        var result = WorkerResult()
        for _ in 0..<requests {
            let item = Int.random(in: 0..<itemCount, using: &random)
            result.sent[item] += 1
            let request = ItemStub.urlRequest(item)
            let expected = "item \(item)"
            if worker.isMultiple(of: 2) {
                let completion = await complete(session, request)
                if completion.text != expected || completion.status != 200
                    || completion.http?.value(forHTTPHeaderField: "X-Item") != "\(item)"
                {
                    result.failures.append(
                        "\(request.url!): \(completion.status.map(String.init) ?? "no status") \(completion.text ?? String(describing: completion.error))"
                    )
                }
            } else {
                do {
                    let (data, response) = try await session.data(for: request)
                    let text = String(decoding: data, as: UTF8.self)
                    if text != expected || (response as? HTTPURLResponse)?.statusCode != 200 {
                        result.failures.append("\(request.url!): \(text)")
                    }
                } catch {
                    result.failures.append("\(request.url!): \(error)")
                }
            }
        }
        return result
    }

    /// What one churn task did.
    struct ChurnResult: Sendable {
        /// How many stubs it added.
        var added = 0
        /// How many requests it sent to its own stubs.
        var requests = 0
        /// What went wrong.
        var failures: [String] = []
    }

    /// Until `done`, adds `/churn/<k>` stubs and removes them eight additions later; every 16th
    /// stub is requested right after it is added and must answer at once, and every 4th is looked
    /// up in the journal.
    ///
    /// The pauses keep the journal reads to a few hundred per run: a journal snapshot still held
    /// makes the registry's next journal append copy the whole journal while it holds its lock
    /// (copy-on-write), about 10 ms at 20,000 entries in a debug build, during which no request
    /// is served.
    static func churn(
        _ stubs: StubRegistry,
        session: URLSession,
        churner: Int,
        until done: Locked<Bool>
    ) async -> ChurnResult {
        var result = ChurnResult()
        var live: [Stub.ID] = []
        var k = churner * 1_000_000
        while !done.withLock({ $0 }) {
            k += 1
            live.append(stubs.stub(.get("/churn/\(k)"), .text("churn \(k)")))
            result.added += 1
            if live.count > 8, !stubs.remove(live.removeFirst()) {
                result.failures.append("a churn stub was gone before it was removed")
            }
            if k.isMultiple(of: 16) {
                result.requests += 1
                do {
                    let (data, _) = try await session.data(from: URL(string: "https://churn.example.com/churn/\(k)")!)
                    if String(decoding: data, as: UTF8.self) != "churn \(k)" {
                        result.failures.append("/churn/\(k): \(String(decoding: data, as: UTF8.self))")
                    }
                } catch {
                    result.failures.append("/churn/\(k): \(error)")
                }
            }
            if k.isMultiple(of: 4), stubs.requests(matching: .get("/churn/\(k)")).count > 1 {
                result.failures.append("/churn/\(k) journaled more than once")
            }
            try? await Task.sleep(for: .microseconds(500))
        }
        for id in live where !stubs.remove(id) {
            result.failures.append("a churn stub was gone before it was removed")
        }
        return result
    }

    /// What the journal reader saw.
    struct ReaderResult: Sendable {
        /// How many times it read the journal.
        var reads = 0
        /// What was wrong.
        var failures: [String] = []
    }

    /// Until `done`, reads the journal and queries it: it only grows, its ids are its positions,
    /// and a query returns entries of the journal that satisfy it.
    static func readJournal(_ stubs: StubRegistry, until done: Locked<Bool>) async -> ReaderResult {
        var result = ReaderResult()
        var previous = 0
        var round = 0
        while !done.withLock({ $0 }) {
            round += 1
            let journal = stubs.journal
            result.reads += 1
            if journal.count < previous {
                result.failures.append("the journal shrank from \(previous) to \(journal.count) entries")
            }
            previous = journal.count
            if let last = journal.last, last.id != journal.count || journal.first?.id != 1 {
                result.failures.append("journal ids \(journal.first?.id ?? 0)…\(last.id) for \(journal.count) entries")
            }
            let item = round % itemCount
            let matching = stubs.requests(matching: .anyMethod("/items/\(item)"))
            if matching.contains(where: { $0.request.path != "/items/\(item)" }) {
                result.failures.append("requests(matching: /items/\(item)) returned another path")
            }
            if round.isMultiple(of: 8) {
                _ = stubs.requests(matching: .anyMethod(.pathPrefix("/churn/")))
                _ = stubs.unusedStubs
                _ = stubs.stubs.count
            }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return result
    }
}

// MARK: - Cancellation racing completion

extension StressTests {
    /// How a batch of races ended.
    struct RaceOutcome: Sendable {
        var succeeded = 0
        var cancelled = 0
        var unexpected: [String] = []

        mutating func add(_ other: RaceOutcome) {
            succeeded += other.succeeded
            cancelled += other.cancelled
            unexpected += other.unexpected
        }
    }

    /// Starts a data task with a completion handler and cancels it after spinning
    /// `spinMicroseconds`, on this thread or on a global queue while this one goes on: it either
    /// completes with the body or fails with `URLError(.cancelled)`.
    static func raceTaskCancel(
        _ session: URLSession,
        _ url: URL,
        spinMicroseconds: Int,
        fromAnotherThread: Bool
    ) async -> RaceOutcome {
        let completion: Completion = await withCheckedContinuation { continuation in
            let task = session.dataTask(with: url) { data, response, error in
                continuation.resume(returning: Completion(data: data, response: response, error: error))
            }
            task.resume()
            if fromAnotherThread {
                let box = UncheckedSendable(value: task)  // URLSessionTask is thread-safe.
                DispatchQueue.global().async {
                    spin(microseconds: spinMicroseconds)
                    box.value.cancel()
                }
            } else {
                spin(microseconds: spinMicroseconds)
                task.cancel()
            }
        }
        return classify(text: completion.text, error: completion.error)
    }

    /// Starts `data(from:)` in a Swift task and cancels the task after spinning `spinMicroseconds`.
    static func raceSwiftTaskCancel(_ session: URLSession, _ url: URL, spinMicroseconds: Int) async -> RaceOutcome {
        let task = Task { try await session.data(from: url) }
        spin(microseconds: spinMicroseconds)
        task.cancel()
        do {
            let (data, _) = try await task.value
            return classify(text: String(decoding: data, as: UTF8.self), error: nil)
        } catch {
            return classify(text: nil, error: error)
        }
    }

    /// A success with the stub's body, a `URLError(.cancelled)`, or something unexpected.
    static func classify(text: String?, error: (any Error)?) -> RaceOutcome {
        var outcome = RaceOutcome()
        if let error {
            if (error as? URLError)?.code == .cancelled {
                outcome.cancelled = 1
            } else {
                outcome.unexpected = ["\(error)"]
            }
        } else if text == "instant" {
            outcome.succeeded = 1
        } else {
            outcome.unexpected = ["body \(text ?? "nil")"]
        }
        return outcome
    }

    /// Busy-waits, to place a cancellation at a precise point of a load.
    static func spin(microseconds: Int) {
        let end = ContinuousClock.now + .microseconds(microseconds)
        while ContinuousClock.now < end {}
    }
}

/// Waits up to `timeout` for `RequestDelivery.liveCount` to come back to `baseline` (corelibs releases
/// protocol instances asynchronously, after the completion handler ran) and returns the last count.
///
/// The count is process-wide: suites running in parallel hold instances of their own for a while,
/// so the count only has to dip to the baseline once.
func liveLoaders(settlingTo baseline: Int, timeout: Duration = .seconds(5)) async -> Int {
    let deadline = ContinuousClock.now + timeout
    var count = RequestDelivery.liveCount
    while count > baseline, ContinuousClock.now < deadline {
        try? await Task.sleep(for: .milliseconds(10))
        count = RequestDelivery.liveCount
    }
    return count
}

/// Whether the heavy reliability suites (stress, fuzzing) run: they load both cores for tens of
/// seconds, which would make the timing-sensitive tests running beside them flaky, so `.ci/run`
/// runs them on their own with `HTTPSTUBS_RELIABILITY=1`.
let reliabilitySuitesEnabled = ProcessInfo.processInfo.environment["HTTPSTUBS_RELIABILITY"] == "1"
