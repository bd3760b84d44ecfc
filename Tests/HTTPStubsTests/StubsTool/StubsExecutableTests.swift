import Foundation
import HTTPStubs
import Testing

// Child processes (`Process`) can only be started on macOS and Linux.
#if os(macOS) || os(Linux)
/// The real `stubs` executable, built beside the test bundle, run as a child process: exit
/// statuses, standard output and error, and standard input for `match --requests -`.
///
/// Each test gets its own scratch folder (Swift Testing makes a suite instance per test), which
/// holds the child's captured streams and is deleted when the instance goes away.
@Suite("stubs executable")
final class StubsExecutableTests {
    /// This test's scratch folder.
    private let scratch: URL

    init() throws {
        scratch = FileManager.default.temporaryDirectory
            .appendingPathComponent("stubs-exe-\(UUID().uuidString)")
            .resolvingSymlinksInPath()
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: scratch)
    }

    @Test("stubs --help exits 0 and prints the overview on stdout")
    func help() async throws {
        let result = try await runExecutable(["--help"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.hasPrefix("stubs: check, list and try"), "\(result.stdout)")
        #expect(result.stdout.contains("stubs match --stubs PATH... --requests FILE|-"), "\(result.stdout)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
    }

    @Test("a usage error exits 2 with one line on stderr")
    func usageError() async throws {
        let result = try await runExecutable(["frobnicate"])
        #expect(result.status == 2, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(
            result.stderr
                == "stubs: error: unknown command 'frobnicate'; the commands are lint, list, match and import-har; run 'stubs --help'\n"
        )
    }

    @Test("stubs lint <repository>/Stubs: the example stub root is clean")
    func lintExampleStubs() async throws {
        let stubs = repositoryRoot.appendingPathComponent("Stubs")
        guard FileManager.default.fileExists(atPath: stubs.appendingPathComponent("mappings").path) else {
            // The repository's example stub root has not been written yet: nothing to check.
            return
        }
        let result = try await runExecutable(["lint", stubs.path])
        #expect(result.status == 0, "\(result)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let summary = try #require(lines.last)
        #expect(summary.hasSuffix(": 0 errors, 0 warnings"), "\(result.stdout)")
        #expect(lines.count == 1, "the example stubs should lint without warnings:\n\(result.stdout)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
    }

    @Test("stubs match --requests - reads standard input and prints one JSON line per request")
    func matchRequestsFromStandardInput() async throws {
        let mapping = scratch.appendingPathComponent("hello.json")
        try Data(
            """
            {"mappings": [
              {"request": {"method": "GET", "urlPath": "/hello"},
               "response": {"status": 200, "headers": {"Content-Type": "text/plain"}, "body": "hi"}},
              {"request": {"method": "GET", "urlPath": "/down"}, "response": {"fault": "EMPTY_RESPONSE"}}
            ]}
            """.utf8
        ).write(to: mapping)
        let input = """
            {"method": "GET", "url": "https://example.com/hello"}
            {"method": "GET", "url": "https://example.com/down"}
            {"method": "GET", "url": "https://example.com/missing"}

            """
        let result = try await runExecutable(
            ["match", "--stubs", mapping.path, "--requests", "-"],
            stdin: Data(input.utf8)
        )
        #expect(result.status == 1, "one request is unmatched: \(result)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        #expect(result.stdout.hasSuffix("\n"))
        let answers = try result.stdout.split(separator: "\n").map { line in
            try #require(try JSONValue(parsing: String(line)).objectValue, "not a JSON object: \(line)")
        }
        try #require(answers.count == 3, "\(result.stdout)")
        #expect(answers[0]["status"] == 200)
        #expect(answers[0]["body"] == "hi")
        #expect(answers[0]["headers"] == ["Content-Type": "text/plain"])
        #expect(answers[0]["stub"]?.stringValue?.hasPrefix("\(mapping.path)[0]:") == true, "\(answers[0])")
        #expect(answers[1]["error"]?.objectValue?["code"] == -1005)
        #expect(answers[1]["stub"]?.stringValue?.hasPrefix("\(mapping.path)[1]:") == true, "\(answers[1])")
        #expect(answers[2]["unmatched"] == true)
        #expect(answers[2]["nearMisses"]?.arrayValue?.count == 2)
    }

    @Test("stubs match --requests - answers each line as soon as it arrives, while standard input is still open")
    func matchRequestsStreams() async throws {
        let mapping = scratch.appendingPathComponent("hello.json")
        try Data(
            #"{"request": {"method": "GET", "urlPath": "/hello"}, "response": {"status": 200, "body": "hi"}}"#.utf8
        )
        .write(to: mapping)
        let input = Pipe()
        let output = Pipe()
        let nothing = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/null"))
        defer { try? nothing.close() }
        let process = try SpawnedChild(
            try builtExecutable(named: "stubs"),
            ["match", "--stubs", mapping.path, "--requests", "-"],
            input: input.fileHandleForReading.fileDescriptor,
            output: output.fileHandleForWriting.fileDescriptor,
            error: nothing.fileDescriptor
        )
        defer { process.terminate() }
        // The child has its own copies: with these open, its output would never end.
        try input.fileHandleForReading.close()
        try output.fileHandleForWriting.close()
        var reader = PipeLineReader(output.fileHandleForReading)
        for path in ["hello", "missing", "hello"] {
            input.fileHandleForWriting.write(
                Data((#"{"method": "GET", "url": "https://example.com/\#(path)"}"# + "\n").utf8)
            )
            let line = try #require(try await reader.nextLine(within: patience), "stubs ended its output early")
            let answer = try #require(try JSONValue(parsing: line).objectValue, "not a JSON object: \(line)")
            #expect(path == "hello" ? answer["body"] == "hi" : answer["unmatched"] == true, "\(line)")
        }
        try input.fileHandleForWriting.close()
        #expect(try await reader.nextLine(within: patience) == nil, "nothing more once standard input ends")
        let ending = try await process.ending(within: 30, command: "stubs match --requests -")
        #expect(ending == .exited(1), "one request is unmatched")
    }

    @Test("stubs match --requests - with unloadable stubs exits 2, stderr only")
    func matchUnloadableStubs() async throws {
        let missing = scratch.appendingPathComponent("absent").path
        let result = try await runExecutable(
            ["match", "--stubs", missing, "--requests", "-"],
            stdin: Data(#"{"url": "https://example.com/"}"#.utf8)
        )
        #expect(result.status == 2, "\(result)")
        #expect(result.stdout.isEmpty, "\(result.stdout)")
        #expect(result.stderr.hasPrefix("\(missing): error: no such file or directory"), "\(result.stderr)")
    }

    // MARK: Helpers

    /// What the child process produced.
    private struct ProcessResult: CustomStringConvertible {
        /// The exit status.
        let status: Int32
        /// Standard output, as UTF-8.
        let stdout: String
        /// Standard error, as UTF-8.
        let stderr: String

        var description: String { "exit \(status)\n--- stdout:\n\(stdout)--- stderr:\n\(stderr)" }
    }

    /// Runs the built `stubs` executable with `arguments`, feeding it `stdin`. The streams go
    /// through files in the scratch folder, so a chatty child can never block on a full pipe.
    private func runExecutable(_ arguments: [String], stdin: Data = Data()) async throws -> ProcessResult {
        let executable = try builtExecutable(named: "stubs")
        let id = UUID().uuidString
        let input = scratch.appendingPathComponent("\(id).stdin")
        let output = scratch.appendingPathComponent("\(id).stdout")
        let error = scratch.appendingPathComponent("\(id).stderr")
        try stdin.write(to: input)
        for file in [output, error] {
            try Data().write(to: file)
        }
        let inputHandle = try FileHandle(forReadingFrom: input)
        let outputHandle = try FileHandle(forWritingTo: output)
        let errorHandle = try FileHandle(forWritingTo: error)
        defer {
            try? inputHandle.close()
            try? outputHandle.close()
            try? errorHandle.close()
        }
        let process = try SpawnedChild(
            executable,
            arguments,
            directory: scratch,
            input: inputHandle.fileDescriptor,
            output: outputHandle.fileDescriptor,
            error: errorHandle.fileDescriptor
        )
        let command = "stubs \(arguments.joined(separator: " "))"
        guard case .exited(let status) = try await process.ending(within: 120, command: command) else {
            throw SpawnError(call: command, code: ECHILD)
        }
        return ProcessResult(
            status: status,
            stdout: String(decoding: try Data(contentsOf: output), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: error), as: UTF8.self)
        )
    }

    /// Reads lines from a pipe, waiting for each at most a given time.
    private struct PipeLineReader {
        /// The pipe's reading end.
        let handle: FileHandle
        /// Bytes read past the last line handed out.
        private var pending: [UInt8] = []

        init(_ handle: FileHandle) {
            self.handle = handle
        }

        /// The next line without its line break; `nil` when the pipe ends first. Throws when no
        /// line arrives within `seconds`. Between reads it sleeps rather than blocking in `poll`, so
        /// that a child slow to answer holds none of the few threads the other tests run on.
        mutating func nextLine(within seconds: Double) async throws -> String? {
            let deadline = Date().addingTimeInterval(seconds)
            while true {
                if let lineBreak = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    defer { pending.removeSubrange(...lineBreak) }
                    return String(decoding: pending[..<lineBreak], as: UTF8.self)
                }
                let remaining = deadline.timeIntervalSinceNow
                guard remaining > 0 else { throw PipeTimeout(seconds: seconds) }
                var descriptor = pollfd(fd: handle.fileDescriptor, events: Int16(POLLIN), revents: 0)
                guard poll(&descriptor, 1, 0) > 0 else {
                    try await Task.sleep(for: .milliseconds(5))
                    continue
                }
                var buffer = [UInt8](repeating: 0, count: 4096)
                let count = buffer.withUnsafeMutableBytes { read(handle.fileDescriptor, $0.baseAddress, 4096) }
                if count == 0 { return pending.isEmpty ? nil : String(decoding: pending, as: UTF8.self) }
                if count > 0 { pending += buffer[..<count] }
            }
        }
    }

    /// No line came through a pipe in time.
    private struct PipeTimeout: Error, CustomStringConvertible {
        let seconds: Double
        var description: String { "no line arrived within \(seconds) s" }
    }
}
#endif
