import Foundation
import HTTPStubs
import HTTPStubsTesting
import LoopbackHTTP
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Issue 40 under XCTest: a request through `URLSession.shared` while a test's stubs are active
/// fails that test; stubs that received no request at all are reported on standard error (XCTest
/// has no warnings), or fail the test under `.everyStubAnswers`.
final class NetworkGuardXCTests: FailureCapturingTestCase {
    private static let feed = URL(string: "https://api.example.com/feed")!

    /// Registered before this class's first test touches `URLSession.shared`, whichever test of the
    /// process ran first.
    override class func setUp() {
        super.setUp()
        NetworkGuard.register()
    }

    /// The notices printed while `body` runs, instead of standard error.
    private func notices(_ body: () async -> Void) async -> [String] {
        let printed = Locked<[String]>([])
        let standardError = TestFailureReporter.xcTestWarnings.withLock { output in
            defer { output = { line in printed.withLock { $0.append(line) } } }
            return output
        }
        await body()
        TestFailureReporter.xcTestWarnings.withLock { $0 = standardError }
        return printed.withLock { $0 }
    }

    func test_withHTTPStubs_requestThroughTheSharedSession_isStoppedAndFailsTheTest() async throws {
        try XCTSkipUnless(NetworkGuard.seesSharedSession, "a URLSession existed before the guard was registered")
        var scopeLine = 0
        let failures = await capture.failures {
            scopeLine = #line + 1
            await withHTTPStubs { stubs in
                stubs.stub(.get("https://api.example.com/feed"), .text("3 items"))
                let result = await xcFetch(URLSession.shared, Self.feed)
                XCTAssertEqual(result.urlError?.code, .notConnectedToInternet)
            }
        }
        XCTAssertEqual(failures.count, 1, "\(failures)")
        let text = failures.first?.description ?? ""
        XCTAssertTrue(text.contains("Request stopped by the network guard: GET https://api.example.com/feed"), text)
        XCTAssertTrue(text.contains("Give the code under test the session stubs.makeSession() makes"), text)
        XCTAssertEqual(failures.first?.line, scopeLine)
    }

    /// `makeStubRegistry()` sets no task-local value: XCTest runs one test at a time, so a request
    /// from any thread is this test's, even one sent from a dispatch queue.
    func test_makeStubRegistry_requestFromADispatchQueue_isStoppedAndFailsTheTest() async throws {
        try XCTSkipUnless(NetworkGuard.seesSharedSession, "a URLSession existed before the guard was registered")
        capture.start()
        addTeardownBlock { [capture] in
            let failures = capture.stop()
            XCTAssertEqual(failures.count, 1, "\(failures)")
            XCTAssertTrue(
                failures.first?.description.contains("Request stopped by the network guard") == true,
                "\(failures)"
            )
            XCTAssertTrue(
                failures.first?.description.contains(
                    "test_makeStubRegistry_requestFromADispatchQueue_isStoppedAndFailsTheTest"
                ) == true,
                "names the test: \(failures)"
            )
        }
        let stubs = makeStubRegistry()
        stubs.stub(.get("https://api.example.com/feed"), .text("3 items"))
        let code = await withCheckedContinuation { (continuation: CheckedContinuation<URLError.Code?, Never>) in
            DispatchQueue.global().async {
                URLSession.shared.dataTask(with: Self.feed) { _, _, error in
                    continuation.resume(returning: (error as? URLError)?.code)
                }.resume()
            }
        }
        XCTAssertEqual(code, .notConnectedToInternet)
    }

