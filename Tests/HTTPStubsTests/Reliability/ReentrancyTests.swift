import Foundation
import HTTPStubs
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The user's closures — custom matchers, request observers, computed responses, issue handlers —
/// may call any method of the registry that runs them (issue #11): the toolkit never runs them
/// while it holds a lock they could take again.
///
/// A deadlock would leave a URLSession thread stuck for good, so every test runs its requests and
/// its checks under a hang guard: it fails after ``patience`` instead of hanging the suite. No
/// closure here starts a request of its own.
@Suite struct ReentrancyTests {
    private let base = "https://api.example.com"

    // MARK: Custom matchers

    @Test func firstCallOnlyMatcherReadingTheJournalAnswersFirstThenLater() async throws {
        try await withoutHanging {
            let stubs = StubRegistry()
            stubs.stub(.get("https://api.example.com/a"), .text("later"))
            stubs.stub(
                .get("https://api.example.com/a").matching("first call only") { _ in
                    stubs.requests(to: .get, "https://api.example.com/a").isEmpty
                },
                .text("first")
            )
            let session = stubs.makeSession()
            #expect(await answer(session, "https://api.example.com/a") == "first")
            #expect(await answer(session, "https://api.example.com/a") == "later")
            #expect(await answerAsync(session, "https://api.example.com/a") == "later")
            #expect(stubs.journal.count == 3)
        }
    }

    @Test func customMatcherMayCallEveryRegistryMethod() async throws {
        try await withoutHanging {
            let stubs = StubRegistry()
            let calls = Counter()
            stubs.stub(
                .get(.path("/matcher")).matching("calls every registry method") { _ in
                    callEveryMethod(of: stubs)
                    calls.increment()
                    return true
                },
                .text("matched")
            )
            let session = stubs.makeSession()
            #expect(await answer(session, base + "/matcher") == "matched")
            #expect(await answerAsync(session, base + "/matcher") == "matched")
            #expect(calls.value == 2)
        }
    }

    @Test func aMatcherThatRemovesItsOwnStubLetsTheNextStubAnswer() async throws {
        try await withoutHanging {
            let stubs = StubRegistry()
            stubs.stub(.get(.path("/a")), .text("later"))
            let ownID = Locked(Stub.ID(""))
            ownID.value = stubs.stub(
                .get(.path("/a")).matching("removes itself") { _ in
                    stubs.remove(ownID.value)
                    return true
                },
                .text("never")
            )
            let session = stubs.makeSession()
            // The request comes after the removal: the stub it matched is gone.
            #expect(await answer(session, base + "/a") == "later")
            #expect(stubs.stubs.count == 1)
        }
    }

    @Test func aMatcherThatMovesItsScenarioOnLetsTheNextStubAnswer() async throws {
        try await withoutHanging {
            let stubs = StubRegistry()
            stubs.stub(.get(.path("/a")), .text("later"))
            stubs.add(
                Stub(
                    .get(.path("/a")).matching("moves the scenario on") { _ in
                        stubs.scenario("flow").move(to: "Elsewhere")
                        return true
                    },
                    .text("never")
                ).inScenario("flow", whenIn: "Started")
            )
            let session = stubs.makeSession()
            // The request comes after the move: the stub it matched no longer answers.
            #expect(await answerAsync(session, base + "/a") == "later")
            #expect(stubs.scenario("flow").state == "Elsewhere")
        }
    }

    @Test func matchersRunOutsideTheLockWhenDecidingToPassThrough() async throws {
        try await withoutHanging {
            let stubs = StubRegistry()
            stubs.passThrough = .hosts(["api.example.com"])
            let calls = Counter()
            // Always matches: nothing here may reach the real network.
            stubs.stub(
                .get(.path("/pass")).matching("calls every registry method") { _ in
                    callEveryMethod(of: stubs)
                    calls.increment()
                    return true
                },
                .text("stubbed")
            )
            let session = stubs.makeSession()
            #expect(await answer(session, base + "/pass") == "stubbed")
            #expect(await answerAsync(session, base + "/pass") == "stubbed")
            // Once deciding whether to pass through, once choosing the stub, per request at least.
            #expect(calls.value >= 4)
            #expect(stubs.passThrough == .hosts(["api.example.com"]))
        }
    }

    @Test func answerRunsMatchersOutsideTheLock() async throws {
        try await withoutHanging {
            let stubs = StubRegistry()
            stubs.stub(.get(.path("/a")), .text("later"))
            stubs.stub(
                .get(.path("/a")).matching("first call only") { _ in
                    stubs.requests(to: .get, .path("/a")).isEmpty
                },
                .text("first")
            )
            let request = InterceptedRequest(url: URL(string: base + "/a")!)
            #expect(text(of: stubs.answer(request)) == "first")
            #expect(text(of: stubs.answer(request)) == "later")
        }
    }

    // MARK: Observers, computed responses, issue handlers

