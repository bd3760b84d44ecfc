import Foundation
import HTTPStubs
import HTTPStubsTesting
import LoopbackHTTP
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Issue 40: a test whose code under test does not use the stubbed session is told so. Requests
/// through `URLSession.shared` are stopped and fail the test that made them; a session the toolkit
/// cannot see at all leaves the scope's stubs without requests, which the scope's end reports.
/// The tests of this suite run in parallel with each other and with the rest of the suite.
@Suite("The network guard and the stub usage check")
struct NetworkGuardTests {
    static let feed = "https://api.example.com/feed"

    // MARK: URLSession.shared

    @Test("a request through URLSession.shared inside a scope is stopped, and fails the test that made it")
    func sharedSessionRequestIsStopped() async throws {
        try #require(NetworkGuard.seesSharedSession, "the trait registers the guard before any session exists")
        let journal = Locked<[JournalEntry]>([])
        let failure = Locked<(any Error)?>(nil)
        let issues = try await recordedIssues {
            await withHTTPStubs { stubs in
                stubs.stub(.get("https://api.example.com/guarded"), .text("3 items"))
                do {
                    _ = try await URLSession.shared.data(from: URL(string: "https://api.example.com/guarded")!)
                } catch {
                    failure.value = error
                }
                journal.value = stubs.journal
            }
        }
        let error = try #require(failure.value as? URLError, "the request failed: \(String(describing: failure.value))")
        #expect(error.code == .notConnectedToInternet)
        #expect(error.localizedDescription.contains("stubs.makeSession()"), "\(error.localizedDescription)")
        try #require(issues.count == 1, "one failure, and no usage warning besides: \(issues)")
        let text = issues[0].description
        #expect(text.contains("Request stopped by the network guard: GET https://api.example.com/guarded"), "\(text)")
        #expect(text.contains("sharedSessionRequestIsStopped()"), "names the test: \(text)")
        #expect(text.contains("Give the code under test the session stubs.makeSession() makes"))
        #expect(text.contains(#"stubs.passThrough = .hosts(["api.example.com"])"#))
        #expect(journal.value.count == 1)
        #expect(journal.value.first.map { "\($0)" }?.contains("refused:") == true, "journaled as refused")
    }

    @Test("a completion handler started from a Task of the test is guarded too")
    func sharedSessionCompletionHandlerFromATask() async throws {
        try #require(NetworkGuard.seesSharedSession)
        let issues = try await recordedIssues {
            await withHTTPStubs { stubs in
                let url = "https://api.example.com/from-a-task"
                stubs.stub(.get(url), .text("3 items"))
                let completion = await Task { await complete(URLSession.shared, url) }.value
                #expect(completion.urlError?.code == .notConnectedToInternet)
            }
        }
        #expect(issues.count == 1, "\(issues)")
        #expect(issues.first?.description.contains("Request stopped by the network guard") == true)
    }

    @Test(
        ".httpStubs trait: a request through URLSession.shared fails this test",
        .issuesAfterScope { issues in
            #expect(issues.count == 1, "\(issues)")
            #expect(issues.first?.description.contains("Request stopped by the network guard") == true)
            #expect(issues.first?.description.contains("sharedSessionInTheTrait()") == true)
        },
        .httpStubs
    )
    func sharedSessionInTheTrait() async throws {
        try #require(NetworkGuard.seesSharedSession)
        let stubs = StubRegistry.current()
        stubs.stub(.get("https://api.example.com/in-the-trait"), .text("3 items"))
        let error = await asyncError(URLSession.shared, "https://api.example.com/in-the-trait")
        #expect((error as? URLError)?.code == .notConnectedToInternet)
        #expect(stubs.journal.count == 1, "journaled in this test's registry")
    }

