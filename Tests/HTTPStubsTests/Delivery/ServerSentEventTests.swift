import Foundation
import HTTPStubs
import HTTPStubsFiles
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Issue 41: `.events` sends each Server-Sent Event as a chunk of its own at its own time, and
/// `.chunks` does the same for any body, through real URLSession delegates, completion handlers and
/// `async` calls, in real and virtual time.
@Suite("Server-Sent Events and chunked bodies")
struct ServerSentEventTests {
    static let url = "https://api.example.com/stream"

    /// Three events of different lengths: what equal byte pieces used to split mid-event.
    static let events = [
        ServerSentEvent(data: #"{"token": "Hel"}"#),
        ServerSentEvent(data: #"{"token": "lo, world", "index": 1}"#, after: .milliseconds(100)),
        ServerSentEvent(data: "[DONE]", event: "end", id: "3", after: .milliseconds(100)),
    ]

    // MARK: What is sent

    @Test("an event is written as the SSE specification reads it")
    func serialization() {
        #expect(ServerSentEvent(data: "hello").serialized == "data: hello\n\n")
        #expect(
            ServerSentEvent(data: "line 1\nline 2\r\nline 3\rline 4", event: "update", id: "42", retry: .seconds(3))
                .serialized
                == "event: update\nid: 42\nretry: 3000\ndata: line 1\ndata: line 2\ndata: line 3\ndata: line 4\n\n"
        )
        #expect(ServerSentEvent(data: "").serialized == "data: \n\n", "an empty data line still dispatches")
        #expect(ServerSentEvent.comment("keep-alive").serialized == ": keep-alive\n\n")
        #expect(ServerSentEvent.comment("").serialized == ":\n\n")
        #expect(ServerSentEvent.comment("keep-alive").isComment)
        #expect(ServerSentEvent(data: "x", event: "a\nb").serialized == "event: a b\ndata: x\n\n", "one line")
    }

    @Test("events, chunks and their schedule describe themselves for listings and reports")
    func descriptions() {
        #expect(ServerSentEvent(data: "hi", after: .milliseconds(100)).description == "data: hi (after 100 ms)")
        #expect(BodyChunk(text: "twelve bytes", after: .seconds(1)).description == "12 bytes after 1000 ms")
        let dribble = StubResponse.events(Self.events).interrupted(by: .networkConnectionLost, after: .seconds(1))
            .dribble
        #expect(
            dribble?.description
                == "3 chunks at their own times over 200 ms, then URLError .networkConnectionLost after 1000 ms"
        )
    }

    @Test("a field a line break would cut is reported when the stub is added")
    func brokenFieldIsReported() {
        let stubs = StubRegistry()
        let reported = Locked<[String]>([])
        stubs.onDiagnostic { diagnostic in reported.withLock { $0.append(diagnostic.message) } }
        stubs.stub(.get(Self.url), .events([ServerSentEvent(data: "x", event: "up\ndate", id: "1\r2")]))
        #expect(reported.value.count == 2, "\(reported.value)")
        #expect(reported.value.first?.contains(#"the event type "up\ndate" has a line break"#) == true)
        #expect(reported.value.last?.contains("the event id") == true)
        #expect(reported.value.allSatisfy { $0.contains("write it on one line") }, "says how to fix it")
    }

    // MARK: Delegates: one chunk per event

    @Test("a delegate receives each event as a chunk of its own, in real time, with text/event-stream")
    func delegateInRealTime() async throws {
        let stubs = StubRegistry()
        stubs.stub(.get(Self.url), .events(Self.events))
        let recorder = ChunkRecorder()
        let session = stubs.makeSession(delegate: recorder)
        defer { session.finishTasksAndInvalidate() }
        session.dataTask(with: URL(string: Self.url)!).resume()
        let result = await recorder.result()
        #expect(result.error == nil)
        #expect(result.chunks.map { String(decoding: $0, as: UTF8.self) } == Self.events.map(\.serialized))
        let response = try #require(result.response as? HTTPURLResponse)
        #expect(response.statusCode == 200)
        #expect(response.value(forHTTPHeaderField: "Content-Type") == "text/event-stream")
    }

