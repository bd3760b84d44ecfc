import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension StubRegistry {
    /// The journal as a HAR 1.2 document: one entry per intercepted request, with the response
    /// the caller received, or `status: 0` and an `_error` for requests that got none.
    ///
    /// Secrets are replaced before they reach the document, as recording replaces them: by default
    /// the values of request and response headers, path segments and query parameters (also in the
    /// fragment and in URL-valued headers such as `Location` and `Link`), JSON members, form and
    /// multipart fields and XML elements named like credentials, values shaped like credentials
    /// anywhere, URL passwords, and secrets in bodies that do not parse, become `REDACTED` (see
    /// ``Redaction``), so the document can be written to disk and checked in. A body sent or
    /// answered with a `Content-Encoding` is written decoded, as HAR's `text` is, with a `comment`
    /// saying so. Opting out is explicit: `journalAsHAR(redaction: .none)`.
    /// - Parameter redaction: What is replaced; ``Redaction/default`` unless given.
    public func journalAsHAR(redaction: Redaction = .default) -> Data {
        let entries = journal.enumerated().map { index, entry in
            (exchange: Self.harExchange(entry, index: index), started: entry.date)
        }
        return HARWriter.document(entries, redaction: redaction)
    }

    /// A journal entry in the HAR model, as recorded (``HARWriter`` replaces the secrets).
    private static func harExchange(_ entry: JournalEntry, index: Int) -> HARExchange {
        let outcome: HAROutcome
        if let recorded = entry.response {
            outcome = .response(
                HARResponse(
                    status: recorded.status,
                    reason: "",
                    headers: recorded.headers,
                    body: recorded.body,
                    contentType: recorded.urlResponse.value(forHTTPHeaderField: "Content-Type") ?? ""
                )
            )
        } else {
            outcome = .failure(errorName: harError(for: entry.outcome))
        }
        let body = entry.request.body.flatMap { $0.isEmpty ? nil : HARBody(recorded: $0) }
        return HARExchange(
            entryIndex: index,
            jsonPath: JSONPath([.key("log"), .key("entries"), .index(index)]),
            request: HARRequest(url: entry.request.url.absoluteString, stubRequest: entry.request, body: body),
            outcome: outcome,
            startedAt: nil,
            order: nil
        )
    }

    /// Why a journaled request got no HTTP response, for HAR's `_error`.
    private static func harError(for outcome: JournalEntry.Outcome) -> String {
        switch outcome {
        case .answered: return "the stub answered with an error"
        case .unmatched: return "no stub answered the request"
        case .passedThrough: return "passed through to the network"
        case let .refused(reason): return reason
        case .recorded: return "the real server's answer was an error"
        }
    }
}
