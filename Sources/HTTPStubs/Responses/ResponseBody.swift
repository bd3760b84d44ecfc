import Foundation

/// The body of a stubbed response: bytes in memory, or a file read when the stub answers.
public struct ResponseBody: Sendable, Hashable, CustomStringConvertible {
    enum Source: Sendable, Hashable {
        case data(Data)
        case file(URL)
        /// A file of a stub root's `__files`, its path resolved and confined when the stub was loaded.
        case stubRootFile(URL)
    }

    let source: Source

    /// Bytes in memory.
    public static func data(_ data: Data) -> ResponseBody { ResponseBody(source: .data(data)) }

    /// UTF-8 text.
    public static func text(_ text: String) -> ResponseBody { .data(Data(utf8Of: text)) }

    /// A file read each time the stub answers, so edits show up without reloading the stub.
    public static func file(_ url: URL) -> ResponseBody { ResponseBody(source: .file(url)) }

    /// A body file of a stub root, whose path `url` was resolved (no symbolic link left in it) and
    /// found inside `__files` at load: read only while that still holds.
    package static func stubRootFile(_ url: URL) -> ResponseBody { ResponseBody(source: .stubRootFile(url)) }

    /// No body.
    public static let empty = ResponseBody.data(Data())

    /// The status, header fields and bytes a response with this body is served with: as given, but
    /// for a stub root's body file that does not exist, WireMock's answer (status 500, a text body
    /// naming the file), so that one missing file fails only the requests its stub answers.
    func served(status: Int, headers: HeaderFields) throws -> (status: Int, headers: HeaderFields, data: Data) {
        do {
            return (status, headers, try load())
        } catch let StubError.missingBodyFile(url) {
            let text =
                "The stub's body file \(url.path) does not exist, so the stub answers 500 as WireMock does; "
                + "add the file or fix 'bodyFileName'.\n"
            return (500, ["Content-Type": "text/plain; charset=utf-8"], Data(text.utf8))
        }
    }

    /// Reads the bytes; a file only when it is a regular file (see ``RegularFile``).
    func load() throws -> Data {
        switch source {
        case let .data(data):
            return data
        case let .file(url):
            do {
                return try RegularFile.read(url.path)
            } catch let .notRegular(kind) {
                throw StubError.unreadableBodyFile(
                    url,
                    underlying: "it is \(kind), not a regular file; \(RegularFile.advice(forKind: kind))"
                )
            } catch {
                throw StubError.unreadableBodyFile(url, underlying: error.reason)
            }
        case let .stubRootFile(url):
            return try Self.readWithoutFollowingLinks(url)
        }
    }

    /// Reads a stub root's body file, refusing it when a symbolic link has taken the place of the
    /// file or of a folder on its path since the stub was loaded (the path was resolved then), or
    /// when something other than a regular file (a FIFO, a device) has.
    private static func readWithoutFollowingLinks(_ url: URL) throws -> Data {
        let folder = url.deletingLastPathComponent()
        guard folder.resolvingSymlinksInPath().path == folder.path else {
            throw StubError.unreadableBodyFile(
                url,
                underlying: "a folder on its path has become a symbolic link since the stub was loaded; refused"
            )
        }
        do {
            return try RegularFile.read(url.path, followingLinks: false)
        } catch .missing {
            throw StubError.missingBodyFile(url)
        } catch .symbolicLink {
            throw StubError.unreadableBodyFile(
                url,
                underlying: "it has become a symbolic link since the stub was loaded; refused"
            )
        } catch let .notRegular(kind) {
            throw StubError.unreadableBodyFile(
                url,
                underlying: "it is \(kind), not a regular file; \(RegularFile.advice(forKind: kind))"
            )
        } catch {
            throw StubError.unreadableBodyFile(url, underlying: error.reason)
        }
    }

    /// `12 bytes` or `file /path/to/body.json`.
    public var description: String {
        switch source {
        case let .data(data): return BodyMatcher.describe(data)
        case let .file(url), let .stubRootFile(url): return "file \(url.path)"
        }
    }
}