    @Test("under a ManualStubClock the first event comes with the response, and each advance releases what is due")
    func delegateInVirtualTime() async throws {
        let clock = ManualStubClock()
        let stubs = StubRegistry(clock: clock)
        stubs.stub(.get(Self.url), .events(Self.events))
        let recorder = ChunkRecorder()
        let session = stubs.makeSession(delegate: recorder)
        defer { session.finishTasksAndInvalidate() }
        session.dataTask(with: URL(string: Self.url)!).resume()
        try await waitUntil { recorder.texts.count == 1 }
        #expect(recorder.gotResponse)
        #expect(recorder.texts == [Self.events[0].serialized], "no clock moved")
        try await waitUntil { clock.pendingCount == 1 }
        await clock.advance(by: .milliseconds(99))
        try await Task.sleep(for: .milliseconds(50))
        #expect(recorder.texts.count == 1, "the second event is due at 100 ms, not before")
        await clock.advance(by: .milliseconds(1))
        try await waitUntil { recorder.texts.count == 2 }
        #expect(!recorder.isComplete)
        await clock.advance(by: .milliseconds(100))
        let result = await recorder.result()
        #expect(result.error == nil)
        #expect(result.chunks.map { String(decoding: $0, as: UTF8.self) } == Self.events.map(\.serialized))
    }

    @Test("under an ImmediateStubClock every event arrives at once, still one chunk each, in order")
    func delegateOnImmediateClock() async throws {
        let stubs = StubRegistry(clock: ImmediateStubClock())
        let many = (0..<50).map { ServerSentEvent(data: "event \($0)", id: "\($0)", after: .seconds(60)) }
        stubs.stub(.get(Self.url), .events(many))
        let recorder = ChunkRecorder()
        let session = stubs.makeSession(delegate: recorder)
        defer { session.finishTasksAndInvalidate() }
        session.dataTask(with: URL(string: Self.url)!).resume()
        let result = await recorder.result()
        #expect(result.chunks.map { String(decoding: $0, as: UTF8.self) } == many.map(\.serialized))
    }

    // MARK: Completion handlers and async calls: the whole stream

    @Test("a completion handler and an async call get the whole stream once its last event is sent")
    func wholeBodyForCompletionHandlerAndAsync() async throws {
        let stubs = StubRegistry()
        stubs.stub(.get(Self.url), .events(Self.events))
        let session = stubs.makeSession()
        let whole = Self.events.map(\.serialized).joined()
        let completion = await complete(session, Self.url)
        #expect(completion.text == whole)
        let (data, _) = try await session.data(from: URL(string: Self.url)!)
        #expect(String(decoding: data, as: UTF8.self) == whole)
    }

    @Test("headers given keep their Content-Type, and the status is the one asked for")
    func headersAndStatus() async throws {
        let stubs = StubRegistry()
        stubs.stub(
            .get(Self.url),
            .events(Self.events, status: 201, headers: ["Content-Type": "text/event-stream; charset=utf-8"])
        )
        let completion = await complete(stubs.makeSession(), Self.url)
        #expect(completion.status == 201)
        #expect(completion.http?.value(forHTTPHeaderField: "Content-Type") == "text/event-stream; charset=utf-8")
    }

    // MARK: Any body, piece by piece

