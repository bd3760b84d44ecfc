import ExampleClients
import Foundation
import HTTPStubs
import HTTPStubsTesting
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `XCTestCase.makeStubRegistry()`: each test gets a registry of its own.
final class HTTPStubsXCTestSupportTests: XCTestCase {
    private static let url = URL(string: "https://api.example.com/value")!

    func test_makeStubRegistry_givesTheTestARegistryOfItsOwn() async {
        let stubs = makeStubRegistry()
        XCTAssertTrue(stubs.stubs.isEmpty)
        XCTAssertTrue(XCTSupportRegistryClasses.isFirstSighting(of: stubs))
        stubs.stub(.get(.init(Self.url.absoluteString)), .text("first test"), expecting: .once)
        let result = await xcFetch(stubs.makeSession(), Self.url)
        XCTAssertEqual(result.text, "first test")
    }

    func test_makeStubRegistry_givesAnotherTestAnotherRegistry() async {
        let stubs = makeStubRegistry()
        XCTAssertTrue(stubs.stubs.isEmpty)
        XCTAssertTrue(XCTSupportRegistryClasses.isFirstSighting(of: stubs))
        stubs.stub(.get(.init(Self.url.absoluteString)), .text("second test"), expecting: .once)
        let result = await xcFetch(stubs.makeSession(), Self.url)
        XCTAssertEqual(result.text, "second test")
    }

