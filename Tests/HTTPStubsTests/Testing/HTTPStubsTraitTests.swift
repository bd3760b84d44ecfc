import Dispatch
import Foundation
import HTTPStubs
import HTTPStubsTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The `.httpStubs` trait, `StubRegistry.current()` and `withHTTPStubs`: every test (and every case
/// of a parameterized test) gets stubs of its own, and every failure path is proven with
/// `withKnownIssue`, so the suite stays green while showing the failure is raised with the
/// expected message at the expected line.
@Suite("HTTPStubs trait and scopes")
struct HTTPStubsTraitTests {
    // MARK: The trait gives each test its own registry

    @Test("@Test(.httpStubs): StubRegistry.current() is the scope's registry, fresh and isolated", .httpStubs)
    func traitGivesTheTestItsOwnRegistry() async throws {
        let stubs = StubRegistry.current()
        let scope = try #require(HTTPStubsScope.current)
        #expect(scope.stubs === stubs)
        #expect(StubRegistry.current() === stubs, "the same registry for the whole test")
        #expect(stubs.stubs.isEmpty, "a new registry starts without stubs")
        #expect(TraitTestsRegistryClasses.isFirstSighting(of: stubs), "no other test got this registry")

        stubs.stub(.get("https://api.example.com/value"), .text("traitGivesTheTestItsOwnRegistry"))
        let result = await complete(stubs.makeSession(), "https://api.example.com/value")
        #expect(result.text == "traitGivesTheTestItsOwnRegistry")
        #expect(stubs.journal.count == 1)
    }

    @Test(
        "@Test(.httpStubs { stubs in … }): the configure closure runs on the test's registry first",
        .httpStubs { stubs in stubs.stub(.get("https://api.example.com/configured"), .text("from the trait")) }
    )
    func configuredTrait() async throws {
        let stubs = StubRegistry.current()
        #expect(stubs.stubs.count == 1)
        #expect(TraitTestsRegistryClasses.isFirstSighting(of: stubs))
        let result = await complete(stubs.makeSession(), "https://api.example.com/configured")
        #expect(result.text == "from the trait")
    }

    @Test("a parameterized test gets one registry per case", .httpStubs, arguments: 0..<8)
    func oneRegistryPerCase(_ index: Int) async throws {
        let stubs = StubRegistry.current()
        #expect(stubs.stubs.isEmpty, "case \(index) starts without the other cases' stubs")
        #expect(TraitTestsRegistryClasses.isFirstSighting(of: stubs), "case \(index) shares no registry")
        stubs.stub(.get("https://api.example.com/value"), .text("case \(index)"))
        let result = await complete(stubs.makeSession(), "https://api.example.com/value")
        #expect(result.text == "case \(index)")
    }

    @Test("without the trait or withHTTPStubs, HTTPStubsScope.current is nil")
    func noScopeWithoutTrait() {
        #expect(HTTPStubsScope.current == nil)
    }

    // MARK: Stubs loaded from files

    @Test(
        "the configure closure can load a stub root written at run time",
        .httpStubs { stubs in
            let root = try TraitTestsFixture.writeStubRoot()
            defer { try? FileManager.default.removeItem(atPath: root) }
            try stubs.load(root)
        }
    )
    func loadsAFixtureRoot() async throws {
        let stubs = StubRegistry.current()
        #expect(stubs.stubs.map(\.name) == ["fixture greeting"])
        let result = await complete(stubs.makeSession(), "https://api.example.com/fixture/greeting")
        #expect(result.status == 200)
        #expect(result.text == "hello from the fixture")
        #expect(result.http?.value(forHTTPHeaderField: "X-Fixture") == "yes")
    }

    @Test("withHTTPStubs loads a stub root with a body file (kept until the test ends)")
    func loadsAFixtureRootWithBodyFile() async throws {
        let root = try TraitTestsFixture.writeStubRoot(withBodyFile: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        try await withHTTPStubs { stubs in
            try stubs.load(root)
            let result = await complete(stubs.makeSession(), "https://api.example.com/fixture/file")
            #expect(result.text == #"{"from": "a body file"}"#)
        }
    }

    @Test(
        "load(_:relativeTo: #filePath) finds the repository's Stubs folder from this file",
        .httpStubs { stubs in try stubs.load("../../../Stubs", relativeTo: #filePath) }
    )
    func loadsRelativeToThisFile() async throws {
        let stubs = StubRegistry.current()
        #expect(stubs.stubs.contains { $0.name == "user 42" })
        var request = URLRequest(url: URL(string: "https://api.example.com/v1/users/42")!)
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        let result = await complete(stubs.makeSession(), request)
        #expect(result.status == 200)
        #expect(result.text?.contains(#""name": "Ada Lovelace""#) == true)
        let unknown = await complete(stubs.makeSession(), "https://api.example.com/v1/nothing-here")
        #expect(unknown.status == 404, "the catch-all mapping answers")
    }

    // MARK: Where trait scopes report

    @Test(
        "@Test(.httpStubs { … }) reports an unmatched request in this file, at the test function",
        .httpStubs { _ in }
    )
    func configuredTraitReportsAtItsLine() async throws {
        // Swift Testing evaluates the trait where it expands the macro: the trait's #line is the
        // line of the `func`.
        let functionLine = #line - 3
        let stubs = StubRegistry.current()
        stubs.stub(.get("https://api.example.com/users/42"), .text("Ada"))
        _ = await complete(stubs.makeSession(), "https://api.example.com/users/43")
        let issues = verifiedUnmatchedRequestIssues()
        let issue = try #require(issues.all.first)
        #expect(issues.all.count == 1)
        #expect(issue.sourceLocation?.fileID == #fileID)
        #expect(issue.sourceLocation?.line == functionLine)
    }

    @Test("@Test(.httpStubs) reports an unmatched request in this file, not in the library", .httpStubs)
    func plainTraitReportsInTheTestFile() async throws {
        let stubs = StubRegistry.current()
        stubs.stub(.get("https://api.example.com/users/42"), .text("Ada"))
        _ = await complete(stubs.makeSession(), "https://api.example.com/users/43")
        let issues = verifiedUnmatchedRequestIssues()
        let issue = try #require(issues.all.first)
        #expect(issue.sourceLocation?.fileID == #fileID)
    }

    @Test(
        "the trait itself reports at the end of the test: an unmet expectation at the stub's line, an unmatched request at the trait"
    )
    func traitReportsWhenTheTestEnds() async throws {
        let test = try #require(Test.current)
        let stubLine = Locked(0)
        let traitLine = #line + 1
        let trait = HTTPStubsTrait.httpStubs { _ in }
        let issues = Collected<Issue>()
        try await withKnownIssue {
            try await trait.provideScope(for: test, testCase: Test.Case.current) {
                let stubs = StubRegistry.current()
                stubLine.value = #line + 1
                stubs.stub(.get("https://api.example.com/once"), .text("once"), expecting: .once)
                _ = await complete(stubs.makeSession(), "https://api.example.com/unknown")
                // The body ends without calling verify(): the trait reports when the scope ends.
            }
        } matching: { issue in
            issues.append(issue)
            return true
        }
        let unmet = try #require(issues.all.first { $0.description.contains("was expected to answer exactly once") })
        #expect(unmet.sourceLocation?.line == stubLine.value)
        #expect(unmet.sourceLocation?.fileID == #fileID)
        let unmatched = try #require(issues.all.first { $0.description.contains("Unmatched request") })
        #expect(unmatched.sourceLocation?.line == traitLine)
        #expect(issues.all.count == 2, "\(issues.all)")
    }

    // MARK: Failure paths of withHTTPStubs

    @Test("an unmatched request fails the test with the near-miss report, at withHTTPStubs' line")
    func unmatchedRequestFails() async {
        let issues = Collected<Issue>()
        var scopeLine = 0
        await withKnownIssue {
            scopeLine = #line + 1
            await withHTTPStubs { stubs in
                stubs.stub(.get("https://api.example.com/users/42"), .text("Ada"))
                let result = await complete(stubs.makeSession(), "https://api.example.com/users/43")
                #expect(result.urlError?.code == .resourceUnavailable)
                #expect(result.text != "Ada")
            }
        } matching: { issue in
            issues.append(issue)
            return issue.description.contains("Unmatched request")
        }
        #expect(issues.all.count == 1)
        let text = issues.all.first?.description ?? ""
        #expect(text.contains("Unmatched request: GET https://api.example.com/users/43"))
        #expect(text.contains("Closest stubs (1 of 1)"))
        #expect(text.contains("✗"), "the near miss shows the part that differs")
        #expect(text.contains("To answer it, correct the closest stub"))
        #expect(issues.all.first?.sourceLocation?.fileID == #fileID)
        #expect(issues.all.first?.sourceLocation?.line == scopeLine)
    }

    @Test("a stub expected once but never used fails at the stub's own line (synchronous withHTTPStubs)")
    func unusedOnceStubFailsAtItsLine() {
        let issues = Collected<Issue>()
        var stubLine = 0
        withKnownIssue {
            withHTTPStubs { stubs in
                stubLine = #line + 1
                stubs.stub(.post("https://api.example.com/orders"), .status(201), expecting: .once)
            }
        } matching: { issue in
            issues.append(issue)
            return issue.description.contains("Unmet expectation")
        }
        let issue = issues.all.first
        #expect(issues.all.count == 1)
        #expect(issue?.description.contains("was expected to answer exactly once, but answered 0 requests") == true)
        #expect(issue?.description.contains(#"method POST"#) == true)
        #expect(issue?.description.contains(#"path = "/orders""#) == true)
        #expect(issue?.sourceLocation?.line == stubLine)
        #expect(issue?.sourceLocation?.fileID == #fileID)
    }

    @Test("an unmet use expectation fails at the stub's line with the counts", arguments: TraitTestsUseCase.unmet)
    func unmetExpectationFails(_ useCase: TraitTestsUseCase) async {
        let issues = Collected<Issue>()
        var stubLine = 0
        await withKnownIssue {
            await withHTTPStubs { stubs in
                stubLine = #line + 1
                stubs.stub(.get("https://api.example.com/counted"), .text("counted"), expecting: useCase.expectation)
                let session = stubs.makeSession()
                for _ in 0..<useCase.uses {
                    #expect(await complete(session, "https://api.example.com/counted").text == "counted")
                }
                #expect(stubs.unmetExpectations.count == 1)
                #expect(stubs.unmetExpectations.first?.uses == useCase.uses)
            }
        } matching: { issue in
            issues.append(issue)
            return issue.description.contains("Unmet expectation")
        }
        #expect(issues.all.count == 1)
        #expect(
            issues.all.first?.description.contains(useCase.message) == true,
            "\(issues.all.first?.description ?? "no issue")"
        )
        #expect(issues.all.first?.sourceLocation?.line == stubLine)
        #expect(issues.all.first?.sourceLocation?.fileID == #fileID)
    }

    @Test("a met use expectation records nothing", arguments: TraitTestsUseCase.met)
    func metExpectationPasses(_ useCase: TraitTestsUseCase) async {
        await withHTTPStubs { stubs in
            stubs.stub(.get("https://api.example.com/counted"), .text("counted"), expecting: useCase.expectation)
            let session = stubs.makeSession()
            for _ in 0..<useCase.uses {
                #expect(await complete(session, "https://api.example.com/counted").text == "counted")
            }
            #expect(stubs.unmetExpectations.isEmpty)
        }
    }

    @Test("Stub.expect(_:) added with add(_:) fails at the line that built the stub")
    func expectOnAStubValue() {
        let issues = Collected<Issue>()
        var stubLine = 0
        withKnownIssue {
            withHTTPStubs { stubs in
                stubLine = #line + 1
                let stub = Stub(.delete("https://api.example.com/users/7"), .status(204)).named("delete user 7").expect(
                    .once
                )
                stubs.add(stub)
                #expect(stubs.unmetExpectations.map(\.stub.name) == ["delete user 7"])
            }
        } matching: { issue in
            issues.append(issue)
            return issue.description.contains("Unmet expectation")
        }
        #expect(issues.all.count == 1)
        #expect(issues.all.first?.description.contains(#"the stub "delete user 7" (method DELETE"#) == true)
        #expect(issues.all.first?.sourceLocation?.line == stubLine)
    }

    @Test("a stub with a regular expression that does not compile is reported as broken")
    func brokenRegexStub() {
        let issues = Collected<Issue>()
        var stubLine = 0
        withKnownIssue {
            withHTTPStubs { stubs in
                stubLine = #line + 1
                stubs.stub(.get(.pathMatching("/users/([0-9+")), .text("never"))
            }
        } matching: { issue in
            issues.append(issue)
            return issue.description.contains("Broken stub")
        }
        #expect(issues.all.count == 1)
        #expect(issues.all.first?.sourceLocation?.line == stubLine)
        #expect(issues.all.first?.sourceLocation?.fileID == #fileID)
    }

    @Test("StubRegistry.current() outside any scope records a failure naming the fix, and still returns a registry")
    func currentOutsideAScope() async {
        let issues = Collected<Issue>()
        var callLine = 0
        var registry: StubRegistry?
        withKnownIssue {
            callLine = #line + 1
            registry = StubRegistry.current()
        } matching: { issue in
            issues.append(issue)
            return issue.description.contains("No HTTP stub scope")
        }
        #expect(issues.all.count == 1)
        #expect(issues.all.first?.description.contains("@Test(.httpStubs)") == true)
        #expect(issues.all.first?.sourceLocation?.line == callLine)
        let stubs = registry ?? StubRegistry()
        stubs.stub(.get("https://api.example.com/value"), .text("usable"))
        #expect(await complete(stubs.makeSession(), "https://api.example.com/value").text == "usable")
    }

    // MARK: Cleanup

    @Test("when the body throws, the scope ends: failures are still reported and its stubs are gone")
    func cleanupWhenTheBodyThrows() async throws {
        let issues = Collected<Issue>()
        let leftovers = TraitTestsLeftovers()
        await withKnownIssue {
            do {
                try await withHTTPStubs { stubs in
                    stubs.stub(.get("https://api.example.com/value"), .text("inside the scope"), expecting: .exactly(2))
                    let session = stubs.makeSession()
                    #expect(await complete(session, "https://api.example.com/value").text == "inside the scope")
                    leftovers.keep(session: session, registry: stubs)
                    throw TraitTestsFailure()
                }
                Issue.record("withHTTPStubs must rethrow the body's error")
            } catch {
                #expect(error is TraitTestsFailure)
            }
        } matching: { issue in
            issues.append(issue)
            return issue.description.contains("expected to answer exactly 2 times, but answered 1 request")
        }
        #expect(issues.all.count == 1)
        #expect(HTTPStubsScope.current == nil)
        #expect(leftovers.registry == nil, "the scope let go of its registry")
        let late = await complete(try #require(leftovers.session), "https://api.example.com/value")
        #expect(late.text != "inside the scope")
        #expect(
            late.urlError?.code == .resourceUnavailable,
            "a session outliving its scope gets an error, never a stub"
        )
    }

    @Test("when the task is cancelled, the scope ends and reports")
    func cleanupWhenCancelled() async throws {
        let issues = Collected<Issue>()
        let started = Flag()
        let sawCancellation = Flag()
        try await withKnownIssue {
            let task = Task {
                await withHTTPStubs { stubs in
                    stubs.stub(.get("https://api.example.com/never"), .text("never"), expecting: .once)
                    started.set()
                    // Sleeps until cancelled; an hour is far longer than the test may run.
                    try? await Task.sleep(for: .seconds(3600))
                    if Task.isCancelled { sawCancellation.set() }
                }
            }
            try await waitUntil { started.isSet }
            task.cancel()
            await task.value
        } matching: { issue in
            issues.append(issue)
            return issue.description.contains("Unmet expectation")
        }
        #expect(sawCancellation.isSet)
        #expect(issues.all.count == 1)
        #expect(
            issues.all.first?.description.contains(#"path = "/never") was expected to answer exactly once"#) == true
        )
    }
}

/// The `.httpStubs` trait on a suite: every test of the suite gets its own registry.
@Suite("HTTPStubs trait on a suite", .httpStubs)
struct HTTPStubsSuiteTraitTests {
    @Test("the first test of the suite has a registry of its own")
    func first() async {
        await checkOwnRegistry("first")
    }

    @Test("the second test of the suite has a registry of its own")
    func second() async {
        await checkOwnRegistry("second")
    }

    @Test("each case of a parameterized test in the suite has a registry of its own", arguments: ["a", "b", "c", "d"])
    func cases(_ name: String) async {
        await checkOwnRegistry(name)
    }

    /// Checks that the test's registry is new, stubs the shared URL with `body` and gets it back.
    private func checkOwnRegistry(_ body: String) async {
        #expect(HTTPStubsScope.current != nil)
        let stubs = StubRegistry.current()
        #expect(stubs.stubs.isEmpty)
        #expect(TraitTestsRegistryClasses.isFirstSighting(of: stubs))
        stubs.stub(.get("https://api.example.com/value"), .text(body))
        #expect(await complete(stubs.makeSession(), "https://api.example.com/value").text == body)
    }
}

// `URLProtocolStub` has one registry per process, and `URLProtocolStubCompatibilityTests`
// (LinuxTrapTests.swift) starts and stops its interception without `withSharedSessionStubs`. Run in
// parallel with those tests, each side stops the other's interception and resets its stubs. Nesting
// this suite in that `.serialized` suite runs all of them one at a time.
extension URLProtocolStubCompatibilityTests {
    /// `withSharedSessionStubs`: `URLSession.shared` has one set of stubs per process, so these
    /// tests run one at a time, and never alongside other users of `URLProtocolStub`.
    @Suite("withSharedSessionStubs", .serialized, .timeLimit(.minutes(1)))
    struct SharedSessionStubsTests {
        private static let url = URL(string: "https://shared.example.com/value")!

        @Test("URLSession.shared is intercepted when the platform allows it; otherwise the reason is reported")
        func interceptsOrReportsTheReason() async throws {
            let issues = Collected<Issue>()
            let status = Locked<SharedSessionInterception?>(nil)
            let body = Locked<String?>(nil)
            await withKnownIssue(isIntermittent: true) {
                await withSharedSessionStubs { stubs in
                    #expect(URLProtocolStub.isIntercepting)
                    #expect(stubs === URLProtocolStub.registry)
                    #expect(StubRegistry.current() === stubs)
                    // Asking again is harmless and says whether URLSession.shared asks URLProtocolStub first.
                    let current = URLProtocolStub.startInterceptingRequests()
                    status.value = current
                    stubs.stub(.get(.init(Self.url.absoluteString)), .text("from the shared stubs"))
                    // Only when intercepted: otherwise URLSession.shared would reach the real network.
                    if current == .active {
                        let data = try? await URLSession.shared.data(from: Self.url).0
                        body.value = data.map { String(decoding: $0, as: UTF8.self) }
                    }
                }
            } matching: { issue in
                issues.append(issue)
                return issue.description.contains("URLSession.shared cannot be intercepted")
            }
            #expect(!URLProtocolStub.isIntercepting, "the scope stops interception")
            #expect(URLProtocolStub.registry.stubs.isEmpty, "the scope resets the shared registry")
            switch try #require(status.value) {
            case .active:
                #expect(body.value == "from the shared stubs")
                #expect(issues.all.isEmpty)
            case let .unavailable(reason):
                #expect(body.value == nil)
                #expect(!issues.all.isEmpty, "the reason is reported")
                #expect(issues.all.allSatisfy { $0.description.contains(reason) })
                #if canImport(FoundationNetworking)
                #expect(URLSession.shared.configuration.protocolClasses?.first != URLProtocolStub.self)
                #endif
            }
        }

        @Test("an URLSession.shared that cannot be intercepted is reported once per scope")
        func reportsUnavailabilityOnce() async throws {
            let issues = Collected<Issue>()
            await withKnownIssue(isIntermittent: true) {
                await withSharedSessionStubs { _ in }
            } matching: { issue in
                issues.append(issue)
                return issue.description.contains("URLSession.shared cannot be intercepted")
            }
            #if canImport(FoundationNetworking)
            guard !NetworkGuard.seesSharedSession else {
                #expect(issues.all.isEmpty, "intercepted, so nothing to report")
                return
            }
            #expect(!issues.all.isEmpty)
            #expect(issues.all.count == 1, "\(issues.all.map(\.description))")
            #expect(!issues.all.contains { $0.description.contains("Broken stub") })
            #else
            #expect(issues.all.isEmpty)
            #endif
        }

        @Test("concurrent callers take turns: the second starts only after the first ends")
        func serializesConcurrentCallers() async {
            let events = Locked<[String]>([])
            let firstIsIn = Flag()
            let secondArrived = Flag()
            await withKnownIssue(isIntermittent: true) {
                await withTaskGroup(of: Void.self) { group in
                    group.addTask {
                        await withSharedSessionStubs { stubs in
                            HTTPStubsScope.current?.stubUsage = .noRequests  // the stub only has to exist
                            events.withLock { $0.append("first starts") }
                            stubs.stub(.get("https://shared.example.com/first"), .text("first"))
                            firstIsIn.set()
                            // Hold the turn until the second caller is waiting for it.
                            try? await waitUntil { secondArrived.isSet }  // a timeout is recorded as an issue
                            try? await Task.sleep(for: .milliseconds(20))
                            #expect(stubs.stubs.count == 1)
                            events.withLock { $0.append("first ends") }
                        }
                    }
                    group.addTask {
                        try? await waitUntil { firstIsIn.isSet }  // a timeout is recorded as an issue
                        secondArrived.set()
                        await withSharedSessionStubs { stubs in
                            events.withLock { $0.append("second starts") }
                            #expect(stubs.stubs.isEmpty, "the first caller's stubs were reset")
                            events.withLock { $0.append("second ends") }
                        }
                    }
                }
            } matching: { issue in
                issue.description.contains("URLSession.shared cannot be intercepted")
            }
            #expect(events.value == ["first starts", "first ends", "second starts", "second ends"])
        }

        @Test("interception left running outside withSharedSessionStubs is reported and stopped")
        func reportsInterceptionLeftRunning() async {
            let issues = Collected<Issue>()
            URLProtocolStub.startInterceptingRequests()
            #expect(URLProtocolStub.isIntercepting)
            await withKnownIssue {
                await withSharedSessionStubs { _ in }
            } matching: { issue in
                issues.append(issue)
                return issue.description.contains("URLProtocolStub is already intercepting")
                    || issue.description.contains("URLSession.shared cannot be intercepted")
            }
            #expect(issues.all.contains { $0.description.contains("URLProtocolStub is already intercepting") })
            #expect(!URLProtocolStub.isIntercepting)
        }

        @Test("a nested call is reported instead of waiting for itself forever")
        func reportsNestedCalls() async {
            let issues = Collected<Issue>()
            let innerRan = Flag()
            await withKnownIssue {
                await withSharedSessionStubs { outer in
                    await withSharedSessionStubs { inner in
                        #expect(inner === outer)
                        innerRan.set()
                    }
                    #expect(URLProtocolStub.isIntercepting, "the inner call does not end the outer scope")
                }
            } matching: { issue in
                issues.append(issue)
                return issue.description.contains("withSharedSessionStubs is already running in this task")
                    || issue.description.contains("URLSession.shared cannot be intercepted")
            }
            #expect(innerRan.isSet)
            #expect(issues.all.filter { $0.description.contains("already running in this task") }.count == 1)
            #expect(!URLProtocolStub.isIntercepting)
        }

        @Test("interception stopped during the scope by code outside it is reported when the scope ends")
        func reportsInterceptionStoppedDuringTheScope() async {
            let issues = Collected<Issue>()
            await withKnownIssue {
                await withSharedSessionStubs { stubs in
                    stubs.stub(.get("https://shared.example.com/value"), .text("mine"))
                    URLProtocolStub.stopInterceptingRequests()  // as another test using URLProtocolStub directly would
                    #expect(stubs.stubs.isEmpty, "stopping resets the shared stubs")
                }
            } matching: { issue in
                issues.append(issue)
                return issue.description.contains("was called while this withSharedSessionStubs scope ran")
                    || issue.description.contains("URLSession.shared cannot be intercepted")
            }
            #expect(
                issues.all.filter { $0.description.contains("was called while this withSharedSessionStubs scope ran") }
                    .count == 1
            )
            #expect(!URLProtocolStub.isIntercepting)
        }
    }
}

// MARK: - Helpers

/// One use-count scenario: the expectation, how many requests are made, and the message expected
/// when it is not met.
struct TraitTestsUseCase: Sendable, CustomTestStringConvertible {
    let expectation: UseExpectation
    let uses: Int
    let message: String

    var testDescription: String { "\(expectation), used \(uses)" }

    /// Scenarios whose expectation is not met.
    static let unmet = [
        TraitTestsUseCase(
            expectation: .once,
            uses: 0,
            message: "was expected to answer exactly once, but answered 0 requests"
        ),
        TraitTestsUseCase(
            expectation: .exactly(2),
            uses: 1,
            message: "was expected to answer exactly 2 times, but answered 1 request"
        ),
        TraitTestsUseCase(
            expectation: .atMost(1),
            uses: 2,
            message: "was expected to answer at most once, but answered 2 requests"
        ),
        TraitTestsUseCase(
            expectation: .atLeast(2),
            uses: 1,
            message: "was expected to answer at least 2 times, but answered 1 request"
        ),
        TraitTestsUseCase(
            expectation: .used,
            uses: 0,
            message: "was expected to answer at least once, but answered 0 requests"
        ),
    ]

    /// Scenarios whose expectation is met.
    static let met = [
        TraitTestsUseCase(expectation: .once, uses: 1, message: ""),
        TraitTestsUseCase(expectation: .exactly(2), uses: 2, message: ""),
        TraitTestsUseCase(expectation: .atMost(1), uses: 0, message: ""),
        TraitTestsUseCase(expectation: .atMost(1), uses: 1, message: ""),
        TraitTestsUseCase(expectation: .atLeast(2), uses: 3, message: ""),
    ]
}

/// The protocol classes of every registry a test of this file has seen. A registry's class is
/// never reused (unlike an object address), so a repeat means two tests shared a registry.
private enum TraitTestsRegistryClasses {
    private static let seen = Locked<Set<ObjectIdentifier>>([])

    /// Records the registry; `false` if some test already saw it.
    static func isFirstSighting(of registry: StubRegistry) -> Bool {
        seen.withLock { $0.insert(ObjectIdentifier(registry.protocolClass)).inserted }
    }
}

/// A WireMock stub root written to a temporary folder at run time (SwiftPM would warn about
/// fixture files in the test target's folder that are neither resources nor excluded).
private enum TraitTestsFixture {
    /// Writes the root and returns its path; the caller deletes it.
    static func writeStubRoot(withBodyFile: Bool = false) throws -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("trait-fixture-\(UUID().uuidString)")
        let mappings = root.appendingPathComponent("mappings")
        try FileManager.default.createDirectory(at: mappings, withIntermediateDirectories: true)
        try Data(
            #"""
            {
              "name": "fixture greeting",
              "request": { "method": "GET", "urlPath": "/fixture/greeting" },
              "response": { "status": 200, "headers": { "X-Fixture": "yes" }, "body": "hello from the fixture" }
            }
            """#.utf8
        ).write(to: mappings.appendingPathComponent("greeting.json"))
        if withBodyFile {
            let files = root.appendingPathComponent("__files")
            try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
            try Data(#"{"from": "a body file"}"#.utf8).write(to: files.appendingPathComponent("file.json"))
            try Data(
                #"""
                {
                  "request": { "method": "GET", "urlPath": "/fixture/file" },
                  "response": { "status": 200, "bodyFileName": "file.json" }
                }
                """#.utf8
            ).write(to: mappings.appendingPathComponent("file.json"))
        }
        return root.path
    }
}

/// The issues the current scope's `verify()` records, expected to be about an unmatched request.
private func verifiedUnmatchedRequestIssues() -> Collected<Issue> {
    let issues = Collected<Issue>()
    withKnownIssue {
        HTTPStubsScope.current?.verify()
    } matching: { issue in
        issues.append(issue)
        return issue.description.contains("Unmatched request")
    }
    return issues
}

/// What a scope leaves behind: a session kept past its end, and a weak reference to its registry.
private final class TraitTestsLeftovers: @unchecked Sendable {
    // Invariant: both fields are written once, inside the scope, before being read after it.
    private(set) var session: URLSession?
    private(set) weak var registry: StubRegistry?

    /// Keeps `session` and watches `registry`.
    func keep(session: URLSession, registry: StubRegistry) {
        self.session = session
        self.registry = registry
    }
}

/// An error a test body throws on purpose.
private struct TraitTestsFailure: Error {}
