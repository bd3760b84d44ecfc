import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if os(Linux)
import Synchronization
#endif

/// Serves one request for a `URLProtocol` instance, within the rules swift-corelibs-foundation
/// imposes (see the README's Linux notes):
///
/// - the client is called only from `startLoading`, on the queue URLSession called it on: calling
///   it from another queue while other tasks run crashes corelibs. A delay is served by asking the
///   task to `resume()` when it is over, which makes corelibs call `startLoading` again on that queue;
/// - the client is never called after `stopLoading` or after the load finished (corelibs traps):
///   both are latched under the lock that is held while the client is called;
/// - `startLoading` never blocks, because every session of the process shares one queue;
/// - the user's code (observers, custom matchers, computed responses) never runs on that queue:
///   it may start a request (which traps there: a `dispatch_sync` onto the queue it runs on) or
///   take its time (which would hold up every session). A request whose planning would run it is
///   planned in a task instead (see ``UserCodeHost``), and woken as a delay wakes it; one that needs none is
///   planned with no hand-off: on Linux when URLSession gives the instance its task, inside `resume()` (see
///   ``prepare(_:)``), so that `startLoading` only delivers; elsewhere, and for requests `prepare` leaves,
///   inside `startLoading`.
///
/// A loader is created with its `URLProtocol` instance, inside `URLSessionTask.resume()`, and joins
/// its registry's ``RequestFlights`` at once, so that the end of a test and
/// ``ManualStubClock/advance(by:)`` know about the request before `startLoading` runs.
final class RequestDelivery: LockedBuffer<RequestDelivery.Parts> {
    // Invariant: the loader's fields live in its buffer's header (`Parts`) beside its mutex, one
    // allocation per request. Every mutable field but `flightSlot` (guarded by the lock of the
    // registry's `RequestFlights`) lives in `state`, which is only touched inside `withState`,
    // holding the mutex; the client is called only while it is held, and the user's code
    // (planning a response) never is.
    struct Parts {
        let registry: StubRegistry?
        let missingRegistry: MissingRegistry
        /// Where the loader is in its registry's ``RequestFlights``, while it is there: the one
        /// mutable field outside `state`, only touched by the flights, under their lock.
        var flightSlot: Int?
        fileprivate var state: State
    }

    // The fields are read and written through their own addresses, one field at a time: `header`,
    // a class's property, would check each access for exclusivity at run time, and the locks (or
    // the fields' immutability) guarantee it. Nor through the header's `pointee`: the thread
    // sanitizer takes an access to `pointee.state` for one at the header's first byte, where
    // `registry` lies, and reports a change to the state under the loader's lock as a race with a
    // read of the registry (which needs no lock). `withLock`, inherited, is not used: it would
    // access the whole header, `flightSlot` included; `withState` reaches `state` alone.
    private enum Offset {
        static let registry = MemoryLayout<Parts>.offset(of: \Parts.registry)!
        static let missingRegistry = MemoryLayout<Parts>.offset(of: \Parts.missingRegistry)!
        static let flightSlot = MemoryLayout<Parts>.offset(of: \Parts.flightSlot)!
        static let state = MemoryLayout<Parts>.offset(of: \Parts.state)!
    }

    /// The address of the header's field at `offset`, which holds a `Field`.
    private static func field<Field>(
        _ offset: Int,
        of header: UnsafeMutablePointer<Parts>
    ) -> UnsafeMutablePointer<Field> {
        (UnsafeMutableRawPointer(header) + offset).assumingMemoryBound(to: Field.self)
    }

    private var registry: StubRegistry? {
        withUnsafeMutablePointerToHeader { Self.field(Offset.registry, of: $0).pointee }
    }

    private var missingRegistry: MissingRegistry {
        withUnsafeMutablePointerToHeader { Self.field(Offset.missingRegistry, of: $0).pointee }
    }

    /// See ``Parts/flightSlot``.
    var flightSlot: Int? {
        get { withUnsafeMutablePointerToHeader { Self.field(Offset.flightSlot, of: $0).pointee } }
        set { withUnsafeMutablePointerToHeader { Self.field(Offset.flightSlot, of: $0).pointee = newValue } }
    }

    struct State {
        var timeline: DeliveryTimeline?
        var planned = false
        var start = Duration.zero
        var stopped = false
        var timer: WakeTimer?
        /// When the pending wake-up is due, on the registry's clock.
        var wake: Duration?
        /// Between `resume()` (or a wake-up) and the next `startLoading`: see ``FlightState/inTransit``.
        var inTransit = true
        /// While the request is planned in a task (see the type's documentation): until
        /// then it has not reached the clock.
        var planningElsewhere = false
        /// Set by ``abandon(with:)``: the load ends with this error at its next delivery.
        var abandoned: Abandonment?
        /// How many `resume()` calls this loader made whose `startLoading` has not come yet. The
        /// load's last event waits for them (in ``heldEnd``): corelibs invalidates the protocol when
        /// a load finishes but marks the task completed only later, and a `resume()` that arrives in
        /// between fails the finished task, which traps in `URLSession.behaviour(for:)`.
        var resumesOnTheWay = 0
        /// The load's last event (finish or failure), due but held until ``resumesOnTheWay`` is 0.
        var heldEnd: DeliveryTimeline.Action?
        /// The test that had ended, closing the registry, when the request reached it.
        var arrivedAfterTest: String?
        /// The request once it was read (its line is only built when a report needs it); the
        /// stub chosen to answer it.
        var request: InterceptedRequest?
        var answeringStub: StubSummary?
        /// The request as the protocol instance was given it, for ``requestLine`` before it is read.
        var givenRequest: URLRequest?
        /// The protocol instance, held from `startLoading` until the load ends or `stopLoading`: the
        /// instance owns this loader, so the reference is strong only while the load runs, and the
        /// cycle ends with it. Not a weak reference: one gives the instance a side table, which
        /// makes each of the retains and releases URLSession makes of it slower (BENCHMARKS.md, "Side tables").
        /// Only used under the loader's lock, on the queues URLSession calls the protocol on (see
        /// `scheduleWake`).
        var urlProtocol: URLProtocol?
        /// Whether the loader has left its registry's ``RequestFlights`` (its load ended).
        var leftFlights = false
        /// Planned by ``prepare(_:)`` and not started yet.
        var preparedEarly = false
        /// Where ``prepare(_:)`` stopped because the user's code must run: `startLoading` hands it over.
        var deferred: Deferred?
        /// While the user's code plans the request elsewhere: the timer that fails it when the
        /// request's timeout runs out first (see ``handOver(_:_:_:turn:for:)``).
        var planningDeadline: WakeTimer?
        /// The journal entry of a request whose answer takes time (a delay, pieces, a stream): a
        /// client that cancels before the end is journaled there. `nil` for an answer due at once.
        var journalID: Int?
        /// Whether the load listens to its open ``StubStream`` (see ``listen(to:_:)``).
        var listening = false
    }

