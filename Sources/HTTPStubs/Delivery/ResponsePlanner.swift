import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Turns an intercepted request into the timeline of what its caller receives: chooses the stub,
/// computes the response, follows redirects, and lays out delays and dribbled chunks. The one
/// place redirects are followed, the stubs' and, while recording, the real server's.
struct ResponsePlanner {
    /// The name a 401's `WWW-Authenticate` header is delivered under on Linux (see ``deliveredHeaders(_:status:)``).
    static let renamedAuthenticateHeader = "X-HTTPStubs-WWW-Authenticate"

    let registry: StubRegistry
    let inspection: TaskInspection

    /// What a request gets.
    enum Plan {
        /// These events, from the stubs; the stub that gave the final answer, if one did, and the
        /// journal entry of that answer.
        case events([DeliveryTimeline.Event], answeredBy: StubSummary?, journalID: Int?)
        /// The real server's answer to the request of this progress (no stub answered it and
        /// the registry records); ``plan(afterLive:body:from:)`` goes on from it. Boxed, so that
        /// a plan, returned and moved at every step, stays small (BENCHMARKS.md, "Copies through type metadata").
        indirect case record(Progress)
    }

    /// How far planning got: the request of the current hop, what the hops before it gave, and
    /// the user's code it waits for, if any.
    struct Progress {
        var request: InterceptedRequest
        var elapsed = Duration.zero
        var hops: [DeliveryTimeline.Event] = []
        var answeredBy: StubSummary?
        /// The journal entry of the hop the chosen stub answered.
        var journalID: Int?
        var redirects = 0
        fileprivate var pending: Pending?

        init(request: InterceptedRequest) {
            self.request = request
        }
    }

    /// The user's code a hop waits for, after its stub was chosen (and consumed). Boxed: it is
    /// rare and large, and every ``Progress`` (moved through each step of planning) carries one.
    fileprivate indirect enum Pending {
        /// The chosen stub's response, computed by an `async` responder.
        case response(ChosenStub, ResponseResolution)
        /// A redirect to put to the session's delegate.
        case redirect(RedirectQuestion)
    }

    /// A redirect to put to the delegate, and what the caller gets if it is refused.
    fileprivate struct RedirectQuestion {
        let delegate: RedirectDelegate
        let next: InterceptedRequest
        let response: HTTPURLResponse
        let body: Data
        /// The journal entry the response is attached to when the redirect is refused; `nil`
        /// when it is attached already (a recorded answer).
        let journalID: Int?
        let unfollowed: [DeliveryTimeline.Event]
    }

    /// Where a response leads: the request a redirect makes, and the delegate to put it to first.
    private struct Redirection {
        let next: InterceptedRequest
        let delegate: RedirectDelegate?
    }

    /// What one step of planning found.
    private enum Step {
        case done(Plan)
        /// A redirect was followed: plan its hop.
        case next
        /// The user's code must run before planning can go on (``Progress/pending`` says which,
        /// or, when it says nothing, a stub's matchers).
        case needsUserCode
    }

    /// Plans from `progress` without running any of the user's code: `nil` where planning would
    /// run some, `progress` saying where to go on (the hop it stopped at consumed nothing, unless
    /// it stopped after choosing its stub, which ``plan(from:)`` then knows).
    func planWithoutUserCode(from progress: inout Progress) -> Plan? {
        planWithoutResponders(from: &progress, declinesUserCode: true)
    }

    /// Chooses the stubs from `progress`, running the user's matchers, as far as a computed
    /// response or a redirect question: `nil` there, ``Progress`` keeping it pending for
    /// ``plan(from:)``. The part of planning that follows the order requests arrive in.
    func chooseInOrder(from progress: inout Progress) -> Plan? {
        planWithoutResponders(from: &progress, declinesUserCode: false)
    }

    /// Plans from `progress` as far as no computed response or redirect question is reached.
    private func planWithoutResponders(from progress: inout Progress, declinesUserCode: Bool) -> Plan? {
        while true {
            switch step(&progress, declinesUserCode: declinesUserCode, defersResponders: true) {
            case let .done(plan): return plan
            case .next: continue
            case .needsUserCode: return nil
            }
        }
    }

    /// Plans from `progress`, running the user's code: custom matchers, computed responses
    /// (`async` ones awaited) and the delegate's say on redirects.
    func plan(from progress: Progress) async -> Plan {
        var progress = progress
        var step =
            progress.pending == nil ? step(&progress, declinesUserCode: false, defersResponders: false) : .needsUserCode
        while true {
            switch step {
            case let .done(plan): return plan
            case .next: step = self.step(&progress, declinesUserCode: false, defersResponders: false)
            case .needsUserCode: step = await runPending(&progress)
            }
        }
    }

