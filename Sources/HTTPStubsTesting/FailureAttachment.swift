import Foundation
import HTTPStubs

/// One file attached to a test whose stub scope ended with failures: what a developer opens next.
///
/// A failing scope attaches, each name starting with the test's (`Suite.test`):
/// - `<test>-failures.txt`: every failure the scope reported, in full (the near-miss reports of
///   unmatched requests, unmet expectations, requests still in flight, broken stubs), as the
///   failures print them, secrets masked;
/// - `<test>-journal.har`: the scope's journal as HAR 1.2 (`StubRegistry.journalAsHAR()`, secrets
///   redacted), which opens in a browser's network panel, Proxyman or Charles;
/// - `<test>-recorded-<path>`: for a recording test, each stub file its recording wrote.
///
/// Sizes are bounded: the text at ``textLimit``, the HAR and the recorded files at ``fileLimit``
/// each. What is over a limit is left out, and the text says what and how big.
struct FailureAttachment: Sendable, Equatable {
    /// The file name, as the test framework shows and writes it.
    let name: String
    /// The file's bytes.
    let contents: Data

    /// The most the failures text holds: 1 MiB. Each report is bounded already (header values cut at
    /// 200 characters, bodies described by their first 200), so this only cuts a scope with
    /// thousands of failures; the text ends by counting the failures left out.
    static let textLimit = 1_048_576
    /// The most a HAR or recorded file may weigh to be attached: 10 MiB. A journal whose HAR is
    /// larger (huge bodies, a long journal) is not attached, and the text says so.
    static let fileLimit = 10_485_760

    /// The attachments of a scope that reported `failures`: the text, the journal as HAR, and the
    /// files `stubs` recorded; none when `failures` is empty.
    static func evidence(failures: [String], stubs: StubRegistry, testName: String) -> [FailureAttachment] {
        guard !failures.isEmpty else { return [] }
        let base = fileName(testName)
        var attachments: [FailureAttachment] = []
        var notes: [String] = []
        // Bodies over the limit make a HAR over it: that one is not built at all.
        let bodies = stubs.journal.reduce(0) { $0 + ($1.request.body?.count ?? 0) + ($1.response?.body.count ?? 0) }
        let har = bodies > fileLimit ? nil : stubs.journalAsHAR()
        if let har, har.count <= fileLimit {
            attachments.append(FailureAttachment(name: "\(base)-journal.har", contents: har))
        } else {
            let size = har.map { "it weighs \($0.count) bytes" } ?? "its bodies alone weigh \(bodies) bytes"
            notes.append(
                "The journal is not attached as HAR: \(size), over the \(fileLimit)-byte attachment limit; write it "
                    + "from the test with `stubs.journalAsHAR()`."
            )
        }
        for file in stubs.recordedFiles {
            // Regular files only: a FIFO put where a recording was would block the failing test.
            guard let contents = try? RegularFile.read(file.url.path) else { continue }
            guard contents.count <= fileLimit else {
                notes.append(
                    "The recorded \(file.url.path) (\(contents.count) bytes) is over the \(fileLimit)-byte "
                        + "attachment limit and is not attached."
                )
                continue
            }
            let flat = file.path.replacingOccurrences(of: "/", with: "-")
            attachments.append(FailureAttachment(name: "\(base)-recorded-\(flat)", contents: contents))
        }
        let text = report(failures: failures, testName: testName, notes: notes)
        return [FailureAttachment(name: "\(base)-failures.txt", contents: Data(text.utf8))] + attachments
    }

    /// The failures, numbered and separated, then `notes`; failures that would take it past
    /// ``textLimit`` are left out, and counted.
    private static func report(failures: [String], testName: String, notes: [String]) -> String {
        let count = failures.count == 1 ? "1 failure" : "\(failures.count) failures"
        var text = "\(count) of \(testName), reported by its HTTP stubs:\n"
        let ending = notes.map { "\n\($0)\n" }.joined()
        // Room for the ending and for the line counting what is left out.
        let budget = textLimit - ending.utf8.count - 100
        var size = text.utf8.count
        for (index, failure) in failures.enumerated() {
            let part = "\n── \(index + 1) of \(failures.count) ──\n\(failure)\n"
            size += part.utf8.count
            guard size <= budget else {
                let left = failures.count - index
                text += "\n… \(left) more failure\(left == 1 ? "" : "s") left out: this text stops at 1 MiB.\n"
                break
            }
            text += part
        }
        return text + ending
    }

    /// The test's name as a file name: `Suite/test()` and `-[Suite test]` become `Suite.test`, and
    /// any character but letters, digits, `.`, `_` and `-` becomes `_`.
    private static func fileName(_ testName: String) -> String {
        var name = testName
        if name.hasPrefix("-["), name.hasSuffix("]") {
            name = String(name.dropFirst(2).dropLast()).replacingOccurrences(of: " ", with: ".")
        }
        name = name.split(separator: "/").map { component in
            component.firstIndex(of: "(").map { component[..<$0] } ?? component
        }.joined(separator: ".")
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")
        return String(name.map { allowed.contains($0) ? $0 : "_" })
    }
}