    /// A scheduled wake-up's timer, boxed: most loads have none, and an optional existential is
    /// tested, copied and assigned (even `nil` over `nil`) through its type's value witnesses,
    /// which a class reference is not (BENCHMARKS.md, "Copies through type metadata").
    final class WakeTimer: Sendable {
        private let timer: any StubClockTimer

        init(_ timer: any StubClockTimer) {
            self.timer = timer
        }

        func cancel() {
            timer.cancel()
        }
    }

    /// A loader a scheduled wake-up or deadline holds without keeping it alive (a loader cannot be
    /// declared `Sendable`: see ``shared``).
    private struct WeakLoader: @unchecked Sendable {
        // Invariant: the loader is safe to share (its fields are immutable, or touched only under
        // its lock or its flights' lock), and the reference is only read.
        weak var value: RequestDelivery?
    }

    /// A task a stream's listener holds without keeping it alive.
    private struct WeakTask: @unchecked Sendable {
        // Invariant: URLSessionTask is thread-safe; the reference is only read.
        weak var value: URLSessionTask?
    }

    /// What ``prepare(_:)`` leaves to `startLoading`: the request as read, and where planning
    /// goes on with the user's code.
    ///
    /// A class, as ``Abandonment`` and ``WakeTimer`` are: every load tests, takes and drops the
    /// optional field that holds one, and most hold none. An optional struct with a `URLRequest`
    /// or a `URL` (resilient types of Foundation) is tested, copied and destroyed through its
    /// type's metadata; a class reference is not (BENCHMARKS.md, "Copies through type metadata").
    final class Deferred {
        let read: ReadRequest
        let step: Step
        let registry: StubRegistry
        /// Its turn among the requests planned with the user's code (see ``PlanningTurns``).
        let turn: Int

        init(read: ReadRequest, step: Step, registry: StubRegistry, turn: Int) {
            self.read = read
            self.step = step
            self.registry = registry
            self.turn = turn
        }
    }

    /// Why the load was abandoned: its test ended, failing it with ``error`` (a class: see
    /// ``Deferred``).
    final class Abandonment: Sendable {
        let error: StubError

        init(_ error: StubError) {
            self.error = error
        }
    }

    /// How many loaders exist: one per `URLProtocol` instance that has started loading. Tests
    /// use it to prove that no instance, and no scheduled delivery holding one, outlives its request.
    static var liveCount: Int {
        #if os(Linux)
        live.load(ordering: .relaxed)
        #else
        live.withLock { $0 }
        #endif
    }

    /// Counts a loader made (`1`) or gone (`-1`). On Linux an atomic counter: a lock taken twice
    /// for every request by every thread showed in the request's cost (BENCHMARKS.md, "Locks and allocations").
    /// `Atomic` needs macOS 15 and its peers, later than the package's platforms, so they keep the lock.
    private static func countLive(_ change: Int) {
        #if os(Linux)
        live.wrappingAdd(change, ordering: .relaxed)
        #else
        live.withLock { $0 += change }
        #endif
    }

    #if os(Linux)
    private static let live = Atomic<Int>(0)
    #else
    private static let live = Locked(0)
    #endif

    /// Why a loader has no registry, which says what its requests fail with. Two cases rather than
    /// the ``StubError`` itself: a loader is made for every request, and copying that large enum
    /// into each one showed in the protocols-alone profile.
    enum MissingRegistry {
        /// ``StubError/registryGone``.
        case gone
        /// ``StubError/notIntercepting``.
        case notIntercepting
        /// ``StubError/stoppedByNetworkGuard(_:)``, with what it says.
        case networkGuard(String)

        var error: StubError {
            switch self {
            case .gone: .registryGone
            case .notIntercepting: .notIntercepting
            case let .networkGuard(message): .stoppedByNetworkGuard(message)
            }
        }
    }

    /// A loader serving `request` (as its protocol instance is given it) from `registry`; without
    /// one, requests fail with `missingRegistry`'s error.
    static func make(registry: StubRegistry?, missingRegistry: MissingRegistry = .gone, request: URLRequest) -> Self {
        // On a manual clock the request starts now (see `start(_:)`).
        let start = registry?.manualClock?.requestStarted() ?? .zero
        let loader = make {
            Parts(
                registry: registry,
                missingRegistry: missingRegistry,
                state: State(start: start, givenRequest: request)
            )
        }
        countLive(1)
        if let test = registry?.flights.join(loader) {
            loader.withState { $0.arrivedAfterTest = test }
        }
        return loader
    }

    /// A loader for a registry looked up in ``RegistryDirectory``: one that no longer exists fails
    /// its request, naming the test whose end closed it when one did.
    static func make(_ lookup: (registry: StubRegistry?, endedTest: String?), request: URLRequest) -> Self {
        let loader = make(registry: lookup.registry, request: request)
        if let test = lookup.endedTest {
            loader.withState { $0.arrivedAfterTest = test }
        }
        return loader
    }

    deinit {
        Self.countLive(-1)
        let (deferred, inTransit) = withState { ($0.deferred, $0.inTransit) }
        // A turn taken in `prepare` whose `startLoading` never came: the requests after it need not wait.
        if let deferred { deferred.registry.endPlanningTurn(deferred.turn) }
        if inTransit { registry?.manualClock?.requestVanished() }
    }

