import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The state machine of one stubbed load: what to tell the URLSession client, and when.
///
/// Times are durations since the load started. The timeline also enforces the request timeout the
/// way a server that goes quiet would trigger it: when the next event would come more than
/// `timeout` after the previous one (or after the start), the load fails with
/// `URLError(.timedOut)` at that moment instead.
struct DeliveryTimeline {
    /// Something to tell the client.
    enum Action {
        case receive(URLResponse)
        case load(Data)
        case finish
        case fail(any Error)
        /// Nothing reaches the client, but the stub shows a sign of life (a chunk a completion
        /// handler will only see at the end, a redirect hop): the idle timeout starts over.
        case progress
        /// The last event of a ``StubStream``'s response: what follows is what the test sends,
        /// as it sends it (see ``DeliveryTimeline/stream``).
        case stream(StubStream)

        /// Whether the load is over once this is delivered.
        var endsTheLoad: Bool {
            switch self {
            case .finish, .fail: true
            case .receive, .load, .progress, .stream: false
            }
        }
    }

    /// An action and when it is due.
    struct Event {
        let time: Duration
        let action: Action

        /// The events of a response and its whole body, all due at `time`: the common answer,
        /// built as one literal (one allocation of the right size).
        static func answer(_ response: URLResponse, body: Data, at time: Duration) -> [Event] {
            body.isEmpty
                ? [.init(time: time, action: .receive(response)), .init(time: time, action: .finish)]
                : [
                    .init(time: time, action: .receive(response)), .init(time: time, action: .load(body)),
                    .init(time: time, action: .finish),
                ]
        }
    }

    private var events: [Event]
    private let timeout: IdleTimeout?
    /// The stream the load's last events come from, once its ``Action/stream(_:)`` event was
    /// reached: each advance takes what the test sent since (an open stream never times out).
    private(set) var stream: StubStream?
    private var cursor = 0
    /// The time of the last event delivered (or of the timeout's failure).
    private(set) var lastActivity = Duration.zero
    private(set) var isFinished = false
    /// Whether every event is due at the start (no delay, no dribble): then all are due whenever
    /// the timeline is advanced, and the clock need not be read to know it.
    let isDueAtStart: Bool

    /// The idle timeout, and the URL its failure names.
    ///
    /// A class, so that the timeline holds no `URL` of its own: Foundation's `URL` is resilient,
    /// and a struct with one is copied and destroyed through its type's metadata, while a load
    /// moves its timeline several times (BENCHMARKS.md, "Copies through type metadata"). Made only for a timeline with
    /// a timeout and an event that waits.
    private final class IdleTimeout: Sendable {
        let limit: Duration
        let url: URL?

        init(limit: Duration, url: URL?) {
            self.limit = limit
            self.url = url
        }
    }

    /// A timeline delivering `events`; with a `timeout`, the load fails naming `url` when the next
    /// event would come more than `timeout` after the previous one. Both are read only when some
    /// event is due after the start: an idle timeout can only fire before such an event.
    init(events: [Event], timeout: @autoclosure () -> Duration?, url: @autoclosure () -> URL?) {
        self.events = events
        isDueAtStart = !Self.waits(events)
        self.timeout = isDueAtStart ? nil : timeout().map { IdleTimeout(limit: $0, url: url()) }
    }

    /// Whether some event is due after the start. Reads each event's time in place: iterating the
    /// events would copy each one (retaining what its action holds) to read one field.
    private static func waits(_ events: [Event]) -> Bool {
        for index in events.indices where events[index].time > .zero {
            return true
        }
        return false
    }

    /// A time after every event of any timeline (each is at most a delay and a body's pieces of
    /// 100 years each, per redirect hop): what everything is due by.
    static let end = Duration.seconds(Int64(1) << 56)

    /// A finished timeline with nothing left in it: what a load keeps once its last event is out.
    static var over: DeliveryTimeline {
        var timeline = DeliveryTimeline(events: [], timeout: nil, url: nil)
        timeline.isFinished = true
        return timeline
    }

