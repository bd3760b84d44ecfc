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

        /// Whether the load is over once this is delivered.
        var endsTheLoad: Bool {
            switch self {
            case .finish, .fail: true
            case .receive, .load, .progress: false
            }
        }
    }

    /// An action and when it is due.
    struct Event {
        let time: Duration
        let action: Action
    }

    private let events: [Event]
    private let timeout: Duration?
    private let url: URL?
    private var cursor = 0
    private var lastActivity = Duration.zero
    private(set) var isFinished = false
    /// Whether every event is due at the start (no delay, no dribble): then all are due whenever
    /// the timeline is advanced, and the clock need not be read to know it.
    let isDueAtStart: Bool

    init(events: [Event], timeout: Duration?, url: URL?) {
        self.events = events
        self.timeout = timeout
        self.url = url
        isDueAtStart = events.allSatisfy { $0.time == .zero }
    }

    /// A finished timeline with nothing left in it: what a load keeps once its last event is out.
    static var over: DeliveryTimeline {
        var timeline = DeliveryTimeline(events: [], timeout: nil, url: nil)
        timeline.isFinished = true
        return timeline
    }

    /// The actions due by `elapsed`, in order, and when the next one is due (`nil` once finished).
    mutating func advance(to elapsed: Duration) -> (due: [Action], nextWake: Duration?) {
        var due: [Action] = []
        while !isFinished, cursor < events.count {
            let event = events[cursor]
            if let timeout, event.time - lastActivity > timeout {
                let deadline = lastActivity + timeout
                guard elapsed >= deadline else { return (due, deadline) }
                due.append(.fail(timedOut(after: timeout)))
                isFinished = true
                break
            }
            guard event.time <= elapsed else { return (due, event.time) }
            if case .progress = event.action {
            } else {
                if due.isEmpty { due.reserveCapacity(min(events.count - cursor, 4)) }
                due.append(event.action)
            }
            lastActivity = event.time
            cursor += 1
            switch event.action {
            case .finish, .fail: isFinished = true
            case .receive, .load, .progress: break
            }
        }
        return (due, nil)
    }

    private func timedOut(after timeout: Duration) -> URLError {
        MessageFirstError.urlError(
            .timedOut,
            message:
                "The request timed out: the stub had not answered after \(timeout.seconds) s, the request's timeout.",
            url: url
        )
    }
}