    /// The protocol instance that owns this loader is going away: the loader leaves its registry's
    /// flights now if its load has not ended (they hold it until then, so its `deinit` cannot do it).
    func instanceGone() {
        if !withState({ $0.leftFlights }) { registry?.flights.remove(self) }
    }

    /// Whether a request is one stubs may serve at all: anything but local `file:`, `data:` and
    /// `about:` URLs.
    static func isInterceptable(_ request: URLRequest) -> Bool {
        guard let url = request.url else { return false }
        if startsWithHTTPScheme(url) { return true }  // most requests: no need to parse the scheme out
        switch url.scheme?.lowercased() {
        case nil, "file", "data", "about": return false
        default: return true
        }
    }

    /// Whether the URL's text starts with `http:` or `https:`, as written (then its scheme is one of
    /// those): read from `absoluteString`, which `URL` keeps, rather than from `scheme`, which it
    /// parses out and copies for every call.
    private static func startsWithHTTPScheme(_ url: URL) -> Bool {
        var text = url.absoluteString
        return text.withUTF8 { bytes in
            guard bytes.count >= 5, bytes[0] == UInt8(ascii: "h"), bytes[1] == UInt8(ascii: "t"),
                bytes[2] == UInt8(ascii: "t"), bytes[3] == UInt8(ascii: "p")
            else { return false }
            return bytes[4] == UInt8(ascii: ":")
                || (bytes.count >= 6 && bytes[4] == UInt8(ascii: "s") && bytes[5] == UInt8(ascii: ":"))
        }
    }

    /// Whether a request should bypass the stubs and go to the network: the registry's
    /// pass-through policy allows its host and no stub would answer it.
    static func shouldPassThrough(_ request: URLRequest, registry: StubRegistry) -> Bool {
        let policy = registry.passThrough
        guard policy != .never, let url = request.url, policy.allows(host: url.host ?? "") else { return false }
        // An upload task's body is neither in httpBody nor in a stream before loading: only a
        // request with httpBody, or a bodiless GET or HEAD, has a body that can be judged now.
        let bodyReadable =
            request.httpBody != nil
            || (request.httpBodyStream == nil && ["GET", "HEAD"].contains(request.httpMethod ?? "GET"))
        let stubRequest = InterceptedRequest(
            request,
            body: request.httpBody,
            bodyUnavailableReason: nil,
            reads: registry.requestReads
        )
        guard !registry.selection.wouldAnswer(stubRequest, bodyReadable: bodyReadable) else { return false }
        registry.record(stubRequest, .passedThrough)
        return true
    }

    func withState<Result>(_ body: (inout State) -> Result) -> Result {
        // Only `state` is accessed: `flightSlot`, beside it, is the flights' to touch meanwhile.
        withLockedValue { body(&Self.field(Offset.state, of: $0).pointee) }
    }

    /// `startLoading`: plans the load the first time, then delivers whatever is due.
    func start(_ urlProtocol: URLProtocol) {
        var deferred: Deferred?
        var arrivedAfterTest: String?
        /// The planning turn of a request whose test ended before it could use it: ended after the lock.
        var abandonedTurn: Int?
        let mustPlan = withState { state -> Bool in
            // The load is over: a `startLoading` after it (corelibs calls it once per `resume()`
            // made before the instance existed) has nothing to deliver, and must not hold the
            // instance again, which holds this loader: nothing would end that cycle.
            guard !state.leftFlights else { return false }
            state.stopped = false
            state.urlProtocol = urlProtocol
            if state.preparedEarly {
                state.preparedEarly = false
                deferred = state.deferred.take()
                if let abandoned = state.abandoned, state.timeline?.isFinished != true {
                    // Its test ended between `resume()` and now: it fails instead.
                    abandonedTurn = deferred?.turn
                    deferred = nil
                    state.timeline = DeliveryTimeline(
                        events: [
                            .init(time: .zero, action: .fail(abandoned.error.urlError(for: urlProtocol.request.url)))
                        ],
                        timeout: nil,
                        url: nil
                    )
                }
                guard deferred == nil else { return false }
            }
            if !state.planned, let abandoned = state.abandoned {
                // Its test ended before it started loading: it fails without being planned.
                state.planned = true
                state.start = clock.now
                state.timeline = DeliveryTimeline(
                    events: [.init(time: .zero, action: .fail(abandoned.error.urlError(for: urlProtocol.request.url)))],
                    timeout: nil,
                    url: nil
                )
            }
            guard state.planned else {
                state.planned = true
                // On a manual clock the request started when it was resumed (see `make`), however
                // long it took to get here.
                if registry?.manualClock == nil { state.start = clock.now }
                arrivedAfterTest = state.arrivedAfterTest
                return true
            }
            if state.resumesOnTheWay > 0 { state.resumesOnTheWay -= 1 }  // one of ours arrived
            deliverDue(urlProtocol, &state)
            // Still being planned elsewhere, it has not reached the clock, unless it has ended
            // (its test failed it meanwhile).
            if !state.planningElsewhere || state.timeline?.isFinished == true { arrive(&state) }
            return false
        }
        if let abandonedTurn { registry?.endPlanningTurn(abandonedTurn) }
        if let deferred {
            handOver(deferred.read, deferred.step, deferred.registry, turn: deferred.turn, for: urlProtocol)
            return
        }
        guard mustPlan, planHere(urlProtocol, arrivedAfterTest: arrivedAfterTest) else { return }
        // Delivered once everything planning made but kept is released (`planHere` has returned):
        // after the last client call, URLSession starts the caller's next request, which waits
        // for this queue as long as `startLoading` still runs.
        withState { state in
            deliverDue(urlProtocol, &state)
            arrive(&state)
        }
    }

