import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Serves one request for a `URLProtocol` instance, within the rules swift-corelibs-foundation
/// imposes (see the README's Linux notes):
///
/// - the client is called only from `startLoading`, on the queue URLSession called it on: calling
///   it from another queue while other tasks run crashes corelibs. A delay is served by asking the
///   task to `resume()` when it is over, which makes corelibs call `startLoading` again on that queue;
/// - the client is never called after `stopLoading` or after the load finished (corelibs traps):
///   both are latched under the lock that is held while the client is called;
/// - `startLoading` never blocks, because every session of the process shares one queue.
///
/// A loader is created with its `URLProtocol` instance, inside `URLSessionTask.resume()`, and joins
/// its registry's ``RequestFlights`` at once, so that the end of a test and
/// ``ManualStubClock/advance(by:)`` know about the request before `startLoading` runs.
final class StubLoader: @unchecked Sendable {
    // Invariant: every mutable field lives in `state`, which is only touched inside `withState`,
    // holding `lock`; the client is called only while that lock is held, and the user's code
    // (planning a response) never is. (The lock lives in the
    // loader itself rather than in a `Locked` box: one allocation fewer per request.)
    private let registry: StubRegistry?
    private let missingRegistry: StubError
    private let lock = NSLock()
    private var state = State()

    private struct State {
        var timeline: DeliveryTimeline?
        var planned = false
        var start = Duration.zero
        var stopped = false
        var timer: (any StubClockTimer)?
        /// When the pending wake-up is due, on the registry's clock.
        var wake: Duration?
        /// Between `resume()` (or a wake-up) and the next `startLoading`: see ``FlightState/inTransit``.
        var inTransit = true
        /// Set by ``abandon(with:)``: the load ends with this error at its next delivery.
        var abandoned: StubError?
        /// The test that had ended, closing the registry, when the request reached it.
        var arrivedAfterTest: String?
        /// `GET https://…` once the request was read; the stub chosen to answer it.
        var requestLine: String?
        var answeringStub: StubSummary?
        /// Weak: the protocol instance owns this loader. Only used under `lock`, on the queues
        /// URLSession calls the protocol on (see `scheduleWake`).
        weak var urlProtocol: URLProtocol?
    }

    /// How many loaders exist: one per `URLProtocol` instance that has started loading. Tests
    /// use it to prove that no instance, and no scheduled delivery holding one, outlives its request.
    static var liveCount: Int { live.withLock { $0 } }
    private static let live = Locked(0)

    /// Creates a loader serving from `registry`; without one, requests fail with `missingRegistry`.
    init(registry: StubRegistry?, missingRegistry: StubError = .registryGone) {
        self.registry = registry
        self.missingRegistry = missingRegistry

        Self.live.withLock { $0 += 1 }
        if let test = registry?.flights.join(self) {
            withState { $0.arrivedAfterTest = test }
        }
        registry?.manualClock?.requestDeparted()
    }

    /// Creates a loader for a registry looked up in ``RegistryDirectory``: one that no longer
    /// exists fails its request, naming the test whose end closed it when one did.
    convenience init(_ lookup: (registry: StubRegistry?, endedTest: String?)) {
        self.init(registry: lookup.registry)
        if let test = lookup.endedTest {
            withState { $0.arrivedAfterTest = test }
        }
    }

    deinit {
        Self.live.withLock { $0 -= 1 }
        registry?.flights.remove(self)
        if state.inTransit { registry?.manualClock?.requestVanished() }
    }

    /// Whether a request is one stubs may serve at all: anything but local `file:`, `data:` and
    /// `about:` URLs.
    static func isInterceptable(_ request: URLRequest) -> Bool {
        guard let scheme = request.url?.scheme?.lowercased() else { return false }
        return !["file", "data", "about"].contains(scheme)
    }

    /// Whether a request should bypass the stubs and go to the network: the registry's
    /// pass-through policy allows its host and no stub would answer it.
    static func shouldPassThrough(_ request: URLRequest, registry: StubRegistry) -> Bool {
        let policy = registry.passThrough
        guard policy != .never, let url = request.url, policy.allows(host: url.host ?? "") else { return false }
        // An upload task's body is neither in httpBody nor in a stream before loading: only a
        // request with httpBody, or a bodiless GET or HEAD, has a body that can be judged now.
        let bodyReadable = request.httpBody != nil
            || (request.httpBodyStream == nil && ["GET", "HEAD"].contains(request.httpMethod ?? "GET"))
        let stubRequest = StubRequest(request, body: request.httpBody, bodyUnavailableReason: nil)
        guard !registry.wouldAnswer(stubRequest, bodyReadable: bodyReadable) else { return false }
        registry.record(stubRequest, .passedThrough)
        return true
    }

