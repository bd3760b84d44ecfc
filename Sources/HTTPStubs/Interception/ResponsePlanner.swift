import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Turns an intercepted request into the timeline of what its caller receives: chooses the stub,
/// computes the response, follows redirects, and lays out delays and dribbled chunks.
struct ResponsePlanner {
    /// URLSession's redirect limit on Apple platforms.
    static let redirectLimit = 16
    /// The name a 401's `WWW-Authenticate` header is delivered under on Linux (see ``deliveredHeaders(_:status:)``).
    static let renamedAuthenticateHeader = "X-HTTPStubs-WWW-Authenticate"

    let registry: StubRegistry
    let inspection: TaskInspection

    /// What a request gets.
    enum Plan {
        /// These events, from the stubs; the stub that gave the final answer, if one did.
        case events([DeliveryTimeline.Event], answeredBy: StubSummary?)
        /// The real server's answer to this request (no stub answered it and the registry
        /// records), after these events.
        case record(StubRequest, after: [DeliveryTimeline.Event])
    }

    /// How far planning got: the request of the current hop and what the hops before it gave.
    struct Progress {
        var request: StubRequest
        var elapsed = Duration.zero
        var hops: [DeliveryTimeline.Event] = []
        var answeredBy: StubSummary?
        var redirects = 0
    }

    /// The plan for a request whose body has been read.
    func plan(for request: StubRequest) -> Plan {
        var progress = Progress(request: request)
        return plan(from: &progress, declinesUserCode: false)!   // declines nothing unless asked to
    }

    /// Plans from `progress`. With `declinesUserCode`, returns `nil` where planning would run a
    /// closure of the user's, `progress` saying where to continue (nothing was consumed by the hop
    /// it stopped at).
    func plan(from progress: inout Progress, declinesUserCode: Bool) -> Plan? {
        while progress.redirects <= Self.redirectLimit {
            switch hop(progress.request, elapsed: &progress.elapsed, answeredBy: &progress.answeredBy, declinesUserCode: declinesUserCode) {
            case .needsUserCode:
                return nil
            case let .final(events):
                return .events(progress.hops.isEmpty ? events : progress.hops + events, answeredBy: progress.answeredBy)
            case let .record(unanswered):
                return .record(unanswered, after: progress.hops)
            case let .redirect(next):
                // Each redirect response is a sign of life, as from a server: the idle timeout starts over.
                progress.hops.append(.init(time: progress.elapsed, action: .progress))
                progress.request = next
                progress.redirects += 1
            }
        }
        let error = StubError.tooManyRedirects(count: Self.redirectLimit, lastURL: progress.request.url)
        return .events(progress.hops + [failure(error.urlError(for: progress.request.url), at: progress.elapsed)], answeredBy: progress.answeredBy)
    }

    /// What one hop of a request gets.
    private enum Hop {
        /// The events that end the request.
        case final([DeliveryTimeline.Event])
        /// A redirect to follow with this request.
        case redirect(StubRequest)
        /// No stub answers this request; the registry records the real server's answer.
        case record(StubRequest)
        /// Answering would run the user's code, which was declined.
        case needsUserCode
    }

    /// Answers one hop: chooses the stub (kept in `answeredBy`), computes its response and adds its
    /// delay to `elapsed`.
    private func hop(_ request: StubRequest, elapsed: inout Duration, answeredBy: inout StubSummary?, declinesUserCode: Bool) -> Hop {
        let selection: StubRegistry.Selection
        guard let choice = registry.select(request, declinesUserCode: declinesUserCode) else { return .needsUserCode }
        switch choice {
        case let .unmatched(report):
            if registry.recorder != nil { return .record(request) }
            return .final([failure(StubError.unmatched(report).urlError(for: request.url), at: elapsed)])
        case let .answered(chosen):
            selection = chosen
        }
        answeredBy = selection.summary
        let response: ResolvedResponse
        do {
            response = try selection.response.resolved(for: selection.request, source: selection.summary.source)
        } catch {
            return .final([failure(Self.withFailingURL(error, request.url), at: elapsed)])
        }
        if let delay = response.delay {
            elapsed += registry.sample(delay)
        }
        switch response.answer {
        case let .failure(error):
            return .final([failure(Self.withFailingURL(error, request.url), at: elapsed)])
        case let .urlResponse(urlResponse, data):
            if urlResponse == nil, inspection.isAsyncCall {
                return .final([failure(StubError.noResponseForAsyncCall.urlError(for: request.url), at: elapsed)])
            }
            return .final(body(data ?? Data(), response: urlResponse, dribble: response.dribble, at: elapsed))
        case let .http(status, _, headers, body):
            if registry.followsRedirects, let next = Self.redirect(from: request, status: status, headers: headers) {
                return .redirect(next)
            }
            let data: Data
            do {
                data = try body.load()
            } catch {
                return .final([failure((error as? StubError)?.urlError(for: request.url) ?? error, at: elapsed)])
            }
            let urlResponse = registry.responseCache.response(url: request.url, status: status, headers: Self.deliveredHeaders(headers, status: status))
            if let urlResponse {
                registry.attach(urlResponse, body: data, toEntry: selection.journalID)
            }
            return .final(self.body(data, response: urlResponse, dribble: response.dribble, at: elapsed))
        }
    }

