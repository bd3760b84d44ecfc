import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An open response body that the test writes while the client reads it: a Server-Sent Events
/// stream, a JSON Lines feed, a download that arrives when the test says so.
///
/// A stub answers with ``StubResponse/stream(_:status:headers:)``: the response goes out when the
/// request arrives, and stays open. Each ``send(_:)-(ServerSentEvent)`` or ``send(_:)-(Data)`` is
/// delivered as a chunk of its own, now; ``finish()`` completes the response, ``fail(_:)`` ends it
/// with a `URLError`. What is sent before the request arrives waits for it, and is delivered with
/// the response, a chunk each.
///
/// ```swift
/// let stream = StubStream()
/// stubs.stub(.get("https://api.example.com/events"), .stream(stream))
///
/// let reading = Task { try await client.collectEvents() }
/// let request = try await stream.waitForRequest()
/// #expect(request.headers["Accept"] == "text/event-stream")
/// stream.send(ServerSentEvent(data: "hello", id: "1"))
/// stream.finish()
/// ```
///
/// URLSession delegates receive each chunk as it is sent; completion handlers and `async`
/// `data(for:)` receive the whole body when the stream finishes (on Linux they would keep only the
/// last chunk otherwise). An open stream does not time out: the test ends it, the client cancels it,
/// or the end of its test fails it (a test failure saying the stream was left open).
///
/// A stream answers one request. A second request that a stub answers with the same stream fails
/// with `URLError(.resourceUnavailable)`, reported as a problem of that stub: give each request its
/// own stream (several responses, or a computed response that makes one).
public final class StubStream: Sendable, CustomStringConvertible {
    /// Where the stream was made, as `File.swift:12:9`: what messages about it name.
    let origin: String
    private let state = Locked(State())

    private struct State {
        /// Sent by the test and not yet taken by the request's delivery.
        var queued: [Data] = []
        /// How the test ended the stream, not yet taken by the delivery.
        var end: End?
        /// Whether ``finish()`` or ``fail(_:)`` was called, or the stream ended otherwise.
        var closed = false
        /// How the stream ended for its client, once it did.
        var ending: ResponseEnding?
        /// The request the stream answers, once one arrived.
        var request: InterceptedRequest?
        /// Where its journal entry is.
        var journal: JournalPlace?
        /// Wakes the request's delivery when something is sent: set once the response has gone
        /// out, dropped when the stream ends.
        var listener: (@Sendable () -> Void)?
        /// Whether the listener was called and the delivery has not taken what is queued yet.
        var wakePending = false
        /// What the delivery took: the body as the client received it (or will, at the end, for a
        /// completion handler).
        var delivered = Data()
        /// Whether the client receives each chunk (a delegate) rather than the whole body at the end.
        var deliversChunks = true
    }

    /// How the test ended the stream.
    enum End: Sendable {
        case finish
        case fail(URLError.Code)
    }

    /// A request's journal entry, in a registry held weakly (the registry holds the stub, which
    /// holds the stream).
    private struct JournalPlace {
        weak var registry: StubRegistry?
        let id: Int
    }

    /// A stream to answer one request with; `fileID`, `line` and `column` say where it was made, for
    /// the messages that name it.
    public init(fileID: StaticString = #fileID, line: UInt = #line, column: UInt = #column) {
        origin = "\(fileID):\(line):\(column)"
    }

    /// `StubStream (MyTests/FeedTests.swift:12:9)`.
    public var description: String { "StubStream (\(origin))" }

    // MARK: Written by the test

    /// Sends an event now, serialized as ``ServerSentEvent/serialized`` (its `after` is ignored:
    /// the test chooses when to send). Returns `false`, dropping the event, when the stream has ended
    /// (the test finished or failed it, the client cancelled, its test ended).
    @discardableResult
    public func send(_ event: ServerSentEvent) -> Bool {
        send(Data(event.serialized.utf8))
    }