    /// Chooses the stub for the current hop and answers with it as far as no `async` code is needed.
    /// With `defersResponders`, a computed response is left pending rather than run.
    private func step(_ progress: inout Progress, declinesUserCode: Bool, defersResponders: Bool) -> Step {
        guard progress.pending == nil else { return .needsUserCode }
        guard progress.redirects <= Redirect.limit else {
            let error = StubError.tooManyRedirects(count: Redirect.limit, lastURL: progress.request.url)
            return finish(progress, [failure(error.urlError(for: progress.request.url), at: progress.elapsed)])
        }
        let request = progress.request
        guard let choice = registry.selection.choose(request, declinesUserCode: declinesUserCode) else {
            return .needsUserCode
        }
        switch consume choice {  // consumed: destroying the whole optional enum afterwards goes through its metadata
        case let .unmatched(report):
            if registry.recorder != nil { return .done(.record(progress)) }
            return finish(
                progress,
                [failure(StubError.unmatched(report).urlError(for: request.url), at: progress.elapsed)]
            )
        case let .gaveUp(error, stub):
            registry.report(StubDiagnostic(severity: .error, source: stub.source, message: error.message))
            return finish(progress, [failure(error.urlError(for: request.url), at: progress.elapsed)])
        case let .answered(selection):
            progress.answeredBy = selection.summary
            progress.journalID = selection.journalID
            if let literal = selection.literalAnswer {
                return literal.withResponse { answer(&progress, selection, $0, literal: literal) }
            }
            var resolution = ResponseResolution(selection)
            if defersResponders && selection.response.runsUserCode {
                progress.pending = .response(selection, resolution)
                return .needsUserCode
            }
            return resolve(&progress, selection, &resolution)
        }
    }

    /// Runs the user's code the plan waits for.
    private func runPending(_ progress: inout Progress) async -> Step {
        switch progress.pending {
        case nil:
            return .next  // a stub's matchers: the next step, which may run the user's code, runs them
        case .response(let selection, var resolution):
            progress.pending = nil
            do {
                try await resolution.awaitResponder()
            } catch {
                return answer(&progress, selection, .failed(error, url: progress.request.url))
            }
            return resolve(&progress, selection, &resolution)
        case let .redirect(question):
            progress.pending = nil
            // The hop's journal entry gets the redirect, followed or not.
            if let journalID = question.journalID {
                registry.attach(question.response, body: question.body, toEntry: journalID)
            }
            guard let chosen = await question.delegate.decide(question.response, newRequest: question.next.urlRequest)
            else {
                return finish(progress, question.unfollowed)
            }
            follow(&progress, to: InterceptedRequest(chosen, body: chosen.httpBody, bodyUnavailableReason: nil))
            return .next
        }
    }

    /// Resolves the chosen stub's response as far as it can without awaiting (in place: a
    /// resolution is large), and answers with it.
    private func resolve(
        _ progress: inout Progress,
        _ selection: ChosenStub,
        _ resolution: inout ResponseResolution
    ) -> Step {
        guard let response = resolution.resolveSynchronously(drawingDelayFrom: registry) else {
            progress.pending = .response(selection, resolution)
            return .needsUserCode
        }
        return answer(&progress, selection, response)
    }

    /// Answers the hop with the resolved response: the final events, or a redirect to follow
    /// (after asking the delegate, when there is one). `literal` is the stub's literal answer that
    /// `response` is, if it is one.
    private func answer(
        _ progress: inout Progress,
        _ selection: ChosenStub,
        _ response: ResolvedResponse,
        literal: StubIndex.LiteralAnswer? = nil
    ) -> Step {
        let request = progress.request
        progress.elapsed += response.delay
        switch response.answer {
        case let .failure(error):
            return finish(progress, [failure(error, at: progress.elapsed)])
        case let .urlResponse(urlResponse, data):
            if urlResponse == nil, inspection.isAsyncCall {
                return finish(
                    progress,
                    [failure(StubError.noResponseForAsyncCall.urlError(for: request.url), at: progress.elapsed)]
                )
            }
            return finish(
                progress,
                body(data ?? Data(), response: urlResponse, dribble: response.dribble, at: progress.elapsed)
            )
        case let .http(status, _, headers, data):
            // A literal answer that is no redirect, whatever the registry's settings, due at the start
            // of the load, all at once: the events it gave this URL last time, if it was the last
            // (see ``HTTPResponseCache/answer(_:url:status:headers:body:)``).
            if let literal, !Redirect.isRedirect(status), response.dribble == nil, progress.elapsed == .zero,
                let kept = registry.responseCache.answer(
                    literal,
                    url: request.url,
                    status: status,
                    headers: Self.deliveredHeaders(headers, status: status),
                    body: data
                )
            {
                return handOver(
                    &progress,
                    kept.response,
                    body: data,
                    events: kept.events,
                    journalID: selection.journalID,
                    redirect: nil
                )
            }
            let redirect = self.redirect(of: request, status: status, headers: headers)
            let urlResponse = registry.responseCache.response(
                url: request.url,
                status: status,
                headers: Self.deliveredHeaders(headers, status: status)
            )
            if let redirect, redirect.delegate == nil {
                // The hop's journal entry gets the redirect it was answered with, as a followed
                // one put to a delegate does.
                if let urlResponse { registry.attach(urlResponse, body: data, toEntry: selection.journalID) }
                follow(&progress, to: redirect.next)
                return .next
            }
            if let stream = response.dribble?.pushed?.stream, let urlResponse, redirect == nil {
                return open(stream, &progress, urlResponse, selection)
            }
            let events = self.body(data, response: urlResponse, dribble: response.dribble, at: progress.elapsed)
            guard let urlResponse else { return finish(progress, events) }
            return handOver(
                &progress,
                urlResponse,
                body: data,
                events: events,
                journalID: selection.journalID,
                redirect: redirect,
                ending: response.dribble?.interruption.map { .failed($0.code) } ?? .finished
            )
        }
    }

