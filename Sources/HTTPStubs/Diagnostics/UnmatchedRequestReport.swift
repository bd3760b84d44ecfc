import Foundation

/// Why no stub answered a request: the request, the closest stubs ranked by WireMock's weighted
/// distance with a verdict for every part, and a stub to paste that would answer it.
///
/// The report goes into test logs and CI output, so what it prints of secrets is masked as
/// `<redacted:1a2b3c>` (`Bearer <redacted:1a2b3c>`), by the policy of ``Redaction/default``:
/// secret headers and cookies, secret query, matrix and form values, secret JSON members and XML
/// elements, credentials anywhere and URL passwords, in the request, the verdicts (JSON paths,
/// schema failures, JSON and XML differences), the patterns and the stub to paste; and every value
/// found secret in the request, or expected at a secret name by one of the closest stubs, wherever
/// else it shows. Values are masked before a message cuts them short. The hash tells values apart
/// (within one process), so a stub expecting another token still shows as one. ``request`` itself
/// is the request as sent.
public struct UnmatchedRequestReport: Sendable, CustomStringConvertible {
    /// One of the closest stubs and how it differs from the request.
    public struct NearMiss: Sendable {
        /// Which stub missed: its identity, name and where it was written.
        public let stub: StubSummary
        /// The stub's pattern as reports print it (`GET /users/{id}`).
        public let pattern: String
        /// The weighted distance, 0 to 1; smaller is closer.
        public let distance: Double
        /// Every matcher of the stub with its verdict.
        public let rows: [PatternEvaluation.Row]
        /// Reasons beyond the pattern: a scenario in another state, uses used up.
        public let notes: [String]
    }

    /// How many near misses a report lists, as WireMock does.
    static let nearMissCount = 3

    /// The request no stub answered.
    public let request: InterceptedRequest
    /// The closest stubs, closest first (at most three).
    public let nearMisses: [NearMiss]
    /// How many stubs the registry held.
    public let stubCount: Int
    /// What else to do, such as the environment variable that records the request.
    public let hint: String?
    /// Where the registry's sessions were made, by
    /// ``StubRegistry/makeSession(configuration:delegate:delegateQueue:fileID:filePath:line:column:)``:
    /// one of them sent the request. Empty when that is not known for sure: the registry also
    /// handed out its protocol class or a configuration, whose sessions it does not see being made
    /// (and URLSession tells a protocol nothing of the session a request comes from).
    public let sessionOrigins: [StubSource]
    /// Swift code for a stub that would answer the request, ready to paste: the closest stub
    /// corrected when it was close (see ``correctedStub``), else a fresh stub for the request. Secrets
    /// are masked, as everywhere in the report.
    public let suggestedStub: String
    /// The values masked wherever they show: the request's secrets, and those the closest stubs
    /// expect at secret names.
    private let maskedSecrets: Set<String>
    /// The request body with its secrets masked.
    private let maskedBody: Data?
    /// The stub ``suggestedStub`` corrects: the closest one, when it failed at most two of its
    /// matchers and can be written as Swift (a method and a URL string, then header and query tests
    /// of literals); `nil` when the suggestion is a fresh stub.
    public let correctedStub: StubSummary?

    /// Ranks `candidates` against `request`, sent through a session made at one of `sessionOrigins`.
    init(
        request: InterceptedRequest,
        candidates: [(stub: Stub, notes: [String])],
        sessionOrigins: [StubSource] = [],
        hint: String? = nil
    ) {
        self.request = request
        self.hint = hint
        self.sessionOrigins = sessionOrigins
        self.stubCount = candidates.count
        // Every value the request holds that the policy finds secret is masked wherever the report
        // shows it, and every value a verdict quotes is masked before it is cut short.
        let (secrets, body) = LogMasking.masked(request)
        let ranked = LogMasking.masking(secrets) {
            candidates.enumerated().map { position, candidate in
                (position, candidate, candidate.stub.pattern.evaluate(request))
            }.sorted { left, right in
                // A stub whose pattern matches but that could not answer (scenario, uses) ranks closest.
                left.2.distance != right.2.distance ? left.2.distance < right.2.distance : left.0 < right.0
            }
        }
        let closestThree = ranked.prefix(Self.nearMissCount)
        // The values the closest stubs expect at secret names, masked wherever else they show too.
        let collector = SecretCollector()
        for (_, candidate, _) in closestThree {
            _ = candidate.stub.pattern.maskedDescription(noting: collector)
        }
        let allSecrets = secrets.union(collector.all)
        self.maskedSecrets = allSecrets
        self.nearMisses = LogMasking.masking(allSecrets) {
            closestThree.map { _, candidate, evaluation in
                NearMiss(
                    stub: StubSummary(candidate.stub),
                    pattern: candidate.stub.pattern.maskedDescription,
                    distance: evaluation.distance,
                    rows: Self.masked(evaluation.rows),
                    notes: candidate.notes.map(LogMasking.maskingSecrets)
                )
            }
        }
        self.maskedBody = body
        let closest = LogMasking.masking(allSecrets) {
            ranked.first.flatMap { _, candidate, evaluation in
                StubRepair.corrected(
                    candidate.stub,
                    evaluation: evaluation,
                    notes: candidate.notes,
                    for: request,
                    maskedBody: body
                ).map { (code: LogMasking.maskingSecrets($0), stub: StubSummary(candidate.stub)) }
            }
        }
        self.correctedStub = closest?.stub
        self.suggestedStub =
            closest?.code
            ?? LogMasking.masking(allSecrets) {
                LogMasking.maskingSecrets(StubRepair.fresh(for: request, maskedBody: body))
            }
    }

