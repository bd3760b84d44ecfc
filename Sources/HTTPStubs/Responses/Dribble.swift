/// A body sent in several chunks spread over time, as WireMock's `chunkedDribbleDelay`: the body is
/// cut into `chunks` pieces, and piece *i* (from 1) is sent `duration × i / chunks` after the
/// response headers.
///
/// URLSession delegates receive each chunk as it comes. Completion handlers and `async` calls
/// receive the whole body when the last chunk arrives (on Linux they would otherwise keep only the
/// last chunk: see the README's Linux notes).
public struct Dribble: Sendable, Hashable, CustomStringConvertible {
    /// How many pieces the body is cut into (at least 1).
    public let chunks: Int
    /// How long sending every piece takes.
    public let duration: Duration

    /// Creates a dribble of `chunks` pieces over `duration` (clamped to 0…100 years, as delays are:
    /// longer would overflow the arithmetic of the chunks' times).
    public init(chunks: Int, over duration: Duration) {
        self.chunks = max(chunks, 1)
        self.duration = min(max(duration, .zero), .longestWait)
    }

    /// `5 chunks over 1000 ms`.
    public var description: String { "\(chunks) chunks over \(duration.milliseconds) ms" }
}