    /// Plans the request inside `startLoading`, as far as it can without the user's code, and
    /// keeps the plan: returns whether it is ready to deliver, or hands planning over to a task
    /// (see the type's documentation). `arrivedAfterTest` is the test that had ended when the
    /// request reached its registry, read under the lock that found the request unplanned. Runs
    /// without the lock.
    @inline(never)
    private func planHere(_ urlProtocol: URLProtocol, arrivedAfterTest: String?) -> Bool {
        let read = ReadRequest(urlProtocol, task: urlProtocol.task, registry: registry)
        switch plan(read, for: urlProtocol, arrivedAfterTest: arrivedAfterTest) {
        case let .planned(planned):
            withState { settle(planned, &$0) }
            return true
        case let .needsUserCode(step, registry):
            // Taken here, in the order requests reach `startLoading`: the order they choose stubs in.
            handOver(read, step, registry, turn: registry.takePlanningTurn(), for: urlProtocol)
            return false
        }
    }

    /// Plans the request when URLSession gives the protocol instance its task (on Linux, inside
    /// `URLSessionTask.resume()`, on the caller's thread, holding the session's work queue as
    /// `canInit` does), so that `startLoading` only delivers.
    ///
    /// What runs inside `startLoading` delays the caller: the last client call there resumes the
    /// caller, whose thread then needs the work queue for its next request, and the longer the
    /// work-queue thread has run, the likelier the caller preempts it and has to wait for it (two
    /// context switches more; BENCHMARKS.md, "Planning inside resume()"). Planned here, the same work runs on the
    /// caller's thread before it waits for the answer. Like planning inside `startLoading`, it
    /// runs none of the user's code: where planning needs some, it stops, and `startLoading`
    /// hands it over (see the type's documentation). Requests that are recorded, or served on a
    /// ``ManualStubClock``, or whose registry is gone, are planned in `startLoading` as before.
    ///
    /// Only a task being resumed is planned here: corelibs also creates the protocol instance when a
    /// task that was never resumed is cancelled (its state is then `.canceling`, and no
    /// `startLoading` follows), and that request was never sent, so it must not choose a stub,
    /// consume a use, or be journaled.
    ///
    /// Nor is a data task whose session has a `urlCache`: corelibs then makes the instance after
    /// looking the request up in the cache, on a global queue, while the work queue is free, and
    /// planning reads fields of the task and session that only that queue may touch
    /// (``TaskInspection/protocolMadeInResume(of:)``). It is planned in `startLoading`. Finding the
    /// task's session takes a `Mirror`, which cost more than planning early saves, so a registry
    /// whose sessions all came from ``StubRegistry/makeSession(configuration:delegate:delegateQueue:fileID:filePath:line:column:)``
    /// (which removes the `urlCache`) skips the check; one that handed out its protocol class or a
    /// configuration makes it for every request.
    func prepare(_ urlProtocol: URLProtocol) {
        guard let task = urlProtocol.task, task.state == .running, let registry, registry.manualClock == nil else {
            return
        }
        switch registry.earlyPlanning {
        case .never: return
        case .always: break
        case .whenMadeInResume: guard TaskInspection.protocolMadeInResume(of: task) else { return }
        }
        let ready = withState { state -> Bool in
            guard !state.planned, state.abandoned == nil, state.arrivedAfterTest == nil else { return false }
            state.planned = true
            state.preparedEarly = true
            state.start = clock.now
            return true
        }
        guard ready else { return }
        let read = ReadRequest(urlProtocol, task: task, registry: registry)
        switch plan(read, for: urlProtocol, arrivedAfterTest: nil) {
        case let .planned(planned):
            withState { settle(planned, &$0) }
        case let .needsUserCode(step, registry):
            // The turn is taken now, so that later requests do not choose their stubs before this one.
            let turn = registry.takePlanningTurn()
            withState { $0.deferred = Deferred(read: read, step: step, registry: registry, turn: turn) }
        }
    }

    /// Hands planning that needs the user's code over to a task (see the type's documentation);
    /// the request is woken when it is planned.
    ///
    /// The request's timeout holds meanwhile, as it holds a delay: the user's code (a computed
    /// response, a custom matcher, an observer) that has not returned when it runs out leaves the
    /// request failed with `URLError(.timedOut)`, and what it returns later is dropped. It is timed
    /// in real time whatever the registry's clock: a virtual clock does not move while the user's
    /// code runs, and one that runs waits at once would time out every computed response.
    private func handOver(
        _ read: ReadRequest,
        _ step: Step,
        _ registry: StubRegistry,
        turn: Int,
        for urlProtocol: URLProtocol
    ) {
        let deadline = Self.timeout(of: read.urlRequest, read.inspection).map { timeout in
            let loader = WeakLoader(value: self)
            let realTime = SystemStubClock()
            return WakeTimer(
                realTime.schedule(at: realTime.now + timeout) {
                    loader.value?.planningTimedOut(after: timeout, url: read.request.url)
                }
            )
        }
        withState { state in
            state.planningElsewhere = true
            state.planningDeadline = deadline
        }
        // The task's fields are read here, on its work queue, for planning that goes on elsewhere.
        let handOff = UncheckedSendable(value: (read.capturingAnswers(), urlProtocol))  // handed over, not shared
        let loader = shared
        registry.runUserCode {
            let (read, urlProtocol) = handOff.value
            await loader.value.planElsewhere(read, step, registry, turn: turn, for: urlProtocol)
        }
    }

    /// Plans, in its turn, a request whose planning runs the user's code (see ``handOver(_:_:_:turn:for:)``).
    private func planElsewhere(
        _ read: ReadRequest,
        _ step: Step,
        _ registry: StubRegistry,
        turn: Int,
        for urlProtocol: URLProtocol
    ) async {
        await registry.waitForPlanningTurn(turn)
        let chosen = choose(read, for: urlProtocol, from: step, registry: registry)
        registry.endPlanningTurn(turn)
        switch chosen {
        case let .planned(planned):
            wakeAfterPlanning(planned, urlProtocol)
        case let .needsUserCode(.planner(progress), _) where !failedWhilePlanning:
            let planner = ResponsePlanner(registry: registry, inspection: read.inspection)
            wakeAfterPlanning(
                planned(await planner.plan(from: progress), read, planner, for: urlProtocol),
                urlProtocol
            )
        case .needsUserCode(.observers, _) where withState({ $0.abandoned == nil }):
            // It timed out before a stub was chosen: journaled as refused, so the journal still
            // holds every request the registry intercepted.
            registry.record(read.request, .refused(reason: Self.planningTimeoutMessage(read)))
            wakeAfterPlanning(nil, urlProtocol)
        case .needsUserCode:
            wakeAfterPlanning(nil, urlProtocol)  // it failed meanwhile (test ended, timed out)
        }
    }

