import ExampleClients
import Foundation
import HTTPStubs
import HTTPStubsTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Issue 41: a `StubStream` is an open response the test writes while the client reads it, through
/// real URLSession delegates, completion handlers and `async` calls; the journal and the stream
/// say how it ended, and a client that goes away is seen.
@Suite("Streams the test pushes")
struct StubStreamTests {
    static let url = "https://api.example.com/events"

    /// Starts a data task to ``url`` in a session of `stubs` whose delegate records what it
    /// receives; the session is invalidated once its task is done.
    private static func startReading(_ stubs: StubRegistry) -> (recorder: ChunkRecorder, task: URLSessionDataTask) {
        let recorder = ChunkRecorder()
        let session = stubs.makeSession(delegate: recorder)
        let task = session.dataTask(with: URL(string: url)!)
        task.resume()
        session.finishTasksAndInvalidate()
        return (recorder, task)
    }

    // MARK: Delegates: each send a chunk, when it is sent

    @Test(
        "the response goes out when the request arrives, and each send reaches a delegate as a chunk of its own, then"
    )
    func delegateReceivesEachSend() async throws {
        let stubs = StubRegistry()
        let stream = StubStream()
        stubs.stub(.get(Self.url), .stream(stream))
        let recorder = Self.startReading(stubs).recorder

        let request = try await stream.waitForRequest(timeout: .seconds(patience))
        #expect(request.url.absoluteString == Self.url)
        try await waitUntil { recorder.gotResponse }
        #expect(recorder.texts.isEmpty, "nothing sent yet")
        #expect(stream.ending == .inProgress)

        #expect(stream.send(ServerSentEvent(data: "one", id: "1")))
        try await waitUntil { recorder.texts.count == 1 }
        #expect(stream.send(Data("{\"two\": 2}\n".utf8)))
        try await waitUntil { recorder.texts.count == 2 }
        #expect(!recorder.isComplete, "the stream stays open")
        #expect(stream.finish())

        let result = await recorder.result()
        #expect(result.error == nil)
        #expect(
            result.chunks.map { String(decoding: $0, as: UTF8.self) } == ["id: 1\ndata: one\n\n", "{\"two\": 2}\n"]
        )
        let response = try #require(result.response as? HTTPURLResponse)
        #expect(response.value(forHTTPHeaderField: "Content-Type") == "text/event-stream")
        #expect(try await stream.waitForEnd(timeout: .seconds(patience)) == .finished)
        #expect(!stream.send(ServerSentEvent(data: "late")), "a stream that ended drops what is sent")
        #expect(!stream.finish(), "and ends once")

