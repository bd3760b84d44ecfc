import ExampleClients
import Foundation
import HTTPStubs
import HTTPStubsTesting
import XCTest

/// The example SSE consumer under XCTest, as the Streaming article shows it.
final class EventStreamClientXCTests: XCTestCase {
    func test_eventsArriveAsTheClockReachesThem() async throws {
        let clock = ManualStubClock()
        let stubs = makeStubRegistry(clock: clock)
        stubs.stub(
            .get("https://api.example.com/v1/stream"),
            .events([
                ServerSentEvent(data: "Hel", id: "1"),
                ServerSentEvent(data: "lo", id: "2", after: .seconds(1)),
            ])
        )
        let client = EventStreamClient(
            baseURL: URL(string: "https://api.example.com")!,
            configuration: stubs.configuration()
        )
        var events = client.events("/v1/stream").makeAsyncIterator()
        let first = try await events.next()
        XCTAssertEqual(first?.data, "Hel")
        await clock.advance(by: .seconds(1))
        let second = try await events.next()
        XCTAssertEqual(second?.data, "lo")
        let end = try await events.next()
        XCTAssertNil(end, "the server ended the stream")
    }

    func test_pushedEventsArriveAsSentAndAStoppedReaderIsSeen() async throws {
        let stubs = makeStubRegistry()
        let stream = StubStream()
        stubs.stub(.get("https://api.example.com/v1/stream"), .stream(stream))
        let client = EventStreamClient(
            baseURL: URL(string: "https://api.example.com")!,
            configuration: stubs.configuration()
        )
        let reader = Task {
            for try await event in client.events("/v1/stream") where event.data == "stop" {
                return  // stops reading: the request is cancelled
            }
        }
        let request = try await stream.waitForRequest()
        XCTAssertEqual(request.headers["Accept"], "text/event-stream")
        stream.send(ServerSentEvent(data: "Hel"))
        stream.send(ServerSentEvent(data: "stop"))
        try await reader.value
        let ending = try await stream.waitForEnd()
        XCTAssertEqual(ending, .cancelledByClient)
        XCTAssertEqual(stubs.journal.last?.response?.ending, .cancelledByClient)
    }
}
