import Dispatch
import Foundation
import HTTPStubs
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Delays, random delay distributions, dribbled bodies, timeouts, suspend/resume and many
/// concurrent delayed requests, through real URLSession calls.
///
/// No test asserts that something is fast. Lower bounds ("took at least the delay") are checked
/// with 2 ms of slack for the difference between the clocks.
@Suite("Timing")
struct TimingTests {
    // MARK: Fixed delays

    @Test("a delayed stub answers no sooner than its delay, through both APIs")
    func fixedDelay() async throws {
        let stubs = StubRegistry()
        stubs.stub(.get("https://api.example.com/slow"), .text("late").delayed(by: .milliseconds(150)))
        let session = stubs.makeSession()
        let clock = ContinuousClock()

        var start = clock.now
        let completion = await complete(session, "https://api.example.com/slow")
        #expect(completion.text == "late")
        #expect(clock.now - start >= .milliseconds(150) - slack)

        start = clock.now
        let (data, _) = try await session.data(from: URL(string: "https://api.example.com/slow")!)
        #expect(String(decoding: data, as: UTF8.self) == "late")
        #expect(clock.now - start >= .milliseconds(150) - slack)
    }

    @Test("a 300 ms stub answers after a 0 ms stub that was started later (completion handlers)")
    func completionOrder() async throws {
        let stubs = StubRegistry()
        stubs.stub(.get("https://api.example.com/slow"), .text("slow").delayed(by: .milliseconds(300)))
        stubs.stub(.get("https://api.example.com/fast"), .text("fast"))
        let session = stubs.makeSession()
        // Recorded in the completion handlers themselves, so a busy test process cannot reorder them.
        let order = Collected<(text: String, date: Date)>()
        let bothDone = Countdown(2)
        func start(_ url: String) {
            session.dataTask(with: URL(string: url)!) { data, _, _ in
                order.append((data.map { String(decoding: $0, as: UTF8.self) } ?? "error", Date()))
                bothDone.tick()
            }.resume()
        }

        start("https://api.example.com/slow")
        // Start the fast one once the slow one is in the journal, so it surely started first.
        try await waitUntil { stubs.journal.count == 1 }
        start("https://api.example.com/fast")
        await bothDone.wait()

        let journal = stubs.journal
        #expect(
            journal.map(\.request.url.path) == ["/slow", "/fast"],
            "the journal lists requests in the order they came"
        )
        let answers = order.all
        #expect(answers.map(\.text).sorted() == ["fast", "slow"])
        let slowAnswer = try #require(answers.first { $0.text == "slow" })
        #expect(slowAnswer.date.timeIntervalSince(journal[0].date) >= 0.298)
        // The order is only defined when the fast request started well before the slow one's delay
        // ran out, which a heavily loaded machine may prevent.
        if journal[1].date.timeIntervalSince(journal[0].date) < 0.2 {
            #expect(answers.map(\.text) == ["fast", "slow"])
        }
    }

    @Test("a 300 ms stub answers after a 0 ms stub that was started later (async)")
    func asyncOrder() async throws {
        let stubs = StubRegistry()
        stubs.stub(.get("https://api.example.com/slow"), .text("slow").delayed(by: .milliseconds(300)))
        stubs.stub(.get("https://api.example.com/fast"), .text("fast"))
        let session = stubs.makeSession()
        let order = Collected<String>()

        async let slow: Void = {
            let data = try? await session.data(from: URL(string: "https://api.example.com/slow")!).0
            order.append(data.map { String(decoding: $0, as: UTF8.self) } ?? "error")
        }()
        try await waitUntil { stubs.journal.count == 1 }
        let fast = try await session.data(from: URL(string: "https://api.example.com/fast")!).0
        order.append(String(decoding: fast, as: UTF8.self))
        await slow

        let journal = stubs.journal
        #expect(journal.map(\.request.url.path) == ["/slow", "/fast"])
        #expect(order.all.sorted() == ["fast", "slow"])
        if journal[1].date.timeIntervalSince(journal[0].date) < 0.2 {
            #expect(order.all == ["fast", "slow"])
        }
    }

    // MARK: Random delays

    @Test("uniform delays fall in their range")
    func uniformDelays() async throws {
        let clock = InstantClock()
        let stubs = StubRegistry(clock: clock, randomSeed: 7)
        stubs.stub(
            .get("https://api.example.com/u"),
            .text("u").delayed(.uniform(.milliseconds(100) ... .milliseconds(400)))
        )
        let session = stubs.makeSession()

        for index in 0..<20 {
            if index.isMultiple(of: 2) {
                #expect(await complete(session, "https://api.example.com/u").text == "u")
            } else {
                #expect(try await session.data(from: URL(string: "https://api.example.com/u")!).0 == Data("u".utf8))
            }
        }
        let waits = clock.waits
        #expect(waits.count == 20)
        #expect(waits.allSatisfy { $0 >= .milliseconds(100) - tiny && $0 <= .milliseconds(400) + tiny }, "\(waits)")
        #expect(Set(waits).count > 10, "the delays should vary: \(waits)")
    }

    @Test("a uniform delay is waited for on the real clock")
    func uniformDelayRealClock() async throws {
        let stubs = StubRegistry()
        stubs.stub(
            .get("https://api.example.com/u"),
            .text("u").delayed(.uniform(.milliseconds(100) ... .milliseconds(120)))
        )
        let session = stubs.makeSession()
        let clock = ContinuousClock()
        let start = clock.now
        #expect(await complete(session, "https://api.example.com/u").text == "u")
        #expect(clock.now - start >= .milliseconds(100) - slack)
    }

    @Test("the same seed gives the same random delays; another seed, others")
    func seededDelays() async throws {
        func delays(seed: UInt64?, reseed: UInt64? = nil) async throws -> [Duration] {
            let clock = InstantClock()
            let stubs = StubRegistry(clock: clock, randomSeed: seed)
            if let reseed { stubs.seedRandomDelays(reseed) }
            stubs.stub(.get("https://api.example.com/a"), .text("a").delayed(.uniform(.zero ... .seconds(2))))
            stubs.stub(
                .get("https://api.example.com/b"),
                .text("b").delayed(.logNormal(median: .milliseconds(300), sigma: 0.8))
            )
            let session = stubs.makeSession()
            for index in 0..<6 {
                let url = index.isMultiple(of: 2) ? "https://api.example.com/a" : "https://api.example.com/b"
                if index < 3 {
                    _ = await complete(session, url)
                } else {
                    _ = try await session.data(from: URL(string: url)!)
                }
            }
            return clock.waits
        }
        let first = try await delays(seed: 42)
        let second = try await delays(seed: 42)
        let other = try await delays(seed: 43)
        let reseeded = try await delays(seed: 1, reseed: 42)
        #expect(first.count == 6)
        #expect(first == second)
        #expect(first != other)
        #expect(reseeded == first, "seedRandomDelays(42) restarts the sequence of seed 42")
    }

    @Test("seedRandomDelays restarts the sequence mid-run")
    func reseedMidRun() async throws {
        let clock = InstantClock()
        let stubs = StubRegistry(clock: clock)
        stubs.stub(.get("https://api.example.com/r"), .text("r").delayed(.uniform(.zero ... .seconds(1))))
        let session = stubs.makeSession()
        stubs.seedRandomDelays(99)
        for _ in 0..<3 { _ = await complete(session, "https://api.example.com/r") }
        stubs.seedRandomDelays(99)
        for _ in 0..<3 { _ = try await session.data(from: URL(string: "https://api.example.com/r")!) }
        let waits = clock.waits
        #expect(waits.count == 6)
        #expect(Array(waits.prefix(3)) == Array(waits.suffix(3)))
    }

    @Test("log-normal delays: sigma 0 gives the median, the maximum caps them, and they spread around the median")
    func logNormalDelays() async throws {
        let clock = InstantClock()
        let stubs = StubRegistry(clock: clock, randomSeed: 2024)
        stubs.stub(
            .get("https://api.example.com/exact"),
            .text("e").delayed(.logNormal(median: .milliseconds(250), sigma: 0))
        )
        stubs.stub(
            .get("https://api.example.com/capped"),
            .text("c").delayed(.logNormal(median: .seconds(30), sigma: 1, maximum: .milliseconds(500)))
        )
        stubs.stub(
            .get("https://api.example.com/spread"),
            .text("s").delayed(.logNormal(median: .milliseconds(200), sigma: 1))
        )
        let session = stubs.makeSession()

        _ = await complete(session, "https://api.example.com/exact")
        _ = try await session.data(from: URL(string: "https://api.example.com/exact")!)
        let exact = clock.waits
        #expect(exact.count == 2)
        #expect(exact.allSatisfy { abs(($0 - .milliseconds(250)) / .microseconds(1)) < 1 }, "\(exact)")

        for _ in 0..<5 { _ = await complete(session, "https://api.example.com/capped") }
        let capped = clock.waits.dropFirst(2)
        #expect(capped.count == 5)
        #expect(capped.allSatisfy { $0 <= .milliseconds(500) + tiny }, "\(capped)")

        for _ in 0..<31 { _ = await complete(session, "https://api.example.com/spread") }
        let spread = clock.waits.dropFirst(7)
        #expect(spread.count == 31)
        #expect(spread.contains { $0 < .milliseconds(200) } && spread.contains { $0 > .milliseconds(200) }, "\(spread)")
        #expect(spread.allSatisfy { $0 > .zero })
    }

    @Test("a log-normal maximum keeps a huge median under the request timeout (real clock)")
    func logNormalCapRealClock() async throws {
        let stubs = StubRegistry()
        stubs.stub(
            .get("https://api.example.com/capped"),
            .text("capped").delayed(.logNormal(median: .seconds(120), sigma: 0.5, maximum: .milliseconds(50)))
        )
        let session = stubs.makeSession()
        var request = URLRequest(url: URL(string: "https://api.example.com/capped")!)
        request.timeoutInterval = 3
        let completion = await complete(session, request)
        #expect(completion.error == nil)
        #expect(completion.text == "capped")
    }

    // MARK: Dribbled bodies

    @Test("a dribbled body reaches completion handlers and async callers whole, after the dribble")
    func dribbledWhole() async throws {
        let body = String(repeating: "0123456789", count: 50)
        let stubs = StubRegistry()
        stubs.stub(.get("https://api.example.com/dribble"), .text(body).dribbled(chunks: 5, over: .milliseconds(200)))
        let session = stubs.makeSession()
        let clock = ContinuousClock()

        var start = clock.now
        let completion = await complete(session, "https://api.example.com/dribble")
        #expect(completion.text == body)
        #expect(completion.status == 200)
        #expect(clock.now - start >= .milliseconds(200) - slack)

        start = clock.now
        let (data, response) = try await session.data(
            for: URLRequest(url: URL(string: "https://api.example.com/dribble")!)
        )
        #expect(String(decoding: data, as: UTF8.self) == body)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(clock.now - start >= .milliseconds(200) - slack)
    }

    @Test("a delegate-based data task receives the dribbled body in several chunks")
    func dribbledToDelegate() async throws {
        let body = Data((0..<1_000).map { UInt8(truncatingIfNeeded: $0) })
        let stubs = StubRegistry()
        stubs.stub(.get("https://api.example.com/dribble"), .data(body).dribbled(chunks: 4, over: .milliseconds(120)))
        let collector = ChunkRecorder()
        let session = stubs.makeSession(delegate: collector)
        defer { session.finishTasksAndInvalidate() }

        session.dataTask(with: URLRequest(url: URL(string: "https://api.example.com/dribble")!)).resume()
        let result = await collector.result()

        #expect(result.error == nil)
        #expect((result.response as? HTTPURLResponse)?.statusCode == 200)
        #expect(Data(result.chunks.joined()) == body)
        #expect(result.chunks.allSatisfy { !$0.isEmpty })
        #expect(result.chunks.count == 4)
    }

    @Test("a delegate without dribbling receives the body in one piece")
    func undribbledToDelegate() async throws {
        let stubs = StubRegistry()
        stubs.stub(.get("https://api.example.com/whole"), .text("in one piece"))
        let collector = ChunkRecorder()
        let session = stubs.makeSession(delegate: collector)
        defer { session.finishTasksAndInvalidate() }

        session.dataTask(with: URLRequest(url: URL(string: "https://api.example.com/whole")!)).resume()
        let result = await collector.result()
        #expect(result.error == nil)
        #expect(result.chunks == [Data("in one piece".utf8)])
    }

    @Test("a completion handler on a session with a delegate still gets the whole dribbled body")
    func dribbledCompletionWithDelegateSession() async throws {
        let stubs = StubRegistry()
        stubs.stub(
            .get("https://api.example.com/dribble"),
            .text("abcdefghij").dribbled(chunks: 5, over: .milliseconds(50))
        )
        let collector = ChunkRecorder()
        let session = stubs.makeSession(delegate: collector)
        defer { session.finishTasksAndInvalidate() }

        #expect(await complete(session, "https://api.example.com/dribble").text == "abcdefghij")
        #expect(
            try await session.data(from: URL(string: "https://api.example.com/dribble")!).0 == Data("abcdefghij".utf8)
        )
    }

    @Test("dribbled chunks are spaced duration / chunks apart, after the delay")
    func dribbleSpacing() async throws {
        let clock = InstantClock()
        let stubs = StubRegistry(clock: clock)
        stubs.stub(
            .get("https://api.example.com/dribble"),
            .text("abcdefgh").delayed(by: .milliseconds(100)).dribbled(chunks: 4, over: .milliseconds(400))
        )
        let collector = ChunkRecorder()
        let session = stubs.makeSession(delegate: collector)
        defer { session.finishTasksAndInvalidate() }

        session.dataTask(with: URLRequest(url: URL(string: "https://api.example.com/dribble")!)).resume()
        let result = await collector.result()
        #expect(result.error == nil)
        #expect(String(decoding: Data(result.chunks.joined()), as: UTF8.self) == "abcdefgh")
        #expect(clock.waits.first == .milliseconds(100), "the delay comes first")
        #expect(result.chunks.map { String(decoding: $0, as: UTF8.self) } == ["ab", "cd", "ef", "gh"])
        #expect(
            clock.waits == [
                .milliseconds(100), .milliseconds(100), .milliseconds(100), .milliseconds(100), .milliseconds(100),
            ]
        )
    }

    // MARK: Timeouts

    @Test("URLRequest.timeoutInterval shorter than the delay fails with URLError(.timedOut)")
    func requestTimeout() async throws {
        let stubs = StubRegistry()
        stubs.stub(.get("https://api.example.com/slow"), .text("too late").delayed(by: .seconds(30)))
        let session = stubs.makeSession()
        var request = URLRequest(url: URL(string: "https://api.example.com/slow")!)
        request.timeoutInterval = 0.2
        let clock = ContinuousClock()

        var start = clock.now
        let completion = await complete(session, request)
        let error = try #require(completion.urlError)
        #expect(error.code == .timedOut)
        #expect(error.failingURL == request.url)
        #expect(completion.response == nil)
        #expect(clock.now - start >= .milliseconds(200) - slack)

        start = clock.now
        let asyncFailure = try #require(await asyncError(session, request) as? URLError)
        #expect(asyncFailure.code == .timedOut)
        #expect(asyncFailure.failingURL == request.url)
        #expect(clock.now - start >= .milliseconds(200) - slack)
    }

    @Test("a delay within URLRequest.timeoutInterval succeeds")
    func delayWithinTimeout() async throws {
        let stubs = StubRegistry()
        stubs.stub(.get("https://api.example.com/ok"), .text("in time").delayed(by: .milliseconds(50)))
        let session = stubs.makeSession()
        var request = URLRequest(url: URL(string: "https://api.example.com/ok")!)
        request.timeoutInterval = 5
        #expect(await complete(session, request).text == "in time")
        #expect(try await session.data(for: request).0 == Data("in time".utf8))
    }

    @Test("the session's timeoutIntervalForRequest shorter than the delay fails with URLError(.timedOut)")
    func sessionTimeout() async throws {
        let stubs = StubRegistry()
        stubs.stub(.get("https://api.example.com/slow"), .text("too late").delayed(by: .seconds(30)))
        stubs.stub(.get("https://api.example.com/quick"), .text("quick").delayed(by: .milliseconds(20)))
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 0.2
        let session = stubs.makeSession(configuration: configuration)

        let completion = await complete(session, "https://api.example.com/slow")
        #expect(completion.urlError?.code == .timedOut)
        let asyncFailure = await asyncError(session, URLRequest(url: URL(string: "https://api.example.com/slow")!))
        #expect((asyncFailure as? URLError)?.code == .timedOut)
        // The request's own (default 60 s) timeout does not hide the session's shorter one.
        var request = URLRequest(url: URL(string: "https://api.example.com/slow")!)
        request.timeoutInterval = 60
        #expect(await complete(session, request).urlError?.code == .timedOut)
        // A quick stub on the same session still answers.
        #expect(await complete(session, "https://api.example.com/quick").text == "quick")
    }

    @Test("the shorter of the request's and the session's timeouts applies")
    func shorterTimeoutWins() async throws {
        let stubs = StubRegistry()
        stubs.stub(.get("https://api.example.com/medium"), .text("medium").delayed(by: .milliseconds(400)))
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 5
        let session = stubs.makeSession(configuration: configuration)

        var short = URLRequest(url: URL(string: "https://api.example.com/medium")!)
        short.timeoutInterval = 0.1
        #expect(await complete(session, short).urlError?.code == .timedOut)

        var long = URLRequest(url: URL(string: "https://api.example.com/medium")!)
        long.timeoutInterval = 10
        #expect(await complete(session, long).text == "medium")
    }

    @Test("a dribble whose gaps exceed the timeout times out, for every kind of caller")
    func dribbleGapTimeout() async throws {
        let stubs = StubRegistry()
        stubs.stub(.get("https://api.example.com/trickle"), .text("abcdef").dribbled(chunks: 3, over: .seconds(30)))
        var request = URLRequest(url: URL(string: "https://api.example.com/trickle")!)
        request.timeoutInterval = 0.2

        let session = stubs.makeSession()
        let completion = await complete(session, request)
        #expect(completion.urlError?.code == .timedOut)
        let asyncFailure = await asyncError(session, request)
        #expect((asyncFailure as? URLError)?.code == .timedOut)

        let collector = ChunkRecorder()
        let delegateSession = stubs.makeSession(delegate: collector)
        defer { delegateSession.finishTasksAndInvalidate() }
        delegateSession.dataTask(with: request).resume()
        let result = await collector.result()
        #expect((result.error as? URLError)?.code == .timedOut)
        #expect(result.chunks.isEmpty)
        #expect((result.response as? HTTPURLResponse)?.statusCode == 200, "the headers came before the body stalled")
    }

    @Test(
        "a dribble whose gaps stay under the timeout does not time out a delegate, even when it lasts longer than the timeout"
    )
    func dribbleWithinIdleTimeoutDelegate() async throws {
        let stubs = StubRegistry()
        // 4 chunks over 600 ms: one every 150 ms, under a 400 ms (idle) timeout.
        stubs.stub(
            .get("https://api.example.com/steady"),
            .text("abcdefgh").dribbled(chunks: 4, over: .milliseconds(600))
        )
        var request = URLRequest(url: URL(string: "https://api.example.com/steady")!)
        request.timeoutInterval = 0.4

        let collector = ChunkRecorder()
        let session = stubs.makeSession(delegate: collector)
        defer { session.finishTasksAndInvalidate() }
        session.dataTask(with: request).resume()
        let result = await collector.result()
        #expect(result.error == nil)
        #expect(result.chunks.count == 4)
        #expect(String(decoding: Data(result.chunks.joined()), as: UTF8.self) == "abcdefgh")
    }

    @Test("a dribble whose gaps stay under the timeout does not time out completion handlers or async callers")
    func dribbleWithinIdleTimeout() async throws {
        let stubs = StubRegistry()
        // 4 chunks over 600 ms: one every 150 ms, under a 400 ms (idle) timeout.
        stubs.stub(
            .get("https://api.example.com/steady"),
            .text("abcdefgh").dribbled(chunks: 4, over: .milliseconds(600))
        )
        var request = URLRequest(url: URL(string: "https://api.example.com/steady")!)
        request.timeoutInterval = 0.4
        let session = stubs.makeSession()
        let completionRequest = request
        let asyncRequest = request

        async let completion = complete(session, completionRequest)
        async let asyncFailure = asyncError(session, asyncRequest)
        let (completed, failure) = await (completion, asyncFailure)
        #expect(completed.error == nil)
        #expect(completed.text == "abcdefgh")
        #expect(failure == nil)
    }

    @Test("a dribble over a duration too long to represent is clamped, not a crash (checked in a child process)")
    func hugeDribbleIsClamped() async {
        await #expect(processExitsWith: .success) {
            let stubs = StubRegistry(clock: ImmediateStubClock())
            let body = String(repeating: "x", count: 100)  // 100 chunks: Int64.max s × 100 overflows Duration
            stubs.stub(
                .get("https://api.example.com/slow"),
                .text(body).dribbled(chunks: 100, over: .seconds(Int64.max))
            )
            var request = URLRequest(url: URL(string: "https://api.example.com/slow")!)
            request.timeoutInterval = 10
            let completion = await complete(stubs.makeSession(), request)
            exit(completion.urlError?.code == .timedOut ? 0 : 1)  // a year between chunks: the timeout fires
        }
        #expect(Dribble(chunks: 3, over: .seconds(Int64.max)).duration == .seconds(100 * 365 * 24 * 3600))
    }

    // MARK: Suspend and resume

    @Test("a delayed task suspended mid-delay gets nothing while suspended, and its answer once resumed")
    func suspendResume() async throws {
        let clock = ManualStubClock()
        let stubs = StubRegistry(clock: clock)
        stubs.stub(.get("https://api.example.com/pausable"), .text("after the pause").delayed(by: .milliseconds(400)))
        let session = stubs.makeSession()
        let outcome = OneShot<Completion>()

        let task = session.dataTask(with: URL(string: "https://api.example.com/pausable")!) { data, response, error in
            outcome.fulfill(Completion(data: data, response: response, error: error))
        }
        task.resume()
        // The stub is waiting for its delay.
        try await waitUntil { clock.pendingCount == 1 }
        task.suspend()
        #expect(task.state == .suspended)
        try await waitUntil { clock.pendingCount == 0 }  // suspending stops the load and its wake-up
        // Well past the delay: nothing is delivered to a suspended task.
        await clock.advance(by: .seconds(1))
        try await Task.sleep(for: .milliseconds(50))
        #expect(!outcome.isFulfilled)
        #expect(task.state == .suspended)

        task.resume()
        let completion = try #require(await outcome.value(within: patience), "the task never completed")
        #expect(completion.error == nil)
        #expect(completion.text == "after the pause")
        #expect(stubs.journal.count == 1, "resuming does not send the request again")
    }

    @Test("a task suspended and resumed before its delay ran out answers when the delay is over")
    func suspendResumeWithinDelay() async throws {
        let clock = ManualStubClock()
        let stubs = StubRegistry(clock: clock)
        stubs.stub(.get("https://api.example.com/pausable"), .text("on time").delayed(by: .milliseconds(400)))
        let session = stubs.makeSession()
        let outcome = OneShot<Completion>()
        let task = session.dataTask(with: URL(string: "https://api.example.com/pausable")!) { data, response, error in
            outcome.fulfill(Completion(data: data, response: response, error: error))
        }
        task.resume()
        try await waitUntil { clock.pendingCount == 1 }
        task.suspend()
        try await waitUntil { clock.pendingCount == 0 }
        await clock.advance(by: .milliseconds(100))
        task.resume()
        // Resumed at 100 ms: the stub waits for the rest of its delay.
        try await waitUntil { clock.pendingCount == 1 }
        try await Task.sleep(for: .milliseconds(20))
        #expect(!outcome.isFulfilled)
        await clock.advance(by: .milliseconds(300))
        let completion = try #require(await outcome.value(within: patience), "the task never completed")
        #expect(completion.text == "on time")
    }

    @Test("a task suspended right after resume and resumed later delivers after its delay")
    func suspendBeforeStart() async throws {
        let stubs = StubRegistry()
        stubs.stub(.get("https://api.example.com/pausable"), .text("eventually").delayed(by: .milliseconds(100)))
        let session = stubs.makeSession()
        let outcome = OneShot<Completion>()
        let task = session.dataTask(with: URL(string: "https://api.example.com/pausable")!) { data, response, error in
            outcome.fulfill(Completion(data: data, response: response, error: error))
        }
        task.resume()
        task.suspend()
        try await Task.sleep(for: .milliseconds(50))
        task.resume()
        let completion = try #require(await outcome.value(within: patience), "the task never completed")
        #expect(completion.text == "eventually")
    }

    // MARK: Concurrency

    @Test("2,000 concurrent requests with random 0–3 ms delays each get their own body")
    func manyConcurrentRequests() async throws {
        let stubs = StubRegistry(randomSeed: 5)
        stubs.stub(
            .get("https://api.example.com/items/{id}"),
            .computed { request in
                .text("item \(request.pathParameters["id"] ?? "?")")
            }.delayed(.uniform(.zero ... .milliseconds(3)))
        )
        let session = stubs.makeSession()
        let count = 2_000

        let mismatches = await withTaskGroup(of: String?.self) { group in
            for index in 0..<count {
                group.addTask {
                    let url = "https://api.example.com/items/\(index)"
                    let expected = "item \(index)"
                    if index.isMultiple(of: 2) {
                        let completion = await complete(session, url)
                        return completion.text == expected
                            ? nil : "#\(index): \(completion.text ?? String(describing: completion.error))"
                    } else {
                        do {
                            let (data, _) = try await session.data(from: URL(string: url)!)
                            let text = String(decoding: data, as: UTF8.self)
                            return text == expected ? nil : "#\(index): \(text)"
                        } catch {
                            return "#\(index): \(error)"
                        }
                    }
                }
            }
            var mismatches: [String] = []
            for await mismatch in group {
                if let mismatch { mismatches.append(mismatch) }
            }
            return mismatches
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
        #expect(stubs.journal.count == count)
    }
}

// MARK: - Helpers

/// Slack for lower bounds measured on another clock than the stub's.
private let slack = Duration.milliseconds(2)
/// Slack for delays drawn as `Double` seconds.
private let tiny = Duration.microseconds(1)

/// A clock on which no time passes for real: every wake-up runs at once, and moves `now` to its
/// deadline. It records how long each wake-up waited, so sampled delays can be read exactly.
private final class InstantClock: StubClock, Sendable {
    private struct State {
        var current = Duration.seconds(1_000)
        var recorded: [Duration] = []
    }

    private let state = Locked(State())

    var now: Duration { state.withLock { $0.current } }

    /// How long each scheduled wake-up was after `now` when it was scheduled, in order.
    var waits: [Duration] { state.withLock { $0.recorded } }

    func schedule(at deadline: Duration, _ action: @escaping @Sendable () -> Void) -> any StubClockTimer {
        state.withLock { state in
            state.recorded.append(deadline - state.current)
            state.current = max(state.current, deadline)
        }
        DispatchQueue.global().async(execute: action)
        return InstantTimer()
    }
}

private struct InstantTimer: StubClockTimer {
    func cancel() {}
}
