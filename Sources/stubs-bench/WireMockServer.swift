import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#endif

/// Real WireMock (Java) on 127.0.0.1: the tool teams run instead of in-process stubs.
///
/// ``start(jar:path:body:contentType:)`` writes a temporary stub root with one mapping, starts
/// `java -jar <jar>` on a free port and waits until WireMock answers; ``stop()`` ends the JVM and
/// removes the temporary folder. WireMock's standard output and error go to a log file in that
/// folder, whose tail is part of every startup error.
final class WireMockServer {
    /// How long WireMock may take to answer its admin API after the JVM starts.
    static let startupTimeout: Duration = .seconds(60)

    /// The port WireMock listens on.
    let port: Int
    private let process: Process
    private let log: FileHandle
    /// The temporary folder: the stub root (`root/mappings`, `root/__files`) and `wiremock.log`.
    private let folder: URL

    private init(port: Int, process: Process, log: FileHandle, folder: URL) {
        self.port = port
        self.process = process
        self.log = log
        self.folder = folder
    }

    /// Starts WireMock from the standalone `jar`, serving one mapping: `GET path` answers 200 with
    /// `Content-Type: contentType` and exactly `body` (a `bodyFileName`, so the bytes are not
    /// re-encoded). Returns once `GET /__admin/mappings` answers 200; on any failure the JVM is
    /// stopped and the temporary folder removed before the error is thrown.
    static func start(jar: String, path: String, body: Data, contentType: String) async throws -> WireMockServer {
        let java = try javaExecutable()
        let port = try freePort()
        let folder = try StubFileCorpus.temporaryFolder("wiremock")
        let root = folder.appendingPathComponent("root")
        let logPath = folder.appendingPathComponent("wiremock.log").path
        let log: FileHandle
        do {
            try writeStubRoot(root, path: path, body: body, contentType: contentType)
            guard FileManager.default.createFile(atPath: logPath, contents: nil),
                let handle = FileHandle(forWritingAtPath: logPath)
            else {
                throw BenchFailure("cannot create \(logPath)")
            }
            log = handle
        } catch {
            StubFileCorpus.removeTree(folder)
            throw error
        }

        let process = Process()
        process.executableURL = java
        process.arguments = [
            "-jar", jar, "--bind-address", "127.0.0.1", "--port", "\(port)", "--root-dir", root.path,
            "--disable-banner", "--no-request-journal",
        ]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = log
        process.standardError = log
        let server = WireMockServer(port: port, process: process, log: log, folder: folder)
        do {
            try process.run()
            try await server.waitUntilReady()
        } catch {
            let tail = logTail(logPath)
            server.stop()
            throw BenchFailure(
                "WireMock did not start (\(java.path) -jar \(jar) on 127.0.0.1:\(port)): \(error)"
                    + (tail.isEmpty ? "; its log is empty" : "\n--- last lines of its log ---\n\(tail)")
            )
        }
        return server
    }

    /// The process id of the JVM.
    var processIdentifier: Int32 { process.processIdentifier }

    /// Ends the JVM (SIGTERM, then SIGKILL after 10 s), closes the log and removes the temporary
    /// folder. Safe to call more than once.
    func stop() {
        if process.isRunning {
            process.terminate()
            let deadline = Date().addingTimeInterval(10)
            while process.isRunning, Date() < deadline {
                usleep(10_000)
            }
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
            }
        }
        try? log.close()
        StubFileCorpus.removeTree(folder)
    }

    /// The row label: "WireMock 2.35.1 (Java) on 127.0.0.1", with the version read from the jar's
    /// file name (`wiremock-standalone-2.35.1.jar`), or without a version if the name has none.
    static func label(jar: String) -> String {
        let name = URL(fileURLWithPath: jar).deletingPathExtension().lastPathComponent
        guard let version = name.split(separator: "-").last, version.first?.isNumber == true else {
            return "WireMock (Java) on 127.0.0.1"
        }
        return "WireMock \(version) (Java) on 127.0.0.1"
    }

    // MARK: Starting

    /// `java` from `PATH`.
    private static func javaExecutable() throws -> URL {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        for directory in path.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent("java")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw BenchFailure(
            "java not found in PATH (\(path)): the wiremock workload runs `java -jar`; "
                + "install a Java runtime or leave out --wiremock-jar"
        )
    }

    /// `root/mappings/users.json` and the body it serves, `root/__files/body.json`.
    private static func writeStubRoot(_ root: URL, path: String, body: Data, contentType: String) throws {
        let mappings = root.appendingPathComponent("mappings")
        let files = root.appendingPathComponent("__files")
        try FileManager.default.createDirectory(at: mappings, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
        let mapping: [String: Any] = [
            "request": ["method": "GET", "url": path],
            "response": ["status": 200, "headers": ["Content-Type": contentType], "bodyFileName": "body.json"],
        ]
        try StubFileCorpus.writeFile(
            try JSONSerialization.data(withJSONObject: mapping, options: [.prettyPrinted, .sortedKeys]),
            to: mappings.appendingPathComponent("users.json").path
        )
        try StubFileCorpus.writeFile(body, to: files.appendingPathComponent("body.json").path)
    }

    /// A port on 127.0.0.1 that was free a moment ago: bind a socket to port 0, read the port the
    /// kernel picked, close the socket.
    private static func freePort() throws -> Int {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)  // an Int32 constant on Darwin
        #endif
        guard fd >= 0 else { throw BenchFailure("socket() failed: errno \(errno)") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0  // ephemeral
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard named else { throw BenchFailure("cannot pick a free port on 127.0.0.1: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Polls `GET /__admin/mappings` every 100 ms until it answers 200, the JVM exits, or
    /// ``startupTimeout`` passes.
    private func waitUntilReady() async throws {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.timeoutIntervalForRequest = 2
        let session = URLSession(configuration: configuration)
        defer { session.invalidateAndCancel() }
        let url = URL(string: "http://127.0.0.1:\(port)/__admin/mappings")!
        let clock = ContinuousClock()
        let deadline = clock.now + Self.startupTimeout
        while true {
            if let response = try? await session.data(from: url).1, (response as? HTTPURLResponse)?.statusCode == 200 {
                return
            }
            guard process.isRunning else {
                throw BenchFailure("java exited with status \(process.terminationStatus)")
            }
            guard clock.now < deadline else {
                throw BenchFailure("GET \(url) did not answer 200 within \(Self.startupTimeout)")
            }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    /// The last 20 lines of the log.
    private static func logTail(_ path: String) -> String {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return text.split(separator: "\n", omittingEmptySubsequences: false).suffix(20).joined(separator: "\n")
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
