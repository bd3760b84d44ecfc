import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The `HTTPURLResponse`s a registry has built, reused when the same URL gets the same status and
/// headers again, and the events of the literal answer it gave last.
///
/// Building an `HTTPURLResponse` is the most expensive step of answering a request (corelibs
/// canonicalises every header name and parses the content type), and tests tend to ask for the
/// same URL again and again. The object is immutable, so handing the same one to two requests is
/// indistinguishable from building it twice, except by identity. So is an array of events, which
/// a load's timeline only reads.
final class HTTPResponseCache: Sendable {
    // Invariant: `lastResponse` is the response of `lastKey`; `lastAnswer`'s events are its
    // literal's answer to its URL. Responses and events are immutable once built, so handing them
    // to any thread is safe.
    private let state = Locked(State())

    fileprivate struct State {
        var responses: [Key: HTTPURLResponse] = [:]
        /// The key and response handed out last: a stub answering the same URL again finds it by
        /// comparing, without hashing the URL and every header.
        var lastKey: Key?
        var lastResponse: HTTPURLResponse?
        var lastAnswer: LastAnswer?
    }

    /// The events of the literal answer handed out last, and the URL they answered. A class: an
    /// optional struct with a `URL` (a resilient type) is tested and copied through its type's
    /// metadata (BENCHMARKS.md, "Copies through type metadata"). It holds its stub's answer, body included, until another
    /// literal answer replaces it, even after the stub is removed: one body per registry at most.
    final class LastAnswer: Sendable {
        /// Held, so that no other answer can take its identity while it is kept.
        let literal: StubIndex.LiteralAnswer
        let url: URL
        let response: HTTPURLResponse
        let events: [DeliveryTimeline.Event]

        init(literal: StubIndex.LiteralAnswer, url: URL, response: HTTPURLResponse, events: [DeliveryTimeline.Event]) {
            self.literal = literal
            self.url = url
            self.response = response
            self.events = events
        }
    }

    /// How many responses are kept; when a new one would exceed it, the cache starts over.
    static let capacity = 64

    fileprivate struct Key: Hashable {
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
                            left.name.hasSameUTF8(as: right.name) && left.value.hasSameUTF8(as: right.value)
                        }))
        }

        /// Whether two arrays are one and the same storage (then their elements are the same).
        private static func sameStorage(_ lhs: [HeaderFields.Field], _ rhs: [HeaderFields.Field]) -> Bool {
            lhs.count == rhs.count
                && lhs.withUnsafeBufferPointer { left in
                    rhs.withUnsafeBufferPointer { right in left.baseAddress == right.baseAddress }
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
        if let kept = state.withLock({ $0.kept(url, status, headers) }) { return kept }
        guard let built = Self.build(url, status, headers) else { return nil }
        state.withLock { $0.keep(built, url, status, headers) }
        return built
    }

    /// The response and the events with which `literal` answers `url` at the start of a load (one
    /// reference, so that the hit retains one object rather than each of its parts): its
    /// response, with `status` and `headers` (read only when not kept), then its whole `body`, all
    /// due at once. The events are those handed out last when it was the last answer and `url` its
    /// URL: a stub answering the same URL again (as tests do) hands out the same array, rather than
    /// building one and freeing it after it is delivered. `nil` when `HTTPURLResponse` refuses the
    /// status or headers. The caller makes sure the answer is no redirect: a literal's events must
    /// not depend on the registry's settings.
    func answer(
        _ literal: StubIndex.LiteralAnswer,
        url: URL,
        status: Int,
        headers: @autoclosure () -> HeaderFields,
        body: Data
    ) -> LastAnswer? {
        var read: HeaderFields?
        // Released after the lock: the last reference to a removed stub's body may be this one, and
        // a `Data` made with a custom deallocator runs the user's code when it goes.
        var replaced: LastAnswer?
        let found = state.withLock { state -> LastAnswer? in
            if let last = state.lastAnswer, last.literal === literal, last.url == url { return last }
            let delivered = headers()
            read = delivered
            guard let kept = state.kept(url, status, delivered) else { return nil }
            return state.keepAnswer(literal, url, kept, body, replacing: &replaced)
        }
        if let found { return found }
        let fields = read ?? headers()
        guard let built = Self.build(url, status, fields) else { return nil }
        return state.withLock { state in
            state.keep(built, url, status, fields)
            return state.keepAnswer(literal, url, built, body, replacing: &replaced)
        }
    }

    private static func build(_ url: URL, _ status: Int, _ headers: HeaderFields) -> HTTPURLResponse? {
        HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers.folded)
    }
}

extension HTTPResponseCache.State {
    /// The kept response for this URL, status and header fields, if any.
    fileprivate mutating func kept(_ url: URL, _ status: Int, _ headers: HeaderFields) -> HTTPURLResponse? {
        // Compared in place, with no key made unless it differs: binding the last pair, or
        // comparing it with a key, would copy (retain and release) the URLs and fields first.
        if lastKey?.isKey(of: url, status, headers) == true { return lastResponse }
        let key = HTTPResponseCache.Key(url: url, status: status, headers: headers)
        guard let kept = responses[key] else { return nil }
        lastKey = key
        lastResponse = kept
        return kept
    }

    /// Keeps a response just built (on a full miss, the key is made a second time: misses are rare).
    fileprivate mutating func keep(_ response: HTTPURLResponse, _ url: URL, _ status: Int, _ headers: HeaderFields) {
        let key = HTTPResponseCache.Key(url: url, status: status, headers: headers)
        if responses.count >= HTTPResponseCache.capacity { responses.removeAll(keepingCapacity: true) }
        responses[key] = response
        lastKey = key
        lastResponse = response
    }

    /// Keeps `literal`'s events answering `url` with `response`, as the last answer; the one it
    /// replaces goes to `replaced`, for the caller to release after the lock.
    fileprivate mutating func keepAnswer(
        _ literal: StubIndex.LiteralAnswer,
        _ url: URL,
        _ response: HTTPURLResponse,
        _ body: Data,
        replacing replaced: inout HTTPResponseCache.LastAnswer?
    ) -> HTTPResponseCache.LastAnswer {
        let events = DeliveryTimeline.Event.answer(response, body: body, at: .zero)
        let answer = HTTPResponseCache.LastAnswer(literal: literal, url: url, response: response, events: events)
        replaced = lastAnswer
        lastAnswer = answer
        return answer
    }
}
