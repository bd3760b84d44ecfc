import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import HTTPStubs

/// A running `Tests/Support/recording-server.py`: Python 3 serving the test endpoints on
/// 127.0.0.1 at a free port. ``stop()`` ends it (and is safe to call twice); the script also exits
/// on its own after 200 requests, after 60 seconds, or when its standard input closes, so a test
/// run that crashes never leaves it behind.
final class RecordingServer: @unchecked Sendable {
    // Invariant: `process` and the pipes are set once in `init`; `isStopped` is only touched under `lock`.
    /// The port it listens on.
    let port: Int
    private let process: Process
    private let input: Pipe
    private let lock = NSLock()
    private var isStopped = false

    private init(port: Int, process: Process, input: Pipe) {
        self.port = port
        self.process = process
        self.input = input
    }

    /// A server nobody stops any more is stopped.
    deinit { stop() }

    /// `http://127.0.0.1:<port>`.
    var base: String { "http://127.0.0.1:\(port)" }

    /// The script, found from this file's path (it is outside every target, so SwiftPM does not
    /// warn about an unhandled file).
    static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()   // Recording
        .deletingLastPathComponent()   // HTTPStubsTests
        .deletingLastPathComponent()   // Tests
        .appendingPathComponent("Support/recording-server.py")

    /// Starts the server and waits until it says which port it listens on.
    /// - Parameter port: The port to listen on; by default a free one.
    static func start(maxRequests: Int = 200, lifetimeSeconds: Int = 60, port: Int = 0) throws -> RecordingServer {
        let process = Process()
        let arguments = [script.path, "\(maxRequests)", "\(lifetimeSeconds)", "\(port)"]
        if let python = ["/usr/bin/python3", "/usr/local/bin/python3"].first(where: FileManager.default.isExecutableFile(atPath:)) {
            process.executableURL = URL(fileURLWithPath: python)
            process.arguments = arguments
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3"] + arguments
        }
        let input = Pipe(), output = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        var firstLine = Data()
        while !firstLine.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }   // the script exited
            firstLine.append(chunk)
        }
        guard let text = String(data: firstLine, encoding: .utf8), let port = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            try? input.fileHandleForWriting.close()
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
            let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            throw ServerDidNotStart(script: script.path, output: String(decoding: firstLine, as: UTF8.self), errors: stderr)
        }
        return RecordingServer(port: port, process: process, input: input)
    }

    /// A request to `path` (with its query) on this server, with a short timeout.
    func request(_ method: String, _ path: String, json: String? = nil, headers: [String: String] = [:]) -> URLRequest {
        request(method, path, body: json.map { Data($0.utf8) }, contentType: json == nil ? nil : "application/json", headers: headers)
    }

    /// A request to `path` on this server with an `application/x-www-form-urlencoded` body.
    func request(_ method: String, _ path: String, form: String) -> URLRequest {
        request(method, path, body: Data(form.utf8), contentType: "application/x-www-form-urlencoded")
    }

    /// A request to `path` on this server with this body and `Content-Type`, with a short timeout.
    func request(_ method: String, _ path: String, body: Data?, contentType: String?, headers: [String: String] = [:]) -> URLRequest {
        var request = URLRequest(url: URL(string: base + path)!, timeoutInterval: 10)
        request.httpMethod = method
        request.httpBody = body
        if let contentType { request.setValue(contentType, forHTTPHeaderField: "Content-Type") }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        return request
    }

    /// How many requests the server had served before this call, asked directly (not through stubs).
    func servedCount() async throws -> Int {
        let (_, response) = try await URLSession(configuration: .ephemeral).data(for: request("GET", "/status/404"))
        let served = (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "X-Served").flatMap { Int($0) }
        return try #require(served) - 1
    }

    /// Stops the server and waits until it has exited.
    func stop() {
        let first = lock.withLock {
            defer { isStopped = true }
            return !isStopped
        }
        guard first else { return }
        try? input.fileHandleForWriting.close()
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }

    /// Whether a direct request to `base` (not through stubs) fails with `cannotConnectToHost`.
    static func refusesConnections(_ base: String) async -> Bool {
        do {
            _ = try await URLSession(configuration: .ephemeral).data(from: URL(string: base + "/status/404")!)
            return false
        } catch {
            return (error as? URLError)?.code == .cannotConnectToHost
        }
    }
}

/// The recording server did not print its port.
private struct ServerDidNotStart: Error, CustomStringConvertible {
    /// The script that was run.
    let script: String
    /// What it printed on standard output.
    let output: String
    /// What it printed on standard error.
    let errors: String

    /// What happened, and how to look into it.
    var description: String {
        "the recording server did not start: python3 \(script) printed \(output.debugDescription) and, on standard error:\n\(errors)\nRun the script by hand to see why (it needs Python 3)."
    }
}