    /// What a request whose timeout ran out while the user's code planned it fails with.
    private static func planningTimeoutMessage(after timeout: Duration) -> String {
        "The request timed out: the stub's response had not been computed after \(timeout.seconds) s, "
            + "the request's timeout (a computed response, custom matcher or request observer was still running)."
    }

    /// ``planningTimeoutMessage(after:)`` for `read`, whose timeout ran out.
    private static func planningTimeoutMessage(_ read: ReadRequest) -> String {
        planningTimeoutMessage(after: timeout(of: read.urlRequest, read.inspection) ?? .zero)
    }

    /// The request's timeout ran out while the user's code was planning it: it fails with
    /// `URLError(.timedOut)` now (delivered as a wake-up is, on URLSession's queue), unless it was
    /// planned, stopped or failed meanwhile.
    private func planningTimedOut(after timeout: Duration, url: URL) {
        let error = MessageFirstError.urlError(
            .timedOut,
            message: Self.planningTimeoutMessage(after: timeout),
            url: url
        )
        withState { state in
            state.planningDeadline = nil
            guard state.planningElsewhere, !state.stopped, state.abandoned == nil, state.timeline == nil,
                let urlProtocol = state.urlProtocol
            else { return }
            state.timeline = DeliveryTimeline(
                events: [.init(time: .zero, action: .fail(error))],
                timeout: nil,
                url: nil
            )
            state.timer?.cancel()
            state.wake = clock.now
            state.timer = scheduleWake(at: clock.now, urlProtocol)
        }
    }

    /// The loader, for a closure that runs elsewhere to capture. As a `ManagedBuffer` (its fields
    /// share an allocation with its lock) it cannot be declared `Sendable`, but it is safe to share:
    /// see the invariant at the top of the type.
    var shared: UncheckedSendable<RequestDelivery> {
        UncheckedSendable(value: self)
    }

    /// Whether the load failed while the user's code planned it: its test ended (``abandon(with:)``)
    /// or its timeout ran out (``planningTimedOut(after:url:)``). A request that failed while an
    /// observer ran then chooses no stub: a stub chosen afterwards would count a use and journal an
    /// answer that no one receives. (A custom matcher that outlives the timeout is inside choosing:
    /// the stub it lets through is still chosen.)
    private var failedWhilePlanning: Bool {
        withState { $0.abandoned != nil || $0.timeline != nil }
    }

    /// Keeps what planning found; call under the lock.
    private func settle(_ planned: Planned, _ state: inout State) {
        state.request = planned.request
        // Set only when there is one (a load is settled once, and nothing chose a stub before):
        // assigning the optional whole copies it through its type's metadata.
        if let stub = planned.answeringStub { state.answeringStub = stub }
        if let journalID = planned.journalID, planned.timeline?.isDueAtStart == false { state.journalID = journalID }
        if let abandoned = state.abandoned {
            // Its test ended while it was planned (`abandon` may already have set the failure).
            planned.timeline?.pushedStream?.disconnect(.testEnded)
            if state.timeline == nil {
                state.timeline = DeliveryTimeline(
                    events: [.init(time: .zero, action: .fail(abandoned.error.urlError(for: planned.request.url)))],
                    timeout: nil,
                    url: nil
                )
            }
        } else if let timeline = planned.timeline, state.timeline == nil {
            // `nil` while recording: the real answer's timeline may already be set. Already set when
            // the request timed out while the user's code planned it: that failure stands.
            state.timeline = timeline
        } else {
            planned.timeline?.pushedStream?.disconnect(.failed(.timedOut))
        }
    }

    /// Delivers what planning in a task found: on Linux by asking the task to `resume()`,
    /// which makes corelibs call `startLoading` again on its own queue (as a delay's wake-up does).
    private func wakeAfterPlanning(_ planned: Planned?, _ urlProtocol: URLProtocol) {
        #if canImport(FoundationNetworking)
        let wake = withState { state -> Bool in
            state.planningElsewhere = false
            state.planningDeadline.take()?.cancel()
            if let planned { settle(planned, &state) }
            guard !state.stopped, state.timeline?.isFinished == false else {
                leaveTransitWithoutArriving(&state)
                return false
            }
            state.resumesOnTheWay += 1
            return true
        }
        // Not under the lock: `resume()` waits for URLSession's queue, which may be waiting for it.
        if wake { resumeOrCountBack(urlProtocol.task) }
        #else
        // Apple's URL loading system accepts client calls from any thread.
        withState { state in
            state.planningElsewhere = false
            state.planningDeadline.take()?.cancel()
            if let planned { settle(planned, &state) }
            deliverDue(urlProtocol, &state)
            arrive(&state)
        }
        #endif
    }

    /// `stopLoading`: after this, the client is not called again unless `startLoading` is (as it
    /// is when a suspended task resumes). Cancels the pending wake-up, releasing the task.
    func stop() {
        let cancelled = withState { state -> Cancellation? in
            let cancellation = cancellation(&state)
            state.stopped = true
            state.urlProtocol = nil
            state.timer?.cancel()
            state.timer = nil
            state.planningDeadline.take()?.cancel()
            state.wake = nil
            leaveTransitWithoutArriving(&state)
            return cancellation
        }
        switch cancelled {
        case nil: break
        case let .stream(stream): stream.disconnect(.cancelledByClient)
        case let .answer(id, delivered): registry?.endResponse(id, body: delivered, ending: .cancelledByClient)
        }
    }

    /// What a client that cancels the load before its end leaves to journal.
    private enum Cancellation {
        /// The open stream it was reading.
        case stream(StubStream)
        /// The answer's journal entry, and the body delivered before.
        case answer(journalID: Int, delivered: Data)
    }

