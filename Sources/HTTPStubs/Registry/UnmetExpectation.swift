import Foundation

/// A stub whose use count did not meet its expectation, with the requests that did arrive, as
/// WireMock's `verify` lists them.
public struct UnmetExpectation: Sendable, CustomStringConvertible {
    /// A request the registry received, and why it missed the stub.
    public struct Received: Sendable {
        /// The request, as sent.
        public let request: InterceptedRequest
        /// What became of it: the stub that answered it, or unmatched.
        public let outcome: JournalEntry.Outcome
        /// Its weighted distance from the stub's pattern, 0 to 1; smaller is closer.
        public let distance: Double
        /// The stub's matchers the request failed, with their verdicts (secrets masked); empty when
        /// the request matched the pattern and the stub could not answer it (scenario, use limit).
        public let mismatches: [PatternEvaluation.Row]
    }

    /// How many received requests a description lists.
    static let receivedCount = 3

    /// The stub.
    public let stub: StubSummary
    /// What it expected.
    public let expectation: UseExpectation
    /// How many requests it answered.
    public let uses: Int
    /// The stub's pattern as text, with what it quotes of secrets masked as near-miss reports mask
    /// it (`header Authorization = "Bearer <redacted:1a2b3c>"`): the description goes into logs.
    public let pattern: String
    /// The requests the registry received that the stub did not answer, closest to its pattern first
    /// (at most three).
    public let received: [Received]
    /// How many requests the registry received that the stub did not answer.
    public let receivedTotal: Int
    /// The values masked wherever the description shows them: the secrets of the listed requests,
    /// and those the stub expects at secret names.
    private let maskedSecrets: Set<String>

    /// Checks `stub`, used `uses` times, against the registry's `journal`: ranks the requests it did
    /// not answer by their distance from its pattern. Call without holding the registry's lock: a
    /// custom matcher runs user code.
    init(stub: Stub, expectation: UseExpectation, uses: Int, journal: [JournalEntry]) {
        self.stub = StubSummary(stub)
        self.expectation = expectation
        self.uses = uses
        self.pattern = stub.pattern.maskedDescription
        let others = journal.filter { entry in
            if case let .answered(by) = entry.outcome { return by.id != stub.id }
            return true
        }
        self.receivedTotal = others.count
        let ranked = others.enumerated().map { position, entry in
            let evaluation = stub.pattern.evaluate(entry.request)
            return (position, entry, evaluation)
        }.sorted { left, right in
            left.2.distance != right.2.distance ? left.2.distance < right.2.distance : left.0 < right.0
        }
        // The listed requests are evaluated again with their secrets masked wherever the verdicts
        // show them, before anything is cut short (see LogMasking).
        var secrets = LogMasking.secrets(expectedBy: stub.pattern)
        self.received = ranked.prefix(Self.receivedCount).map { _, entry, evaluation in
            let requestSecrets = LogMasking.secrets(of: entry.request)
            secrets.formUnion(requestSecrets)
            let rows = LogMasking.masking(requestSecrets.union(secrets)) {
                UnmatchedRequestReport.masked(stub.pattern.evaluate(entry.request).rows.filter { !$0.verdict.isMatch })
            }
            return Received(
                request: entry.request,
                outcome: entry.outcome,
                distance: evaluation.distance,
                mismatches: rows
            )
        }
        self.maskedSecrets = secrets
    }

    /// The expectation, then the requests received, closest first, each with what became of it and
    /// the stub's matchers it failed:
    /// ```text
    /// the stub (method POST and path = "/orders") was expected to answer exactly once, but answered 0 requests
    /// Requests received (1 of 1), closest first:
    /// 1. POST https://api.example.com/order → unmatched, distance 0.20
    ///    ✗ path: expected "/orders", got "/order"
    /// ```
    public var description: String {
        let label = stub.name.map { "\(quoted($0)) " } ?? ""
        var lines = [
            "the stub \(label)(\(pattern)) was expected to answer \(expectation), "
                + "but answered \(uses) \(uses == 1 ? "request" : "requests")"
        ]
        if received.isEmpty {
            lines.append("No other requests were received.")
        } else {
            lines.append("Requests received (\(received.count) of \(receivedTotal)), closest first:")
            for (index, arrival) in received.enumerated() {
                let request = UnmatchedRequestReport.requestLine(arrival.request)
                lines.append(
                    "\(index + 1). \(request) → \(Self.describe(arrival.outcome)), "
                        + "distance \(UnmatchedRequestReport.format(arrival.distance))"
                )
                lines += UnmatchedRequestReport.verdictLines(arrival.mismatches, notes: [])
                if arrival.mismatches.isEmpty {
                    lines.append(
                        "   ✓ matches the pattern; priority, a scenario state or a use limit sent it elsewhere"
                    )
                }
            }
        }
        return LogMasking.masking(maskedSecrets) { LogMasking.maskingSecrets(lines.joined(separator: "\n")) }
    }

    /// `answered by MyAppTests/FeedTests.swift:12:9`, `unmatched`, …
    private static func describe(_ outcome: JournalEntry.Outcome) -> String {
        switch outcome {
        case let .answered(stub): return "answered by \(stub)"
        case .unmatched: return "unmatched"
        case .passedThrough: return "passed through to the network"
        case let .refused(reason): return "refused: \(reason)"
        case let .recorded(file): return "recorded into \(file)"
        }
    }
}
