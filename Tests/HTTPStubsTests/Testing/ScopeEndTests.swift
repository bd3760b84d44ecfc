import Foundation
import HTTPStubs
import HTTPStubsTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What the end of a stub scope does with requests that are not over: it waits for those in
/// flight, ends those waiting for virtual time that only the test can move, and closes the
/// registry, so that no request outlives its test silently and none keeps the process alive.
@Suite("The end of a scope")
struct ScopeEndTests {
    private static let url = "https://api.example.com/feed"

    // MARK: Requests waiting on a ManualStubClock

    @Test(
        "a request waiting on a ManualStubClock never advanced ends with its test, which fails naming the stub and the instant"
    )
    func waitingOnVirtualTimeEndsWithTheTest() async throws {
        let clock = ManualStubClock()
        let outcome = OneShot<Completion>()
        let stubLine = Locked(0)
        let issues = try await recordedIssues {
            try await withHTTPStubs(clock: clock) { stubs in
                stubLine.value = #line + 1
                stubs.stub(.get(.init(Self.url)), .text("never").delayed(by: .seconds(4)))
                stubs.makeSession().dataTask(with: URL(string: Self.url)!) { data, response, error in
                    outcome.fulfill(Completion(data: data, response: response, error: error))
                }.resume()
                try await waitUntil { clock.pendingCount == 1 }
                // The test forgets to advance the clock to 4 s.
            }
        }
        let completion = try #require(
            await outcome.value(within: patience),
            "the request never ended: it would keep the process alive"
        )
        #expect(completion.urlError?.code == .resourceUnavailable)
        let message = completion.urlError?.localizedDescription ?? ""
        #expect(
            message.contains(
                "GET \(Self.url) was still waiting for virtual time 4.0 s when its test ScopeEndTests/waitingOnVirtualTimeEndsWithTheTest() ended, and the ManualStubClock stood at 0.0 s"
            ),
            "\(message)"
        )
        #expect(issues.count == 1, "\(issues)")
        let issue = try #require(issues.first)
        #expect(issue.description.contains("Request still in flight when the test ended"), "\(issue)")
        #expect(issue.description.contains("ScopeEndTests.swift:\(stubLine.value)"), "names the stub: \(issue)")
        #expect(issue.description.contains("virtual time 4.0 s"), "\(issue)")
        #expect(issue.sourceLocation?.line == stubLine.value, "reported at the stub's line")
    }

    @Test("the same through the trait, with an async caller: the awaiting task ends with the URLError")
    func waitingOnVirtualTimeEndsAsyncCaller() async throws {
        let test = try #require(Test.current)
        let caller = Locked<Task<Void, any Error>?>(nil)
        let trait = HTTPStubsTrait.httpStubs(clock: { ManualStubClock() }) { stubs in
            stubs.stub(.get(.init(Self.url)), .text("never").delayed(by: .seconds(30)))
        }
        let issues = try await recordedIssues {
            try await trait.provideScope(for: test, testCase: Test.Case.current) {
                let stubs = StubRegistry.current()
                let session = stubs.makeSession()
                caller.value = Task { _ = try await session.data(from: URL(string: Self.url)!) }
                let clock = try #require(stubs.clock as? ManualStubClock)
                try await waitUntil { clock.pendingCount == 1 }
            }
        }
        #expect(issues.count == 1 && issues[0].description.contains("virtual time 30.0 s"), "\(issues)")
        let task = try #require(caller.value)
        let result = await within { await task.result }
        let error = try #require(result, "the awaiting task never ended").failure as? URLError
        #expect(error?.code == .resourceUnavailable)
    }

    // MARK: Requests in flight when the scope ends

    @Test("a request resumed and not awaited is still checked: its unmatched report fails the test")
    func requestInFlightIsCheckedBeforeTheScopeEnds() async throws {
        let outcome = OneShot<Completion>()
        let issues = try await recordedIssues {
            withHTTPStubs { stubs in  // the synchronous form: its end blocks while it waits
                // Another registry's slow responder holds URLSession's shared queue for 300 ms, so
                // the fire-and-forget request below usually reaches the stubs only after the body
                // has returned: the scope must wait for it.
                let busy = StubRegistry()
                busy.stub(.get("https://busy.example.com/")) { _ in
                    Thread.sleep(forTimeInterval: 0.3)
                    return .text("busy")
                }
                busy.makeSession().dataTask(with: URL(string: "https://busy.example.com/")!).resume()
                stubs.makeSession().dataTask(with: URL(string: "https://api.example.com/nobody-stubs-this")!) {
                    data,
                    response,
                    error in
                    outcome.fulfill(Completion(data: data, response: response, error: error))
                }.resume()
            }
        }
        #expect(issues.count == 1, "\(issues)")
        #expect(issues.first?.description.contains("Unmatched request") == true, "\(issues)")
        #expect(issues.first?.description.contains("/nobody-stubs-this") == true, "\(issues)")
        let completion = try #require(await outcome.value(within: patience))
        #expect(completion.isUnmatched)
    }

    @Test("a request the scope ends at once fails as in flight, once, whether or not it had started loading")
    func requestEndedAtOnceIsReportedOnce() async throws {
        for run in 1...20 {
            let outcome = OneShot<Completion>()
            let registry = Locked<StubRegistry?>(nil)
            let issues = try await recordedIssues {
                withHTTPStubs { stubs in
                    registry.value = stubs
                    HTTPStubsScope.current?.inFlightTimeout = .zero  // often ends it before startLoading
                    stubs.stub(.get(.init(Self.url)), .text("an hour late").delayed(by: .seconds(3600)))
                    stubs.makeSession().dataTask(with: URL(string: Self.url)!) { data, response, error in
                        outcome.fulfill(Completion(data: data, response: response, error: error))
                    }.resume()
                }
            }
            let completion = try #require(await outcome.value(within: patience), "run \(run): the request never ended")
            let message = completion.urlError?.localizedDescription ?? ""
            #expect(message.contains("GET \(Self.url) was still in flight when its test"), "run \(run): \(message)")
            let refused = registry.value?.journal.filter { if case .refused = $0.outcome { true } else { false } } ?? []
            #expect(refused.isEmpty, "run \(run): not also reported as arriving after the test: \(refused)")
            #expect(
                issues.count == 1 && issues[0].description.contains("Request still in flight"),
                "run \(run): \(issues)"
            )
        }
    }

    @Test("a request still in flight after inFlightTimeout fails with a URLError, and so does the test")
    func requestStillInFlightAfterTheTimeoutFails() async throws {
        let outcome = OneShot<Completion>()
        let issues = try await recordedIssues {
            withHTTPStubs { stubs in
                HTTPStubsScope.current?.inFlightTimeout = .milliseconds(50)
                stubs.stub(.get(.init(Self.url)), .text("an hour late").delayed(by: .seconds(3600)))
                stubs.makeSession().dataTask(with: URL(string: Self.url)!) { data, response, error in
                    outcome.fulfill(Completion(data: data, response: response, error: error))
                }.resume()
            }
        }
        #expect(issues.count == 1, "\(issues)")
        #expect(
            issues.first?.description.contains(
                "was still in flight when its test ScopeEndTests/requestStillInFlightAfterTheTimeoutFails() ended"
            ) == true,
            "\(issues)"
        )
        let completion = try #require(await outcome.value(within: patience), "the request never ended")
        #expect(completion.urlError?.code == .resourceUnavailable)
    }

    @Test("a request answered within inFlightTimeout after the body returned passes, and was answered inside the scope")
    func requestFinishingWithinTheTimeoutPasses() async throws {
        let outcome = OneShot<Completion>()
        let registry = Locked<StubRegistry?>(nil)
        await withHTTPStubs { stubs in
            await Task.yield()  // the async form: its end suspends while it waits
            registry.value = stubs
            stubs.stub(.get(.init(Self.url)), .text("soon").delayed(by: .milliseconds(100)), expecting: .once)
            stubs.makeSession().dataTask(with: URL(string: Self.url)!) { data, response, error in
                outcome.fulfill(Completion(data: data, response: response, error: error))
            }.resume()
        }
        let completion = try #require(await outcome.value(within: patience))
        #expect(completion.text == "soon", "answered, not ended: the scope waited for it")
        #expect(registry.value?.journal.count == 1)
    }

    // MARK: Requests after the scope ended

    @Test("a request that reaches the registry after its test ended fails with a URLError naming the test")
    func requestAfterTheScopeEndedFails() async throws {
        let leftover = Locked<URLSession?>(nil)
        let registry = Locked<StubRegistry?>(nil)
        withHTTPStubs(stubUsage: .noRequests) { stubs in  // its request comes after the scope
            stubs.stub(.get(.init(Self.url)), .text("3 items"))
            leftover.value = stubs.makeSession()
            registry.value = stubs
        }
        // As a view model's `Task { }` that starts its request after the test returned would.
        let session = try #require(leftover.value)
        let completion = await complete(session, Self.url)
        #expect(completion.urlError?.code == .resourceUnavailable)
        let message = completion.urlError?.localizedDescription ?? ""
        #expect(
            message.contains(
                "GET \(Self.url) arrived after its test ScopeEndTests/requestAfterTheScopeEndedFails() had ended"
            ),
            "\(message)"
        )
        let entry = try #require(registry.value?.journal.last)
        guard case let .refused(reason) = entry.outcome else {
            Issue.record("journaled as \(entry.outcome), not as refused")
            return
        }
        #expect(reason == message)
    }
}

extension ScopeEndTests {
    @Test(
        "a request that reaches the registry after its test ended is reported on standard error (checked in a child process)"
    )
    func requestAfterTheScopeEndedIsReportedOnStandardError() async throws {
        // The child sends its standard error to a file and checks it (this toolchain's exit tests
        // do not hand standard error back intact): exit 0 only when the report is there.
        await #expect(processExitsWith: .success) {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("stderr-\(UUID().uuidString).txt")
                .path
            let file = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            guard file >= 0, dup2(file, 2) >= 0 else { exit(4) }
            let leftover = Locked<URLSession?>(nil)
            withHTTPStubs { stubs in
                stubs.stub(.get("https://api.example.com/feed"), .text("3 items"))
                leftover.value = stubs.makeSession()
            }
            let completion = await complete(leftover.value!, "https://api.example.com/feed")
            guard completion.urlError?.code == .resourceUnavailable else { exit(1) }
            let written = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
            try? FileManager.default.removeItem(atPath: path)
            exit(written.contains("swift-http-stubs: GET https://api.example.com/feed arrived after its test") ? 0 : 2)
        }
    }
}

extension Result {
    /// The error, for a failed result.
    var failure: Failure? {
        if case let .failure(error) = self { return error }
        return nil
    }
}
