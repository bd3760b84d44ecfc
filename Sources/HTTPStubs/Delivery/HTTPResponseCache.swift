import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The `HTTPURLResponse`s a registry has built, reused when the same URL gets the same status and
/// headers again.
///
/// Building an `HTTPURLResponse` is the most expensive step of answering a request (corelibs
/// canonicalises every header name and parses the content type), and tests tend to ask for the
/// same URL again and again. The object is immutable, so handing the same one to two requests is
/// indistinguishable from building it twice, except by identity.
final class HTTPResponseCache: Sendable {
    // Invariant: `lastResponse` is the response of `lastKey`. A response is immutable once built,
    // so handing one to any thread is safe.
    private let state = Locked(State())

    private struct State {
        var responses: [Key: HTTPURLResponse] = [:]
        /// The key and response handed out last: a stub answering the same URL again finds it by
        /// comparing, without hashing the URL and every header.
        var lastKey: Key?
        var lastResponse: HTTPURLResponse?
    }

    /// How many responses are kept; when a new one would exceed it, the cache starts over.
    static let capacity = 64

    private struct Key: Hashable {
        let url: URL
        let status: Int
        let headers: HeaderFields

        static func == (lhs: Key, rhs: Key) -> Bool {
            lhs.isKey(of: rhs.url, rhs.status, rhs.headers)
        }

        /// Whether this is the key of `url`, `status` and `headers`, without making one (a key
        /// retains its URL and fields). Header names and values compare byte for byte: `String`'s
        /// `==` would take a precomposed `é` for a decomposed one and hand out the other spelling.
        /// Fields that share their storage (a stub's own, answering again) are equal without a look
        /// at their bytes.
        func isKey(of url: URL, _ status: Int, _ headers: HeaderFields) -> Bool {
            self.status == status && self.url == url
                && (Self.sameStorage(self.headers.fields, headers.fields)
                    || (self.headers.fields.count == headers.fields.count
                        && zip(self.headers.fields, headers.fields).allSatisfy { left, right in
                            Self.sameBytes(left.name, right.name) && Self.sameBytes(left.value, right.value)
                        }))
        }

        /// Whether two arrays are one and the same storage (then their elements are the same).
        private static func sameStorage(_ lhs: [HeaderFields.Field], _ rhs: [HeaderFields.Field]) -> Bool {
            lhs.count == rhs.count
                && lhs.withUnsafeBufferPointer { left in
                    rhs.withUnsafeBufferPointer { right in left.baseAddress == right.baseAddress }
                }
        }

        private static func sameBytes(_ lhs: String, _ rhs: String) -> Bool {
            var lhs = lhs
            var rhs = rhs
            return lhs.withUTF8 { left in
                rhs.withUTF8 { right in
                    left.count == right.count
                        && (left.isEmpty || memcmp(left.baseAddress!, right.baseAddress!, left.count) == 0)
                }
            }
        }

        /// Consistent with `==`: keys equal byte for byte have equal strings, so equal hashes.
        func hash(into hasher: inout Hasher) {
            hasher.combine(url)
            hasher.combine(status)
            hasher.combine(headers)
        }
    }

    /// The response for this URL, status and header fields: a kept one, or a new one (kept).
    /// `nil` when `HTTPURLResponse` refuses them.
    func response(url: URL, status: Int, headers: HeaderFields) -> HTTPURLResponse? {
        let kept = state.withLock { state -> HTTPURLResponse? in
            // Compared in place, with no key made unless it differs: binding the last pair, or
            // comparing it with a key, would copy (retain and release) the URLs and fields first.
            if state.lastKey?.isKey(of: url, status, headers) == true { return state.lastResponse }
            let key = Key(url: url, status: status, headers: headers)
            guard let kept = state.responses[key] else { return nil }
            state.lastKey = key
            state.lastResponse = kept
            return kept
        }
        if let kept { return kept }
        guard
            let built = HTTPURLResponse(
                url: url,
                statusCode: status,
                httpVersion: "HTTP/1.1",
                headerFields: headers.folded
            )
        else {
            return nil
        }
        let key = Key(url: url, status: status, headers: headers)
        state.withLock { state in
            if state.responses.count >= Self.capacity { state.responses.removeAll(keepingCapacity: true) }
            state.responses[key] = built
            state.lastKey = key
            state.lastResponse = built
        }
        return built
    }
}
