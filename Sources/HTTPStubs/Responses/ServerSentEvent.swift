import Foundation

/// One event of a `text/event-stream` response (``StubResponse/events(_:status:headers:)``), with
/// the time it is sent.
///
/// It is written as the Server-Sent Events specification (HTML, §9.2) reads it: an `event:` line
/// when it has a type, an `id:` line when it has an id, a `retry:` line in whole milliseconds, one
/// `data:` line per line of its data, then a blank line.
///
/// ```swift
/// .events([
///     ServerSentEvent(data: #"{"token": "Hel"}"#),                                // with the response
///     ServerSentEvent(data: #"{"token": "lo"}"#, after: .milliseconds(100)),
///     .comment("keep-alive", after: .seconds(15)),
///     ServerSentEvent(data: "[DONE]", event: "end", id: "3", after: .milliseconds(100)),
/// ])
/// ```
public struct ServerSentEvent: Sendable, Hashable, CustomStringConvertible {
    /// The event's data; each of its lines (split at `\n`, `\r\n` or `\r`) is a `data:` line.
    public var data: String
    /// The event type (`event:`), which a client dispatches on; `nil` for the default, `message`.
    public var event: String?
    /// The event id (`id:`), which a client sends back as `Last-Event-ID` when it reconnects.
    public var id: String?
    /// How long a client waits before reconnecting (`retry:`, in whole milliseconds).
    public var retry: Duration?
    /// The time from the previous event, or from the response for the first: an event with
    /// `after: .zero` first arrives with the response, without any clock moving.
    public var after: Duration
    /// A comment's text, for ``comment(_:after:)``; `nil` for an event.
    private var commentText: String?

    /// An event with `data`, sent `after` the previous one (or the response).
    public init(data: String, event: String? = nil, id: String? = nil, retry: Duration? = nil, after: Duration = .zero)
    {
        self.data = data
        self.event = event
        self.id = id
        self.retry = retry
        self.after = after
    }

    /// A comment line (`: keep-alive`), which a client ignores: what servers send to keep a quiet
    /// connection open. Each line of `text` is a comment line of its own.
    public static func comment(_ text: String, after: Duration = .zero) -> ServerSentEvent {
        var comment = ServerSentEvent(data: "", after: after)
        comment.commentText = text
        return comment
    }

    /// Whether this is a comment rather than an event.
    public var isComment: Bool { commentText != nil }

    /// The event as it is sent, blank line included.
    public var serialized: String {
        if let commentText {
            return Self.lines(of: commentText).map { ":\($0.isEmpty ? "" : " \($0)")\n" }.joined() + "\n"
        }
        var text = ""
        if let event { text += "event: \(Self.oneLine(event))\n" }
        if let id { text += "id: \(Self.oneLine(id))\n" }
        if let retry { text += "retry: \(max(retry, .zero).milliseconds)\n" }
        for line in Self.lines(of: data) { text += "data: \(line)\n" }
        return text + "\n"
    }

    /// What is wrong with the event, for the stub's problems: a field that a line break would cut.
    var problems: [String] {
        var problems: [String] = []
        if let event, event != Self.oneLine(event) {
            problems.append(
                "the event type \(quoted(event)) has a line break, which would end the field: write it on one "
                    + "line (it is sent with spaces instead)"
            )
        }
        if let id, id != Self.oneLine(id) {
            problems.append(
                "the event id \(quoted(id)) has a line break or a NUL, which clients drop or cut: write it on one "
                    + "line without NUL (it is sent with spaces instead)"
            )
        }
        return problems
    }

    /// `data: {"token": "Hel"}` (after 100 ms).
    public var description: String {
        let text = serialized.split(separator: "\n").joined(separator: " ⏎ ")
        return after == .zero ? text : "\(text) (after \(after.milliseconds) ms)"
    }

    /// The lines of `text`, split at `\r\n`, `\n` or `\r`, as the specification reads them.
    private static func lines(of text: String) -> [Substring] {
        text.replacingOccurrences(of: "\r\n", with: "\n").split(
            omittingEmptySubsequences: false,
            whereSeparator: { $0 == "\n" || $0 == "\r" }
        )
    }

    /// `text` with every line break and NUL as a space: a field that must stay on its line.
    private static func oneLine(_ text: String) -> String {
        String(text.map { $0 == "\n" || $0 == "\r" || $0 == "\r\n" || $0 == "\0" ? " " : $0 })
    }
}
