import Foundation

/// The stub to paste that a near-miss report suggests: the closest stub with the matchers the
/// request failed corrected, when that stub was close, else a fresh stub for the request.
///
/// A stub is close when it failed at most ``maximumCorrections`` of its matchers and matched at
/// least one, no scenario or use limit kept it from answering, and it can be written back as Swift:
/// its pattern starts with a method and a URL string (`.get("https://api.example.com/users/{id}")`)
/// and every other matcher it keeps is a header or query test of a literal. Each failed matcher is
/// corrected from the request: the method and URL from the request's (the URL string as written
/// is kept when all its parts matched), a header or query parameter to the value sent (or left
/// out when none was sent), a body test to the body sent (when it is short text: a JSON test, with the
/// stub's options, for a stub that tested JSON or a JSON body), any other failed test (an absence, a
/// closure) left out. The stub's response is not written back (it may be a
/// closure): the Xcode placeholder `<#its response#>` stands for it. Secrets are masked, as everywhere in
/// the report.
enum StubRepair {
    /// How many failed matchers a close stub may have.
    static let maximumCorrections = 2

    /// The corrected `closest` stub, or `nil` when it was not close.
    static func corrected(
        _ closest: Stub,
        evaluation: PatternEvaluation,
        notes: [String],
        for request: InterceptedRequest,
        maskedBody: Data?
    ) -> String? {
        let rows = evaluation.rows
        let failed = rows.filter { !$0.verdict.isMatch }.count
        guard notes.isEmpty, failed >= 1, failed <= maximumCorrections, failed < rows.count,
            let head = closest.pattern.head
        else { return nil }
        let headRows = rows.prefix(head.count)
        let method = head.method.map { headRows.first?.verdict.isMatch == true ? $0 : request.method }
        let urlMatched = headRows.dropFirst(head.method == nil ? 0 : 1).allSatisfy(\.verdict.isMatch)
        var code = call(method: method, url: LogMasking.url(urlMatched ? head.url : request.url.absoluteString))
        for row in rows.dropFirst(head.count) {
            if row.verdict.isMatch {
                guard let kept = row.matcher.code?.maskedCode else { return nil }
                code += "\n        \(kept)"
            } else if let correction = correction(of: row.matcher, for: request, maskedBody: maskedBody) {
                code += "\n        \(correction)"
            }
        }
        // The closest stub's response is not written back (it may be a closure): an editor
        // placeholder stands for it, so the pasted line does not compile until it is filled in.
        return "stubs.stub(\(code), <#its response#>)"
    }

    /// A fresh stub for `request`: its method and URL, and its body when it is short text (tested as
    /// JSON when it was sent as JSON).
    static func fresh(for request: InterceptedRequest, maskedBody: Data?) -> String {
        var pattern = call(method: request.method, url: LogMasking.url(request.url.absoluteString))
        let sentJSON = request.headers["Content-Type"]?.lowercased().contains("json") == true
        if let body = bodyCode(maskedBody, json: sentJSON ? JSONComparisonOptions() : nil) {
            pattern += "\n        \(body)"
        }
        return "stubs.stub(\(pattern), .status(200))"
    }

    /// A test of a body of short text (at most 500 characters), else `nil`: `.body(.json(text: …))`
    /// with `json`'s options when they are given and the body is JSON, else `.body(.equal("…"))`.
    private static func bodyCode(_ maskedBody: Data?, json options: JSONComparisonOptions?) -> String? {
        guard let body = maskedBody, !body.isEmpty, body.count <= 2_000, let text = String(data: body, encoding: .utf8),
            text.count <= 500
        else { return nil }
        guard let options, let value = try? JSONValue(parsing: text) else {
            return ".body(.equal(\(quoted(text, limit: nil))))"
        }
        let compact = value.serialized()
        // A raw string keeps the JSON readable (no escaped quotes) when nothing in it ends one or
        // starts an escape of one.
        let literal =
            compact.contains("\"#") || compact.contains("\\#") || compact.unicodeScalars.contains { $0.value < 0x20 }
            ? quoted(compact, limit: nil) : "#\"" + compact + "\"#"
        let flags =
            (options.ignoreArrayOrder ? ", ignoreArrayOrder: true" : "")
            + (options.ignoreExtraMembers ? ", ignoreExtraMembers: true" : "")
        return ".body(.json(text: \(literal)\(flags)))"
    }

    /// `.get("…")`, `.method("PURGE", "…")`, or `.anyMethod("…")` when `method` is `nil`. A URL
    /// longer than ``MatcherCode/pastedLength`` characters is not pasted whole: a test on its first
    /// ``MatcherCode/excerptLength`` characters stands for it, which still accepts it
    /// (`RequestPattern([.method("GET"), .absoluteURL(.hasPrefix("https://…"))])`).
    private static func call(method: InterceptedRequest.Method?, url: String) -> String {
        guard url.count <= MatcherCode.pastedLength else {
            let start = quoted(String(url.prefix(MatcherCode.excerptLength)), limit: nil)
            let matchers = method.map { [".method(\(quoted($0.rawValue, limit: nil)))"] } ?? []
            return "RequestPattern([" + (matchers + [".absoluteURL(.hasPrefix(\(start)))"]).joined(separator: ", ")
                + "])"
        }
        let literal = quoted(url, limit: nil)
        guard let method else { return ".anyMethod(\(literal))" }
        let name = method.rawValue.lowercased()
        let known = ["get", "head", "post", "put", "patch", "delete", "options"]
        return known.contains(name)
            ? ".\(name)(\(literal))" : ".method(\(quoted(method.rawValue, limit: nil)), \(literal))"
    }

    /// The failed `matcher` rewritten to accept `request`, or `nil` to leave it out.
    private static func correction(
        of matcher: RequestMatcher,
        for request: InterceptedRequest,
        maskedBody: Data?
    )
        -> String?
    {
        if matcher.part == .body { return bodyCode(maskedBody, json: matcher.jsonBodyOptions) }
        switch matcher.code {
        case let .header(name, _):
            return request.sentValues(ofHeader: name).first.flatMap { MatcherCode.header(name, .equal($0)).maskedCode }
        case let .query(name, _):
            return request.queryValues(name).first.flatMap { MatcherCode.query(name, .equal($0)).maskedCode }
        case .headerAbsent, .queryAbsent, nil:
            return nil
        }
    }
}
