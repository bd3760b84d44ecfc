import Foundation
import Testing

@testable import HTTPStubs
@testable import HTTPStubsFiles
@testable import HTTPStubsLanguages
@testable import HTTPStubsTemplates

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// FIFOs, sockets and child processes: macOS and Linux.
#if os(Linux) || os(macOS)
/// Files of a stub root that are not regular files (a FIFO hung the request that read it, and
/// `stubs lint` called it clean), and mapping files or folders that are symbolic links out of the
/// root (followed, with a line of the outside file echoed in the error). Each is refused with a
/// message naming the path, what it is and the fix, within a generous time.
@Suite("Hostile stub files", .timeLimit(.minutes(5)))
struct HostileFileTests {
    /// Makes a FIFO at `path`.
    static func makeFIFO(_ path: String) throws {
        try #require(mkfifo(path, 0o644) == 0, "mkfifo(\(path)) failed: errno \(errno)")
    }

    /// Makes a UNIX socket bound at `path`; the descriptor is the caller's to close.
    static func makeSocket(_ path: String) throws -> Int32 {
        #if canImport(Glibc)
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_UNIX, SOCK_STREAM, 0)
        #endif
        try #require(descriptor >= 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8) + [0]
        try #require(bytes.count <= MemoryLayout.size(ofValue: address.sun_path), "socket path too long: \(path)")
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        try #require(bound == 0, "bind(\(path)) failed: errno \(errno)")
        return descriptor
    }

    /// A mapping answering GET /body with the body file `name`.
    static func bodyFileMapping(_ name: String, templated: Bool = false) -> String {
        let response: JSONValue =
            templated
            ? ["status": 200, "bodyFileName": .string(name), "transformers": ["response-template"]]
            : ["status": 200, "bodyFileName": .string(name)]
        let mapping: JSONValue = ["request": ["method": "GET", "urlPath": "/body"], "response": response]
        return mapping.serialized()
    }

    /// Runs `stubs lint` on `path`.
    static func lint(_ path: String) async throws -> (status: Int32, output: String) {
        try await run(try builtExecutable(named: "stubs"), ["lint", path], within: 60)
    }

    // MARK: Body files

    @Test("a bodyFileName that is a FIFO or a socket is a located load error, and stubs lint reports it")
    func bodyFileNotRegular() async throws {
        for kind in ["FIFO", "socket"] {
            let root = try TemporaryStubRoot(mappings: ["body.json": Self.bodyFileMapping("special")])
            var socket: Int32?
            if kind == "FIFO" {
                try Self.makeFIFO(root.path("__files/special"))
            } else {
                socket = try Self.makeSocket(root.path("__files/special"))
            }
            defer { socket.map { _ = close($0) } }
            let result = StubFiles.load([root.path])
            #expect(result.stubs.isEmpty, "\(kind)")
            let error = try #require(result.errors.first, "\(kind): \(result.diagnostics)")
            #expect(error.source.file == root.path("mappings/body.json") && error.source.line == 1)
            #expect(error.jsonPath == "$.response.bodyFileName")
            #expect(error.message.contains("\(kind)") && error.message.contains("not a regular file"), "\(error)")
            #expect(error.message.contains("put a regular file there"), "\(error)")

            let lint = try await Self.lint(root.path)
            #expect(lint.status == 1, "\(kind): \(lint.output)")
            #expect(lint.output.contains("\(root.path("mappings/body.json")):1:"), "\(lint.output)")
            #expect(lint.output.contains(kind), "\(lint.output)")
        }
    }

    @Test("a body file replaced by a FIFO after loading fails its request at once instead of hanging")
    func bodyFileSwappedForFIFO() async throws {
        let root = try TemporaryStubRoot(
            mappings: ["body.json": Self.bodyFileMapping("body.txt")],
            files: ["body.txt": Data("regular".utf8)]
        )
        let stubs = StubRegistry()
        try stubs.load(root.path)
        let session = stubs.makeSession()
        #expect(await complete(session, "https://files.example/body").text == "regular")
        try FileManager.default.removeItem(atPath: root.path("__files/body.txt"))
        try Self.makeFIFO(root.path("__files/body.txt"))
        let completion = await complete(session, "https://files.example/body")
        let message = completion.urlError?.localizedDescription ?? ""
        #expect(message.contains("FIFO (named pipe), not a regular file"), "\(completion)")
        #expect(message.contains(root.path("__files/body.txt")), "\(message)")
    }

    @Test("a file body that is a device (/dev/zero, which never ends) is refused when the stub answers")
    func deviceBody() async throws {
        let stubs = StubRegistry()
        stubs.stub(.get("https://files.example/zero"), .file(URL(fileURLWithPath: "/dev/zero")))
        let completion = await complete(stubs.makeSession(), "https://files.example/zero")
        let message = completion.urlError?.localizedDescription ?? ""
        #expect(message.contains("/dev/zero") && message.contains("a character device"), "\(completion)")
    }

    @Test("a templated bodyFileName rendered to a FIFO answers 500 naming it; a regular file is served")
    func templatedBodyFileName() async throws {
        let root = try TemporaryStubRoot(
            mappings: ["body.json": Self.bodyFileMapping("{{request.query.f}}", templated: true)],
            files: ["ok.txt": Data("fine".utf8)]
        )
        try Self.makeFIFO(root.path("__files/pipe.txt"))
        let stubs = StubRegistry()
        let diagnostics = DiagnosticLog(stubs)
        try stubs.load(root.path)
        let session = stubs.makeSession()
        #expect(await complete(session, "https://files.example/body?f=ok.txt").text == "fine")
        let refused = await complete(session, "https://files.example/body?f=pipe.txt")
        #expect(refused.status == 500, "\(refused)")
        #expect(refused.text?.contains("is a FIFO (named pipe), not a regular file") == true, "\(refused.text ?? "")")
        #expect(diagnostics.all.count == 1, "the test is told: \(diagnostics.all)")
    }

    // MARK: Mapping and HAR files

    @Test("a mapping file that is a FIFO is refused without blocking the load; the others load")
    func mappingFileFIFO() async throws {
        let root = try TemporaryStubRoot(mappings: [
            "ok.json": #"{"request": {"urlPath": "/ok"}, "response": {"status": 200}}"#
        ])
        try Self.makeFIFO(root.path("mappings/pipe.json"))
        let result = StubFiles.load([root.path])
        #expect(result.stubs.count == 1)
        let error = try #require(result.errors.first, "\(result.diagnostics)")
        #expect(error.source.file == root.path("mappings/pipe.json"))
        #expect(error.message.contains("FIFO (named pipe), not a regular file"), "\(error)")
        let lint = try await Self.lint(root.path)
        #expect(lint.status == 1 && lint.output.contains("pipe.json"), "\(lint.output)")
    }

    @Test("a HAR capture given as a FIFO is refused by the loader and by import-har")
    func harFIFO() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("har-fifo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let har = folder.appendingPathComponent("capture.har").path
        try Self.makeFIFO(har)
        let loaded = StubFiles.load([har])
        #expect(loaded.errors.first?.message.contains("FIFO") == true, "\(loaded.diagnostics)")
        let imported = StubFiles.importHAR(har)
        #expect(imported.files.isEmpty)
        #expect(imported.diagnostics.first?.message.contains("FIFO") == true, "\(imported.diagnostics)")
    }

    // MARK: Symbolic links out of the root

    @Test("mapping files and folders linked from outside the root are refused unread; links inside load")
    func linksOutOfTheRoot() async throws {
        let outside = FileManager.default.temporaryDirectory.appendingPathComponent("outside-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: outside.appendingPathComponent("folder"),
            withIntermediateDirectories: true
        )
        defer { try? FileManager.default.removeItem(at: outside) }
        let secret = "SECRET-LINE-\(UUID().uuidString)"
        try Data("\(secret) {not json\n".utf8).write(to: outside.appendingPathComponent("secret.json"))
        try Data(#"{"request": {"urlPath": "/\#(secret)"}, "response": {"status": 200}}"#.utf8)
            .write(to: outside.appendingPathComponent("folder/stub.json"))

        let root = try TemporaryStubRoot(mappings: [
            "real/inside.json": #"{"request": {"urlPath": "/inside"}, "response": {"status": 200, "body": "in"}}"#
        ])
        let manager = FileManager.default
        try manager.createSymbolicLink(
            atPath: root.path("mappings/file-out.json"),
            withDestinationPath: outside.appendingPathComponent("secret.json").path
        )
        try manager.createSymbolicLink(
            atPath: root.path("mappings/folder-out"),
            withDestinationPath: outside.appendingPathComponent("folder").path
        )
        try manager.createSymbolicLink(
            atPath: root.path("mappings/link-in.json"),
            withDestinationPath: "real/inside.json"
        )
        try manager.createSymbolicLink(atPath: root.path("mappings/folder-in"), withDestinationPath: "real")

        let result = StubFiles.load([root.path])
        #expect(!result.diagnostics.description.contains("SECRET"), "\(result.diagnostics)")
        for (name, what) in [("file-out.json", "file"), ("folder-out", "folder")] {
            let error = try #require(
                result.errors.first { $0.source.file == root.path("mappings/\(name)") },
                "no error for \(name): \(result.diagnostics)"
            )
            #expect(error.message.contains("symbolic link to a \(what) outside"), "\(error)")
            #expect(error.message.contains("not read"), "\(error)")
        }
        #expect(result.errors.count == 2, "\(result.errors)")
        // The file inside loads, and its link inside loads it once more; the folder link inside adds nothing.
        #expect(result.stubs.count == 2, "\(result.stubs)")

        let lint = try await Self.lint(root.path)
        #expect(lint.status == 1, "\(lint.output)")
        #expect(!lint.output.contains("SECRET"), "\(lint.output)")
        #expect(lint.output.contains("file-out.json") && lint.output.contains("folder-out"), "\(lint.output)")
    }
}
#endif
