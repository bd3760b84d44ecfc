import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A chosen stub's response with every computation done: computed responses evaluated, the body
/// read and the delay drawn (see ``ResponseResolution``). What a stub answers, before delivery
/// follows redirects and lays out the timeline (``ResponsePlanner``), or ``StubAnswer`` reports it.
struct ResolvedResponse {
    enum Answer {
        /// The status and the headers as the stub writes them; a body file that does not exist
        /// answers 500 (as WireMock does), without the stub's reason phrase.
        case http(status: Int, reason: String?, headers: HeaderFields, body: Data)
        /// The error, a `URLError` with the failing URL filled in when it is one.
        case failure(any Error)
        case urlResponse(URLResponse?, data: Data?)
    }

    let answer: Answer
    /// How long the stub waits before answering: zero when it sets no delay.
    let delay: Duration
    let dribble: Dribble?

    /// A response answering `answer`; header fields with a character that would break their line
    /// on the wire (a CR or LF a template took from the request) are sent as a server sends them
    /// (``HeaderFields/withLineBreaksReplaced``), whether a template, a stub file or code set them,
    /// and a `text/event-stream` body is sent an event at a time (``Dribble/eventByEvent(_:headers:dribble:)``).
    init(answer: Answer, delay: Duration, dribble: Dribble?) {
        if case let .http(status, reason, headers, body) = answer {
            let sent = headers.withLineBreaksReplaced
            if let sent {
                self.answer = .http(status: status, reason: reason, headers: sent, body: body)
            } else {
                self.answer = answer
            }
            self.dribble = Dribble.eventByEvent(body, headers: sent ?? headers, dribble: dribble)
        } else {
            self.answer = answer
            self.dribble = dribble
        }
        self.delay = delay
    }

    /// The response failing the request to `url` at once with `error`.
    static func failed(_ error: any Error, url: URL) -> ResolvedResponse {
        ResolvedResponse(answer: .failure(withFailingURL(error, url)), delay: .zero, dribble: nil)
    }

    /// A `URLError` with the failing URL filled in, as URLSession's own errors have it.
    static func withFailingURL(_ error: any Error, _ url: URL) -> any Error {
        guard let urlError = error as? URLError, urlError.failingURL == nil else { return error }
        var info = urlError.userInfo
        info[NSURLErrorFailingURLErrorKey] = url
        return URLError(urlError.code, userInfo: info)
    }
}
