import Foundation
import HTTPStubs
import HTTPStubsFiles
import Testing

// The proof runs this test executable again as a child, which only Linux does here: on macOS the
// test bundle is loaded by a helper that `CommandLine.arguments[0]` does not name.
#if os(Linux)
/// What a failing stub scope attaches, seen where a developer finds it: the tests of
/// ``FailureAttachmentFixtures`` (which fail on purpose) run in a child run of this test
/// executable, as `swift test --attachments-path DIR` runs them, and the files Swift Testing wrote
/// to `DIR` are checked. One child run serves every test here.
@Suite("Failure attachments", .enabled(if: !attachmentFixturesRunning))
struct FailureAttachmentTests {
    /// The files the fixtures' run attached, by name, and the run's exit status.
    struct FixtureRun: Sendable {
        let files: [String: Data]
        let status: Int32
        let output: String

        /// The attachment `name`'s text; fails the test when there is none.
        func text(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
            let data = try #require(
                files[name],
                "no \(name) among \(files.keys.sorted())",
                sourceLocation: sourceLocation
            )
            return String(decoding: data, as: UTF8.self)
        }

        /// The attachment `name` parsed as JSON.
        func json(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> JSONValue {
            try JSONValue(parsing: try text(name, sourceLocation: sourceLocation))
        }

        /// The names of the attachments of the fixture `test`.
        func names(of test: String) -> [String] {
            files.keys.filter { $0.hasPrefix("FailureAttachmentFixtures.\(test)-") }.sorted()
        }
    }

    private static let fixtures = Task { () throws -> FixtureRun in
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("attachments-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let executable = URL(fileURLWithPath: CommandLine.arguments[0])
        let (status, output) = try await run(
            executable,
            [
                "--testing-library", "swift-testing", "--filter", "FailureAttachmentFixtures",
                "--attachments-path", folder.path,
            ],
            environment: [attachmentFixturesVariable: "1", RecordMode.environmentVariable: ""],
            within: 120
        )
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            files[name] = try Data(contentsOf: folder.appendingPathComponent(name))
        }
        return FixtureRun(files: files, status: status, output: output)
    }

    @Test("the fixtures ran, and the five that fail did")
    func fixturesRan() async throws {
        let run = try await Self.fixtures.value
        #expect(run.status != 0, "\(run.output)")
        #expect(run.output.contains("Test run with 7 tests in 1 suite failed"), "\(run.output)")
        #expect(run.output.contains("with 6 issues (including 1 known issue)"), "\(run.output)")
    }