    @Test func requestObserverMayCallEveryRegistryMethod() async throws {
        try await withoutHanging {
            let stubs = StubRegistry()
            let calls = Counter()
            stubs.observeRequests { _ in
                callEveryMethod(of: stubs)
                calls.increment()
            }
            stubs.stub(.get(.path("/observed")), .text("observed"))
            let session = stubs.makeSession()
            #expect(await answer(session, base + "/observed") == "observed")
            #expect(await answerAsync(session, base + "/observed") == "observed")
            #expect(calls.value == 2)
        }
    }

    @Test func computedResponseMayCallEveryRegistryMethod() async throws {
        try await withoutHanging {
            let stubs = StubRegistry()
            stubs.stub(
                .get(.path("/computed")),
                .computed { _ in
                    callEveryMethod(of: stubs)
                    return .text("computed")
                }
            )
            stubs.stub(.get(.path("/respond"))) { _ in
                // The request is in the journal already; callEveryMethod then clears it.
                let journaled = stubs.requests(to: .get, .path("/respond")).count
                callEveryMethod(of: stubs)
                return .text("responded \(journaled)")
            }
            let session = stubs.makeSession()
            #expect(await answer(session, base + "/computed") == "computed")
            #expect(await answerAsync(session, base + "/computed") == "computed")
            #expect(await answer(session, base + "/respond") == "responded 1")
            #expect(await answerAsync(session, base + "/respond") == "responded 1")
        }
    }

    @Test func issueHandlerMayCallEveryRegistryMethod() async throws {
        try await withoutHanging {
            let stubs = StubRegistry()
            let handled = Collected<StubDiagnostic>()
            stubs.onDiagnostic { issue in
                callEveryMethod(of: stubs)  // adds only stubs without problems: no issue of its own
                handled.append(issue)
            }
            let broken = Counter()
            /// Adds a stub whose regular expression does not compile: an issue.
            @Sendable func addBrokenStub() {
                broken.increment()
                stubs.stub(
                    .get(.path("/broken-\(broken.value)")).header("X-Id", .matches("(unclosed")),
                    .text("broken")
                )
            }
            // From a matcher and from a computed response, while a request is being answered.
            stubs.stub(
                .get(.path("/matcher")).matching("adds a broken stub") { _ in
                    addBrokenStub()
                    return true
                },
                .text("matched")
            )
            stubs.stub(.get(.path("/computed"))) { _ in
                addBrokenStub()
                return .text("computed")
            }
            let session = stubs.makeSession()
            addBrokenStub()  // and from the test itself
            #expect(await answer(session, base + "/matcher") == "matched")
            #expect(await answerAsync(session, base + "/computed") == "computed")
            #expect(handled.all.count == 3)
            #expect(handled.all.allSatisfy { $0.message.contains("(unclosed") })
        }
    }

    @Test func everyKindOfClosureMayResetTheRegistry() async throws {
        try await withoutHanging {
            // A matcher that resets: the request comes after the reset, when no stub is left.
            let matcherStubs = StubRegistry()
            matcherStubs.stub(
                .get(.path("/a")).matching("resets") { _ in
                    matcherStubs.reset()
                    return true
                },
                .text("never")
            )
            #expect(await answer(matcherStubs.makeSession(), base + "/a") == unmatched)
            #expect(matcherStubs.stubs.isEmpty)

            // An observer that resets: it runs before the stub is chosen.
            let observerStubs = StubRegistry()
            observerStubs.observeRequests { _ in observerStubs.reset() }
            observerStubs.stub(.get(.path("/a")), .text("never"))
            #expect(await answerAsync(observerStubs.makeSession(), base + "/a") == unmatched)

            // A computed response that resets: the stub was chosen already.
            let computedStubs = StubRegistry()
            computedStubs.stub(.get(.path("/a"))) { _ in
                computedStubs.reset()
                return .text("computed")
            }
            #expect(await answer(computedStubs.makeSession(), base + "/a") == "computed")
            #expect(computedStubs.stubs.isEmpty)

            // An issue handler that resets.
            let issueStubs = StubRegistry()
            issueStubs.onDiagnostic { _ in issueStubs.reset() }
            issueStubs.stub(.get(.path("/a")), .text("kept until the broken stub comes"))
            issueStubs.stub(.get(.path("/b")).header("X-Id", .matches("(unclosed")), .text("broken"))
            #expect(issueStubs.stubs.isEmpty)
        }
    }

    // MARK: Concurrency

