import Foundation
import HTTPStubs
import HTTPStubsTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Stub code belongs to its test (issue #13, part 3): `async` responders, and failures recorded
/// inside a responder, matcher or observer that count for the test whose scope made the registry.
@Suite("Stub code runs in its test")
struct StubCodeInItsTestTests {
    private static let url = "https://api.example.com/users/42"

    // MARK: Failures inside stub code

    @Test("a failing #expect inside a synchronous responder fails this test")
    func expectationInsideAResponder() async throws {
        try await expectKnownIssue("inside the responder") {
            await withHTTPStubs { stubs in
                stubs.stub(.get(.init(Self.url))) { _ in
                    #expect(Bool(false), "inside the responder")
                    return .text("answered")
                }
                #expect(await answer(stubs.makeSession(), Self.url) == "answered")
            }
        }
    }

    @Test("a failing #expect inside an async responder fails this test")
    func expectationInsideAnAsyncResponder() async throws {
        try await expectKnownIssue("inside the async responder") {
            await withHTTPStubs { stubs in
                stubs.stub(.get(.init(Self.url))) { _ async in
                    await Task.yield()
                    #expect(Bool(false), "inside the async responder")
                    return .text("answered")
                }
                #expect(await answerAsync(stubs.makeSession(), Self.url) == "answered")
            }
        }
    }

    @Test("Issue.record inside a custom matcher fails this test")
    func issueInsideAMatcher() async throws {
        try await expectKnownIssue("inside the matcher") {
            await withHTTPStubs { stubs in
                stubs.stub(
                    .get(.init(Self.url)).matching("records an issue") { _ in
                        Issue.record("inside the matcher")
                        return true
                    },
                    .text("answered")
                )
                #expect(await answer(stubs.makeSession(), Self.url) == "answered")
            }
        }
    }

    @Test("a failing #expect inside an observer fails this test")
    func expectationInsideAnObserver() async throws {
        try await expectKnownIssue("inside the observer") {
            await withHTTPStubs { stubs in
                stubs.stub(.get(.init(Self.url)), .text("answered"))
                stubs.observeRequests { request in
                    #expect(request.url?.path == "/users/43", "inside the observer")
                }
                #expect(await answerAsync(stubs.makeSession(), Self.url) == "answered")
            }
        }
    }

    /// The test the trait's responder ran in, as Swift Testing saw it.
    private static let testSeenByTraitResponder = Locked<String?>(nil)

    @Test(
        "a responder of a stub declared for the .httpStubs trait runs in this test",
        .httpStubs { stubs in
            stubs.stub(.get(.init(StubCodeInItsTestTests.url))) { _ in
                StubCodeInItsTestTests.testSeenByTraitResponder.value = Test.current?.name
                return .text("answered")
            }
        }
    )
    func traitResponderRunsInThisTest() async throws {
        #expect(await answer(StubRegistry.current().makeSession(), Self.url) == "answered")
        #expect(Self.testSeenByTraitResponder.value == "traitResponderRunsInThisTest()")
    }

    // MARK: Async responders

    @Test("an async responder may await an actor: each call is counted, by completion handler and by async call")
    func asyncResponderAwaitsAnActor() async throws {
        let calls = CallCounter()
        try await withHTTPStubs { stubs in
            stubs.stub(.get(.init("https://api.example.com/users/{id}"))) { request in
                let count = await calls.record(request.pathParameters["id"] ?? "?")
                return .json(["id": request.pathParameters["id"] ?? "?", "call": "\(count)"])
            }
            let session = stubs.makeSession()
            let first = await complete(session, "https://api.example.com/users/7")
            #expect(first.status == 200)
            #expect(first.text?.contains(#""call":"1""#) == true)
            let (data, _) = try await session.data(from: URL(string: "https://api.example.com/users/8")!)
            #expect(String(decoding: data, as: UTF8.self).contains(#""call":"2""#))
        }
        #expect(await calls.ids == ["7", "8"])
    }

    @Test("an async responder that throws fails the request with a URLError naming the error and the stub's line")
    func asyncResponderThrows() async throws {
        await withHTTPStubs { stubs in
            stubs.stub(.get(.init(Self.url))) { _ async throws -> StubResponse in
                throw FixtureMissing()
            }
            let error = await #expect(throws: URLError.self) {
                _ = try await stubs.makeSession().data(from: URL(string: Self.url)!)
            }
            #expect(error?.localizedDescription.contains("FixtureMissing") == true)
            #expect(error?.localizedDescription.contains("StubCodeInItsTestTests.swift") == true)
        }
    }

    @Test("an async responder's delay runs on the registry's clock")
    func asyncResponderOnAManualClock() async throws {
        let clock = ManualStubClock()
        await withHTTPStubs(clock: clock) { stubs in
            stubs.stub(.get(.init(Self.url))) { _ async in .text("late").delayed(by: .seconds(3)) }
            let session = stubs.makeSession()
            let late = Task { await answer(session, Self.url) }
            await clock.advance(by: .seconds(3))
            #expect(await within(patience) { await late.value } == "late")
        }
    }

    @Test("answer(_:) cannot await an async responder and says so")
    func answerCannotAwait() {
        let stubs = StubRegistry()
        stubs.stub(.get(.init(Self.url))) { _ async in .text("late") }
        guard case let .failure(error, _) = stubs.answer(InterceptedRequest(method: .get, url: URL(string: Self.url)!))
        else {
            Issue.record("expected a failure")
            return
        }
        #expect("\(error)".contains("async responder"))
    }

    // MARK: Helpers that forward the caller's location

    @Test("a helper that forwards fileID, filePath, line and column gets failures at its caller's line")
    func helperForwardsTheCallersLocation() async throws {
        let helperCall = Locked(0)
        let issues = try await recordedIssues {
            withHTTPStubs { stubs in
                helperCall.value = #line + 1
                stubUser(42, in: stubs)
            }
        }
        #expect(issues.count == 1)
        #expect(issues.first?.sourceLocation?.line == helperCall.value)
        #expect(issues.first?.sourceLocation?.fileName == "StubCodeInItsTestTests.swift")
    }

    /// Checks that `body` records a known issue whose description contains `text` (and no other issue).
    private func expectKnownIssue(
        _ text: String,
        sourceLocation: SourceLocation = #_sourceLocation,
        _ body: () async throws -> Void
    ) async throws {
        let issues = try await recordedIssues(sourceLocation: sourceLocation, body)
        #expect(issues.count == 1, sourceLocation: sourceLocation)
        #expect(issues.contains { $0.description.contains(text) }, sourceLocation: sourceLocation)
    }
}

/// A helper that stubs a user and expects it to be fetched once, reporting at its caller's line.
private func stubUser(
    _ id: Int,
    in stubs: StubRegistry,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) {
    stubs.stub(
        .get(.init("https://api.example.com/users/\(id)")),
        .json(["id": id]),
        expecting: .once,
        fileID: fileID,
        filePath: filePath,
        line: line,
        column: column
    )
}

private actor CallCounter {
    private(set) var ids: [String] = []

    func record(_ id: String) -> Int {
        ids.append(id)
        return ids.count
    }
}

private struct FixtureMissing: Error {}