    /// The whole report, as the `URLError` description and test failures show it.
    public var text: String {
        var lines = ["Unmatched request: \(Self.requestLine(request))"]
        for field in request.headers {
            lines.append("  \(field.name): \(Self.shortened(LogMasking.header(field.name, field.value)))")
        }
        if let reason = request.bodyUnavailableReason {
            lines.append("  Body: unreadable (\(reason))")
        } else if let body = maskedBody, !body.isEmpty {
            lines.append("  Body: \(BodyMatcher.describe(body))")
        }
        switch sessionOrigins.count {
        case 0: break
        case 1: lines.append("Sent through the session made at \(sessionOrigins[0]).")
        default:
            let places = sessionOrigins.prefix(3).map(\.description).joined(separator: ", ")
            let more = sessionOrigins.count - 3
            let rest = more > 0 ? " and \(more) more \(more == 1 ? "place" : "places")" : ""
            lines.append("Sent through one of the sessions made at \(places)\(rest).")
        }
        lines.append("")
        if nearMisses.isEmpty {
            lines.append("No stubs are registered.")
        } else {
            lines.append("Closest stubs (\(nearMisses.count) of \(stubCount)):")
            for (index, miss) in nearMisses.enumerated() {
                lines.append("\(index + 1). \(miss.stub), distance \(Self.format(miss.distance))")
                lines += Self.verdictLines(miss.rows, notes: miss.notes)
            }
        }
        lines.append("")
        if let correctedStub {
            lines.append("To answer it, correct the closest stub, \(correctedStub), to:")
        } else {
            lines.append("To answer it, add a stub such as:")
        }
        lines.append("    \(suggestedStub)")
        if let hint {
            lines.append("")
            lines.append(hint)
        }
        return LogMasking.masking(maskedSecrets) { LogMasking.maskingSecrets(lines.joined(separator: "\n")) }
    }

    /// The whole report.
    public var description: String { text }

    /// `text` (a stub's source or name, taken from ``nearMisses``) with every value this report
    /// masks masked: a file name made from a secret path, say.
    package func masking(_ text: String) -> String {
        LogMasking.masking(maskedSecrets) { LogMasking.maskingSecrets(text) }
    }

    /// A request as reports name it, `GET https://api.example.com/users/43`: its URL masked (see
    /// ``LogMasking``) and ``shortened(_:)``, so a 64 KB URL does not make a 64 KB headline.
    static func requestLine(_ request: InterceptedRequest) -> String {
        "\(request.method) \(shortened(LogMasking.url(request.url.absoluteString)))"
    }

    /// A header value or URL as sent, cut at 200 characters (with its size) when longer.
    private static func shortened(_ value: String) -> String {
        guard value.utf8.count > 200 else { return value }
        return "\(value.prefix(200))… (\(value.utf8.count) bytes)"
    }

    /// A distance as reports print it: `0.20`.
    static func format(_ distance: Double) -> String {
        String(format: "%.2f", distance)
    }

    /// Verdict rows with what they quote of secrets masked (see ``LogMasking``), because reports go
    /// into logs.
    static func masked(_ rows: [PatternEvaluation.Row]) -> [PatternEvaluation.Row] {
        rows.map { row in
            PatternEvaluation.Row(
                matcher: row.matcher.described(as: LogMasking.text(row.matcher.description, part: row.matcher.part)),
                verdict: MatchVerdict(
                    isMatch: row.verdict.isMatch,
                    distance: row.verdict.distance,
                    detail: LogMasking.text(
                        row.verdict.detail,
                        part: row.matcher.part,
                        describedAs: row.matcher.description
                    )
                )
            )
        }
    }

    /// One line per verdict, `   ✓ method GET` or `   ✗ path: expected "/users/42", got "/users/43"`,
    /// then one per note.
    static func verdictLines(_ rows: [PatternEvaluation.Row], notes: [String]) -> [String] {
        rows.map { "   \($0.verdict.isMatch ? "✓" : "✗") \($0.explanation)" } + notes.map { "   ✗ \($0)" }
    }
}
