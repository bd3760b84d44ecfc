import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A Server-Sent Events consumer in the style of LLM and agent SDKs: a URLSession data delegate
/// parses `text/event-stream` as it arrives, and ``events(_:lastEventID:)`` hands each event to an
/// `AsyncThrowingStream`.
///
/// A delegate-based session must be made with its delegate, so the client takes the
/// configuration to make it from: in tests, the stub registry's (`stubs.configuration()`).
///
/// ```swift
/// let client = EventStreamClient(baseURL: URL(string: "https://api.example.com")!, configuration: stubs.configuration())
/// for try await event in client.events("/v1/stream") { print(event.data) }
/// ```
public final class EventStreamClient: Sendable {
    private let baseURL: URL
    private let session: URLSession
    private let streams: EventStreamDelegate

    /// A client of the server at `baseURL`, whose session is made from `configuration`.
    public init(baseURL: URL, configuration: URLSessionConfiguration) {
        self.baseURL = baseURL
        let streams = EventStreamDelegate()
        self.streams = streams
        session = URLSession(configuration: configuration, delegate: streams, delegateQueue: nil)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    /// The events of the stream at `path`, as they arrive; it ends when the server ends the
    /// response, and throws the `URLError` of a connection that fails. Stopping the iteration (or
    /// cancelling its task) cancels the request. With `lastEventID`, the request carries
    /// `Last-Event-ID`, as a client that resumes a dropped stream sends it.
    public func events(_ path: String, lastEventID: String? = nil) -> AsyncThrowingStream<ReceivedEvent, any Error> {
        var request = URLRequest(url: baseURL.appendingPathComponent(path))
        request.setValue("text/event-stream", forHTTPHeaderField: "Accept")
        if let lastEventID { request.setValue(lastEventID, forHTTPHeaderField: "Last-Event-ID") }
        let (stream, continuation) = AsyncThrowingStream<ReceivedEvent, any Error>.makeStream()
        let task = session.dataTask(with: request)
        streams.open(task, continuation)
        continuation.onTermination = { termination in
            if case .cancelled = termination { task.cancel() }
        }
        task.resume()
        return stream
    }

    /// How long the server last asked clients to wait before reconnecting (`retry:`), if it did.
    public var reconnectionDelay: Duration? { streams.reconnectionDelay }
}

/// One event as a client dispatches it.
public struct ReceivedEvent: Sendable, Hashable {
    /// The event type: `message` unless the stream named another.
    public let event: String
    /// The data lines, joined with line feeds.
    public let data: String
    /// The last event id the stream set, which a reconnecting client sends as `Last-Event-ID`.
    public let lastEventID: String?

    /// An event as dispatched.
    public init(event: String, data: String, lastEventID: String?) {
        self.event = event
        self.data = data
        self.lastEventID = lastEventID
    }
}

/// The delegate of an ``EventStreamClient``'s session: one parser per task.
private final class EventStreamDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // Invariant: `open` and `retry` are only touched while `lock` is held; continuations are
    // called after it is released.
    typealias Continuation = AsyncThrowingStream<ReceivedEvent, any Error>.Continuation

    private let lock = NSLock()
    private var open: [Int: (parser: EventStreamParser, continuation: Continuation)] = [:]
    private var retry: Duration?

    var reconnectionDelay: Duration? { lock.withLock { retry } }

    func open(_ task: URLSessionTask, _ continuation: Continuation) {
        lock.withLock { open[task.taskIdentifier] = (EventStreamParser(), continuation) }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let (events, continuation) = lock.withLock { () -> ([ReceivedEvent], Continuation?) in
            guard var entry = open[dataTask.taskIdentifier] else { return ([], nil) }
            let events = entry.parser.feed(data)
            if let delay = entry.parser.retry { retry = delay }
            open[dataTask.taskIdentifier] = entry
            return (events, entry.continuation)
        }
        for event in events { continuation?.yield(event) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let continuation = lock.withLock { open.removeValue(forKey: task.taskIdentifier)?.continuation }
        if let status = (task.response as? HTTPURLResponse)?.statusCode, !(200..<300).contains(status), error == nil {
            continuation?.finish(throwing: URLError(.badServerResponse))
        } else {
            continuation?.finish(throwing: error)
        }
    }
}