    @Test func closuresCallingTheRegistryWhileManyRequestsRunConcurrently() async throws {
        try await withoutHanging {
            let stubs = StubRegistry()
            let issues = Counter()
            stubs.onDiagnostic { _ in
                callEveryMethod(of: stubs)
                issues.increment()
            }
            let observed = Counter()
            stubs.observeRequests { _ in
                callEveryMethod(of: stubs)
                observed.increment()
            }
            let matched = Locked(0)
            let matcherStub = stubs.stub(
                .get(.path("/matcher")).matching("calls every registry method") { _ in
                    callEveryMethod(of: stubs)
                    if matched.withLock({
                        $0 += 1
                        return $0
                    }).isMultiple(of: 25) {  // now and then, an issue from within the matcher
                        stubs.stub(.get(.path("/broken")).header("X-Id", .matches("(unclosed")), .text("broken"))
                    }
                    return true
                },
                .text("matched")
            )
            let computedStub = stubs.stub(.get(.path("/computed"))) { _ in
                callEveryMethod(of: stubs)
                return .text("computed")
            }
            // Exactly 100 uses, however many requests race for them through a matcher run outside the lock.
            let limited = Stub(
                .get(.path("/limited")).matching("reads the registry") { _ in
                    _ = stubs.unusedStubs
                    return true
                },
                .text("limited")
            ).times(100)
            stubs.add(limited)
            stubs.stub(.get(.path("/limited")), .text("fallback"), priority: 9)
            let session = stubs.makeSession()
            let (tasks, requestsPerTask) = (8, 50)
            let answers = await withTaskGroup(of: [String: Int].self) { group in
                for task in 0..<tasks {
                    group.addTask {
                        var counts: [String: Int] = [:]
                        for index in 0..<requestsPerTask {
                            let path = ["/matcher", "/computed", "/limited", "/limited"][(task + index) % 4]
                            let text =
                                index.isMultiple(of: 2)
                                ? await answer(session, base + path)
                                : await answerAsync(session, base + path)
                            counts[text, default: 0] += 1
                        }
                        return counts
                    }
                }
                return await group.reduce(into: [:]) { total, counts in total.merge(counts, uniquingKeysWith: +) }
            }
            let total = tasks * requestsPerTask
            #expect(
                answers == ["matched": total / 4, "computed": total / 4, "limited": 100, "fallback": total / 2 - 100]
            )
            #expect(stubs.useCount(of: matcherStub) == total / 4)
            #expect(stubs.useCount(of: computedStub) == total / 4)
            #expect(stubs.useCount(of: limited.id) == 100)
            #expect(observed.value == total)
            #expect(issues.value == total / 4 / 25)
        }
    }
}

// MARK: - Helpers

/// Runs `body` and fails the test, instead of hanging, if it does not finish within ``patience``
/// (a closure deadlocked). Put the whole test in it, set-up included: before the fix a deadlocked
/// matcher blocks URLSession's shared queue, after which making a session or a task blocks too.
/// The body runs on a queue of its own, not on the cooperative pool, so a thread blocked for good
/// only ends that test; after such a failure nothing else touches the registry.
private func withoutHanging(
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: @escaping @Sendable () async -> Void
) async throws {
    let finished = OneShot<Bool>()
    if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
        Task(executorPreference: OwnQueueExecutor()) {
            await body()
            finished.fulfill(true)
        }
    } else {
        // Before `TaskExecutor` on Apple platforms: on the cooperative pool.
        Task.detached {
            await body()
            finished.fulfill(true)
        }
    }
    let outcome = await finished.value(within: patience)
    try #require(
        outcome == true,
        "did not finish within \(Int(patience)) s: a closure deadlocked",
        sourceLocation: sourceLocation
    )
}

/// Runs a test's jobs on a serial queue of its own, outside the cooperative pool.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
private final class OwnQueueExecutor: TaskExecutor {
    private let queue = DispatchQueue(label: "ReentrancyTests")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}

/// Calls every public method of the registry, as the user's closure might. Changes nothing the
/// tests rely on, except the journal, which it clears: the stubs it adds it removes, the scenario
/// it moves is its own, and the settings it writes keep their values.
private func callEveryMethod(of stubs: StubRegistry) {
    _ = stubs.journal
    _ = stubs.requests(matching: .get(.pathPrefix("/")).matching("any path") { _ in true })
    _ = stubs.requests(to: .get, "https://api.example.com/a")
    _ = stubs.unmatchedRequests
    _ = stubs.unusedStubs
    _ = stubs.unmetExpectations
    for stub in stubs.stubs.prefix(2) {
        _ = stubs.useCount(of: stub.id)
    }
    stubs.scenario("reentrancy probe").move(to: "Probed")
    _ = stubs.scenario("reentrancy probe").state
    stubs.resetScenarios()
    let added = stubs.stub(.get("https://elsewhere.example.com/probe"), .text("probe"))
    let addedToo = stubs.add(Stub(.get("https://elsewhere.example.com/probe"), .text("probe")))
    stubs.remove(added)
    stubs.remove(addedToo)
    stubs.clearJournal()
    stubs.passThrough = stubs.passThrough
    stubs.followsRedirects = stubs.followsRedirects
}

/// The body of an answer found without URLSession, or `<unmatched>`.
private func text(of answer: StubAnswer) -> String {
    switch answer {
    case let .response(response, _): String(decoding: response.body, as: UTF8.self)
    case .failure: "<failure>"
    case .unmatched: unmatched
    }
}