    func test_journalAssertionsReadNaturally() async throws {
        let stubs = makeStubRegistry()
        stubs.stub(.post("https://api.example.com/orders"), .status(201))
        var order = URLRequest(url: URL(string: "https://api.example.com/orders")!)
        order.httpMethod = "POST"
        order.httpBody = Data(#"{"item":"book"}"#.utf8)
        _ = await xcFetch(stubs.makeSession(), order)
        _ = await xcFetch(stubs.makeSession(), URL(string: "https://api.example.com/orders")!)

        XCTAssertEqual(stubs.requests(to: .post, "/orders").count, 1)
        let sent = try XCTUnwrap(stubs.requests(to: .post, "/orders").first?.request)
        XCTAssertEqual(sent.bodyText, #"{"item":"book"}"#)
        XCTAssertEqual(stubs.unmatchedRequests.map(\.request.method), [.get], "the GET had no stub")
        XCTAssertEqual(stubs.journal.count, 2)
        stubs.clearJournal()  // the GET above is expected to be unmatched: not this test's failure
    }

    func test_makeStubRegistry_twiceInOneTest_givesTwoIsolatedRegistries() async {
        let first = makeStubRegistry()
        let second = makeStubRegistry()
        XCTAssertFalse(first === second)
        first.stub(.get(.init(Self.url.absoluteString)), .text("first"))
        second.stub(.get(.init(Self.url.absoluteString)), .text("second"))
        let firstText = await xcFetch(first.makeSession(), Self.url).text
        let secondText = await xcFetch(second.makeSession(), Self.url).text
        XCTAssertEqual(firstText, "first")
        XCTAssertEqual(secondText, "second")
    }

    func test_withHTTPStubs_outsideSwiftTesting_servesStubs() async {
        await withHTTPStubs { stubs in
            XCTAssertTrue(HTTPStubsScope.current?.stubs === stubs)
            XCTAssertTrue(StubRegistry.current() === stubs)
            stubs.stub(.get(.init(Self.url.absoluteString)), .text("scoped"), expecting: .once)
            let result = await xcFetch(stubs.makeSession(), Self.url)
            XCTAssertEqual(result.text, "scoped")
        }
        XCTAssertNil(HTTPStubsScope.current)
    }
}

/// A test case that can prove the failures the toolkit reports under XCTest without failing the
/// suite: while capturing, `recordFailure` (which `XCTFail` reaches on Linux too) stores the failure
/// instead of reporting it, and the test then asserts on what was stored.
class FailureCapturingTestCase: XCTestCase {
    let capture = XCFailureCapture()

    override func recordFailure(
        withDescription description: String,
        inFile filePath: String,
        atLine lineNumber: Int,
        expected: Bool
    ) {
        if !capture.record(XCCapturedFailure(description: description, file: filePath, line: lineNumber)) {
            super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
    }
}

/// The failures the toolkit reports under XCTest, captured (see ``FailureCapturingTestCase``).
final class HTTPStubsXCTestFailureTests: FailureCapturingTestCase {
    private static let url = URL(string: "https://api.example.com/value")!

    // MARK: withHTTPStubs

    func test_withHTTPStubs_unmatchedRequest_failsAtTheScopeLineWithTheReport() async {
        var scopeLine = 0
        let failures = await capture.failures {
            scopeLine = #line + 1
            await withHTTPStubs { stubs in
                stubs.stub(.get("https://api.example.com/users/42"), .text("Ada"))
                let result = await xcFetch(stubs.makeSession(), URL(string: "https://api.example.com/users/43")!)
                XCTAssertEqual(result.urlError?.code, .resourceUnavailable)
            }
        }
        XCTAssertEqual(failures.count, 1)
        let failure = failures.first
        XCTAssertTrue(
            failure?.description.contains("Unmatched request: GET https://api.example.com/users/43") == true,
            "\(failures)"
        )
        XCTAssertTrue(failure?.description.contains("✗") == true)
        XCTAssertEqual(failure?.file, "\(#filePath)")
        XCTAssertEqual(failure?.line, scopeLine)
    }

    func test_withHTTPStubs_unmetExpectation_failsWithTheCounts() async {
        var stubLine = 0
        let failures = await capture.failures {
            await withHTTPStubs { stubs in
                stubLine = #line + 1
                stubs.stub(.post("https://api.example.com/orders"), .status(201), expecting: .exactly(2))
                _ = await xcFetch(stubs.makeSession(), xcRequest("POST", "https://api.example.com/orders"))
            }
        }
        XCTAssertEqual(failures.count, 1)
        XCTAssertTrue(
            failures.first?.description.contains("was expected to answer exactly 2 times, but answered 1 request")
                == true,
            "\(failures)"
        )
        XCTAssertEqual(failures.first?.line, stubLine)
    }

    /// Under XCTest a `withHTTPStubs` scope (no test case given) attributes an unmet expectation
    /// to the line that declared the stub.
    func test_withHTTPStubs_unmetExpectation_isAttributedToTheStubLine() async {
        var stubLine = 0
        let failures = await capture.failures {
            withHTTPStubs { stubs in
                stubLine = #line + 1
                stubs.stub(.get("https://api.example.com/never"), .ok, expecting: .once)
            }
        }
        XCTAssertEqual(failures.count, 1)
        XCTAssertEqual(failures.first?.file, "\(#filePath)")
        XCTAssertEqual(failures.first?.line, stubLine)
    }

    // MARK: Stub code

    /// Stub code runs off URLSession's queue, in a task of the scope; an `XCTFail` there still
    /// counts for the running test (corelibs' XCTest records it on the current test case).
    func test_XCTFail_insideResponders_failsThisTest() async {
        let failures = await capture.failures {
            await withHTTPStubs { stubs in
                stubs.stub(.get(.init(Self.url.absoluteString))) { _ in
                    XCTFail("inside the responder")
                    return .text("answered")
                }
                stubs.stub(.get("https://api.example.com/async")) { _ async in
                    await Task.yield()
                    XCTFail("inside the async responder")
                    return .text("answered")
                }
                let first = await xcFetch(stubs.makeSession(), Self.url)
                let second = await xcFetch(stubs.makeSession(), URL(string: "https://api.example.com/async")!)
                XCTAssertEqual(first.text, "answered")
                XCTAssertEqual(second.text, "answered")
            }
        }
        XCTAssertEqual(
            failures.map(\.description).sorted(),
            ["failed - inside the async responder", "failed - inside the responder"],
            "\(failures)"
        )
    }

    // MARK: makeStubRegistry (reported by its teardown block)

    func test_makeStubRegistry_unmetExpectation_failsAtTheStubLine() {
        var stubLine = 0
        capture.start()
        // Teardown blocks run last-in, first-out: this one runs after the registry's check.
        addTeardownBlock { [capture] in
            let failures = capture.stop()
            XCTAssertEqual(failures.count, 1, "\(failures)")
            XCTAssertTrue(
                failures.first?.description.contains("was expected to answer exactly once, but answered 0 requests")
                    == true,
                "\(failures)"
            )
            XCTAssertEqual(failures.first?.file, "\(#filePath)")
            XCTAssertEqual(failures.first?.line, stubLine)
        }
        let stubs = makeStubRegistry()
        stubLine = #line + 1
        stubs.stub(.delete("https://api.example.com/users/7"), .status(204), expecting: .once)
    }

    func test_makeStubRegistry_unmatchedRequest_failsAtTheRegistryLine() async {
        var registryLine = 0
        capture.start()
        addTeardownBlock { [capture] in
            let failures = capture.stop()
            XCTAssertEqual(failures.count, 1, "\(failures)")
            XCTAssertTrue(
                failures.first?.description.contains("Unmatched request: GET https://api.example.com/users/43") == true,
                "\(failures)"
            )
            XCTAssertEqual(failures.first?.file, "\(#filePath)")
            XCTAssertEqual(failures.first?.line, registryLine)
        }
        registryLine = #line + 1
        let stubs = makeStubRegistry()
        stubs.stub(.get("https://api.example.com/users/42"), .text("Ada"))
        _ = await xcFetch(stubs.makeSession(), URL(string: "https://api.example.com/users/43")!)
    }

    func test_makeStubRegistry_requestNotAwaited_failsWhenTheTestEnds_atTheStubLine() {
        var stubLine = 0
        let outcome = XCOutcome()
        capture.start()
        addTeardownBlock { [capture] in
            let failures = capture.stop()
            XCTAssertEqual(failures.count, 1, "\(failures)")
            XCTAssertTrue(
                failures.first?.description.contains("Request still in flight when the test ended") == true,
                "\(failures)"
            )
            XCTAssertTrue(
                failures.first?.description.contains(
                    "test_makeStubRegistry_requestNotAwaited_failsWhenTheTestEnds_atTheStubLine"
                ) == true,
                "names the test: \(failures)"
            )
            XCTAssertEqual(failures.first?.line, stubLine)
            XCTAssertTrue(outcome.wait(), "the request never ended")
            XCTAssertEqual(outcome.code, .resourceUnavailable)
        }
        let stubs = makeStubRegistry(inFlightTimeout: .milliseconds(50))
        stubLine = #line + 1
        stubs.stub(.get(.init(Self.url.absoluteString)), .text("an hour late").delayed(by: .seconds(3600)))
        stubs.makeSession().dataTask(with: Self.url) { _, _, error in
            outcome.finish((error as? URLError)?.code)
        }.resume()  // not awaited: the test returns while the request waits
    }

    func test_makeStubRegistry_metExpectations_recordNothing() async {
        capture.start()
        addTeardownBlock { [capture] in
            XCTAssertEqual(capture.stop().count, 0)
        }
        let stubs = makeStubRegistry()
        stubs.stub(.get(.init(Self.url.absoluteString)), .text("counted"), expecting: .exactly(2))
        let session = stubs.makeSession()
        _ = await xcFetch(session, Self.url)
        _ = await xcFetch(session, Self.url)
    }

    // MARK: XCTAssertThrowsErrorAsync

    func test_XCTAssertThrowsErrorAsync_passesForTheExpectedError() async {
        let failures = await capture.failures { () async -> Void in
            await XCTAssertThrowsErrorAsync(try await xcThrow(XCError.notFound), XCError.notFound)
        }
        XCTAssertEqual(failures.count, 0, "\(failures)")
    }

    func test_XCTAssertThrowsErrorAsync_failsForAnotherError_atTheCallerLine() async {
        var line = 0
        let failures = await capture.failures { () async -> Void in
            line = #line + 1
            await XCTAssertThrowsErrorAsync(try await xcThrow(XCError.forbidden), XCError.notFound, "wrong case")
        }
        XCTAssertEqual(failures.count, 1)
        XCTAssertTrue(
            failures.first?.description.contains("wrong case — expected notFound to be thrown, got forbidden") == true,
            "\(failures)"
        )
        XCTAssertEqual(failures.first?.file, "\(#filePath)")
        XCTAssertEqual(failures.first?.line, line)
    }

    func test_XCTAssertThrowsErrorAsync_failsForAnErrorOfAnotherType_atTheCallerLine() async {
        var line = 0
        let failures = await capture.failures { () async -> Void in
            line = #line + 1
            await XCTAssertThrowsErrorAsync(try await xcThrow(URLError(.timedOut)), XCError.notFound)
        }
        XCTAssertEqual(failures.count, 1)
        XCTAssertTrue(
            failures.first?.description.contains("expected notFound (XCError) to be thrown, got URLError") == true,
            "\(failures)"
        )
        XCTAssertEqual(failures.first?.file, "\(#filePath)")
        XCTAssertEqual(failures.first?.line, line)
    }

    func test_XCTAssertThrowsErrorAsync_failsWhenNothingIsThrown_atTheCallerLine() async {
        var line = 0
        let failures = await capture.failures { () async -> Void in
            line = #line + 1
            await XCTAssertThrowsErrorAsync(try await xcReturn(42), XCError.notFound)
        }
        XCTAssertEqual(failures.count, 1)
        XCTAssertTrue(
            failures.first?.description.contains("expected notFound to be thrown, but the expression returned 42")
                == true,
            "\(failures)"
        )
        XCTAssertEqual(failures.first?.file, "\(#filePath)")
        XCTAssertEqual(failures.first?.line, line)
    }

    func test_XCTAssertThrowsErrorAsync_withStubs_passesForATransportError() async {
        let failures = await capture.failures { () async -> Void in
            await withHTTPStubs { (stubs: StubRegistry) async -> Void in
                stubs.stub(.get(.init(Self.url.absoluteString)), .error(.notConnectedToInternet))
                let client = AsyncHTTPClient(
                    HTTPClient(session: stubs.makeSession(), baseURL: URL(string: "https://api.example.com")!)
                )
                await XCTAssertThrowsErrorAsync(
                    try await client.get("/value", as: String.self),
                    HTTPClientError.transport(URLError(.notConnectedToInternet))
                )
            }
        }
        XCTAssertEqual(failures.count, 0, "\(failures)")
    }

    /// A pitfall rather than a bug: `URLError`'s `==` compares `userInfo` too, and URLSession adds
    /// the failing URL, so a bare `URLError(code)` never equals what a session throws. The failure
    /// message then shows two errors that print alike.
    func test_XCTAssertThrowsErrorAsync_bareURLErrorNeverEqualsASessionError() async {
        var line = 0
        let failures = await capture.failures { () async -> Void in
            await withHTTPStubs { (stubs: StubRegistry) async -> Void in
                stubs.stub(.get(.init(Self.url.absoluteString)), .error(.notConnectedToInternet))
                let session = stubs.makeSession()
                line = #line + 1
                await XCTAssertThrowsErrorAsync(
                    try await session.data(from: Self.url).0.count,
                    URLError(.notConnectedToInternet)
                )
            }
        }
        XCTAssertEqual(failures.count, 1)
        XCTAssertTrue(failures.first?.description.contains("Code=-1009") == true, "\(failures)")
        XCTAssertEqual(failures.first?.line, line)
    }
}

// MARK: - Helpers

/// One failure `recordFailure` received.
struct XCCapturedFailure: Sendable, CustomStringConvertible {
    let description: String
    let file: String
    let line: Int
}

/// The failures captured while capturing is on.
final class XCFailureCapture: Sendable {
    private struct State {
        var capturing = false
        var captured: [XCCapturedFailure] = []
    }

    private let state = Locked(State())

    /// Starts capturing.
    func start() {
        state.withLock { $0 = State(capturing: true) }
    }

    /// Stops capturing and returns what was captured.
    func stop() -> [XCCapturedFailure] {
        state.withLock { state in
            state.capturing = false
            return state.captured
        }
    }

    /// Stores `failure` if capturing; returns whether it did.
    func record(_ failure: XCCapturedFailure) -> Bool {
        state.withLock { state in
            if state.capturing { state.captured.append(failure) }
            return state.capturing
        }
    }

    /// Runs `body` while capturing and returns the failures it raised.
    func failures(_ body: () async -> Void) async -> [XCCapturedFailure] {
        start()
        await body()
        return stop()
    }
}

/// How a request ended, awaited from a teardown block (which cannot be `async` here).
private final class XCOutcome: Sendable {
    // `done` is signalled once `endedCode` is set.
    private let done = DispatchSemaphore(value: 0)
    private let endedCode = Locked<URLError.Code?>(nil)

    func finish(_ code: URLError.Code?) {
        endedCode.withLock { $0 = code }
        done.signal()
    }

    /// Waits (at most 60 s) for the request to end; `false` if it did not.
    func wait() -> Bool {
        done.wait(timeout: .now() + 60) == .success
    }

    var code: URLError.Code? {
        endedCode.withLock { $0 }
    }
}

/// The protocol classes of every registry a test of this file has seen; a class is never reused.
private enum XCTSupportRegistryClasses {
    private static let seen = Locked<Set<ObjectIdentifier>>([])

    /// Records the registry; `false` if a test already saw it.
    static func isFirstSighting(of registry: StubRegistry) -> Bool {
        seen.withLock { $0.insert(ObjectIdentifier(registry.protocolClass)).inserted }
    }
}

/// Errors for the assertion tests.
private enum XCError: Error, Equatable {
    case notFound
    case forbidden
}

/// Throws `error` after a suspension.
private func xcThrow(_ error: any Error) async throws -> Int {
    await Task.yield()
    throw error
}

/// Returns `value` after a suspension.
private func xcReturn(_ value: Int) async throws -> Int {
    await Task.yield()
    return value
}

/// What a completion handler received.
struct XCResult: @unchecked Sendable {
    // Invariant: built once from URLSession's completion arguments and never mutated.
    let data: Data?
    let error: (any Error)?

    var text: String? { data.flatMap { String(data: $0, encoding: .utf8) } }
    var urlError: URLError? { error as? URLError }
}

/// A request with a method.
private func xcRequest(_ method: String, _ url: String) -> URLRequest {
    var request = URLRequest(url: URL(string: url)!)
    request.httpMethod = method
    return request
}

/// Sends `request` with a completion handler and waits for it.
func xcFetch(_ session: URLSession, _ request: URLRequest) async -> XCResult {
    await withCheckedContinuation { continuation in
        session.dataTask(with: request) { data, _, error in
            continuation.resume(returning: XCResult(data: data, error: error))
        }.resume()
    }
}

/// Sends a GET with a completion handler and waits for it.
func xcFetch(_ session: URLSession, _ url: URL) async -> XCResult {
    await xcFetch(session, URLRequest(url: url))
}
