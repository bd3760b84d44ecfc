import Dispatch
import Foundation
import HTTPStubs
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The swift-corelibs-foundation traps the toolkit designs around (see
/// /work/shared/notes/linux-urlprotocol.md): 401 challenges, download tasks, upload bodies,
/// cancellation, and hand-rolled `URLProtocolStub.stub(data:response:error:)` answers that would
/// crash the `async` API. Anything that could hang is awaited with a deadline, so a regression fails
/// the test instead of stalling the run.
@Suite("Linux traps")
struct LinuxTrapTests {
    // MARK: 401 + WWW-Authenticate

    private static let challengeURL = "http://127.0.0.1:9/secret"  // nothing listens there: a real request would fail

    private func challengeStubs() -> StubRegistry {
        let stubs = StubRegistry()
        stubs.stub(
            .get(URLPattern(Self.challengeURL)),
            .text("who are you?", status: 401)
                .header("WWW-Authenticate", #"Basic realm="api""#)
                .header("X-Request-Id", "r-1")
        )
        return stubs
    }

    @Test("a 401 with WWW-Authenticate is delivered without hanging (no delegate)")
    func challengeWithoutDelegate() async throws {
        let stubs = challengeStubs()
        let session = stubs.makeSession()

        let completion = try #require(
            await completeWithin(patience, session, URLRequest(url: URL(string: Self.challengeURL)!)),
            "the task hung"
        )
        #expect(completion.error == nil)
        #expect(completion.status == 401)
        #expect(completion.text == "who are you?")
        #expect(completion.http?.value(forHTTPHeaderField: "X-Request-Id") == "r-1")
        checkChallengeHeaders(completion.http)

        let result = try #require(
            await within { await dataResult(session, URLRequest(url: URL(string: Self.challengeURL)!)) },
            "data(for:) hung"
        )
        let (data, response) = try result.get()
        #expect((response as? HTTPURLResponse)?.statusCode == 401)
        #expect(String(decoding: data, as: UTF8.self) == "who are you?")
        checkChallengeHeaders(response as? HTTPURLResponse)
        #expect(stubs.journal.count == 2)
    }

    @Test("a 401 with WWW-Authenticate and a credential-supplying session delegate never reaches the network")
    func challengeWithSessionDelegate() async throws {
        let stubs = challengeStubs()
        let delegate = CredentialDelegate()
        let session = stubs.makeSession(delegate: delegate)
        defer { session.finishTasksAndInvalidate() }

        let completion = try #require(
            await completeWithin(patience, session, URLRequest(url: URL(string: Self.challengeURL)!)),
            "the task hung"
        )
        #expect(completion.error == nil, "a real request to \(Self.challengeURL) would fail")
        #expect(completion.status == 401)
        #expect(completion.text == "who are you?")
        checkChallengeHeaders(completion.http)
        #expect(stubs.journal.count == 1, "the request was sent once, to the stub")
        #expect(delegate.challenges == 0, "no authentication challenge was started")

        let result = try #require(
            await within { await dataResult(session, URLRequest(url: URL(string: Self.challengeURL)!)) },
            "data(for:) hung"
        )
        let (data, response) = try result.get()
        #expect((response as? HTTPURLResponse)?.statusCode == 401)
        #expect(String(decoding: data, as: UTF8.self) == "who are you?")
        #expect(stubs.journal.count == 2)
        #expect(delegate.challenges == 0)
    }

    @Test("a 401 with WWW-Authenticate and a credential-supplying task delegate never reaches the network")
    func challengeWithTaskDelegate() async throws {
        let stubs = challengeStubs()
        let delegate = CredentialDelegate()
        let session = stubs.makeSession()

        let result = try #require(
            await within {
                await dataResult(session, URLRequest(url: URL(string: Self.challengeURL)!), delegate: delegate)
            },
            "data(for:delegate:) hung"
        )
        let (data, response) = try result.get()
        #expect((response as? HTTPURLResponse)?.statusCode == 401)
        #expect(String(decoding: data, as: UTF8.self) == "who are you?")
        #expect(stubs.journal.count == 1)
        #expect(delegate.challenges == 0)
    }

    @Test("several challenges, in any case, are folded under the renamed header")
    func severalChallenges() async throws {
        let stubs = StubRegistry()
        stubs.stub(
            .get("https://api.example.com/multi"),
            .status(401).header("www-authenticate", #"Bearer realm="api""#).header(
                "WWW-Authenticate",
                #"Basic realm="api""#
            )
        )
        let session = stubs.makeSession()
        let completion = try #require(
            await completeWithin(patience, session, URLRequest(url: URL(string: "https://api.example.com/multi")!)),
            "the task hung"
        )
        #expect(completion.status == 401)
        #if canImport(FoundationNetworking)
        #expect(
            completion.http?.value(forHTTPHeaderField: "X-HTTPStubs-WWW-Authenticate")
                == #"Bearer realm="api", Basic realm="api""#
        )
        #expect(completion.http?.value(forHTTPHeaderField: "WWW-Authenticate") == nil)
        #else
        #expect(
            completion.http?.value(forHTTPHeaderField: "WWW-Authenticate") == #"Bearer realm="api", Basic realm="api""#
        )
        #endif
    }

    /// Challenges in which corelibs finds no `Basic` challenge, the only one it acts on, so these
    /// reach the caller unchanged (OAuth clients read `Bearer resource_metadata=…` from a 401).
    static let challengesCorelibsIgnores = [
        #"Bearer resource_metadata="https://api.example.com/.well-known/oauth-protected-resource", scope="files:read""#,
        #"Digest realm="api", qop="auth", nonce="dcd98b7102dd2f0e8b11d0f600bfb0c093""#,
        "Negotiate",
        "Negotiate YIIBhgYGKwYBBQUCoIIBejCCAXagMDAuBgkqhkiC9xIBAgIGCSqGSIb3EgECAgYKKwYBBAGCNwICHgYKKwYBBAGCNwICCg==",
        #"Bearer error="invalid_token", error_description="Basic, Digest and cookies are refused""#,
        #"Bearer realm="api", Digest realm="api", nonce="abc""#,
        // corelibs takes `Basic` for a challenge only with a realm, and stops reading at a tab
        // after a comma.
        "BASIC",
        "Basic charset=UTF-8",
        "Bearer realm=\"a\",\tBasic realm=\"x\"",
    ]

    @Test(
        "a 401 challenge corelibs does not read as Basic is delivered as it is, and corelibs neither hangs nor re-sends it",
        arguments: challengesCorelibsIgnores
    )
    func challengeOfAnotherScheme(_ challenge: String) async throws {
        let stubs = StubRegistry()
        stubs.stub(
            .get(URLPattern(Self.challengeURL)),
            .text("who are you?", status: 401).header("WWW-Authenticate", challenge)
        )
        let delegate = CredentialDelegate()
        for session in [stubs.makeSession(), stubs.makeSession(delegate: delegate)] {
            let completion = try #require(
                await completeWithin(patience, session, URLRequest(url: URL(string: Self.challengeURL)!)),
                "the task hung"
            )
            #expect(completion.error == nil, "a real request to \(Self.challengeURL) would fail")
            #expect(completion.status == 401)
            #expect(completion.text == "who are you?")
            #expect(completion.http?.value(forHTTPHeaderField: "WWW-Authenticate") == challenge)
            #expect(completion.http?.value(forHTTPHeaderField: "X-HTTPStubs-WWW-Authenticate") == nil)

            let result = try #require(
                await within { await dataResult(session, URLRequest(url: URL(string: Self.challengeURL)!)) },
                "data(for:) hung"
            )
            let (data, response) = try result.get()
            #expect(String(decoding: data, as: UTF8.self) == "who are you?")
            #expect((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "WWW-Authenticate") == challenge)
            session.finishTasksAndInvalidate()
        }
        #expect(stubs.journal.count == 4, "each request was sent once, to the stub")
        #expect(delegate.challenges == 0, "no authentication challenge was started")
    }

    @Test(
        "a Basic challenge with a realm, wherever corelibs finds one, is what makes the header renamed on Linux",
        arguments: [
            "basic realm=api",
            // corelibs looks for a scheme after every comma, even one inside a quoted string.
            #"Bearer error_description="a, Basic realm=x""#,
            #"Basic charset="UTF-8", realm="api""#,
            #"Bearer realm="api", Basic realm="api""#,
            #"Negotiate YIIBhgYGKwYBBQUCoIIBejCC==, Basic realm="fallback""#,
            #"Digest realm="a, b", nonce="x",basic realm="c""#,
        ]
    )
    func basicChallengeAnywhere(_ challenge: String) async throws {
        let stubs = StubRegistry()
        stubs.stub(
            .get(URLPattern(Self.challengeURL)),
            .text("who are you?", status: 401).header("WWW-Authenticate", challenge)
        )
        let delegate = CredentialDelegate()
        let session = stubs.makeSession(delegate: delegate)
        defer { session.finishTasksAndInvalidate() }
        let completion = try #require(
            await completeWithin(patience, session, URLRequest(url: URL(string: Self.challengeURL)!)),
            "the task hung"
        )
        #expect(completion.error == nil, "a real request to \(Self.challengeURL) would fail")
        #expect(completion.status == 401)
        #if canImport(FoundationNetworking)
        #expect(completion.http?.value(forHTTPHeaderField: "X-HTTPStubs-WWW-Authenticate") == challenge)
        #expect(completion.http?.value(forHTTPHeaderField: "WWW-Authenticate") == nil)
        #else
        #expect(completion.http?.value(forHTTPHeaderField: "WWW-Authenticate") == challenge)
        #endif
        #expect(stubs.journal.count == 1)
        #expect(delegate.challenges == 0)
    }

    @Test(
        "WWW-Authenticate on another status, and a 401 without it, are delivered as they are",
        arguments: [
            (403, true), (200, true), (407, true), (401, false),
        ]
    )
    func otherStatuses(_ status: Int, _ withChallenge: Bool) async throws {
        let stubs = StubRegistry()
        var headers: HeaderFields = ["X-Other": "kept"]
        if withChallenge { headers.add("WWW-Authenticate", #"Basic realm="api""#) }
        stubs.stub(.get("https://api.example.com/status"), .http(status: status, headers: headers, body: .text("body")))
        let session = stubs.makeSession()

        let completion = try #require(
            await completeWithin(patience, session, URLRequest(url: URL(string: "https://api.example.com/status")!)),
            "the task hung"
        )
        #expect(completion.status == status)
        #expect(completion.text == "body")
        #expect(completion.http?.value(forHTTPHeaderField: "X-Other") == "kept")
        #expect(
            completion.http?.value(forHTTPHeaderField: "WWW-Authenticate")
                == (withChallenge ? #"Basic realm="api""# : nil)
        )
        #expect(completion.http?.value(forHTTPHeaderField: "X-HTTPStubs-WWW-Authenticate") == nil)
    }

    private func checkChallengeHeaders(_ response: HTTPURLResponse?, sourceLocation: SourceLocation = #_sourceLocation)
    {
        #if canImport(FoundationNetworking)
        #expect(
            response?.value(forHTTPHeaderField: "X-HTTPStubs-WWW-Authenticate") == #"Basic realm="api""#,
            sourceLocation: sourceLocation
        )
        #expect(response?.value(forHTTPHeaderField: "WWW-Authenticate") == nil, sourceLocation: sourceLocation)
        #else
        #expect(
            response?.value(forHTTPHeaderField: "WWW-Authenticate") == #"Basic realm="api""#,
            sourceLocation: sourceLocation
        )
        #endif
    }

    // MARK: Download tasks

    #if canImport(FoundationNetworking)
    @Test("downloadTask(with:completionHandler:) fails with URLError(.unsupportedURL) that explains why")
    func downloadTaskCompletion() async throws {
        let stubs = StubRegistry()
        stubs.stub(.get("https://files.example.com/report.pdf"), .data(Data("%PDF".utf8)))
        let session = stubs.makeSession()

        let outcome = OneShot<(URL?, URLResponse?, (any Error)?)>()
        session.downloadTask(with: URLRequest(url: URL(string: "https://files.example.com/report.pdf")!)) {
            location,
            response,
            error in
            outcome.fulfill((location, response, error))
        }.resume()
        let (location, response, error) = try #require(await outcome.value(within: patience), "the download task hung")

        #expect(location == nil)
        #expect(response == nil)
        let urlError = try #require(error as? URLError)
        #expect(urlError.code == .unsupportedURL)
        #expect(urlError.localizedDescription.contains("Download tasks cannot be stubbed on Linux"))
        #expect(urlError.localizedDescription.contains("data task"))
        #expect(urlError.failingURL == URL(string: "https://files.example.com/report.pdf"))

        let entry = try #require(stubs.journal.first)
        #expect(stubs.journal.count == 1)
        #expect(entry.stub == nil)
        guard case let .refused(reason) = entry.outcome else {
            Issue.record("expected a refused journal entry, got \(entry.outcome)")
            return
        }
        #expect(reason.contains("Download tasks cannot be stubbed"))
        #expect(stubs.useCount(of: stubs.stubs[0].id) == 0)
    }

    @Test("async download(for:) and download(from:) throw URLError(.unsupportedURL) instead of crashing")
    func asyncDownload() async throws {
        let stubs = StubRegistry()
        stubs.stub(.get("https://files.example.com/report.pdf"), .data(Data("%PDF".utf8)))
        let session = stubs.makeSession()
        let url = URL(string: "https://files.example.com/report.pdf")!

        let forRequest = try #require(
            await within { () -> (any Error)? in
                do {
                    _ = try await session.download(for: URLRequest(url: url))
                    return nil
                } catch {
                    return error
                }
            },
            "download(for:) hung"
        )
        #expect((forRequest as? URLError)?.code == .unsupportedURL)
        #expect(
            (forRequest as? URLError)?.localizedDescription.contains("Download tasks cannot be stubbed on Linux")
                == true
        )

        let fromURL = try #require(
            await within { () -> (any Error)? in
                do {
                    _ = try await session.download(from: url)
                    return nil
                } catch {
                    return error
                }
            },
            "download(from:) hung"
        )
        #expect((fromURL as? URLError)?.code == .unsupportedURL)
        #expect(stubs.journal.count == 2)
    }

    @Test("a download task on a session with a download delegate fails through the delegate instead of crashing")
    func downloadDelegate() async throws {
        let stubs = StubRegistry()
        stubs.stub(.get("https://files.example.com/archive.zip"), .data(Data([1, 2, 3])))
        let delegate = DownloadCollector()
        let session = stubs.makeSession(delegate: delegate)
        defer { session.finishTasksAndInvalidate() }

        session.downloadTask(with: URL(string: "https://files.example.com/archive.zip")!).resume()
        let error = try #require(await delegate.completion.value(within: patience), "the download task hung")
        #expect((error as? URLError)?.code == .unsupportedURL)
        #expect(delegate.finishedDownloads == 0)
    }
    #endif

    // MARK: Upload tasks

    @Test("uploadTask(with:from:) is served, and its body is matched")
    func uploadTaskFromData() async throws {
        let stubs = uploadStubs()
        let session = stubs.makeSession()
        var request = URLRequest(url: URL(string: "https://api.example.com/upload")!)
        request.httpMethod = "POST"

        let outcome = OneShot<Completion>()
        session.uploadTask(with: request, from: Data("payload-1".utf8)) { data, response, error in
            outcome.fulfill(Completion(data: data, response: response, error: error))
        }.resume()
        let completion = try #require(await outcome.value(within: patience), "the upload task hung")
        #expect(completion.error == nil)
        #expect(completion.status == 201)
        #expect(completion.text == "stored 9 bytes")
        #expect(stubs.journal.first?.request.bodyText == "payload-1")
        #expect(stubs.journal.first?.request.bodyUnavailableReason == nil)
    }

    @Test("upload(for:from:) is served, and its body is matched")
    func asyncUploadFromData() async throws {
        let stubs = uploadStubs()
        let session = stubs.makeSession()
        var request = URLRequest(url: URL(string: "https://api.example.com/upload")!)
        request.httpMethod = "POST"

        let (data, response) = try await session.upload(for: request, from: Data("payload-22".utf8))
        #expect((response as? HTTPURLResponse)?.statusCode == 201)
        #expect(String(decoding: data, as: UTF8.self) == "stored 10 bytes")
        #expect(stubs.journal.map(\.request.bodyText) == ["payload-22"])
    }

    @Test("upload from a file is served, and the file's bytes are matched")
    func uploadFromFile() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "http-stubs-upload-\(UUID().uuidString).txt"
        )
        try Data("payload-file".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let stubs = uploadStubs()
        let session = stubs.makeSession()
        var request = URLRequest(url: URL(string: "https://api.example.com/upload")!)
        request.httpMethod = "POST"

        let outcome = OneShot<Completion>()
        session.uploadTask(with: request, fromFile: file) { data, response, error in
            outcome.fulfill(Completion(data: data, response: response, error: error))
        }.resume()
        let completion = try #require(await outcome.value(within: patience), "the upload task hung")
        #expect(completion.status == 201)
        #expect(completion.text == "stored 12 bytes")

        let (data, response) = try await session.upload(for: request, fromFile: file)
        #expect((response as? HTTPURLResponse)?.statusCode == 201)
        #expect(String(decoding: data, as: UTF8.self) == "stored 12 bytes")
        #expect(stubs.journal.map(\.request.bodyText) == ["payload-file", "payload-file"])
    }

    @Test("an upload's own payload wins over the request's httpBody")
    func uploadPayloadWins() async throws {
        let stubs = uploadStubs()
        let session = stubs.makeSession()
        var request = URLRequest(url: URL(string: "https://api.example.com/upload")!)
        request.httpMethod = "POST"
        request.httpBody = Data("request-body".utf8)

        let (data, response) = try await session.upload(for: request, from: Data("payload-3".utf8))
        #expect((response as? HTTPURLResponse)?.statusCode == 201)
        #expect(String(decoding: data, as: UTF8.self) == "stored 9 bytes")
        #expect(stubs.journal.first?.request.bodyText == "payload-3")
    }

    @Test("an upload whose body does not match falls through to the unmatched report")
    func uploadBodyMismatch() async throws {
        let stubs = uploadStubs()
        let session = stubs.makeSession()
        var request = URLRequest(url: URL(string: "https://api.example.com/upload")!)
        request.httpMethod = "POST"
        do {
            _ = try await session.upload(for: request, from: Data("something else".utf8))
            Issue.record("the upload should not have matched")
        } catch let error as URLError {
            #expect(error.code == .resourceUnavailable)
            #expect(error.localizedDescription.contains("something else"))
        }
    }

    private func uploadStubs() -> StubRegistry {
        let stubs = StubRegistry()
        stubs.stub(
            .post("https://api.example.com/upload").body(.matches("payload-.*")),
            .computed { request in
                .text("stored \(request.body?.count ?? -1) bytes", status: 201)
            }
        )
        return stubs
    }

    // MARK: Cancellation (only of stubs that never complete on their own: see the notes, §8)

    @Test("task.cancel() of a never-completing stub gives URLError(.cancelled) once")
    func cancelTask() async throws {
        let stubs = StubRegistry()
        stubs.stub(.get("https://api.example.com/hang"), .text("x").delayed(by: .seconds(60)))
        let session = stubs.makeSession()
        let calls = Counter()
        let outcome = OneShot<Completion>()

        let task = session.dataTask(with: URL(string: "https://api.example.com/hang")!) { data, response, error in
            calls.increment()
            outcome.fulfill(Completion(data: data, response: response, error: error))
        }
        task.resume()
        try await waitUntil { stubs.journal.count == 1 }
        task.cancel()

        let completion = try #require(await outcome.value(within: patience), "cancellation was not delivered")
        #expect(completion.urlError?.code == .cancelled)
        #expect(completion.urlError?.failingURL == URL(string: "https://api.example.com/hang"))
        #expect(completion.response == nil)
        try await Task.sleep(for: .milliseconds(100))
        #expect(calls.value == 1)
        #expect(task.state == .completed)
        #expect(stubs.journal.count == 1)
    }

    @Test("task.cancel() right after resume() gives URLError(.cancelled)")
    func cancelRightAway() async throws {
        let stubs = StubRegistry()
        stubs.stub(.get("https://api.example.com/hang"), .text("x").delayed(by: .seconds(60)))
        let session = stubs.makeSession()
        let outcome = OneShot<Completion>()
        let task = session.dataTask(with: URL(string: "https://api.example.com/hang")!) { data, response, error in
            outcome.fulfill(Completion(data: data, response: response, error: error))
        }
        task.resume()
        task.cancel()
        let completion = try #require(await outcome.value(within: patience), "cancellation was not delivered")
        #expect(completion.urlError?.code == .cancelled)
    }

    @Test("cancelling a delayed task releases its wake-up")
    func cancelReleasesTimer() async throws {
        let clock = ManualStubClock()
        let stubs = StubRegistry(clock: clock)
        stubs.stub(.get("https://api.example.com/hang"), .text("x").delayed(by: .seconds(60)))
        let session = stubs.makeSession()
        let calls = Counter()
        let outcome = OneShot<Completion>()
        let task = session.dataTask(with: URL(string: "https://api.example.com/hang")!) { data, response, error in
            calls.increment()
            outcome.fulfill(Completion(data: data, response: response, error: error))
        }
        task.resume()
        try await waitUntil { clock.pendingCount == 1 }
        task.cancel()
        let completion = try #require(await outcome.value(within: patience), "cancellation was not delivered")
        #expect(completion.urlError?.code == .cancelled)
        try await waitUntil { clock.pendingCount == 0 }
        // Time passes beyond the delay: nothing more reaches the caller.
        await clock.advance(by: .seconds(120))
        try await Task.sleep(for: .milliseconds(50))
        #expect(calls.value == 1)
    }

    @Test("cancelling the Swift Task of data(for:) gives URLError(.cancelled)")
    func cancelSwiftTask() async throws {
        let stubs = StubRegistry()
        stubs.stub(.get("https://api.example.com/hang"), .text("x").delayed(by: .seconds(60)))
        let session = stubs.makeSession()

        let task = Task { try await session.data(for: URLRequest(url: URL(string: "https://api.example.com/hang")!)) }
        try await waitUntil { stubs.journal.count == 1 }
        task.cancel()
        let result = try #require(await within { await task.result }, "cancellation was not delivered")
        switch result {
        case .success:
            Issue.record("a cancelled request should not succeed")
        case let .failure(error):
            #expect((error as? URLError)?.code == .cancelled, "got \(error)")
        }
    }

    @Test(
        "a Swift Task cancelled before data(for:) starts gives URLError(.cancelled)",
        .enabled(
            if: StressTests.cancelRaceEnabled,
            "races corelibs' cancel against the task's start, which can hang on 6.3 (#5412); set HTTPSTUBS_CANCEL_RACE=1 on a toolchain with the fix"
        )
    )
    func cancelSwiftTaskEarly() async throws {
        let stubs = StubRegistry()
        stubs.stub(.get("https://api.example.com/hang"), .text("x").delayed(by: .seconds(60)))
        let session = stubs.makeSession()

        let task = Task { try await session.data(for: URLRequest(url: URL(string: "https://api.example.com/hang")!)) }
        task.cancel()
        let result = try #require(await within { await task.result }, "cancellation was not delivered")
        #expect(throws: URLError.self) { try result.get() }
        if case let .failure(error) = result {
            #expect((error as? URLError)?.code == .cancelled)
        }
    }

    @Test("invalidateAndCancel() cancels every pending stubbed request")
    func invalidateAndCancel() async throws {
        let stubs = StubRegistry()
        stubs.stub(.get("https://api.example.com/hang/{n}"), .text("x").delayed(by: .seconds(60)))
        let session = stubs.makeSession()
        let outcomes = (0..<3).map { _ in OneShot<Completion>() }
        for (index, outcome) in outcomes.enumerated() {
            session.dataTask(with: URL(string: "https://api.example.com/hang/\(index)")!) { data, response, error in
                outcome.fulfill(Completion(data: data, response: response, error: error))
            }.resume()
        }
        try await waitUntil { stubs.journal.count == 3 }
        session.invalidateAndCancel()
        for outcome in outcomes {
            let completion = try #require(await outcome.value(within: patience), "cancellation was not delivered")
            #expect(completion.urlError?.code == .cancelled)
        }
    }
}