    /// The events delivering a response and its body, whole or in dribbled chunks.
    private func body(_ data: Data, response: URLResponse?, dribble: Dribble?, at start: Duration) -> [DeliveryTimeline.Event] {
        var events: [DeliveryTimeline.Event] = []
        events.reserveCapacity(dribble.map { min($0.chunks, data.count) + 2 } ?? 3)
        if let response {
            events.append(.init(time: start, action: .receive(response)))
        }
        guard let dribble, !data.isEmpty else {
            if !data.isEmpty { events.append(.init(time: start, action: .load(data))) }
            events.append(.init(time: start, action: .finish))
            return events
        }
        let count = min(dribble.chunks, data.count)
        let end = start + dribble.duration
        if inspection.delegateReceivesChunks {
            for index in 0..<count {
                let lower = data.startIndex + data.count * index / count
                let upper = data.startIndex + data.count * (index + 1) / count
                let time = start + dribble.duration * (index + 1) / count
                events.append(.init(time: time, action: .load(data.subdata(in: lower..<upper))))
            }
        } else {
            // Only the last didLoad reaches a completion handler or an async caller on Linux: send
            // the whole body when the last chunk would arrive, keeping each chunk's time as a sign
            // of life for the idle timeout.
            for index in 1..<count {
                events.append(.init(time: start + dribble.duration * index / count, action: .progress))
            }
            events.append(.init(time: end, action: .load(data)))
        }
        events.append(.init(time: end, action: .finish))
        return events
    }

    /// The next request when `status` and `headers` make a redirect, following the Fetch rules
    /// URLSession applies on Apple platforms.
    static func redirect(from request: StubRequest, status: Int, headers: HTTPHeaders) -> StubRequest? {
        guard [301, 302, 303, 307, 308].contains(status),
              let location = headers["Location"],
              let url = URL(string: location, relativeTo: request.url)?.absoluteURL
        else { return nil }
        var next = request
        next.url = url
        next.pathParameters = [:]
        let becomesGET = (status == 303 && request.method != .head)
            || ((status == 301 || status == 302) && request.method == .post)
        if becomesGET {
            next.method = .get
            next.body = nil
            next.bodyUnavailableReason = nil
            for name in ["Content-Type", "Content-Length", "Content-Encoding", "Content-Language", "Content-Location"] {
                next.headers.remove(name)
            }
        }
        return next
    }

    /// The headers as delivered. On Linux a 401 whose `WWW-Authenticate` has a `Basic` challenge
    /// makes corelibs start its own authentication: the task hangs, or, when a delegate supplies a
    /// credential, corelibs sends the request again over the real network. Those challenges are
    /// therefore delivered as `X-HTTPStubs-WWW-Authenticate` there; challenges of every other
    /// scheme (`Bearer`, `Digest`, `Negotiate`, …) are delivered as they are.
    static func deliveredHeaders(_ headers: HTTPHeaders, status: Int) -> HTTPHeaders {
        #if canImport(FoundationNetworking)
        guard status == 401,
              headers.values(for: "WWW-Authenticate").contains(where: BasicChallenge.isPresent(in:))
        else { return headers }
        var renamed = HTTPHeaders()
        for field in headers {
            let isChallenge = field.name.lowercased() == "www-authenticate"
            renamed.add(isChallenge ? renamedAuthenticateHeader : field.name, field.value)
        }
        return renamed
        #else
        return headers
        #endif
    }

    private func failure(_ error: any Error, at time: Duration) -> DeliveryTimeline.Event {
        .init(time: time, action: .fail(error))
    }

    /// A `URLError` with the failing URL filled in, as URLSession's own errors have it.
    private static func withFailingURL(_ error: any Error, _ url: URL) -> any Error {
        guard let urlError = error as? URLError, urlError.failingURL == nil else { return error }
        var info = urlError.userInfo
        info[NSURLErrorFailingURLErrorKey] = url
        return URLError(urlError.code, userInfo: info)
    }
}