    /// Sends bytes now, as a chunk of their own. Returns `false`, dropping them, when the stream has
    /// ended (the test finished or failed it, the client cancelled, its test ended).
    @discardableResult
    public func send(_ data: Data) -> Bool {
        accept { $0.queued.append(data) }
    }

    /// Completes the response after what was sent. Returns `false` when the stream had ended already.
    @discardableResult
    public func finish() -> Bool {
        close(.finish)
    }

    /// Ends the response with `URLError(code)` (say `.networkConnectionLost`) after what was sent: a
    /// delegate receives the chunks, then the error; a completion handler or an `async` call gets the
    /// error. Returns `false` when the stream had ended already.
    @discardableResult
    public func fail(_ code: URLError.Code) -> Bool {
        close(.fail(code))
    }

    private func close(_ end: End) -> Bool {
        accept { state in
            state.closed = true
            state.end = end
        }
    }

    /// Queues what `change` adds unless the stream has ended (returns whether it had not), then
    /// wakes the delivery, outside the lock, unless it was woken and has not taken what is queued
    /// since.
    private func accept(_ change: (inout State) -> Void) -> Bool {
        let (accepted, wake) = state.withLock { state -> (Bool, (@Sendable () -> Void)?) in
            guard !state.closed else { return (false, nil) }
            change(&state)
            guard let listener = state.listener, !state.wakePending else { return (true, nil) }
            state.wakePending = true
            return (true, listener)
        }
        wake?()
        return accepted
    }

    // MARK: Read by the test

    /// The request the stream answers, once one arrived.
    public var request: InterceptedRequest? {
        state.withLock { $0.request }
    }

    /// How the stream ended for its client: ``ResponseEnding/inProgress`` until it does (and until
    /// a request arrives).
    public var ending: ResponseEnding {
        state.withLock { $0.ending ?? .inProgress }
    }

    /// Waits until a request reaches the stream, and returns it (its `Last-Event-ID` header, say):
    /// when a stub chose to answer it with the stream, before any delay of the stub has passed and
    /// the response has gone out. What is sent from then on is delivered as soon as it can be.
    ///
    /// Waits in real time, whatever the registry's clock, at most `timeout`: then it throws an error
    /// saying what to check. Throws `CancellationError` when the waiting task is cancelled.
    public func waitForRequest(timeout: Duration = .seconds(60)) async throws -> InterceptedRequest {
        try await wait(timeout: timeout) {
            $0.request
        } orElse: {
            "No request reached the \(self) within \(timeout.seconds) s. Check that a stub answers with "
                + ".stream(stream), that the code under test sent its request through a session of that stub's "
                + "registry, and that it started before the wait."
        }
    }

    /// Waits until the stream has ended for its client, and returns how: ``ResponseEnding/finished``
    /// or ``ResponseEnding/failed(_:)`` once the end the test sent is being delivered,
    /// ``ResponseEnding/cancelledByClient`` when the client cancelled the task (a consumer that
    /// stopped reading), ``ResponseEnding/failed(_:)`` when the request failed before the stream
    /// opened (its timeout ran out during the stub's delay), ``ResponseEnding/testEnded`` when
    /// its test ended first.
    ///
    /// Waits in real time, at most `timeout`: then it throws an error saying so.
    public func waitForEnd(timeout: Duration = .seconds(60)) async throws -> ResponseEnding {
        try await wait(timeout: timeout) {
            $0.ending
        } orElse: { [self] in
            let state = state.withLock { (request: $0.request != nil, closed: $0.closed) }
            let cause =
                !state.request
                ? "no request reached it"
                : state.closed
                    ? "the client has not read the end yet" : "it is still open: call finish() or fail(_:)"
            return "The \(self) had not ended within \(timeout.seconds) s: \(cause)."
        }
    }