// MARK: - URLProtocolStub's hand-rolled API

/// `URLProtocolStub` serves from one global registry, so these tests run one at a time, and only
/// here.
@Suite("URLProtocolStub.stub(data:response:error:)", .serialized)
struct URLProtocolStubCompatibilityTests {
    private static let url = URL(string: "https://legacy.example.com/endpoint")!

    private func withInterception(_ body: (URLSession) async throws -> Void) async throws {
        let session = URLProtocolStub.makeSession()
        URLProtocolStub.registry.onDiagnostic { _ in }  // the URLSession.shared warning is expected here
        URLProtocolStub.startInterceptingRequests()
        defer { URLProtocolStub.stopInterceptingRequests() }
        try await body(session)
    }

    private var okResponse: HTTPURLResponse {
        HTTPURLResponse(url: Self.url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: ["X-Legacy": "yes"])!
    }

    @Test("data and a response reach both APIs")
    func dataAndResponse() async throws {
        try await withInterception { session in
            URLProtocolStub.stub(data: Data("legacy".utf8), response: okResponse, error: nil)
            let completion = await complete(session, URLRequest(url: Self.url))
            #expect(completion.text == "legacy")
            #expect(completion.status == 200)
            #expect(completion.http?.value(forHTTPHeaderField: "X-Legacy") == "yes")
            let (data, response) = try await session.data(for: URLRequest(url: Self.url))
            #expect(data == Data("legacy".utf8))
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
        }
    }

