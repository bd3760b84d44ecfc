import Foundation

/// Why no stub answered a request: the request, the closest stubs ranked by WireMock's weighted
/// distance with a verdict for every part, and a stub to paste that would answer it.
///
/// The report goes into test logs and CI output, so what it prints of secrets is masked as
/// `<redacted:1a2b3c>` (`Bearer <redacted:1a2b3c>`), by the policy of ``Redaction/default``:
/// secret headers and cookies, secret query and form values, secret JSON members, credentials
/// and URL passwords, in the request, the verdicts, the patterns and the stub to paste. The hash
/// tells values apart (within one process), so a stub expecting another token still shows as
/// one. ``request`` itself is the request as sent.
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

    /// Ranks `candidates` against `request`.
    init(request: InterceptedRequest, candidates: [(stub: Stub, notes: [String])], hint: String? = nil) {
        self.request = request
        self.hint = hint
        self.stubCount = candidates.count
        let ranked = candidates.map { candidate -> NearMiss in
            let evaluation = candidate.stub.pattern.evaluate(request)
            // A stub whose pattern matches but that could not answer (scenario, uses) ranks closest.
            return NearMiss(
                stub: StubSummary(candidate.stub),
                pattern: candidate.stub.pattern.description,
                distance: evaluation.distance,
                rows: evaluation.rows,
                notes: candidate.notes
            )
        }
        self.nearMisses = Array(
            ranked.enumerated().sorted { left, right in
                left.element.distance != right.element.distance
                    ? left.element.distance < right.element.distance
                    : left.offset < right.offset
            }.map(\.element).prefix(Self.nearMissCount)
        ).map(Self.masked)
    }

    /// A near miss as the report prints it: what its rows and pattern quote of secrets masked
    /// (see ``LogMasking``), because the report goes into logs.
    private static func masked(_ miss: NearMiss) -> NearMiss {
        let rows = miss.rows.map { row in
            PatternEvaluation.Row(
                matcher: row.matcher.described(as: LogMasking.text(row.matcher.description, part: row.matcher.part)),
                verdict: MatchVerdict(
                    isMatch: row.verdict.isMatch,
                    distance: row.verdict.distance,
                    detail: LogMasking.text(row.verdict.detail, part: row.matcher.part)
                )
            )
        }
        return NearMiss(
            stub: miss.stub,
            pattern: rows.isEmpty ? "any request" : rows.map(\.matcher.description).joined(separator: " and "),
            distance: miss.distance,
            rows: rows,
            notes: miss.notes
        )
    }

    /// Swift code for a stub that would answer the request, ready to paste; secrets in the URL
    /// and body are masked, as everywhere in the report.
    public var suggestedStub: String {
        let method = request.method.rawValue.lowercased()
        let known = ["get", "head", "post", "put", "patch", "delete", "options"]
        let url = quoted(LogMasking.url(request.url.absoluteString), limit: nil)
        var pattern =
            known.contains(method)
            ? ".\(method)(\(url))" : ".method(\(quoted(request.method.rawValue, limit: nil)), \(url))"
        if let body = maskedBody, !body.isEmpty, body.count <= 2_000, let text = String(data: body, encoding: .utf8),
            text.count <= 500
        {
            pattern += "\n        .body(.equal(\(quoted(text, limit: nil))))"
        }
        return "stubs.stub(\(pattern), .status(200))"
    }

    /// The whole report, as the `URLError` description and test failures show it.
    public var text: String {
        var lines = ["Unmatched request: \(request.method) \(LogMasking.url(request.url.absoluteString))"]
        for field in request.headers {
            lines.append("  \(field.name): \(Self.shortened(LogMasking.header(field.name, field.value)))")
        }
        if let reason = request.bodyUnavailableReason {
            lines.append("  Body: unreadable (\(reason))")
        } else if let body = maskedBody, !body.isEmpty {
            lines.append("  Body: \(BodyMatcher.describe(body))")
        }
        lines.append("")
        if nearMisses.isEmpty {
            lines.append("No stubs are registered.")
        } else {
            lines.append("Closest stubs (\(nearMisses.count) of \(stubCount)):")
            for (index, miss) in nearMisses.enumerated() {
                lines.append("\(index + 1). \(miss.stub), distance \(Self.format(miss.distance))")
                for row in miss.rows {
                    if row.verdict.isMatch {
                        lines.append("   ✓ \(row.matcher.description)")
                    } else {
                        // A matcher whose verdict says what it expected is named once, by its subject.
                        let name =
                            row.verdict.detail.hasPrefix("expected ")
                            ? row.matcher.subject ?? row.matcher.description : row.matcher.description
                        lines.append("   ✗ \(name): \(row.verdict.detail)")
                    }
                }
                for note in miss.notes {
                    lines.append("   ✗ \(note)")
                }
            }
        }
        lines.append("")
        lines.append("To answer it, add a stub such as:")
        lines.append("    \(suggestedStub)")
        if let hint {
            lines.append("")
            lines.append(hint)
        }
        return lines.joined(separator: "\n")
    }

    /// The whole report.
    public var description: String { text }

    /// The request body with its secrets masked.
    private var maskedBody: Data? {
        request.body.map { LogMasking.body($0, contentType: request.header("Content-Type")) }
    }

    /// A header value as sent, cut at 200 characters (with its size) when longer.
    private static func shortened(_ value: String) -> String {
        guard value.utf8.count > 200 else { return value }
        return "\(value.prefix(200))… (\(value.utf8.count) bytes)"
    }

    private static func format(_ distance: Double) -> String {
        String(format: "%.2f", distance)
    }
}
