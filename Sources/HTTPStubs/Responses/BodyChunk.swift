import Foundation

/// A piece of a body sent at its own time (``StubResponse/chunks(_:status:headers:)``): a line of a
/// JSON Lines stream, a part of a download.
public struct BodyChunk: Sendable, Hashable, CustomStringConvertible {
    /// The bytes.
    public var data: Data
    /// The time from the previous chunk, or from the response for the first: a chunk with
    /// `after: .zero` first arrives with the response, without any clock moving.
    public var after: Duration

    /// A chunk of bytes, sent `after` the previous one (or the response).
    public init(_ data: Data, after: Duration = .zero) {
        self.data = data
        self.after = after
    }

    /// A chunk of UTF-8 text, sent `after` the previous one (or the response).
    public init(text: String, after: Duration = .zero) {
        self.init(Data(text.utf8), after: after)
    }

    /// `12 bytes after 100 ms`.
    public var description: String {
        "\(data.count) bytes" + (after == .zero ? "" : " after \(after.milliseconds) ms")
    }
}
