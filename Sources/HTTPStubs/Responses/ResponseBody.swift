import Foundation

/// The body of a stubbed response: bytes in memory, or a file read when the stub answers.
public struct ResponseBody: Sendable, Hashable, CustomStringConvertible {
    enum Source: Sendable, Hashable {
        case data(Data)
        case file(URL)
    }

    let source: Source

    /// Bytes in memory.
    public static func data(_ data: Data) -> ResponseBody { ResponseBody(source: .data(data)) }

    /// UTF-8 text.
    public static func text(_ text: String) -> ResponseBody { .data(Data(text.utf8)) }

    /// A file read each time the stub answers, so edits show up without reloading the stub.
    public static func file(_ url: URL) -> ResponseBody { ResponseBody(source: .file(url)) }

    /// No body.
    public static let empty = ResponseBody.data(Data())

    /// Reads the bytes.
    func load() throws -> Data {
        switch source {
        case let .data(data):
            return data
        case let .file(url):
            do {
                return try Data(contentsOf: url)
            } catch {
                throw StubError.unreadableBodyFile(url, underlying: "\(error.localizedDescription)")
            }
        }
    }

    /// `12 bytes` or `file /path/to/body.json`.
    public var description: String {
        switch source {
        case let .data(data): return BodyMatcher.describe(data)
        case let .file(url): return "file \(url.path)"
        }
    }
}