    @Test("a response without data gives an empty body")
    func responseWithoutData() async throws {
        try await withInterception { session in
            URLProtocolStub.stub(data: nil, response: okResponse, error: nil)
            let completion = await complete(session, URLRequest(url: Self.url))
            #expect(completion.error == nil)
            #expect(completion.status == 200)
            #expect(completion.data?.isEmpty ?? true)
            let (data, response) = try await session.data(for: URLRequest(url: Self.url))
            #expect(data.isEmpty)
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
        }
    }

    @Test("a plain URLResponse is delivered as it is")
    func plainURLResponse() async throws {
        try await withInterception { session in
            let response = URLResponse(
                url: Self.url,
                mimeType: "text/plain",
                expectedContentLength: 5,
                textEncodingName: "utf-8"
            )
            URLProtocolStub.stub(data: Data("plain".utf8), response: response, error: nil)
            let completion = await complete(session, URLRequest(url: Self.url))
            #expect(completion.text == "plain")
            #expect(completion.response != nil)
            #expect(completion.http == nil)
            #expect(completion.response?.mimeType == "text/plain")
        }
    }

    @Test("data without a response: the completion handler gets the data; async gets URLError(.cannotParseResponse)")
    func dataWithoutResponse() async throws {
        try await withInterception { session in
            URLProtocolStub.stub(data: Data("orphan".utf8), response: nil, error: nil)
            let completion = await complete(session, URLRequest(url: Self.url))
            #expect(completion.error == nil)
            #expect(completion.response == nil)
            #expect(completion.text == "orphan")

            do {
                _ = try await session.data(for: URLRequest(url: Self.url))
                Issue.record("data(for:) cannot succeed without a response")
            } catch let error as URLError {
                #expect(error.code == .cannotParseResponse)
                #expect(error.localizedDescription.contains("without a URLResponse"))
            }
        }
    }