    /// Answers with `response` and the body the test writes into `stream` (see ``StubStream``), which
    /// this request takes; one that another request took first fails the request, as a problem of
    /// the stub. A redirect is followed (or put to the delegate) as any other, its stream unused.
    private func open(
        _ stream: StubStream,
        _ progress: inout Progress,
        _ response: HTTPURLResponse,
        _ selection: ChosenStub
    ) -> Step {
        let request = progress.request
        let taken = stream.connect(
            request,
            registry: registry,
            journalID: selection.journalID,
            deliversChunks: inspection.delegateReceivesChunks
        )
        if let first = taken {
            let error = StubError.streamTaken(
                stream: stream.description,
                request: RequestDelivery.line(request.method.rawValue, request.url),
                first: RequestDelivery.line(first.method.rawValue, first.url)
            )
            registry.report(StubDiagnostic(severity: .error, source: selection.summary.source, message: error.message))
            return finish(progress, [failure(error.urlError(for: request.url), at: progress.elapsed)])
        }
        let events: [DeliveryTimeline.Event] = [
            .init(time: progress.elapsed, action: .receive(response)),
            .init(time: progress.elapsed, action: .stream(stream)),
        ]
        return handOver(
            &progress,
            response,
            body: Data(),
            events: events,
            journalID: selection.journalID,
            redirect: nil,
            ending: .inProgress
        )
    }

    /// What the caller gets after the real server answered the request of `progress` (see
    /// ``Plan/record(_:)``) with `response` and `body`, recorded and journaled already: that
    /// answer; or `nil` when it is a redirect, followed as a stub's redirect is (the delegate asked,
    /// the hops counted against ``Redirect/limit``): ``plan(from:)`` goes on from `progress` then.
    func plan(afterLive response: HTTPURLResponse, body: Data, from progress: inout Progress) -> Plan? {
        progress.hops.removeAll()  // signs of life are due at once now: the real server took its time
        let headers = HeaderFields(of: response)
        let redirect = self.redirect(of: progress.request, status: response.statusCode, headers: headers)
        if let redirect, redirect.delegate == nil {
            follow(&progress, to: redirect.next)
            return nil
        }
        // Delivered as it came, body and all (even an empty one).
        let events = [DeliveryTimeline.Action.receive(response), .load(body), .finish].map {
            DeliveryTimeline.Event(time: progress.elapsed, action: $0)
        }
        let step = handOver(&progress, response, body: body, events: events, journalID: nil, redirect: redirect)
        guard case let .done(plan) = step else { return nil }  // a redirect question, pending
        return plan
    }

    /// Where `response` of `request` leads when the registry follows redirects: the next request
    /// and the delegate to put it to first, if the task has one.
    private func redirect(of request: InterceptedRequest, status: Int, headers: HeaderFields) -> Redirection? {
        // The status first: most answers are no redirect, and need not take the registry's lock.
        guard let next = Redirect.next(after: request, status: status, headers: headers), registry.followsRedirects
        else { return nil }
        return Redirection(next: next, delegate: inspection.redirectDelegate)
    }

