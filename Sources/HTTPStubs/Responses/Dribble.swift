import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A body sent in several chunks spread over time.
///
/// Made by ``StubResponse/dribbled(chunks:over:)`` (WireMock's `chunkedDribbleDelay`), the body is
/// cut into `chunks` equal pieces, and piece *i* (from 1) is sent `duration × i / chunks` after the
/// response headers. Made by ``StubResponse/events(_:status:headers:)`` or
/// ``StubResponse/chunks(_:status:headers:)``, each event or chunk is a piece of its own, sent at
/// its own time.
///
/// URLSession delegates receive each chunk as it comes. Completion handlers and `async` calls
/// receive the whole body when the last chunk arrives (on Linux they would otherwise keep only the
/// last chunk: see the README's Linux notes).
public struct Dribble: Sendable, Hashable, CustomStringConvertible {
    /// How many pieces the body is cut into (at least 1).
    public let chunks: Int
    /// How long sending every piece takes: the time of the last one.
    public let duration: Duration
    /// The pieces of a body given piece by piece, in order; `nil` for equal pieces.
    let schedule: [Piece]?
    /// How the load ends instead of finishing, when it is interrupted.
    private(set) var interruption: Interruption?
    /// The stream the test writes the body into, for ``StubResponse/stream(_:status:headers:)``.
    private(set) var pushed: Pushed?

    /// A ``StubStream``, compared by identity.
    struct Pushed: Sendable, Hashable {
        let stream: StubStream

        static func == (lhs: Pushed, rhs: Pushed) -> Bool { lhs.stream === rhs.stream }
        func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(stream)) }
    }

    /// A load that fails after its last piece (``StubResponse/interrupted(by:after:)``).
    struct Interruption: Sendable, Hashable {
        let code: URLError.Code
        /// The time from the last piece to the failure.
        let after: Duration
    }

    /// A piece of a body given piece by piece.
    struct Piece: Sendable, Hashable {
        /// Its length in bytes.
        let size: Int
        /// When it is sent, from the response.
        let time: Duration
    }

    /// Creates a dribble of `chunks` pieces over `duration` (clamped to 0…100 years, as delays are:
    /// longer would overflow the arithmetic of the chunks' times).
    public init(chunks: Int, over duration: Duration) {
        self.chunks = max(chunks, 1)
        self.duration = min(max(duration, .zero), .longestWait)
        schedule = nil
    }

    /// The body the test writes into `stream`, piece by piece, when it chooses.
    init(pushedBy stream: StubStream) {
        chunks = 1
        duration = .zero
        schedule = nil
        pushed = Pushed(stream: stream)
    }

    /// A dribble of pieces of these sizes, each sent `after` the one before (or the response). The
    /// times add up, clamped to 100 years.
    init(pieces: [(size: Int, after: Duration)]) {
        var time = Duration.zero
        schedule = pieces.map { piece in
            time = min(time + min(max(piece.after, .zero), .longestWait), .longestWait)
            return Piece(size: piece.size, time: time)
        }
        chunks = max(pieces.count, 1)
        duration = time
    }

    /// The whole body at once, with the response: what a response that is only interrupted sends.
    static let whole = Dribble(chunks: 1, over: .zero)

    /// Whether the body goes at once, with the response (``whole``, interrupted or not).
    var isWhole: Bool { schedule == nil && chunks == 1 && duration == .zero && pushed == nil }

    /// This dribble, ending with `interruption` instead of finishing.
    func interrupted(_ interruption: Interruption?) -> Dribble {
        var copy = self
        copy.interruption = interruption
        return copy
    }

    /// `5 chunks over 1000 ms`, `…, then URLError .networkConnectionLost after 100 ms`.
    public var description: String {
        if let pushed { return "pushed by the \(pushed.stream)" }
        let pieces =
            schedule == nil
            ? "\(chunks) chunks over \(duration.milliseconds) ms"
            : "\(chunks) chunks at their own times over \(duration.milliseconds) ms"
        guard let interruption else { return pieces }
        return pieces + ", then URLError .\(URLErrorNames.name(of: interruption.code)) after "
            + "\(interruption.after.milliseconds) ms"
    }
}