    @Test("nil, nil, nil: the completion handler gets nothing, without crashing")
    func nothingThroughCompletionHandler() async throws {
        try await withInterception { session in
            URLProtocolStub.stub(data: nil, response: nil, error: nil)
            let completion = await complete(session, URLRequest(url: Self.url))
            #expect(completion.error == nil)
            #expect(completion.response == nil)
            #expect(completion.data?.isEmpty ?? true)
        }
    }

    #if canImport(FoundationNetworking)
    @Test("nil, nil, nil: async data(for:) fails with URLError(.cannotParseResponse) instead of crashing")
    func nothingThroughAsync() async {
        // Run in a child process: corelibs force-unwraps the missing response, which kills the process.
        await #expect(processExitsWith: .success) {
            let session = URLProtocolStub.makeSession()
            URLProtocolStub.registry.onDiagnostic { _ in }
            URLProtocolStub.startInterceptingRequests()
            URLProtocolStub.stub(data: nil, response: nil, error: nil)
            do {
                _ = try await session.data(for: URLRequest(url: URL(string: "https://legacy.example.com/endpoint")!))
                exit(2)
            } catch let error as URLError where error.code == .cannotParseResponse {
                exit(0)
            } catch {
                exit(3)
            }
        }
    }

    @Test("nil, nil, nil: async upload(for:from:) fails with URLError(.cannotParseResponse) instead of crashing")
    func nothingThroughAsyncUpload() async {
        await #expect(processExitsWith: .success) {
            let session = URLProtocolStub.makeSession()
            URLProtocolStub.registry.onDiagnostic { _ in }
            URLProtocolStub.startInterceptingRequests()
            URLProtocolStub.stub(data: nil, response: nil, error: nil)
            var request = URLRequest(url: URL(string: "https://legacy.example.com/endpoint")!)
            request.httpMethod = "POST"
            do {
                _ = try await session.upload(for: request, from: Data("x".utf8))
                exit(2)
            } catch let error as URLError where error.code == .cannotParseResponse {
                exit(0)
            } catch {
                exit(3)
            }
        }
    }
    #endif

    @Test("an error is delivered unchanged, whatever else was given")
    func errorWins() async throws {
        try await withInterception { session in
            URLProtocolStub.stub(data: Data("ignored".utf8), response: okResponse, error: LegacyError.offline)
            let completion = await complete(session, URLRequest(url: Self.url))
            #expect(completion.error as? LegacyError == .offline)
            #expect(completion.response == nil)
            do {
                _ = try await session.data(for: URLRequest(url: Self.url))
                Issue.record("expected an error")
            } catch {
                #expect(error as? LegacyError == .offline)
            }

            URLProtocolStub.stub(data: nil, response: nil, error: URLError(.notConnectedToInternet))
            let urlError = try #require(await complete(session, URLRequest(url: Self.url)).urlError)
            #expect(urlError.code == .notConnectedToInternet)
        }
    }

    @Test("each stub(data:response:error:) call replaces the previous one")
    func replaces() async throws {
        try await withInterception { session in
            URLProtocolStub.stub(data: Data("first".utf8), response: okResponse, error: nil)
            #expect(await complete(session, URLRequest(url: Self.url)).text == "first")
            URLProtocolStub.stub(data: Data("second".utf8), response: okResponse, error: nil)
            #expect(await complete(session, URLRequest(url: Self.url)).text == "second")
            #expect(URLProtocolStub.registry.stubs.count == 1)
            #expect(URLProtocolStub.registry.journal.count == 2)
        }
    }

    @Test("outside start/stopInterceptingRequests a request fails with an explanation")
    func notIntercepting() async throws {
        let session = URLProtocolStub.makeSession()
        let completion = await complete(session, URLRequest(url: Self.url))
        let error = try #require(completion.urlError)
        #expect(error.code == .resourceUnavailable)
        #expect(error.localizedDescription.contains("startInterceptingRequests"))
        do {
            _ = try await session.data(for: URLRequest(url: Self.url))
            Issue.record("expected an error")
        } catch let error as URLError {
            #expect(error.code == .resourceUnavailable)
        }
    }

    @Test("stopInterceptingRequests resets the registry")
    func stopResets() async throws {
        try await withInterception { session in
            URLProtocolStub.stub(data: Data("x".utf8), response: okResponse, error: nil)
            _ = await complete(session, URLRequest(url: Self.url))
        }
        #expect(URLProtocolStub.registry.stubs.isEmpty)
        #expect(URLProtocolStub.registry.journal.isEmpty)
        #expect(!URLProtocolStub.isIntercepting)
    }
}