    @Test("an unmatched request attaches its near-miss report and the journal as HAR, secrets redacted")
    func unmatchedRequest() async throws {
        let run = try await Self.fixtures.value
        #expect(
            run.names(of: "unmatched") == [
                "FailureAttachmentFixtures.unmatched-failures.txt", "FailureAttachmentFixtures.unmatched-journal.har",
            ]
        )
        let report = try run.text("FailureAttachmentFixtures.unmatched-failures.txt")
        #expect(
            report.hasPrefix(
                """
                1 failure of FailureAttachmentFixtures/unmatched(), reported by its HTTP stubs:

                ── 1 of 1 ──
                Unmatched request: GET https://api.example.com/users/43

                """
            ),
            "\(report)"
        )
        #expect(report.contains(#"✗ path: expected "/users/42", got "/users/43""#), "the near miss: \(report)")
        #expect(report.contains("To answer it, correct the closest stub, "), "\(report)")
        #expect(!report.contains("s3cr3t-token"), "\(report)")

        let har = try run.json("FailureAttachmentFixtures.unmatched-journal.har")
        let entries = try #require(har["log"]?["entries"]?.arrayValue)
        #expect(entries.count == 1)
        let request = entries.first?["request"]
        #expect(request?["method"]?.stringValue == "GET")
        #expect(request?["url"]?.stringValue == "https://api.example.com/users/43")
        let authorization = request?["headers"]?.arrayValue?.first { $0["name"]?.stringValue == "Authorization" }
        #expect(authorization?["value"]?.stringValue == "REDACTED")
        #expect(entries.first?["response"]?["status"]?.numberValue?.int64Value == 0)
        #expect(entries.first?["response"]?["_error"]?.stringValue == "no stub answered the request")
        #expect(!(try run.text("FailureAttachmentFixtures.unmatched-journal.har")).contains("s3cr3t-token"))
    }

    @Test("an unmet expectation of the .httpStubs trait attaches its report and the (empty) journal")
    func unmetExpectation() async throws {
        let run = try await Self.fixtures.value
        let report = try run.text("FailureAttachmentFixtures.unmetExpectation-failures.txt")
        #expect(
            report.hasPrefix(
                """
                1 failure of FailureAttachmentFixtures/unmetExpectation(), reported by its HTTP stubs:

                ── 1 of 1 ──
                Unmet expectation:
                """
            ),
            "\(report)"
        )
        let har = try run.json("FailureAttachmentFixtures.unmetExpectation-journal.har")
        #expect(har["log"]?["entries"]?.arrayValue?.count == 0)
    }

    @Test("a request still in flight attaches its report and the journal")
    func requestInFlight() async throws {
        let run = try await Self.fixtures.value
        let report = try run.text("FailureAttachmentFixtures.inFlight-failures.txt")
        #expect(report.contains("\n── 1 of 1 ──\nRequest still in flight when the test ended"), "\(report)")
        let har = try run.json("FailureAttachmentFixtures.inFlight-journal.har")
        let url = har["log"]?["entries"]?[0]?["request"]?["url"]?.stringValue
        #expect(url == "https://api.example.com/feed")
    }

    @Test("a passing test attaches nothing, nor does one whose stub failures withKnownIssue expected")
    func passingTest() async throws {
        let run = try await Self.fixtures.value
        #expect(run.names(of: "passing") == [])
        #expect(run.names(of: "knownIssue") == [])
        #expect(!run.files.isEmpty, "the failing fixtures attached files")
    }

    @Test("a journal whose HAR is over 10 MiB is left out, and the report, whose body is cut, says so")
    func hugeBody() async throws {
        let run = try await Self.fixtures.value
        #expect(run.names(of: "hugeBody") == ["FailureAttachmentFixtures.hugeBody-failures.txt"])
        let report = try run.text("FailureAttachmentFixtures.hugeBody-failures.txt")
        #expect(report.utf8.count < 10_000, "the report describes the body, cut")
        #expect(report.contains("(11534336 bytes)"), "\(report)")
        #expect(
            report.hasSuffix(
                """

                The journal is not attached as HAR: its bodies alone weigh 11534336 bytes, over the 10485760-byte \
                attachment limit; write it from the test with `stubs.journalAsHAR()`.

                """
            ),
            "\(report)"
        )
    }

    @Test("a failing recording test attaches the stub files it recorded, redacted as on disk")
    func recordingTest() async throws {
        let run = try await Self.fixtures.value
        let names = run.names(of: "recording")
        let mapping = try #require(
            names.first { $0.hasPrefix("FailureAttachmentFixtures.recording-recorded-mappings-get-users-1-") },
            "\(names)"
        )
        let body = try #require(
            names.first { $0.hasPrefix("FailureAttachmentFixtures.recording-recorded-__files-get-users-1-") },
            "\(names)"
        )
        #expect(names.count == 4, "failures.txt, journal.har, the mapping and its body: \(names)")
        #expect(try run.json(mapping)["request"]?["method"]?.stringValue == "GET")
        let recorded = try run.json(body)
        #expect(recorded["name"]?.stringValue == "Ada")
        #expect(recorded["token"]?.stringValue == "REDACTED")
        let report = try run.text("FailureAttachmentFixtures.recording-failures.txt")
        #expect(report.contains("Unmet expectation:"), "\(report)")
    }
}

extension JSONValue {
    /// The member `key` of an object.
    fileprivate subscript(key: String) -> JSONValue? { objectValue?[key] }
    /// The element at `index` of an array.
    fileprivate subscript(index: Int) -> JSONValue? {
        arrayValue.flatMap { $0.indices.contains(index) ? $0[index] : nil }
    }
}
#endif