    /// Hands `response` to the caller with `events`, and attaches it to the request's journal
    /// entry; when it is a redirect to put to the delegate, that question is left pending (the
    /// caller gets `events` if the delegate refuses it).
    private func handOver(
        _ progress: inout Progress,
        _ response: HTTPURLResponse,
        body: Data,
        events: [DeliveryTimeline.Event],
        journalID: Int?,
        redirect: Redirection?,
        ending: ResponseEnding = .finished
    ) -> Step {
        if let redirect, let delegate = redirect.delegate {
            progress.pending = .redirect(
                RedirectQuestion(
                    delegate: delegate,
                    next: redirect.next,
                    response: response,
                    body: body,
                    journalID: journalID,
                    unfollowed: events
                )
            )
            return .needsUserCode
        }
        if let journalID {
            registry.attach(response, body: body, toEntry: journalID, ending: ending)
        }
        return finish(progress, events)
    }

    /// Goes on with `next`, the request a redirect leads to.
    private func follow(_ progress: inout Progress, to next: InterceptedRequest) {
        // Each redirect response is a sign of life, as from a server: the idle timeout starts over.
        progress.hops.append(.init(time: progress.elapsed, action: .progress))
        progress.request = next
        progress.redirects += 1
    }

    /// The plan that ends with `events`, after those of the hops before.
    private func finish(_ progress: Progress, _ events: [DeliveryTimeline.Event]) -> Step {
        .done(
            .events(
                progress.hops.isEmpty ? events : progress.hops + events,
                answeredBy: progress.answeredBy,
                journalID: progress.journalID
            )
        )
    }

    /// The events delivering a response and its body, whole or in dribbled chunks, and the end of
    /// the load: finished, or failed as the dribble's interruption says.
    private func body(
        _ data: Data,
        response: URLResponse?,
        dribble: Dribble?,
        at start: Duration
    ) -> [DeliveryTimeline.Event] {
        var events = pieces(data, response: response, dribble: dribble, at: start)
        if let interruption = dribble?.interruption, let end = events.popLast() {
            let error = MessageFirstError.urlError(
                interruption.code,
                message:
                    "The stub interrupted the response (.interrupted(by: .\(URLErrorNames.name(of: interruption.code))))"
                    + " after \(data.count) bytes of body.",
                url: response?.url
            )
            events.append(.init(time: end.time + interruption.after, action: .fail(error)))
        }
        return events
    }

    /// The events delivering a response and its body, whole or in dribbled chunks, then finishing.
    private func pieces(
        _ data: Data,
        response: URLResponse?,
        dribble: Dribble?,
        at start: Duration
    ) -> [DeliveryTimeline.Event] {
        if dribble == nil || data.isEmpty, let response {
            return DeliveryTimeline.Event.answer(response, body: data, at: start)
        }
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
        if let schedule = dribble.schedule {
            appendPieces(of: data, as: schedule, from: start, to: &events)
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

    /// The events sending `data` as the pieces of `schedule` (each at `start` plus its time; the
    /// last takes whatever of `data` the pieces before did not), then the end of the load. A
    /// completion handler or an async caller gets the whole body with the last piece, each piece
    /// before it being a sign of life (see ``pieces(_:response:dribble:at:)``).
    private func appendPieces(
        of data: Data,
        as schedule: [Dribble.Piece],
        from start: Duration,
        to events: inout [DeliveryTimeline.Event]
    ) {
        let end = start + (schedule.last?.time ?? .zero)
        guard inspection.delegateReceivesChunks else {
            for piece in schedule.dropLast() { events.append(.init(time: start + piece.time, action: .progress)) }
            events.append(.init(time: end, action: .load(data)))
            events.append(.init(time: end, action: .finish))
            return
        }
        var lower = data.startIndex
        for (index, piece) in schedule.enumerated() {
            let upper = index == schedule.count - 1 ? data.endIndex : min(lower + max(piece.size, 0), data.endIndex)
            let time = start + piece.time
            events.append(.init(time: time, action: lower < upper ? .load(data.subdata(in: lower..<upper)) : .progress))
            lower = upper
        }
        events.append(.init(time: end, action: .finish))
    }

    /// The headers as delivered. On Linux a 401 whose `WWW-Authenticate` has a `Basic` challenge
    /// makes corelibs start its own authentication: the task hangs, or, when a delegate supplies a
    /// credential, corelibs sends the request again over the real network. Those challenges are
    /// therefore delivered as `X-HTTPStubs-WWW-Authenticate` there; challenges of every other
    /// scheme (`Bearer`, `Digest`, `Negotiate`, …) are delivered as they are.
    static func deliveredHeaders(_ headers: HeaderFields, status: Int) -> HeaderFields {
        #if canImport(FoundationNetworking)
        guard status == 401,
            // corelibs reads the fields joined, as `value(forHTTPHeaderField:)` gives them.
            BasicChallenge.isPresent(in: headers.values(for: "WWW-Authenticate").joined(separator: ", "))
        else { return headers }
        var renamed = HeaderFields()
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
}