    @Test("chunks: a JSON Lines body reaches a delegate line by line, at each line's time")
    func jsonLines() async throws {
        let clock = ManualStubClock()
        let stubs = StubRegistry(clock: clock)
        let lines = [#"{"n": 1}"#, #"{"n": 2, "more": true}"#, #"{"n": 3}"#].map { $0 + "\n" }
        stubs.stub(
            .get(Self.url),
            .chunks(
                [
                    BodyChunk(text: lines[0]), BodyChunk(text: lines[1], after: .seconds(1)),
                    BodyChunk(text: lines[2], after: .seconds(2)),
                ],
                headers: ["Content-Type": "application/jsonl"]
            )
        )
        let recorder = ChunkRecorder()
        let session = stubs.makeSession(delegate: recorder)
        defer { session.finishTasksAndInvalidate() }
        session.dataTask(with: URL(string: Self.url)!).resume()
        try await waitUntil { recorder.texts.count == 1 }
        try await waitUntil { clock.pendingCount == 1 }
        await clock.advance(by: .seconds(1))
        try await waitUntil { recorder.texts.count == 2 }
        await clock.advance(by: .seconds(2))
        let result = await recorder.result()
        #expect(result.chunks.map { String(decoding: $0, as: UTF8.self) } == lines)
        #expect((result.response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type") == "application/jsonl")
    }

    @Test("an event stream with no event answers at once, with an empty body")
    func noEvents() async throws {
        let stubs = StubRegistry()
        stubs.stub(.get(Self.url), .events([]))
        let completion = await complete(stubs.makeSession(), Self.url)
        #expect(completion.status == 200)
        #expect(completion.data?.isEmpty ?? true)
    }

    // MARK: A stream that drops

    @Test("interrupted: a delegate gets the events sent, then the error; the others get the error")
    func interruptedStream() async throws {
        let stubs = StubRegistry(clock: ImmediateStubClock())
        stubs.stub(.get(Self.url), .events(Array(Self.events.prefix(2))).interrupted(by: .networkConnectionLost))
        let recorder = ChunkRecorder()
        let session = stubs.makeSession(delegate: recorder)
        defer { session.finishTasksAndInvalidate() }
        session.dataTask(with: URL(string: Self.url)!).resume()
        let result = await recorder.result()
        #expect(result.chunks.map { String(decoding: $0, as: UTF8.self) } == Self.events.prefix(2).map(\.serialized))
        #expect((result.error as? URLError)?.code == .networkConnectionLost)
        #expect("\(result.error.map { "\($0)" } ?? "")".contains("interrupted"), "says why")
        let plain = stubs.makeSession()
        #expect(await complete(plain, Self.url).urlError?.code == .networkConnectionLost)
        #expect((await asyncError(plain, Self.url) as? URLError)?.code == .networkConnectionLost)
    }

    @Test("interrupted after a pause: under a ManualStubClock the error waits for the clock")
    func interruptedAfterAPause() async throws {
        let clock = ManualStubClock()
        let stubs = StubRegistry(clock: clock)
        stubs.stub(
            .get(Self.url),
            .events([ServerSentEvent(data: "only")]).interrupted(by: .timedOut, after: .seconds(30))
        )
        let recorder = ChunkRecorder()
        let session = stubs.makeSession(delegate: recorder)
        defer { session.finishTasksAndInvalidate() }
        session.dataTask(with: URL(string: Self.url)!).resume()
        try await waitUntil { recorder.texts.count == 1 }
        await clock.advance(by: .seconds(29))
        try await Task.sleep(for: .milliseconds(50))
        #expect(!recorder.isComplete)
        await clock.advance(by: .seconds(1))
        let result = await recorder.result()
        #expect((result.error as? URLError)?.code == .timedOut)
    }

    // MARK: Streams from files

    @Test("a WireMock mapping answering text/event-stream is sent an event at a time")
    func mappingIsSentEventByEvent() async throws {
        let body = "data: one\n\nevent: two\r\ndata: 2\r\n\r\ndata: three\r\r: trailing comment\n"
        let root = try TemporaryStubRoot(mappings: [
            "stream.json": """
            {"request": {"method": "GET", "url": "/stream"},
             "response": {"status": 200, "headers": {"Content-Type": "text/event-stream"},
                          "body": \(String(decoding: try JSONEncoder().encode(body), as: UTF8.self))}}
            """
        ])
        let stubs = try root.registry()
        let recorder = ChunkRecorder()
        let session = stubs.makeSession(delegate: recorder)
        defer { session.finishTasksAndInvalidate() }
        session.dataTask(with: URL(string: "http://localhost/stream")!).resume()
        let result = await recorder.result()
        #expect(
            result.chunks.map { String(decoding: $0, as: UTF8.self) } == [
                "data: one\n\n", "event: two\r\ndata: 2\r\n\r\n", "data: three\r\r", ": trailing comment\n",
            ]
        )
        #expect(await complete(stubs.makeSession(), "http://localhost/stream").text == body, "whole for the others")
    }