    @Test("eight scopes in parallel: each stopped request fails its own test, and only it")
    func parallelScopesEachGetTheirOwn() async throws {
        try #require(NetworkGuard.seesSharedSession)
        let reports = Locked<[Int: [String]]>([:])
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<8 {
                group.addTask {
                    let issues = try? await recordedIssues {
                        await withHTTPStubs { stubs in
                            stubs.stub(.get("https://api.example.com/\(index)"), .text("\(index)"))
                            _ = await complete(URLSession.shared, "https://api.example.com/parallel/\(index)")
                        }
                    }
                    reports.withLock { $0[index] = (issues ?? []).map(\.description) }
                }
            }
        }
        for index in 0..<8 {
            let texts = reports.value[index] ?? []
            #expect(texts.count == 1, "scope \(index): \(texts)")
            #expect(texts.first?.contains("https://api.example.com/parallel/\(index) was sent") == true)
        }
    }

    @Test("a host let through that a stub answers is still stopped, and the message says why instead")
    func passThroughHostWithAStub() async throws {
        try #require(NetworkGuard.seesSharedSession)
        let issues = try await recordedIssues {
            await withHTTPStubs { stubs in
                stubs.passThrough = .hosts(["api.example.com"])
                stubs.stub(.get("https://api.example.com/stubbed-and-allowed"), .text("stubbed"))
                _ = await complete(URLSession.shared, "https://api.example.com/stubbed-and-allowed")
            }
        }
        #expect(issues.count == 1, "\(issues)")
        let text = issues.first?.description ?? ""
        #expect(text.contains("a stub of the test answers it, so it is not let through to api.example.com"), "\(text)")
        #expect(!text.contains("stubs.passThrough = .hosts"), "the host is let through already: \(text)")
    }

    @Test("withSharedSessionStubs inside a test's scope serves URLSession.shared and its own sessions, unguarded")
    func sharedSessionStubsInsideAScope() async throws {
        try #require(NetworkGuard.seesSharedSession)
        let issues = try await recordedIssues(allowingNone: true) {
            await withHTTPStubs(stubUsage: .noRequests) { _ in
                await withSharedSessionStubs { shared in
                    shared.stub(.get("https://shared-inside.example.com/value"), .text("from the shared stubs"))
                    #expect(
                        await complete(URLSession.shared, "https://shared-inside.example.com/value").text
                            == "from the shared stubs"
                    )
                    #expect(
                        await complete(URLProtocolStub.makeSession(), "https://shared-inside.example.com/value").text
                            == "from the shared stubs"
                    )
                }
            }
        }
        #expect(issues.isEmpty, "\(issues)")
    }

    @Test("opt-out: a host the registry lets through reaches the real server, and nothing fails")
    func passThroughHostReachesTheServer() async throws {
        try #require(NetworkGuard.seesSharedSession)
        let server = try LoopbackHTTPServer { _ in LoopbackHTTPResponse(status: 200, body: Data("real".utf8)) }
        defer { server.stop() }
        let issues = try await recordedIssues(allowingNone: true) {
            await withHTTPStubs { stubs in
                stubs.passThrough = .hosts(["127.0.0.1"])
                let completion = await complete(URLSession.shared, "\(server.base)/health")
                #expect(completion.text == "real")
                #expect(stubs.journal.map { "\($0)" }.first?.contains("passed through") == true)
            }
        }
        #expect(issues.isEmpty, "no failure, and no warning: \(issues)")
    }

    // MARK: A session the toolkit cannot see

    @Test("a scope whose stubs received no request warns, naming the stubs and the fix; the test still passes")
    func uninjectedSessionWarns() async throws {
        var stubLine = 0
        let issues = try await recordedIssues {
            await withHTTPStubs { stubs in
                stubLine = #line + 1
                stubs.stub(.get("https://api.example.com/weather/paris"), .json(text: #"{"temperature": 21}"#))
                // The mistake: a session of its own, which the stubs never see (127.0.0.1:9 refuses at once).
                _ = await complete(URLSession(configuration: .ephemeral), "http://127.0.0.1:9/weather/paris")
            }
        }
        try #require(issues.count == 1, "\(issues)")
        #expect(issues[0].severity == .warning, "a warning does not fail the test")
        let text = issues[0].description
        #expect(text.contains("No request reached its stub:"), "\(text)")
        #expect(text.contains("NetworkGuardTests.swift:\(stubLine)"), "lists the stub with its line: \(text)")
        #expect(text.contains("give the code under test the session stubs.makeSession() makes"))
        #expect(text.contains("stubUsage: .noRequests"))
    }

    @Test("no warning when a stub answered, even after the journal was cleared")
    func aStubThatAnsweredIsEnough() async throws {
        let issues = try await recordedIssues(allowingNone: true) {
            await withHTTPStubs { stubs in
                stubs.stub(.get(Self.feed), .text("3 items"))
                stubs.stub(.get("https://api.example.com/other"), .text("unused"))
                #expect(await complete(stubs.makeSession(), Self.feed).text == "3 items")
                stubs.clearJournal()
            }
        }
        #expect(issues.isEmpty, "no failure, and no warning: \(issues)")
    }

    // MARK: The strict check and the opt-out

    @Test("strict: .everyStubAnswers fails at the line of each stub that answered nothing")
    func everyStubAnswers() async throws {
        var unusedLine = 0
        let issues = try await recordedIssues {
            await withHTTPStubs(stubUsage: .everyStubAnswers) { stubs in
                stubs.stub(.get(Self.feed), .text("3 items"))
                unusedLine = #line + 1
                stubs.stub(.get("https://api.example.com/unused"), .text("never asked"))
                stubs.stub(.get("https://api.example.com/forbidden"), .status(403), expecting: .never)
                #expect(await complete(stubs.makeSession(), Self.feed).text == "3 items")
            }
        }
        try #require(issues.count == 1, "only the unused stub; the one expecting .never is satisfied: \(issues)")
        #expect(issues[0].severity == .error)
        #expect(issues[0].sourceLocation?.line == unusedLine)
        #expect(issues[0].description.contains("Unused stub:"), "\(issues[0])")
        #expect(issues[0].description.contains("/unused"))
        #expect(issues[0].description.contains(".everyStubAnswers requires every stub to answer at least once"))
    }

    @Test(
        ".everyStubAnswers in the trait fails a stub no request reached",
        .issuesAfterScope { issues in
            #expect(issues.count == 1, "\(issues)")
            #expect(issues.first?.description.contains("Unused stub:") == true)
            #expect(issues.first?.description.contains("/unused-in-trait") == true)
        },
        .httpStubs(stubUsage: .everyStubAnswers)
    )
    func everyStubAnswersInTheTrait() async throws {
        let stubs = StubRegistry.current()
        stubs.stub(.get(Self.feed), .text("3 items"))
        stubs.stub(.get("https://api.example.com/unused-in-trait"), .text("never asked"))
        #expect(await complete(stubs.makeSession(), Self.feed).text == "3 items")
    }

    @Test("opt-out: .noRequests says nothing about unused stubs")
    func noRequestsSaysNothingAboutUnusedStubs() async throws {
        let issues = try await recordedIssues(allowingNone: true) {
            withHTTPStubs(stubUsage: .noRequests) { stubs in
                _ = stubs.stub(.get(Self.feed), .text("loaded for the whole suite"))
            }
        }
        #expect(issues.isEmpty, "no failure, and no warning: \(issues)")
    }

    @Test("opt-out: with .noRequests, a request a stub answered fails the test at the stub's line")
    func noRequestsFailsARequest() async throws {
        var stubLine = 0
        let issues = try await recordedIssues {
            await withHTTPStubs { stubs in
                HTTPStubsScope.current?.stubUsage = .noRequests
                stubLine = #line + 1
                stubs.stub(.get(Self.feed), .text("3 items"))
                _ = await complete(stubs.makeSession(), Self.feed)
            }
        }
        try #require(issues.count == 1, "\(issues)")
        #expect(issues[0].description.contains("Unexpected request: #1 GET https://api.example.com/feed"))
        #expect(issues[0].description.contains("expects no request"))
        #expect(issues[0].sourceLocation?.line == stubLine)
    }
}