        let entry = try #require(stubs.journal.last?.response)
        #expect(entry.ending == .finished)
        #expect(String(decoding: entry.body, as: UTF8.self) == "id: 1\ndata: one\n\n{\"two\": 2}\n")
    }

    @Test("what is sent before the request arrives waits for it, and goes with the response, a chunk each")
    func sentBeforeTheRequestWaits() async throws {
        let stubs = StubRegistry()
        let stream = StubStream()
        stubs.stub(.get(Self.url), .stream(stream, headers: ["Content-Type": "application/jsonl"]))
        stream.send(Data("{\"n\":1}\n".utf8))
        stream.send(Data("{\"n\":2}\n".utf8))
        stream.finish()
        let recorder = Self.startReading(stubs).recorder
        let result = await recorder.result()
        #expect(result.error == nil)
        #expect(result.chunks.map { String(decoding: $0, as: UTF8.self) } == ["{\"n\":1}\n", "{\"n\":2}\n"])
        let response = try #require(result.response as? HTTPURLResponse)
        #expect(response.value(forHTTPHeaderField: "Content-Type") == "application/jsonl", "the headers' type")
    }

    @Test(
        "under a ManualStubClock what the test sends arrives without the clock moving; a delayed response waits for it"
    )
    func virtualTime() async throws {
        let clock = ManualStubClock()
        let stubs = StubRegistry(clock: clock)
        let stream = StubStream()
        stubs.stub(.get(Self.url), .stream(stream).delayed(by: .seconds(2)))
        let recorder = Self.startReading(stubs).recorder
        _ = try await stream.waitForRequest(timeout: .seconds(patience))
        stream.send(ServerSentEvent(data: "early"))
        try await waitUntil { clock.pendingCount == 1 }
        #expect(!recorder.gotResponse, "the response waits for its delay")
        await clock.advance(by: .seconds(2))
        try await waitUntil { recorder.texts.count == 1 }
        #expect(recorder.gotResponse)
        stream.send(ServerSentEvent(data: "now"))
        try await waitUntil { recorder.texts.count == 2 }
        #expect(clock.now == .seconds(2), "no clock moved for it")
        stream.finish()
        #expect(await recorder.result().error == nil)
    }

    // MARK: Completion handlers and async calls: the whole body

    @Test("an async call receives the whole body when the stream finishes")
    func asyncCallReceivesTheWholeBody() async throws {
        let stubs = StubRegistry()
        let stream = StubStream()
        stubs.stub(.get(Self.url), .stream(stream))
        let session = stubs.makeSession()
        let call = Task { try await session.data(from: URL(string: Self.url)!) }
        _ = try await stream.waitForRequest(timeout: .seconds(patience))
        for index in 1...3 { stream.send(ServerSentEvent(data: "\(index)")) }
        stream.finish()
        let (data, _) = try await call.value
        #expect(String(decoding: data, as: UTF8.self) == "data: 1\n\ndata: 2\n\ndata: 3\n\n")
    }

    @Test("a completion handler receives the whole body when the stream finishes")
    func completionHandlerReceivesTheWholeBody() async throws {
        let stubs = StubRegistry()
        let stream = StubStream()
        stubs.stub(.get(Self.url), .stream(stream))
        let outcome = OneShot<Completion>()
        stubs.makeSession().dataTask(with: URL(string: Self.url)!) { data, response, error in
            outcome.fulfill(Completion(data: data, response: response, error: error))
        }.resume()
        _ = try await stream.waitForRequest(timeout: .seconds(patience))
        stream.send(Data("ab".utf8))
        stream.send(Data("cd".utf8))
        stream.finish()
        let completion = try #require(await outcome.value(within: patience))
        #expect(completion.error == nil)
        #expect(completion.data == Data("abcd".utf8))
    }

    // MARK: Faults

    @Test("fail(_:) ends the stream with that URLError after what was sent; the journal keeps both")
    func failEndsTheStream() async throws {
        let stubs = StubRegistry()
        let stream = StubStream()
        stubs.stub(.get(Self.url), .stream(stream))
        let recorder = Self.startReading(stubs).recorder
        _ = try await stream.waitForRequest(timeout: .seconds(patience))
        stream.send(ServerSentEvent(data: "partial"))
        stream.fail(.networkConnectionLost)
        let result = await recorder.result()
        #expect(result.chunks.map { String(decoding: $0, as: UTF8.self) } == ["data: partial\n\n"])
        let error = try #require(result.error as? URLError)
        #expect(error.code == .networkConnectionLost)
        #expect(error.failingURL?.absoluteString == Self.url)
        #expect(
            error.localizedDescription.contains("The test ended the StubStream (HTTPStubsTests/StubStreamTests.swift:")
        )
        #expect(try await stream.waitForEnd(timeout: .seconds(patience)) == .failed(.networkConnectionLost))
        let response = try #require(stubs.journal.last?.response)
        #expect(response.ending == .failed(.networkConnectionLost))
        #expect(response.body == Data("data: partial\n\n".utf8))
    }

    @Test("an async call gets the error of a failed stream")
    func asyncCallGetsTheFailure() async throws {
        let stubs = StubRegistry()
        let stream = StubStream()
        stubs.stub(.get(Self.url), .stream(stream))
        let session = stubs.makeSession()
        stream.send(ServerSentEvent(data: "partial"))
        stream.fail(.timedOut)
        let error = await #expect(throws: URLError.self) { try await session.data(from: URL(string: Self.url)!) }
        #expect(error?.code == .timedOut)
    }

    @Test("the journal records how an interrupted .events response ended")
    func interruptedEventsAreJournaled() async throws {
        let stubs = StubRegistry()
        stubs.stub(.get(Self.url), .events([ServerSentEvent(data: "a")]).interrupted(by: .networkConnectionLost))
        let session = stubs.makeSession()
        let error = await #expect(throws: URLError.self) { try await session.data(from: URL(string: Self.url)!) }
        #expect(error?.code == .networkConnectionLost)
        #expect(stubs.journal.last?.response?.ending == .failed(.networkConnectionLost))
    }

    // MARK: A client that goes away

    @Test("a client that cancels mid-stream is seen by the stream and the journal, and later sends are dropped")
    func clientCancellation() async throws {
        let stubs = StubRegistry()
        let stream = StubStream()
        stubs.stub(.get(Self.url), .stream(stream))
        let (recorder, task) = Self.startReading(stubs)
        _ = try await stream.waitForRequest(timeout: .seconds(patience))
        stream.send(ServerSentEvent(data: "read"))
        try await waitUntil { recorder.texts.count == 1 }
        task.cancel()
        #expect(try await stream.waitForEnd(timeout: .seconds(patience)) == .cancelledByClient)
        #expect(!stream.send(ServerSentEvent(data: "unread")))
        #expect((await recorder.result().error as? URLError)?.code == .cancelled)
        let response = try #require(stubs.journal.last?.response)
        #expect(response.ending == .cancelledByClient)
        #expect(response.body == Data("data: read\n\n".utf8), "what the client received")
    }

    @Test("a client that suspends its task is not cancelling it: what is sent meanwhile arrives once it resumes")
    func suspendedReader() async throws {
        let stubs = StubRegistry()
        let stream = StubStream()
        stubs.stub(.get(Self.url), .stream(stream))
        let (recorder, task) = Self.startReading(stubs)
        _ = try await stream.waitForRequest(timeout: .seconds(patience))
        stream.send(ServerSentEvent(data: "one"))
        try await waitUntil { recorder.texts.count == 1 }
        task.suspend()
        #expect(stream.send(ServerSentEvent(data: "two")), "the stream stays open")
        try await Task.sleep(for: .milliseconds(50))
        #expect(stream.ending == .inProgress)
        task.resume()
        try await waitUntil { recorder.texts.count == 2 }
        stream.finish()
        #expect(await recorder.result().error == nil)
        #expect(stream.ending == .finished)
    }

    @Test("a client that cancels while a delayed stream's response waits is seen by the stream too")
    func cancellationBeforeTheResponse() async throws {
        let clock = ManualStubClock()
        let stubs = StubRegistry(clock: clock)
        let stream = StubStream()
        stubs.stub(.get(Self.url), .stream(stream).delayed(by: .seconds(5)))
        let (recorder, task) = Self.startReading(stubs)
        _ = try await stream.waitForRequest(timeout: .seconds(patience))
        try await waitUntil { clock.pendingCount == 1 }
        task.cancel()
        #expect(try await stream.waitForEnd(timeout: .seconds(patience)) == .cancelledByClient)
        #expect(!recorder.gotResponse)
        #expect(stubs.journal.last?.response?.ending == .cancelledByClient)
    }

    @Test("a consumer that stops reading an AsyncThrowingStream cancels the request, which the stream sees")
    func consumerThatStopsReading() async throws {
        let stubs = StubRegistry()
        let stream = StubStream()
        stubs.stub(.get(Self.url), .stream(stream))
        let client = EventStreamClient(
            baseURL: URL(string: "https://api.example.com")!,
            configuration: stubs.configuration()
        )
        stream.send(ServerSentEvent(data: "first"))
        stream.send(ServerSentEvent(data: "second"))
        var read: [String] = []
        for try await event in client.events("/events") {
            read.append(event.data)
            break
        }
        #expect(read == ["first"])
        #expect(try await stream.waitForEnd(timeout: .seconds(patience)) == .cancelledByClient)
    }

    @Test("the journal records a client that cancelled an .events response between events, with what it received")
    func cancelledEventsAreJournaled() async throws {
        let clock = ManualStubClock()
        let stubs = StubRegistry(clock: clock)
        stubs.stub(
            .get(Self.url),
            .events([ServerSentEvent(data: "a"), ServerSentEvent(data: "b", after: .seconds(1))])
        )
        let (recorder, task) = Self.startReading(stubs)
        try await waitUntil { recorder.texts.count == 1 }
        task.cancel()
        _ = await recorder.result()
        try await waitUntil { stubs.journal.last?.response?.ending == .cancelledByClient }
        #expect(stubs.journal.last?.response?.body == Data("data: a\n\n".utf8))
    }

    @Test("a request whose timeout runs out before a delayed stream opens ends the stream too")
    func timeoutBeforeTheStreamOpens() async throws {
        let stubs = StubRegistry(clock: ImmediateStubClock())
        let stream = StubStream()
        stubs.stub(.get(Self.url), .stream(stream).delayed(by: .seconds(30)))
        var request = URLRequest(url: URL(string: Self.url)!)
        request.timeoutInterval = 10
        let error = await #expect(throws: URLError.self) { try await stubs.makeSession().data(for: request) }
        #expect(error?.code == .timedOut)
        #expect(try await stream.waitForEnd(timeout: .seconds(patience)) == .failed(.timedOut))
        #expect(!stream.send(ServerSentEvent(data: "nobody reads this")))
        #expect(stubs.journal.last?.response?.ending == .failed(.timedOut))
    }

    @Test("the journal records a delayed answer that timed out as failed, not as the body it never sent")
    func timedOutAnswerIsJournaled() async throws {
        let stubs = StubRegistry(clock: ImmediateStubClock())
        stubs.stub(.get(Self.url), .text("too late").delayed(by: .seconds(30)))
        var request = URLRequest(url: URL(string: Self.url)!)
        request.timeoutInterval = 10
        await #expect(throws: URLError.self) { try await stubs.makeSession().data(for: request) }
        let response = try #require(stubs.journal.last?.response)
        #expect(response.ending == .failed(.timedOut))
        #expect(response.body.isEmpty)
    }

    @Test("a stream that ends after the journal was cleared leaves the newer entries alone")
    func clearedJournalKeepsNewerEntries() async throws {
        let stubs = StubRegistry()
        let stream = StubStream()
        stubs.stub(.get(Self.url), .stream(stream))
        stubs.stub(.get("https://api.example.com/other"), .text("other"))
        let (recorder, _) = Self.startReading(stubs)
        _ = try await stream.waitForRequest(timeout: .seconds(patience))
        #expect(stubs.journal.first?.id == 1)
        stubs.clearJournal()
        _ = try await stubs.makeSession().data(from: URL(string: "https://api.example.com/other")!)
        #expect(stubs.journal.map(\.id) == [2], "numbering goes on after a clear")
        stream.send(ServerSentEvent(data: "late"))
        stream.finish()
        _ = await recorder.result()
        let entry = try #require(stubs.journal.last?.response)
        #expect(entry.body == Data("other".utf8))
        #expect(entry.ending == .finished)
    }

    @Test("an SSE client that reconnects after the stream ended gets the next response: a 204 tells it to stop")
    func reconnectionAfterTheEnd() async throws {
        let stubs = StubRegistry()
        let stream = StubStream()
        stubs.stub(.get(Self.url), responses: [.stream(stream), .status(204)])
        let session = stubs.makeSession()
        stream.send(ServerSentEvent(data: "only"))
        stream.finish()
        let (data, _) = try await session.data(from: URL(string: Self.url)!)
        #expect(String(decoding: data, as: UTF8.self) == "data: only\n\n")
        let (_, again) = try await session.data(from: URL(string: Self.url)!)
        #expect((again as? HTTPURLResponse)?.statusCode == 204)
    }

    // MARK: Mistakes

    @Test("a second request answered with the same stream fails, naming both requests and how to fix it")
    func oneStreamOneRequest() async throws {
        let stubs = StubRegistry()
        let reported = Locked<[String]>([])
        stubs.onDiagnostic { diagnostic in reported.withLock { $0.append(diagnostic.message) } }
        let stream = StubStream()
        stubs.stub(.get(Self.url), .stream(stream))
        stream.finish()
        let session = stubs.makeSession()
        _ = try await session.data(from: URL(string: Self.url)!)
        let error = await #expect(throws: URLError.self) {
            try await session.data(from: URL(string: Self.url + "?again")!)
        }
        #expect(error?.code == .resourceUnavailable)
        let message = error?.localizedDescription ?? ""
        #expect(
            message.contains(
                "GET \(Self.url)?again was answered with the StubStream (HTTPStubsTests/StubStreamTests.swift:"
            )
        )
        #expect(message.contains("which already answers GET \(Self.url);"))
        #expect(message.contains("give each request its own StubStream"))
        #expect(reported.value == [message], "reported as the stub's problem")
    }

    @Test("dribbling and interrupting a pushed stream are reported with the fix, not applied")
    func modifiersThatDoNotApply() {
        let stubs = StubRegistry()
        let reported = Locked<[String]>([])
        stubs.onDiagnostic { diagnostic in reported.withLock { $0.append(diagnostic.message) } }
        let stream = StubStream()
        stubs.stub(.get(Self.url), .stream(stream).dribbled(chunks: 3, over: .seconds(1)).interrupted(by: .timedOut))
        #expect(reported.value.count == 2, "\(reported.value)")
        #expect(reported.value.first?.contains("dribbled(chunks:over:) does not apply") == true)
        #expect(reported.value.last?.contains("end it with stream.fail(.timedOut) instead") == true)
    }

    @Test("waiting for a request that never comes ends with an error saying what to check")
    func waitingRunsOut() async throws {
        let stream = StubStream()
        let error = await #expect(throws: StubStreamTimeout.self) {
            try await stream.waitForRequest(timeout: .milliseconds(20))
        }
        #expect(
            error?.description.contains("No request reached the StubStream (HTTPStubsTests/StubStreamTests.swift:")
                == true
        )
        #expect(
            error?.description.contains("Check that a stub answers with .stream(stream)") == true,
            "\(String(describing: error))"
        )
        let end = await #expect(throws: StubStreamTimeout.self) {
            try await stream.waitForEnd(timeout: .milliseconds(20))
        }
        #expect(end?.description.contains("no request reached it") == true)
    }

    @Test("a stream still open when its test ends fails the request and the test, saying how to end it")
    func streamLeftOpen() async throws {
        let outcome = OneShot<Completion>()
        let stream = StubStream()
        let issues = try await recordedIssues {
            try await withHTTPStubs { stubs in
                stubs.stub(.get(.init(Self.url)), .stream(stream))
                stubs.makeSession().dataTask(with: URL(string: Self.url)!) { data, response, error in
                    outcome.fulfill(Completion(data: data, response: response, error: error))
                }.resume()
                _ = try await stream.waitForRequest(timeout: .seconds(patience))
                stream.send(ServerSentEvent(data: "one"))
                // The test forgets to finish the stream.
            }
        }
        let completion = try #require(await outcome.value(within: patience), "the request never ended")
        #expect(completion.urlError?.code == .resourceUnavailable)
        let message = completion.urlError?.localizedDescription ?? ""
        #expect(
            message.contains("was still reading the StubStream (HTTPStubsTests/StubStreamTests.swift:"),
            "\(message)"
        )
        #expect(message.contains("end the stream with stream.finish() or stream.fail(_:)"), "\(message)")
        #expect(issues.count == 1, "\(issues)")
        #expect(issues.first?.description.contains("was still reading the StubStream") == true, "\(issues)")
        #expect(try await stream.waitForEnd(timeout: .seconds(patience)) == .testEnded)
        #expect(!stream.send(ServerSentEvent(data: "after the test")))
    }
}