    @Test("a HAR entry whose response is text/event-stream replays as events")
    func harIsSentEventByEvent() async throws {
        let root = try TemporaryStubRoot()
        let body = "id: 1\ndata: a\n\nid: 2\ndata: b\n\n"
        let text = String(decoding: try JSONEncoder().encode(body), as: UTF8.self)
        try root.write(
            "capture.har",
            """
            {"log": {"version": "1.2", "creator": {"name": "test", "version": "1"}, "entries": [
              {"startedDateTime": "2026-01-01T00:00:00Z", "time": 1,
               "request": {"method": "GET", "url": "https://api.example.com/events", "httpVersion": "HTTP/1.1",
                           "headers": [], "queryString": [], "cookies": [], "headersSize": -1, "bodySize": 0},
               "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1", "cookies": [],
                            "headers": [{"name": "Content-Type", "value": "text/event-stream"}],
                            "content": {"size": \(body.utf8.count), "mimeType": "text/event-stream", "text": \(text)},
                            "redirectURL": "", "headersSize": -1, "bodySize": \(body.utf8.count)},
               "cache": {}, "timings": {"send": 0, "wait": 1, "receive": 0}}
            ]}}
            """
        )
        let stubs = StubRegistry()
        try stubs.load(root.path("capture.har"))
        let recorder = ChunkRecorder()
        let session = stubs.makeSession(delegate: recorder)
        defer { session.finishTasksAndInvalidate() }
        session.dataTask(with: URL(string: "https://api.example.com/events")!).resume()
        let result = await recorder.result()
        #expect(
            result.chunks.map { String(decoding: $0, as: UTF8.self) } == ["id: 1\ndata: a\n\n", "id: 2\ndata: b\n\n"]
        )
    }

    @Test("a recorded event stream replays an event at a time")
    func recordingKeepsTheEvents() async throws {
        try await withRecordingFixture { root, server in
            let recorder = try root.recorder(.once)
            #expect(await complete(recorder.makeSession(), server.request("GET", "/events")).status == 200)
            let replayer = try root.replayer()
            let chunks = ChunkRecorder()
            let session = replayer.makeSession(delegate: chunks)
            defer { session.finishTasksAndInvalidate() }
            session.dataTask(with: server.request("GET", "/events")).resume()
            let result = await chunks.result()
            #expect(result.error == nil)
            #expect(
                result.chunks.map { String(decoding: $0, as: UTF8.self) } == [
                    "id: 1\ndata: a\n\n", "id: 2\ndata: b\n\n",
                ]
            )
        }
    }

    @Test("a body that is not an event stream still goes whole, in one chunk")
    func otherBodiesGoWhole() async throws {
        let stubs = StubRegistry()
        stubs.stub(.get(Self.url), .text("data: a\n\ndata: b\n\n"))
        let recorder = ChunkRecorder()
        let session = stubs.makeSession(delegate: recorder)
        defer { session.finishTasksAndInvalidate() }
        session.dataTask(with: URL(string: Self.url)!).resume()
        #expect(await recorder.result().chunks.count == 1)
    }
}