    /// What ``advance(to:)`` found due: a run of the timeline's events (its `.progress` events
    /// reach no one, see ``forEachAction(_:)``), then the timeout's failure when the load timed out.
    ///
    /// A view of the events rather than a new array: a request whose events are all due at once
    /// (most of them) then allocates nothing to deliver them.
    struct Due {
        /// The events that came due; shares the timeline's storage.
        private(set) var events: ArraySlice<Event>
        /// The failure of a load that timed out, after `events`.
        private(set) var timeout: Action?

        /// How the load ends, if it does with these: the timeout's failure, or the last action.
        var end: Action? {
            if let timeout { return timeout }
            guard let last = events.indices.last, events[last].action.endsTheLoad else { return nil }
            return events[last].action
        }

        /// The last action, if it ends the load, taken out (to be delivered later).
        mutating func removeEnd() -> Action? {
            if let timeout {
                self.timeout = nil
                return timeout
            }
            guard let last = events.last, last.action.endsTheLoad else { return nil }
            events.removeLast()
            return last.action
        }

        /// Calls `body` with each action to tell the client, in order.
        func forEachAction(_ body: (Action) -> Void) {
            for index in events.indices {
                switch events[index].action {
                case .progress, .stream: continue
                case .receive, .load, .finish, .fail: break
                }
                body(events[index].action)
            }
            if let timeout { body(timeout) }
        }
    }

    /// What is due by `elapsed`, in order, and when the next event is due (`nil` once finished).
    mutating func advance(to elapsed: Duration) -> (due: Due, nextWake: Duration?) {
        if stream != nil, cursor == events.count {
            // What the stream sent before was delivered: its events need not be kept.
            events.removeAll(keepingCapacity: true)
            cursor = 0
        }
        let first = cursor
        var timeoutFailure: Action?
        var nextWake: Duration?
        while !isFinished, cursor < events.count || takeFromStream() {
            // Read in place: copying the event would retain what its action holds.
            let time = events[cursor].time
            if let timeout, time - lastActivity > timeout.limit {
                let deadline = lastActivity + timeout.limit
                guard elapsed >= deadline else {
                    nextWake = deadline
                    break
                }
                timeoutFailure = .fail(timedOut(after: timeout))
                lastActivity = deadline
                isFinished = true
                break
            }
            guard time <= elapsed else {
                nextWake = time
                break
            }
            lastActivity = time
            switch events[cursor].action {
            case .finish, .fail: isFinished = true
            case let .stream(opened): stream = opened
            case .receive, .load, .progress: break
            }
            cursor += 1
        }
        return (Due(events: events[first..<cursor], timeout: timeoutFailure), nextWake)
    }

    /// The stream the load reads or will read: ``stream`` once reached, before that the stream of
    /// an ``Action/stream(_:)`` event still to come (a response that waits for its delay).
    var pushedStream: StubStream? {
        if let stream { return stream }
        for index in cursor..<events.count {
            if case let .stream(stream) = events[index].action { return stream }
        }
        return nil
    }

    /// The body delivered so far: the chunks before the cursor (for an answer that is no stream).
    var deliveredBody: Data {
        var body = Data()
        for index in 0..<cursor {
            if case let .load(chunk) = events[index].action { body.append(chunk) }
        }
        return body
    }

    /// Appends what the open stream sent since the last advance, due now (at the last activity, so
    /// that the idle timeout never fires): returns whether there was anything.
    private mutating func takeFromStream() -> Bool {
        guard let stream else { return false }
        let (chunks, end) = stream.take()
        for chunk in chunks { events.append(.init(time: lastActivity, action: .load(chunk))) }
        switch end {
        case nil: break
        case .finish: events.append(.init(time: lastActivity, action: .finish))
        case let .fail(code): events.append(.init(time: lastActivity, action: .fail(stream.failure(code))))
        }
        return cursor < events.count
    }

    private func timedOut(after timeout: IdleTimeout) -> URLError {
        MessageFirstError.urlError(
            .timedOut,
            message:
                "The request timed out: the stub had not answered after \(timeout.limit.seconds) s, the request's timeout.",
            url: timeout.url
        )
    }
}