    private func withState<Result>(_ body: (inout State) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&state)
    }

    /// `startLoading`: plans the load the first time, then delivers whatever is due.
    func start(_ urlProtocol: URLProtocol) {
        let mustPlan = withState { state -> Bool in
            state.stopped = false
            state.urlProtocol = urlProtocol
            if !state.planned, let abandoned = state.abandoned {
                // Its test ended before it started loading: it fails without being planned.
                state.planned = true
                state.start = clock.now
                state.timeline = DeliveryTimeline(events: [.init(time: .zero, action: .fail(abandoned.urlError(for: urlProtocol.request.url)))], timeout: nil, url: nil)
            }
            guard state.planned else {
                state.planned = true
                state.start = registry?.manualClock?.startOfRequest() ?? clock.now
                return true
            }
            deliverDue(urlProtocol, &state)
            arrive(&state)
            return false
        }
        guard mustPlan else { return }
        // Planning runs the user's code (observers, matchers, computed responses): not under the
        // lock. Still within `startLoading`, so the client may be called below.
        let planned = plan(urlProtocol, arrivedAfterTest: withState { $0.arrivedAfterTest })
        withState { state in
            state.requestLine = planned.requestLine
            state.answeringStub = planned.answeringStub
            if let abandoned = state.abandoned {
                // Its test ended while it was planned (`abandon` may already have set the failure).
                if state.timeline == nil {
                    state.timeline = DeliveryTimeline(events: [.init(time: .zero, action: .fail(abandoned.urlError(for: urlProtocol.request.url)))], timeout: nil, url: nil)
                }
            } else if let timeline = planned.timeline {
                state.timeline = timeline   // `nil` while recording: the real answer's timeline may already be set.
            }
            deliverDue(urlProtocol, &state)
            arrive(&state)
        }
    }

    /// `stopLoading`: after this, the client is not called again unless `startLoading` is (as it
    /// is when a suspended task resumes). Cancels the pending wake-up, releasing the task.
    func stop() {
        withState { state in
            state.stopped = true
            state.timer?.cancel()
            state.timer = nil
            state.wake = nil
            leaveTransitWithoutArriving(&state)
        }
    }

    /// Where the request is, for the end of its test.
    var flightState: FlightState {
        withState { state in
            if state.timeline?.isFinished == true || (state.stopped && !state.inTransit) { return .finished }
            if state.inTransit { return .inTransit }
            if let wake = state.wake { return .waiting(until: wake) }
            return state.planned && state.timeline == nil ? .recording : .finished
        }
    }

    /// Tells the loader the protocol instance it serves, as soon as that exists.
    func attach(_ urlProtocol: URLProtocol) {
        withState { $0.urlProtocol = urlProtocol }
    }

    /// `GET https://…`: as read when planned, else as the protocol instance was given it.
    var requestLine: String {
        withState { state in
            if let line = state.requestLine { return line }
            guard let request = state.urlProtocol?.request, let url = request.url else { return "a request" }
            return "\(request.httpMethod ?? "GET") \(url.absoluteString)"
        }
    }

    /// The stub chosen to answer the request, if any.
    var answeringStub: StubSummary? {
        withState { $0.answeringStub }
    }

    /// Ends the load with `error` at once (at its next delivery, on URLSession's queue), whatever
    /// it was waiting for; returns `false` when it had already ended.
    func abandon(with error: StubError) -> Bool {
        withState { state in
            guard state.abandoned == nil, state.timeline?.isFinished != true, !state.stopped else { return false }
            state.abandoned = error
            guard state.planned, let urlProtocol = state.urlProtocol else { return true }   // `plan` sees `abandoned`
            state.timeline = DeliveryTimeline(events: [.init(time: .zero, action: .fail(error.urlError(for: urlProtocol.request.url)))], timeout: nil, url: nil)
            state.timer?.cancel()
            state.wake = clock.now
            state.timer = scheduleWake(at: clock.now, urlProtocol)
            return true
        }
    }

    /// The request reached the clock (it was planned, or delivered what was due): no longer in transit.
    private func arrive(_ state: inout State) {
        guard state.inTransit else { return }
        state.inTransit = false
        registry?.manualClock?.requestArrived()
    }

    private func leaveTransitWithoutArriving(_ state: inout State) {
        guard state.inTransit else { return }
        state.inTransit = false
        registry?.manualClock?.requestVanished()
    }

    /// A wake-up fired: returns whether URLSession should call `startLoading` again, because the
    /// load still has something to deliver; the request is then in transit until it does.
    private func departForWake() -> Bool {
        withState { state in
            guard !state.stopped, state.timeline?.isFinished != true else { return false }
            if !state.inTransit {
                state.inTransit = true
                registry?.manualClock?.requestDeparted()
            }
            return true
        }
    }

    private var clock: any StubClock {
        registry?.clock ?? SystemStubClock()
    }

    private func deliverDue(_ urlProtocol: URLProtocol, _ state: inout State) {
        guard !state.stopped, state.timeline?.isFinished == false else { return }
        let (due, nextWake) = state.timeline!.advance(to: clock.now - state.start)   // in place: no copy
        for action in due {
            perform(action, for: urlProtocol)
        }
        state.timer?.cancel()
        state.wake = nextWake.map { state.start + $0 }
        state.timer = state.wake.map { wake in scheduleWake(at: wake, urlProtocol) }
        if state.timeline?.isFinished == true { registry?.flights.remove(self) }
    }

    private func perform(_ action: DeliveryTimeline.Action, for urlProtocol: URLProtocol) {
        guard let client = urlProtocol.client else { return }
        switch action {
        case let .receive(response):
            client.urlProtocol(urlProtocol, didReceive: response, cacheStoragePolicy: .notAllowed)
        case let .load(data):
            client.urlProtocol(urlProtocol, didLoad: data)
        case .finish:
            client.urlProtocolDidFinishLoading(urlProtocol)
        case let .fail(error):
            client.urlProtocol(urlProtocol, didFailWithError: error)
        case .progress:
            break
        }
    }

    private func scheduleWake(at deadline: Duration, _ urlProtocol: URLProtocol) -> any StubClockTimer {
        #if canImport(FoundationNetworking)
        // Re-enter through the task so that the client is called on the task's own queue.
        let task = UncheckedSendable(value: urlProtocol.task)   // URLSessionTask is thread-safe.
        return clock.schedule(at: deadline) { [weak self] in
            guard let task = task.value, task.state == .running, self?.departForWake() == true else { return }
            task.resume()
        }
        #else
        // Apple's URL loading system accepts client calls from any thread.
        let target = UncheckedSendable(value: urlProtocol)   // only used under this loader's lock.
        return clock.schedule(at: deadline) { [self] in
            withState { deliverDue(target.value, &$0) }
        }
        #endif
    }

    /// Reads the request, tells the observers, and plans the response (no timeline while the
    /// answer is being recorded from the real server). Runs without the lock: it calls user code.
    private func plan(_ urlProtocol: URLProtocol, arrivedAfterTest: String?) -> Planned {
        let urlRequest = urlProtocol.request
        let inspection = TaskInspection(urlProtocol.task)
        let (body, unavailable) = Self.readBody(of: urlRequest, task: urlProtocol.task, inspection: inspection)
        let request = StubRequest(urlRequest, body: body, bodyUnavailableReason: unavailable)
        let requestLine = "\(request.method) \(request.url.absoluteString)"
        var answeringStub: StubSummary?
        let events: [DeliveryTimeline.Event]
        if let test = arrivedAfterTest {
            let error = StubError.arrivedAfterTestEnded(test: test, request: requestLine)
            registry?.record(request, .refused(reason: error.message))
            FileHandle.standardError.write(Data("swift-http-stubs: \(error.message)\n".utf8))
            events = [.init(time: .zero, action: .fail(error.urlError(for: request.url)))]
        } else if let registry {
            registry.notifyObservers {
                var observed = urlRequest
                observed.httpBodyStream = nil
                observed.httpBody = body
                return observed
            }
            if urlProtocol.task is URLSessionDownloadTask {
                let error = StubError.downloadTaskUnsupported
                registry.record(request, .refused(reason: error.message))
                events = [.init(time: .zero, action: .fail(error.urlError(for: request.url)))]
            } else {
                let planner = ResponsePlanner(registry: registry, inspection: inspection)
                switch planner.plan(for: request) {
                case let .events(planned, answeredBy):
                    events = planned
                    answeringStub = answeredBy
                case let .record(unanswered, _):
                    let timeout = Self.timeout(of: urlRequest, inspection).map(\.seconds)
                    record(unanswered, registry: registry, planner: planner, timeout: timeout, hops: 0, for: urlProtocol)
                    return Planned(timeline: nil, requestLine: requestLine, answeringStub: nil)
                }
            }
        } else {
            events = [.init(time: .zero, action: .fail(missingRegistry.urlError(for: request.url)))]
        }
        // A timeout can only fire before an event that is not due at once.
        let waits = events.contains { $0.time > .zero }
        let timeline = DeliveryTimeline(events: events, timeout: waits ? Self.timeout(of: urlRequest, inspection) : nil, url: request.url)
        return Planned(timeline: timeline, requestLine: requestLine, answeringStub: answeringStub)
    }

    /// What planning found: the timeline (`nil` while the answer is being recorded), the request
    /// as `GET https://…`, and the stub that answers it.
    private struct Planned {
        let timeline: DeliveryTimeline?
        let requestLine: String
        let answeringStub: StubSummary?
    }

    /// Sends a request no stub answers to the real server, records the exchange, and delivers the
    /// real answer unchanged once it arrives (waking the task as a delay does). A redirect is
    /// recorded as such and then followed like a stubbed one, so every hop is recorded.
    private func record(_ request: StubRequest, registry: StubRegistry, planner: ResponsePlanner, timeout: TimeInterval?, hops: Int, for urlProtocol: URLProtocol) {
        let target = UncheckedSendable(value: urlProtocol)   // only used under this loader's lock.
        LiveRequest.send(request, timeout: timeout) { [self] result in
            let outcome: StubRecorder.Outcome
            switch result {
            case let .success((response, body)): outcome = .response(response, body)
            case let .failure(error): outcome = .failure((error as? URLError)?.code ?? .unknown)
            }
            if let recorder = registry.recorder {
                do {
                    let id = registry.record(request, .recorded(file: try recorder.record(request, outcome: outcome)))
                    if case let .response(response, body) = outcome { registry.attach(response, body: body, toEntry: id) }
                } catch {
                    registry.record(request, .passedThrough)
                    // The recorder's own errors say what to do; a Foundation file error is put in words.
                    let problem = FileFailure.posixCode(of: error) == nil
                        ? "\(error)" : FileFailure.writeProblem(error, alternative: "record into another folder")
                    registry.report(StubIssue(
                        message: "the answer to \(request) could not be recorded into \(recorder.root.path): \(problem)",
                        source: .file(recorder.root.path)
                    ))
                }
            }
            let actions: [DeliveryTimeline.Action]
            switch result {
            case let .success((response, body)):
                var headers = HTTPHeaders()
                for (name, value) in response.allHeaderFields { headers.add("\(name)", "\(value)") }
                if registry.followsRedirects, hops < ResponsePlanner.redirectLimit,
                   let next = ResponsePlanner.redirect(from: request, status: response.statusCode, headers: headers) {
                    switch planner.plan(for: next) {
                    case let .record(unanswered, _):
                        record(unanswered, registry: registry, planner: planner, timeout: timeout, hops: hops + 1, for: target.value)
                        return
                    case let .events(events, _):
                        actions = events.map(\.action)
                    }
                } else {
                    actions = [.receive(response), .load(body), .finish]
                }
            case let .failure(error):
                actions = [.fail(error)]
            }
            withState { state in
                guard state.abandoned == nil else { return }   // its test ended: it already failed
                let now = clock.now - state.start
                state.timeline = DeliveryTimeline(events: actions.map { .init(time: now, action: $0) }, timeout: nil, url: request.url)
                guard !state.stopped else { return }
                state.timer?.cancel()
                state.wake = clock.now
                state.timer = scheduleWake(at: clock.now, target.value)
            }
        }
    }

    /// The request body: the body an upload task carries, else `httpBody`, else the body stream
    /// read once. The second value says why there is no body when the platform hides it.
    private static func readBody(of request: URLRequest, task: URLSessionTask?, inspection: TaskInspection) -> (Data?, String?) {
        if let body = inspection.uploadBody { return (body, nil) }
        if let body = request.httpBody { return (body, nil) }
        if let stream = request.httpBodyStream { return (BodyReader.drain(stream), nil) }
        #if canImport(FoundationNetworking)
        if task is URLSessionUploadTask {
            return (nil, "the body of this upload task could not be read: swift-corelibs-foundation hides upload bodies from a URLProtocol, and reading it from the task failed (for example because its file does not exist)")
        }
        #endif
        return (nil, nil)
    }

    /// The idle timeout: the smaller of the request's `timeoutInterval` and the session's
    /// `timeoutIntervalForRequest` (when it can be found); none when not positive.
    private static func timeout(of request: URLRequest, _ inspection: TaskInspection) -> Duration? {
        let seconds = min(request.timeoutInterval, inspection.sessionTimeout ?? .infinity)
        guard seconds > 0, seconds.isFinite else { return nil }
        return .seconds(seconds)
    }
}
