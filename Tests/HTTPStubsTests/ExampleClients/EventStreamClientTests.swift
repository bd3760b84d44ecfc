import ExampleClients
import Foundation
import HTTPStubs
import HTTPStubsTesting
import Testing

/// The example SSE consumer (a URLSession data delegate bridged to an `AsyncThrowingStream`)
/// against `.events` stubs: events as they arrive in virtual time, the end of a stream, and a
/// reconnection that resumes after the last event id.
@Suite("EventStreamClient against .events stubs", .timeLimit(.minutes(1)))
struct EventStreamClientTests {
    @Test("events arrive one by one: the first with the response, the next when the clock reaches it")
    func eventsInVirtualTime() async throws {
        let clock = ManualStubClock()
        try await withHTTPStubs(clock: clock) { (stubs: StubRegistry) async throws in
            stubs.stub(
                .get("https://api.example.com/v1/stream"),
                .events([
                    ServerSentEvent(data: #"{"token": "Hel"}"#, id: "1"),
                    ServerSentEvent(data: #"{"token": "lo"}"#, id: "2", after: .seconds(1)),
                ])
            )
            let client = EventStreamClient(
                baseURL: URL(string: "https://api.example.com")!,
                configuration: stubs.configuration()
            )
            var events = client.events("/v1/stream").makeAsyncIterator()
            #expect(try await events.next()?.data == #"{"token": "Hel"}"#)  // no clock moved
            await clock.advance(by: .seconds(1))
            #expect(
                try await events.next() == ReceivedEvent(event: "message", data: #"{"token": "lo"}"#, lastEventID: "2")
            )
            #expect(try await events.next() == nil)  // the server ended the stream
        }
    }

    @Test("a dropped stream resumes: the reconnection carries Last-Event-ID and gets the rest, after retry")
    func reconnection() async throws {
        try await withHTTPStubs(clock: ImmediateStubClock()) { (stubs: StubRegistry) async throws in
            stubs.stub(
                .get("https://api.example.com/v1/stream"),
                .events([
                    ServerSentEvent(data: "first", id: "1", retry: .seconds(2)),
                    ServerSentEvent(data: "second", id: "2", after: .milliseconds(500)),
                ])
            )
            // Newer stubs are tried first: a request that resumes after event 2 gets the rest.
            stubs.stub(
                .get("https://api.example.com/v1/stream").header("Last-Event-ID", "2"),
                .events([ServerSentEvent(data: "third", event: "end", id: "3")])
            )
            let client = EventStreamClient(
                baseURL: URL(string: "https://api.example.com")!,
                configuration: stubs.configuration()
            )
            var received: [ReceivedEvent] = []
            for try await event in client.events("/v1/stream") { received.append(event) }
            #expect(client.reconnectionDelay == .seconds(2))
            for try await event in client.events("/v1/stream", lastEventID: received.last?.lastEventID) {
                received.append(event)
            }
            #expect(received.map(\.data) == ["first", "second", "third"])
            #expect(received.last?.event == "end")
            #expect(stubs.journal.last?.request.headers["Last-Event-ID"] == "2")
        }
    }

    @Test(
        "a pushed stream: the test sends each event while the client reads, drops the connection, and the client resumes"
    )
    func pushedStreamDropsAndResumes() async throws {
        try await withHTTPStubs { (stubs: StubRegistry) async throws in
            let first = StubStream()
            let resumed = StubStream()
            stubs.stub(.get("https://api.example.com/v1/stream"), .stream(first))
            stubs.stub(.get("https://api.example.com/v1/stream").header("Last-Event-ID", "1"), .stream(resumed))
            let client = EventStreamClient(
                baseURL: URL(string: "https://api.example.com")!,
                configuration: stubs.configuration()
            )
            var events = client.events("/v1/stream").makeAsyncIterator()
            first.send(ServerSentEvent(data: "Hel", id: "1", retry: .seconds(1)))
            #expect(try await events.next()?.data == "Hel")
            first.fail(.networkConnectionLost)  // the connection drops
            await #expect(throws: URLError.self) { try await events.next() }

            var rest = client.events("/v1/stream", lastEventID: "1").makeAsyncIterator()
            let request = try await resumed.waitForRequest()
            #expect(request.headers["Last-Event-ID"] == "1")
            resumed.send(ServerSentEvent(data: "lo", id: "2"))
            #expect(try await rest.next()?.data == "lo")
            resumed.finish()
            #expect(try await rest.next() == nil)
        }
    }

    @Test("the parser reads lines split across chunks, CRLF and CR line ends, comments and multi-line data")
    func parserAcrossChunks() async throws {
        try await withHTTPStubs(clock: ImmediateStubClock()) { (stubs: StubRegistry) async throws in
            let text = ": hello\r\nevent: update\r\ndata: a\r\ndata: b\r\n\r\ndata: c\rid: 9\r\r"
            let bytes = Array(text.utf8)
            // One byte per chunk: every line end is split from the line it ends.
            stubs.stub(.get("https://api.example.com/v1/bytes"), .chunks(bytes.map { BodyChunk(Data([$0])) }))
            let client = EventStreamClient(
                baseURL: URL(string: "https://api.example.com")!,
                configuration: stubs.configuration()
            )
            var received: [ReceivedEvent] = []
            for try await event in client.events("/v1/bytes") { received.append(event) }
            #expect(
                received == [
                    ReceivedEvent(event: "update", data: "a\nb", lastEventID: nil),
                    ReceivedEvent(event: "message", data: "c", lastEventID: "9"),
                ]
            )
        }
    }
}