    /// What `stopLoading` leaves to journal when the client cancelled its task (corelibs marks it
    /// `.canceling` before it stops the load): nothing when the load had ended (or was never
    /// answered), or when the task is only suspended (it goes on when resumed). Call under the lock.
    private func cancellation(_ state: inout State) -> Cancellation? {
        // The timeline is read in place: a copy would retain what its events hold.
        guard !state.stopped, state.timeline?.isFinished == false, state.urlProtocol?.task?.state == .canceling
        else { return nil }
        if let stream = state.timeline!.pushedStream { return .stream(stream) }
        return state.journalID.map { .answer(journalID: $0, delivered: state.timeline!.deliveredBody) }
    }

    /// Where the request is, for the end of its test.
    var flightState: FlightState {
        withState { state in
            if state.heldEnd != nil { return .inTransit }
            if state.timeline?.isFinished == true || (state.stopped && !state.inTransit) { return .finished }
            // A `resume()` on its way (a stream's wake-up) brings what the test sent: about to move.
            if state.inTransit || state.resumesOnTheWay > 0 { return .inTransit }
            if let wake = state.wake { return .waiting(until: wake) }
            if let stream = state.timeline?.stream { return .streaming(stream.description) }
            return state.planned && state.timeline == nil ? .recording : .finished
        }
    }

    /// `GET https://…`: as read when planned, else as the protocol instance was given it; its
    /// secrets masked, since test failures print it (see ``LogMasking``).
    var requestLine: String {
        let (read, given) = withState { ($0.request, $0.givenRequest) }
        if let read { return Self.line(read.method.rawValue, read.url) }
        guard let given, let url = given.url else { return "a request" }
        return Self.line(given.httpMethod ?? "GET", url)
    }

