import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Reads HAR 1.2 captures (browser exports, Charles, mitmproxy, Insomnia, Polly.JS recordings)
/// into stubs that replay them.
///
/// A request matches an entry on its method, scheme, host, port, percent-encoded path and query,
/// the query compared as a multiset of decoded name/value pairs (order-insensitive, every pair
/// as often as recorded, nothing else). Among entries that tie on all of that, the request body
/// decides only when their bodies differ: then each distinct body gets its own stub (JSON bodies
/// compared semantically, others as exact text); otherwise the body is not looked at.
///
/// Identical requests are answered in recorded order — by `startedDateTime` when every entry has
/// one, else in file order, and by Polly.JS's `_order` where present — and the last answer then
/// repeats. Each distinct request becomes one ``Stub`` with its responses in that order.
///
/// Tolerated deviations: a byte order mark, `status: 0` entries (replayed as a `URLError`, see
/// ``HARReader/urlErrorCode(forBrowserError:)``), empty or odd `httpVersion`, custom `_` fields and
/// Insomnia's `settingEncodeUrl`, `postData` without `text`, Polly.JS's array-valued header values,
/// HTTP/2 pseudo-headers, and bodies on `304` responses.
extension StubFileDecoder {
    /// The stubs that replay the HAR log at `root` (the document's root by default), with every
    /// problem reported as a located diagnostic. Entries with errors are left out.
    func harStubs(at root: JSONPath = .root) -> [Stub] {
        harRecording(at: root).map { request in
            let first = request.exchanges[0]
            let location = self.location(of: first.jsonPath)
            return Stub(
                request.pattern,
                responses: request.exchanges.map(\.outcome.stubResponse),
                afterLast: .repeatLast,
                source: .file(path, index: first.entryIndex, line: location?.line, column: location?.column)
            )
        }
    }

    /// The distinct requests of the HAR log at `root`, in order of first replay, each with its
    /// exchanges in replay order. Problems are reported through the decoder.
    func harRecording(at root: JSONPath = .root, redaction: Redaction = .none) -> [HARDistinctRequest] {
        HARReader(decoder: self).recording(at: root, redaction: redaction)
    }
}
