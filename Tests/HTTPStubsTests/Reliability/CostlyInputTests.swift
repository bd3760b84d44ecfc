import Foundation
import Testing

@testable import HTTPStubs
@testable import HTTPStubsFiles
@testable import HTTPStubsLanguages
@testable import HTTPStubsTemplates

/// Input whose cost grew faster than its size: a minified mapping file (locations used to count
/// columns from the start of its one line), a HAR whose small gzip body inflates to 1 GiB, and
/// half a million requests for `stubs match --requests` (which held them all, and their journal).
///
/// Each check takes a core for up to a few minutes in a debug build, so the suite runs its tests
/// one at a time (the time ratio is measured undisturbed) and on its own, never beside the suites
/// with time limits (`.ci/run` runs it after them).
@Suite(
    "Costly input",
    .serialized,
    .enabled(if: reliabilitySuitesEnabled, "heavy: run with HTTPSTUBS_RELIABILITY=1, on its own (.ci/run does)")
)
struct CostlyInputTests {
    @Test(
        "a minified 100,000-stub mapping file loads within 3 times the pretty-printed one's time",
        .timeLimit(.minutes(10))
    )
    func minifiedMappingsLoadInLinearTime() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("costly-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let mappings: [JSONValue] = (0..<100_000).map { index in
            [
                "request": [
                    "method": "GET", "urlPath": .string("/items/\(index)"), "headers": ["Accept": ["contains": "json"]],
                ],
                "response": [
                    "status": 200, "jsonBody": ["id": .number(JSONNumber(index)), "name": .string("item \(index)")],
                ],
            ]
        }
        let document: JSONValue = ["mappings": .array(mappings)]
        let pretty = folder.appendingPathComponent("pretty.json")
        let minified = folder.appendingPathComponent("minified.json")
        try Data(document.serialized(pretty: true).utf8).write(to: pretty)
        try Data(document.serialized().utf8).write(to: minified)

        /// The shortest of two loads, each checked to give every stub.
        func loadTime(_ file: URL) -> Duration {
            let clock = ContinuousClock()
            return (0..<2).map { _ in
                var result: StubFileLoad?
                let time = clock.measure { result = StubFiles.load([file.path]) }
                #expect(
                    result?.stubs.count == 100_000 && result?.diagnostics.isEmpty == true,
                    "\(file.lastPathComponent)"
                )
                return time
            }.min()!
        }
        let prettyTime = loadTime(pretty)
        let minifiedTime = loadTime(minified)
        #expect(minifiedTime <= prettyTime * 3, "minified \(minifiedTime), pretty-printed \(prettyTime)")
    }

    // A child process under `ulimit -v`, which caps the address space on Linux only.
    #if os(Linux)
    @Test(
        "stubs lint refuses a HAR whose 6.8 MB gzip body inflates to 1 GiB, within a 400 MiB memory cap",
        .timeLimit(.minutes(5))
    )
    func gzipBombUnderMemoryCap() async throws {
        let bomb = GzipBodies.zeros(copies: (1 << 30) / 258)
        let har = FileManager.default.temporaryDirectory.appendingPathComponent("bomb-\(UUID().uuidString).har")
        defer { try? FileManager.default.removeItem(at: har) }
        let entry =
            #"{"request": {"method": "GET", "url": "https://api.example.com/bomb", "headers": []}, "response": {"status": 200, "#
            + #""headers": [{"name": "content-encoding", "value": "gzip"}], "content": {"mimeType": "application/json", "text": "[\""#
            + GzipBodies.hex(bomb) + #"\"]"}}}"#
        try Data((#"{"log": {"version": "1.2", "entries": ["# + entry + "]}}").utf8).write(to: har)

        // The shell caps the address space of `stubs` at 400 MiB: the 1 GiB output cannot fit.
        let stubs = try builtExecutable(named: "stubs")
        let result = try await run(
            URL(fileURLWithPath: "/bin/sh"),
            ["-c", #"ulimit -v 409600 && exec "$0" lint "$1""#, stubs.path, har.path],
            within: 240
        )
        #expect(result.status == 1, "\(result.output)")
        #expect(
            result.output.contains(
                ": error: $.log.entries[0].response.content.text: the \(bomb.count)-byte body compressed as \"gzip\" inflates to more than \(64 << 20) bytes"
            ),
            "\(result.output)"
        )
    }

    @Test("stubs match --requests answers 500,000 requests within a 400 MiB memory cap", .timeLimit(.minutes(5)))
    func requestsInBoundedMemory() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("requests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let mapping = folder.appendingPathComponent("hello.json")
        try Data(#"{"request": {"urlPath": "/hello"}, "response": {"status": 200, "body": "hi"}}"#.utf8).write(
            to: mapping
        )
        let requests = folder.appendingPathComponent("requests.jsonl")
        let line = #"{"method": "GET", "url": "https://example.com/hello?page=1"}"# + "\n"
        try Data(String(repeating: line, count: 500_000).utf8).write(to: requests)

        // The shell caps the address space of `stubs` at 400 MiB; the answers go to a file.
        let answers = folder.appendingPathComponent("answers.jsonl")
        let stubs = try builtExecutable(named: "stubs")
        let script = #"ulimit -v 409600 && exec "$0" match --stubs "$1" --requests "$2" > "$3""#
        let result = try await run(
            URL(fileURLWithPath: "/bin/sh"),
            ["-c", script, stubs.path, mapping.path, requests.path, answers.path],
            within: 240
        )
        #expect(result.status == 0, "\(result.output)")
        let output = try Data(contentsOf: answers)
        #expect(output.count(where: { $0 == UInt8(ascii: "\n") }) == 500_000)
        #expect(output.starts(with: Data(#"{"status":200,"#.utf8)))
    }
    #endif
}