    /// `GET https://…`, with the URL's secrets masked (see ``LogMasking``).
    static func line(_ method: String, _ url: URL) -> String {
        "\(method) \(LogMasking.url(url.absoluteString))"
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
            state.abandoned = Abandonment(error)
            ended(.testEnded, &state)
            guard state.planned, let urlProtocol = state.urlProtocol else { return true }  // `plan` sees `abandoned`
            state.timeline = DeliveryTimeline(
                events: [.init(time: .zero, action: .fail(error.urlError(for: urlProtocol.request.url)))],
                timeout: nil,
                url: nil
            )
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
    /// load still has something to deliver; the request is then in transit until it does, and the
    /// `resume()` the caller makes is counted on its way.
    private func departForWake() -> Bool {
        withState { state in
            guard !state.stopped, state.timeline?.isFinished != true else { return false }
            if !state.inTransit {
                state.inTransit = true
                registry?.manualClock?.requestDeparted()
            }
            state.resumesOnTheWay += 1
            return true
        }
    }

    /// Makes the `resume()` counted on its way, or counts it back when the task no longer runs
    /// (no `startLoading` would follow it).
    private func resumeOrCountBack(_ task: URLSessionTask?) {
        if let task, task.state == .running {
            task.resume()
        } else {
            withState { state in if state.resumesOnTheWay > 0 { state.resumesOnTheWay -= 1 } }
        }
    }

    var clock: any StubClock {
        registry?.clock ?? SystemStubClock()
    }

    /// Tells the client what is due. Its bookkeeping comes first: the call that ends the load lets
    /// URLSession start the caller's next request, which waits for this queue while `startLoading`
    /// still runs, so nothing is left to do after it (BENCHMARKS.md, "Where a microsecond costs most").
    private func deliverDue(_ urlProtocol: URLProtocol, _ state: inout State) {
        guard !state.stopped else { return }
        if let end = state.heldEnd {
            // The end was held for resumes on their way: the last of them delivers it.
            guard state.resumesOnTheWay == 0 else { return }
            state.heldEnd = nil
            leave(&state, ending: end)
            if let client = urlProtocol.client { perform(end, for: urlProtocol, client: client) }
            return
        }
        guard state.timeline?.isFinished == false else { return }
        // Events due at the start are due at any time since: the clock is read only for the others.
        // On an ImmediateStubClock waiting takes no time: every event is due now, in order, each
        // delivered on its own, and the clock's `now` moves to the last one's time (a wake-up per
        // event would cost a round trip through the task for each chunk of a stream).
        let immediate = state.timeline!.isDueAtStart ? nil : clock as? ImmediateStubClock
        let elapsed =
            state.timeline!.isDueAtStart ? .zero : immediate != nil ? DeliveryTimeline.end : clock.now - state.start
        var (due, nextWake) = state.timeline!.advance(to: elapsed)  // in place: no copy
        immediate?.reach(state.start + state.timeline!.lastActivity)
        if state.resumesOnTheWay > 0 {
            state.heldEnd = due.removeEnd()
        }
        state.timer?.cancel()
        state.timer = nil
        if let nextWake {
            let wake = state.start + nextWake
            state.wake = wake
            state.timer = scheduleWake(at: wake, urlProtocol)
        } else {
            state.wake = nil
        }
        if state.timeline?.isFinished == true, state.heldEnd == nil {
            leave(&state, ending: due.end)
        } else if !state.listening, let stream = state.timeline!.stream {
            state.listening = true
            listen(to: stream, urlProtocol, &state)
        }
        guard let client = urlProtocol.client else { return }  // read once: each read retains it
        due.forEachAction { perform($0, for: urlProtocol, client: client) }
    }

    /// The load ends (its last event is about to be delivered): leaves the registry's flights, and
    /// lets go of the protocol instance and of the timeline's events, so that little is left to
    /// release after the last client call. The request and its stub stay: the end of a test that
    /// failed the request reads them after this (see ``abandon(with:)``).
    /// `end` is the load's last action, read only for a load that has something to record how it
    /// ended (a journal entry kept, a stream): most have not.
    private func leave(_ state: inout State, ending end: @autoclosure () -> DeliveryTimeline.Action?) {
        if state.journalID != nil || state.timeline?.stream != nil, case let .fail(error)? = end() {
            ended(state.abandoned != nil ? .testEnded : .failed((error as? URLError)?.code ?? .unknown), &state)
        }
        registry?.flights.remove(self)
        state.leftFlights = true
        state.urlProtocol = nil
        state.timeline = .over
    }

    /// The load ends other than as its answer planned (it failed, its test ended): its stream, or
    /// its journal entry, records how and what was delivered before. Once only. Call under the lock.
    private func ended(_ ending: ResponseEnding, _ state: inout State) {
        if let stream = state.timeline?.pushedStream {
            stream.disconnect(ending)  // a stream the test ended already keeps its ending
        } else if let id = state.journalID {
            registry?.endResponse(id, body: state.timeline!.deliveredBody, ending: ending)
        }
        state.journalID = nil
    }

    private func perform(
        _ action: DeliveryTimeline.Action,
        for urlProtocol: URLProtocol,
        client: any URLProtocolClient
    ) {
        switch action {
        case let .receive(response):
            client.urlProtocol(urlProtocol, didReceive: response, cacheStoragePolicy: .notAllowed)
        case let .load(data):
            client.urlProtocol(urlProtocol, didLoad: data)
        case .finish:
            client.urlProtocolDidFinishLoading(urlProtocol)
        case let .fail(error):
            client.urlProtocol(urlProtocol, didFailWithError: error)
        case .progress, .stream:
            break
        }
    }

    /// Has `stream` wake the load each time the test sends something, as a delay's wake-up does:
    /// on Linux by asking the task to `resume()` (counted on its way at once, so that the end of the
    /// test and a ``ManualStubClock`` know the load is about to move), elsewhere by delivering.
    /// Neither holds the load or its task. What the test sent before this is woken for here, on
    /// another thread (this runs under the load's lock, inside `startLoading`). Call under the lock.
    private func listen(to stream: StubStream, _ urlProtocol: URLProtocol, _ state: inout State) {
        let loader = WeakLoader(value: self)
        #if canImport(FoundationNetworking)
        let task = WeakTask(value: urlProtocol.task)
        let queued = stream.listen {
            guard let self = loader.value, let task = task.value, task.state == .running, self.departForWake()
            else { return }
            self.resumeElsewhere(task)
        }
        guard queued else { return }
        state.resumesOnTheWay += 1
        resumeElsewhere(task.value)
        #else
        // Apple's URL loading system accepts client calls from any thread.
        let deliver: @Sendable () -> Void = {
            guard let self = loader.value else { return }
            self.withState { state in
                if state.resumesOnTheWay > 0 { state.resumesOnTheWay -= 1 }
                if let urlProtocol = state.urlProtocol { self.deliverDue(urlProtocol, &state) }
            }
        }
        let queued = stream.listen {
            loader.value?.withState { $0.resumesOnTheWay += 1 }
            deliver()
        }
        guard queued else { return }
        state.resumesOnTheWay += 1
        DispatchQueue.global().async(execute: deliver)
        #endif
    }

    #if canImport(FoundationNetworking)
    /// ``resumeOrCountBack(_:)`` on another thread: the caller may hold this loader's lock, or be
    /// the test sending from anywhere (a delegate's queue included).
    private func resumeElsewhere(_ task: URLSessionTask?) {
        let wake = UncheckedSendable(value: (self, task))
        DispatchQueue.global().async { wake.value.0.resumeOrCountBack(wake.value.1) }
    }
    #endif

    func scheduleWake(at deadline: Duration, _ urlProtocol: URLProtocol) -> WakeTimer {
        #if canImport(FoundationNetworking)
        // Re-enter through the task so that the client is called on the task's own queue.
        let task = UncheckedSendable(value: urlProtocol.task)  // URLSessionTask is thread-safe.
        let loader = WeakLoader(value: self)
        return WakeTimer(
            clock.schedule(at: deadline) {
                guard let self = loader.value, let task = task.value, task.state == .running, self.departForWake()
                else {
                    return
                }
                self.resumeOrCountBack(task)
            }
        )
        #else
        // Apple's URL loading system accepts client calls from any thread.
        let target = UncheckedSendable(value: urlProtocol)  // only used under this loader's lock.
        let loader = shared
        return WakeTimer(
            clock.schedule(at: deadline) {
                loader.value.withState { loader.value.deliverDue(target.value, &$0) }
            }
        )
        #endif
    }

    /// The request as URLSession hands it to the protocol, read once inside `startLoading`.
    struct ReadRequest {
        let urlRequest: URLRequest
        private(set) var inspection: TaskInspection
        let body: Data?
        let request: InterceptedRequest
        let isDownload: Bool

        /// Reads the request of `urlProtocol`, whose task is `task` (read once by the caller: each
        /// read of `URLProtocol.task` retains the task through its side table), reusing what
        /// `registry` read from the request before where it can.
        init(_ urlProtocol: URLProtocol, task: URLSessionTask?, registry: StubRegistry?) {
            urlRequest = urlProtocol.request
            inspection = TaskInspection(task)
            let (body, unavailable) = RequestDelivery.readBody(of: urlRequest, task: task)
            self.body = body
            request = InterceptedRequest(
                urlRequest,
                body: body,
                bodyUnavailableReason: unavailable,
                reads: registry?.requestReads
            )
            isDownload = task is URLSessionDownloadTask
        }

        /// The request as `GET https://…`, its secrets masked (see ``LogMasking``).
        var requestLine: String { RequestDelivery.line(request.method.rawValue, request.url) }

        /// The request as observers see it: with its body, read from any stream.
        func observed() -> URLRequest {
            var observed = urlRequest
            observed.httpBodyStream = nil
            observed.httpBody = body
            return observed
        }

        /// This request, with the task's fields read now (see ``TaskInspection/capturingAnswers()``).
        func capturingAnswers() -> ReadRequest {
            var copy = self
            copy.inspection = inspection.capturingAnswers()
            return copy
        }

        /// The plan delivering `events` (the request's timeout is read only when one of them waits).
        func planned(
            _ events: [DeliveryTimeline.Event],
            answeredBy: StubSummary? = nil,
            journalID: Int? = nil
        ) -> Planned {
            let timeline = DeliveryTimeline(
                events: events,
                timeout: RequestDelivery.timeout(of: urlRequest, inspection),
                url: request.url
            )
            return Planned(timeline: timeline, request: request, answeringStub: answeredBy, journalID: journalID)
        }

        /// The plan failing the request with `error` at once.
        func failing(with error: any Error) -> Planned {
            planned([.init(time: .zero, action: .fail(error))])
        }
    }

    /// Where planning goes on with the user's code: at telling the observers, or at a hop.
    enum Step {
        case observers
        case planner(ResponsePlanner.Progress)
    }

    /// What planning found, or where it stopped because it would have run the user's code.
    private enum PlanOutcome {
        case planned(Planned)
        case needsUserCode(Step, StubRegistry)
    }

    /// Plans the response, inside `resume()` (``prepare(_:)``) or `startLoading`, as far as it can
    /// without running any of the user's code: a request with observers to tell, or behind
    /// requests planned elsewhere (see ``PlanningTurns``), is left to ``choose(_:for:from:registry:)``.
    /// Runs without the lock.
    private func plan(_ read: ReadRequest, for urlProtocol: URLProtocol, arrivedAfterTest: String?) -> PlanOutcome {
        let request = read.request
        if let test = arrivedAfterTest {
            let error = StubError.arrivedAfterTestEnded(test: test, request: read.requestLine)
            registry?.record(request, .refused(reason: error.message))
            FileHandle.standardError.write(Data("swift-http-stubs: \(error.message)\n".utf8))
            return .planned(read.failing(with: error.urlError(for: request.url)))
        }
        guard let registry else {
            return .planned(read.failing(with: missingRegistry.error.urlError(for: request.url)))
        }
        // Requests handed off earlier choose their stubs first (see ``PlanningTurns``); observers are
        // the user's code.
        guard registry.plansAtOnce else { return .needsUserCode(.observers, registry) }
        if let refused = refuseDownload(read, registry) { return .planned(refused) }
        let planner = ResponsePlanner(registry: registry, inspection: read.inspection)
        var progress = ResponsePlanner.Progress(request: request)
        guard let plan = planner.planWithoutUserCode(from: &progress) else {
            return .needsUserCode(.planner(progress), registry)
        }
        return .planned(planned(plan, read, planner, for: urlProtocol))
    }

    /// Tells the observers and chooses the stubs from `step`, in the request's turn (see
    /// ``PlanningTurns``), running the user's observers and matchers; what is left (a computed
    /// response, a redirect question) is left pending. Nothing is chosen for a request that failed
    /// meanwhile (see ``failedWhilePlanning``).
    private func choose(
        _ read: ReadRequest,
        for urlProtocol: URLProtocol,
        from step: Step,
        registry: StubRegistry
    ) -> PlanOutcome {
        guard !failedWhilePlanning else { return .needsUserCode(step, registry) }
        var progress: ResponsePlanner.Progress
        switch step {
        case .observers:
            registry.notifyObservers { read.observed() }
            guard !failedWhilePlanning else { return .needsUserCode(step, registry) }
            if let refused = refuseDownload(read, registry) { return .planned(refused) }
            progress = ResponsePlanner.Progress(request: read.request)
        case let .planner(saved):
            progress = saved
        }
        let planner = ResponsePlanner(registry: registry, inspection: read.inspection)
        guard let plan = planner.chooseInOrder(from: &progress) else {
            return .needsUserCode(.planner(progress), registry)
        }
        return .planned(planned(plan, read, planner, for: urlProtocol))
    }

    /// Download tasks crash corelibs: they fail, explaining why. Apple's URL loading system writes
    /// what a protocol loads for a download task to a file itself, so there they are served as any task.
    private func refuseDownload(_ read: ReadRequest, _ registry: StubRegistry) -> Planned? {
        #if canImport(FoundationNetworking)
        guard read.isDownload else { return nil }
        let error = StubError.downloadTaskUnsupported
        registry.record(read.request, .refused(reason: error.message))
        return read.failing(with: error.urlError(for: read.request.url))
        #else
        return nil
        #endif
    }

    /// The timeline of a plan; none while the real server's answer is being recorded.
    private func planned(
        _ plan: ResponsePlanner.Plan,
        _ read: ReadRequest,
        _ planner: ResponsePlanner,
        for urlProtocol: URLProtocol
    ) -> Planned {
        switch plan {
        case let .events(events, answeredBy, journalID):
            return read.planned(events, answeredBy: answeredBy, journalID: journalID)
        case let .record(progress):
            let timeout = Self.timeout(of: read.urlRequest, read.inspection).map(\.seconds)
            let planner = ResponsePlanner(registry: planner.registry, inspection: planner.inspection.capturingAnswers())
            record(progress, planner: planner, timeout: timeout, for: urlProtocol)
            return Planned(timeline: nil, request: read.request, answeringStub: nil)
        }
    }

    /// What planning found: the timeline (`nil` while the answer is being recorded), the request
    /// as read, and the stub that answers it.
    struct Planned {
        let timeline: DeliveryTimeline?
        let request: InterceptedRequest
        let answeringStub: StubSummary?
        /// The journal entry of the answer (kept by the load when the answer takes time: see
        /// ``State/journalID``).
        var journalID: Int? = nil
    }

    /// The request body: the body an upload task carries, else `httpBody`, else the body stream
    /// read once. The second value says why there is no body when the platform hides it.
    private static func readBody(of request: URLRequest, task: URLSessionTask?) -> (Data?, String?) {
        if let body = TaskInspection.uploadBody(of: task) { return (body, nil) }
        if let body = request.httpBody { return (body, nil) }
        if let stream = request.httpBodyStream { return (BodyReader.drain(stream), nil) }
        #if canImport(FoundationNetworking)
        if task is URLSessionUploadTask {
            return (
                nil,
                "the body of this upload task could not be read: "
                    + "swift-corelibs-foundation hides upload bodies from a URLProtocol, and reading it "
                    + "from the task failed (for example because its file does not exist)"
            )
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
