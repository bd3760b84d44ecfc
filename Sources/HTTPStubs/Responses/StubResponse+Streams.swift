import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension StubResponse {
    /// A `text/event-stream` response (that `Content-Type` unless the headers name one): each
    /// event is sent as a chunk of its own at its own time (see ``ServerSentEvent/after``), and the
    /// response ends after the last one.
    ///
    /// URLSession delegates receive each event as it is sent, the first ones with the response;
    /// completion handlers and `async` calls receive the whole stream when its last event is sent.
    /// Under a `ManualStubClock`, `advance(by:)` releases exactly the events due by then; under an
    /// `ImmediateStubClock`, all of them at once, each still a chunk of its own.
    public static func events(
        _ events: [ServerSentEvent],
        status: Int = 200,
        headers: HeaderFields = [:]
    ) -> StubResponse {
        let texts = events.map { Data($0.serialized.utf8) }
        return streamed(
            texts.reduce(into: Data()) { $0.append($1) },
            pieces: zip(texts, events).map { (size: $0.count, after: $1.after) },
            status: status,
            headers: headers.defaulting("Content-Type", "text/event-stream"),
            problems: events.flatMap(\.problems)
        )
    }

    /// A response whose body is sent piece by piece, each chunk at its own time (see
    /// ``BodyChunk/after``): a JSON Lines stream, a download that arrives in parts. No
    /// `Content-Type` unless the headers give one.
    ///
    /// URLSession delegates receive each chunk as it is sent; completion handlers and `async` calls
    /// receive the whole body when its last chunk is sent.
    public static func chunks(_ chunks: [BodyChunk], status: Int = 200, headers: HeaderFields = [:]) -> StubResponse {
        streamed(
            chunks.reduce(into: Data()) { $0.append($1.data) },
            pieces: chunks.map { (size: $0.data.count, after: $0.after) },
            status: status,
            headers: headers
        )
    }

    /// A response whose body the test writes while the client reads it (see ``StubStream``): the
    /// response goes out when the request arrives, each ``StubStream/send(_:)-(ServerSentEvent)`` is a
    /// chunk of its own, and the response ends when the test calls ``StubStream/finish()`` or
    /// ``StubStream/fail(_:)``. `Content-Type: text/event-stream` unless the headers name another
    /// type (`application/jsonl` for JSON Lines, say).
    ///
    /// A delay (``delayed(by:)``) holds the response back as for any other; dribbling and
    /// ``interrupted(by:after:)`` do not apply (the test sends each chunk, and ends the stream with
    /// ``StubStream/fail(_:)``).
    public static func stream(_ stream: StubStream, status: Int = 200, headers: HeaderFields = [:]) -> StubResponse {
        var response = StubResponse(
            .http(
                status: status,
                reason: nil,
                headers: headers.defaulting("Content-Type", "text/event-stream"),
                body: .empty
            )
        )
        response.dribble = Dribble(pushedBy: stream)
        return response
    }

    /// Ends the response with `URLError(code)` (say `.networkConnectionLost`) `after` its body's last
    /// piece, instead of finishing it: a stream whose connection drops. A delegate receives the
    /// response and the pieces sent before, then the error; a completion handler or an `async` call
    /// gets the error. Applies to `.events`, `.chunks`, dribbled bodies and any other body (sent
    /// whole, with the response).
    public func interrupted(by code: URLError.Code, after: Duration = .zero) -> StubResponse {
        if let refused = refusedByStream(
            "interrupted(by:after:)",
            fix: "end it with stream.fail(.\(URLErrorNames.name(of: code))) instead"
        ) {
            return refused
        }
        var copy = self
        copy.dribble = (dribble ?? .whole).interrupted(
            Dribble.Interruption(code: code, after: min(max(after, .zero), .longestWait))
        )
        return copy
    }

    /// A response with `body`, sent as `pieces`.
    private static func streamed(
        _ body: Data,
        pieces: [(size: Int, after: Duration)],
        status: Int,
        headers: HeaderFields,
        problems: [String] = []
    ) -> StubResponse {
        var response = StubResponse(
            .http(status: status, reason: nil, headers: headers, body: .data(body)),
            problems: problems
        )
        response.dribble = Dribble(pieces: pieces)
        return response
    }
}