    func test_passThroughHost_reachesTheServer_andNothingFails() async throws {
        try XCTSkipUnless(NetworkGuard.seesSharedSession, "a URLSession existed before the guard was registered")
        let server = try LoopbackHTTPServer { _ in LoopbackHTTPResponse(status: 200, body: Data("real".utf8)) }
        defer { server.stop() }
        var failures: [XCCapturedFailure] = []
        let printed = await notices {
            failures = await capture.failures {
                await withHTTPStubs { stubs in
                    stubs.passThrough = .hosts(["127.0.0.1"])
                    let result = await xcFetch(URLSession.shared, URL(string: "\(server.base)/health")!)
                    XCTAssertEqual(result.text, "real")
                }
            }
        }
        XCTAssertEqual(failures.count, 0, "\(failures)")
        XCTAssertEqual(printed, [])
    }

    func test_uninjectedSession_printsANoticeNamingTheStubAndTheFix_andThePassingTestStaysGreen() async {
        var failures: [XCCapturedFailure] = []
        let printed = await notices {
            failures = await capture.failures {
                await withHTTPStubs { stubs in
                    stubs.stub(.get("https://api.example.com/weather/paris"), .json(text: #"{"temperature": 21}"#))
                    // The mistake: a session of its own (127.0.0.1:9 refuses at once).
                    _ = await xcFetch(URLSession(configuration: .ephemeral), URL(string: "http://127.0.0.1:9/paris")!)
                }
            }
        }
        XCTAssertEqual(failures.count, 0, "a notice, not a failure: \(failures)")
        XCTAssertEqual(printed.count, 1, "\(printed)")
        let notice = printed.first ?? ""
        XCTAssertTrue(notice.hasPrefix("swift-http-stubs notice for "), notice)
        XCTAssertTrue(notice.contains("No request reached its stub:"), notice)
        XCTAssertTrue(notice.contains("/weather/paris"), notice)
        XCTAssertTrue(notice.contains("give the code under test the session stubs.makeSession() makes"), notice)
        XCTAssertNil(notice.range(of: #"(^|: )(error|warning):"#, options: .regularExpression), "not a compiler line")
    }

    func test_everyStubAnswers_failsAtTheUnusedStubsLine() async {
        var unusedLine = 0
        let failures = await capture.failures {
            await withHTTPStubs(stubUsage: .everyStubAnswers) { stubs in
                stubs.stub(.get("https://api.example.com/feed"), .text("3 items"))
                unusedLine = #line + 1
                stubs.stub(.get("https://api.example.com/unused"), .text("never asked"))
                _ = await xcFetch(stubs.makeSession(), Self.feed)
            }
        }
        XCTAssertEqual(failures.count, 1, "\(failures)")
        XCTAssertTrue(failures.first?.description.contains("Unused stub:") == true, "\(failures)")
        XCTAssertEqual(failures.first?.line, unusedLine)
    }

    func test_makeStubRegistry_everyStubAnswers_failsTheUnusedStubWhenTheTestEnds() async {
        var unusedLine = 0
        capture.start()
        addTeardownBlock { [capture] in
            let failures = capture.stop()
            XCTAssertEqual(failures.count, 1, "\(failures)")
            XCTAssertTrue(failures.first?.description.contains("Unused stub:") == true, "\(failures)")
            XCTAssertTrue(failures.first?.description.contains("/unused") == true, "\(failures)")
            XCTAssertEqual(failures.first?.line, unusedLine)
        }
        let stubs = makeStubRegistry(stubUsage: .everyStubAnswers)
        stubs.stub(.get("https://api.example.com/feed"), .text("3 items"))
        unusedLine = #line + 1
        stubs.stub(.get("https://api.example.com/unused"), .text("never asked"))
        _ = await xcFetch(stubs.makeSession(), Self.feed)
    }

    func test_noRequests_saysNothingAboutUnusedStubs() async {
        var failures: [XCCapturedFailure] = []
        let printed = await notices {
            failures = await capture.failures {
                withHTTPStubs(stubUsage: .noRequests) { stubs in
                    _ = stubs.stub(.get("https://api.example.com/feed"), .text("loaded for every test of the class"))
                }
            }
        }
        XCTAssertEqual(failures.count, 0, "\(failures)")
        XCTAssertEqual(printed, [])
    }
}
