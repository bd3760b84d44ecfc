import Foundation

@testable import HTTPStubs
@testable import HTTPStubsFiles
@testable import HTTPStubsLanguages
@testable import HTTPStubsTemplates

/// A WireMock stub root (`mappings/` and `__files/`) in a fresh temporary folder, deleted when the
/// value is released.
final class TemporaryStubRoot: Sendable {
    /// The root folder.
    let url: URL

    /// The root folder's path.
    var path: String { url.path }

    /// Creates a root holding `mappings` (paths relative to `mappings/` → JSON text) and `files`
    /// (paths relative to `__files/` → bytes).
    init(mappings: [String: String] = [:], files: [String: Data] = [:]) throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("wiremock-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(
            at: url.appendingPathComponent("mappings"),
            withIntermediateDirectories: true
        )
        try FileManager.default.createDirectory(
            at: url.appendingPathComponent("__files"),
            withIntermediateDirectories: true
        )
        for (name, text) in mappings { try write("mappings/\(name)", Data(text.utf8)) }
        for (name, data) in files { try write("__files/\(name)", data) }
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// The path of a file inside the root (`mappings/x.json`).
    func path(_ relative: String) -> String {
        url.appendingPathComponent(relative).path
    }

    /// Writes a file inside the root, creating its folders.
    func write(_ relative: String, _ contents: Data) throws {
        let file = url.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try contents.write(to: file)
    }

    /// Writes a text file inside the root, creating its folders.
    func write(_ relative: String, _ text: String) throws {
        try write(relative, Data(text.utf8))
    }

    /// Loads the root without throwing.
    func load() -> StubFileLoad {
        StubFiles.load([path])
    }

    /// A registry with the root's stubs; its issue handler appends to `issues` when one is given,
    /// and keeps what it reports out of the run's output otherwise (a test that cares passes a log).
    func registry(issues: DiagnosticLog? = nil) throws(StubFileError) -> StubRegistry {
        let registry = StubRegistry()
        registry.onDiagnostic { issues?.append($0) }
        try registry.load(path)
        return registry
    }

    /// The text body the root's stubs answer to `GET http://localhost<path>`, or `nil` when unmatched.
    func body(of path: String) throws -> String? {
        guard
            case let .response(response, _) = try registry().answer(
                InterceptedRequest(url: URL(string: "http://localhost\(path)")!)
            )
        else {
            return nil
        }
        return String(decoding: response.body, as: UTF8.self)
    }
}