    /// Polls `read` until it gives a value, for at most `timeout`.
    private func wait<Value>(
        timeout: Duration,
        _ read: (State) -> Value?,
        orElse message: () -> String
    ) async throws -> Value {
        let deadline = ContinuousClock.now + timeout
        var pause = Duration.microseconds(200)
        while true {
            if let value = state.withLock({ read($0) }) { return value }
            try Task.checkCancellation()
            guard ContinuousClock.now < deadline else { throw StubStreamTimeout(message: message()) }
            try await Task.sleep(for: pause)
            pause = min(pause * 2, .milliseconds(5))
        }
    }

    // MARK: Used by the delivery

    /// Takes the stream for `request`, journaled as entry `journalID` of `registry`: returns the
    /// request it answers already, if another request took it first.
    func connect(
        _ request: InterceptedRequest,
        registry: StubRegistry,
        journalID: Int,
        deliversChunks: Bool
    ) -> InterceptedRequest? {
        state.withLock { state in
            if let first = state.request { return first }
            state.request = request
            state.journal = JournalPlace(registry: registry, id: journalID)
            state.deliversChunks = deliversChunks
            return nil
        }
    }

    /// Calls `wake` (never under the stream's lock) each time something is sent after the delivery
    /// took what was queued. Returns whether something is queued already: the delivery then wakes
    /// itself (`wake` is not called for it).
    func listen(_ wake: @escaping @Sendable () -> Void) -> Bool {
        state.withLock { state -> Bool in
            guard state.ending == nil else { return false }
            state.listener = wake
            guard !state.queued.isEmpty || state.end != nil else { return false }
            state.wakePending = true
            return true
        }
    }

    /// What the delivery sends next: the chunks queued (for a completion handler, none until the
    /// end, then the whole body), and the end, once the test sent it. Journals the end.
    func take() -> (chunks: [Data], end: End?) {
        let (taken, end, journal) = state.withLock { state -> ([Data], End?, (JournalPlace, Data, ResponseEnding)?) in
            state.wakePending = false
            var chunks = state.queued
            state.queued.removeAll()
            for chunk in chunks { state.delivered.append(chunk) }
            if !state.deliversChunks { chunks = state.end == nil || state.delivered.isEmpty ? [] : [state.delivered] }
            guard let end = state.end.take() else { return (chunks, nil, nil) }
            state.listener = nil
            let ending: ResponseEnding
            switch end {
            case .finish: ending = .finished
            case let .fail(code): ending = .failed(code)
            }
            state.ending = ending
            return (chunks, end, state.journal.map { ($0, state.delivered, ending) })
        }
        if let (place, body, ending) = journal { place.registry?.endResponse(place.id, body: body, ending: ending) }
        return (taken, end)
    }

    /// The error a client gets when the test ends the stream with ``fail(_:)``.
    func failure(_ code: URLError.Code) -> URLError {
        MessageFirstError.urlError(
            code,
            message: "The test ended the \(self) with fail(.\(URLErrorNames.name(of: code))).",
            url: request?.url
        )
    }

    /// The stream's client went away before its end (`ending`: the client cancelled, the request
    /// failed, its test ended): what is sent later is dropped. Journals the end; nothing when the
    /// stream had ended already.
    func disconnect(_ ending: ResponseEnding) {
        let journal = state.withLock { state -> (JournalPlace, Data)? in
            guard state.ending == nil else { return nil }
            state.ending = ending
            state.closed = true
            state.end = nil
            state.queued.removeAll()
            state.listener = nil
            return state.journal.map { ($0, state.delivered) }
        }
        if let (place, body) = journal { place.registry?.endResponse(place.id, body: body, ending: ending) }
    }
}

/// A wait on a ``StubStream`` that ran out of time: its description says what to check.
public struct StubStreamTimeout: Error, Sendable, CustomStringConvertible, LocalizedError {
    /// What did not happen in time, and what to check.
    public let message: String

    public var description: String { message }
    public var errorDescription: String? { message }
}