// MARK: - Helpers

private enum LegacyError: Error, Equatable {
    case offline
}

/// Supplies a credential to every challenge, and counts them.
private final class CredentialDelegate: NSObject, URLSessionTaskDelegate, Sendable {
    private let count = Counter()

    var challenges: Int { count.value }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @Sendable @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        count.increment()
        completionHandler(.useCredential, URLCredential(user: "ada", password: "secret", persistence: .none))
    }
}

#if canImport(FoundationNetworking)
/// Records what a download delegate receives.
private final class DownloadCollector: NSObject, URLSessionDownloadDelegate, Sendable {
    private let finished = Counter()
    let completion = OneShot<(any Error)?>()

    var finishedDownloads: Int { finished.value }

    func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL) {
        finished.increment()
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        completion.fulfill(error)
    }
}
#endif

/// Sends a request with a completion handler, and gives up waiting after `seconds`.
private func completeWithin(_ seconds: Double, _ session: URLSession, _ request: URLRequest) async -> Completion? {
    let outcome = OneShot<Completion>()
    session.dataTask(with: request) { data, response, error in
        outcome.fulfill(Completion(data: data, response: response, error: error))
    }.resume()
    return await outcome.value(within: seconds)
}

/// What `data(for:)` returned or threw.
private func dataResult(
    _ session: URLSession,
    _ request: URLRequest,
    delegate: (any URLSessionTaskDelegate)? = nil
) async -> Result<(Data, URLResponse), any Error> {
    do {
        return .success(try await session.data(for: request, delegate: delegate))
    } catch {
        return .failure(error)
    }
}
