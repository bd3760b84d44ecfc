import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A thread-safe set of stubs, the scenarios they share, and the journal of requests they saw.
///
/// Each registry has its own `URLProtocol` class, so sessions made from it
/// (``makeSession(configuration:delegate:delegateQueue:fileID:filePath:line:column:)``) see only its stubs, even
/// when other registries stub the same URLs in parallel tests.
///
/// ```swift
/// let stubs = StubRegistry()
/// stubs.stub(.get("https://api.example.com/users/{id}"), .computed { request in
///     .json(User(id: Int(request.pathParameters["id"]!)!))
/// })
/// let client = APIClient(session: stubs.makeSession())
/// ```
public final class StubRegistry: Sendable {
    /// The clock delays, dribbled bodies and timeouts run on.
    public let clock: any StubClock
    /// The registry's identity, which its `URLProtocol` class encodes.
    let identity: UInt64
    /// The `HTTPURLResponse`s built for this registry's answers, and the events of its last literal
    /// answer, for reuse.
    let responseCache = HTTPResponseCache()
    /// The URL parts and header fields of the request read last, for reuse.
    let requestReads = RequestReadCache()
    /// The requests being served, and whether the registry's test has ended.
    let flights = RequestFlights()
    /// ``clock`` when it is a ``ManualStubClock``, which follows the requests made on it.
    let manualClock: ManualStubClock?
    /// Everything mutable. Its lock is a leaf (see ``Locked`` for the order of the toolkit's locks):
    /// nothing else is locked and nothing outside the registry is called while it is held — no
    /// matcher, observer, computed response or issue handler, which may all call back into the
    /// registry. Code under it only reads and writes `State` (and the entries' use counts); what
    /// the user's code needs is copied out first, and closures, stubs and observers that are
    /// dropped are released after it is let go (their captures' `deinit` may be user code too).
    let state: Locked<State>
    /// The clock and generator response templates read (``templateEnvironment(state:clock:)``).
    let templateEnvironment: TemplateEnvironment

    /// The registry's storage, read and written under the lock by: this file and
    /// `StubRegistry+Templates.swift` (the generator, the templates' date); the selection step
    /// (``StubSelection`` and its ``CandidateWalk``: stubs, scenarios, the journal); the planning
    /// turns (`PlanningTurns.swift`); and the sessions' origins (`StubRegistry+Sessions.swift`).
    struct State {
        /// The stubs, in the order WireMock tries them: priority (1 first), then newest first.
        var index = StubIndex()
        var scenarios: [String: String] = [:]
        var journal = Journal()
        var generator: SeededGenerator
        var followsRedirects = true
        var observers: [@Sendable (URLRequest) -> Void] = []
        var userCodeHost: UserCodeHost?
        var issueHandler: @Sendable (StubDiagnostic) -> Void = StubRegistry.printIssue
        var recorder: (any ExchangeRecorder)?
        /// What the near-miss report says about recording (see ``StubRegistry/setRecording(_:hint:)``).
        var unmatchedHint: (@Sendable () -> String)?
        /// The calendar time templates' `now` reads at the clock instant `clockMark`; `nil`
        /// for the system clock's real time (see ``StubRegistry/setTemplateDate(_:)``).
        var templateTime: (date: Date, clockMark: Duration)?
        /// Where ``StubRegistry/makeSession(configuration:delegate:delegateQueue:fileID:filePath:line:column:)``
        /// made the registry's sessions, each place once; `nil` once the registry has handed out its
        /// protocol class or a configuration, whose sessions it does not see being made.
        var sessionOrigins: [StubSource]? = []
        /// The order in which requests that need the user's code choose their stubs.
        var planningTurns = PlanningTurns()
    }

    /// Creates an empty registry.
    /// - Parameters:
    ///   - clock: The clock delays and timeouts run on; the system clock by default.
    ///   - randomSeed: The seed of random delays; random by default.
    public init(clock: any StubClock = SystemStubClock(), randomSeed: UInt64? = nil) {
        self.clock = clock
        self.manualClock = clock as? ManualStubClock
        var state = State(generator: SeededGenerator(seed: randomSeed ?? UInt64.random(in: .min ... .max)))
        if !(clock is SystemStubClock) { state.templateTime = (Date(), clock.now) }
        self.state = Locked(state)
        self.templateEnvironment = Self.templateEnvironment(state: self.state, clock: clock)
        self.identity = RegistryDirectory.nextIdentity()
        RegistryDirectory.attach(self, as: identity)
    }

    deinit {
        RegistryDirectory.remove(identity, endedTest: flights.closedByTest)
    }

    // MARK: Adding and removing stubs

    /// Adds a stub that answers every match with `response`, and returns its identity.
    /// `expecting` sets how many requests it must answer before the test's stub scope ends.
    @discardableResult
    public func stub(
        _ pattern: RequestPattern,
        _ response: StubResponse,
        priority: Int = 5,
        expecting expectation: UseExpectation? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> Stub.ID {
        add(
            pattern,
            responses: [response],
            priority: priority,
            expecting: expectation,
            source: .code(fileID: fileID, filePath: filePath, line: line, column: column)
        )
    }

    /// Adds a stub whose response is computed from each request it matches.
    @discardableResult
    public func stub(
        _ pattern: RequestPattern,
        priority: Int = 5,
        expecting expectation: UseExpectation? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column,
        respond: @escaping @Sendable (InterceptedRequest) throws -> StubResponse
    ) -> Stub.ID {
        stub(
            pattern,
            .computed(respond),
            priority: priority,
            expecting: expectation,
            fileID: fileID,
            filePath: filePath,
            line: line,
            column: column
        )
    }

    /// Adds a stub whose response is computed from each request it matches by `async` code (see
    /// the `async` `StubResponse.computed(_:)`).
    @discardableResult
    public func stub(
        _ pattern: RequestPattern,
        priority: Int = 5,
        expecting expectation: UseExpectation? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column,
        respond: @escaping @Sendable (InterceptedRequest) async throws -> StubResponse
    ) -> Stub.ID {
        stub(
            pattern,
            .computed(respond),
            priority: priority,
            expecting: expectation,
            fileID: fileID,
            filePath: filePath,
            line: line,
            column: column
        )
    }

    /// Adds a stub that serves `responses` in order, then repeats the last or stops matching.
    @discardableResult
    public func stub(
        _ pattern: RequestPattern,
        responses: [StubResponse],
        afterLast: Stub.SequenceEnd = .repeatLast,
        priority: Int = 5,
        expecting expectation: UseExpectation? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> Stub.ID {
        add(
            pattern,
            responses: responses,
            afterLast: afterLast,
            priority: priority,
            expecting: expectation,
            source: .code(fileID: fileID, filePath: filePath, line: line, column: column)
        )
    }

    /// Adds the stub the `stub(…)` methods (and a scenario's) describe, and returns its identity.
    func add(
        _ pattern: RequestPattern,
        responses: [StubResponse],
        afterLast: Stub.SequenceEnd = .repeatLast,
        priority: Int,
        expecting expectation: UseExpectation?,
        scenario: ScenarioRule? = nil,
        source: StubSource
    ) -> Stub.ID {
        var stub = Stub(pattern, responses: responses, afterLast: afterLast, priority: priority, source: source)
        stub.expectation = expectation
        stub.scenario = scenario
        return add(stub)
    }

    /// Adds a stub and returns its identity. A stub with problems (a regular expression that does
    /// not compile, ...) is added all the same (its broken parts never match) and each problem is
    /// reported through ``onDiagnostic(_:)``.
    @discardableResult
    public func add(_ stub: Stub) -> Stub.ID {
        let handler = state.withLock { state -> @Sendable (StubDiagnostic) -> Void in
            state.index.insert(stub)
            return state.issueHandler
        }
        for problem in stub.problems {
            handler(StubDiagnostic(severity: .warning, source: stub.source, message: problem))
        }
        return stub.id
    }

    /// Adds stubs in order, as many calls to ``add(_:)`` would (a later stub wins a tie with an
    /// earlier one), and returns their identities. Faster than adding them one by one.
    @discardableResult
    public func add(contentsOf stubs: [Stub]) -> [Stub.ID] {
        let handler = state.withLock { state -> @Sendable (StubDiagnostic) -> Void in
            state.index.insert(contentsOf: stubs)
            return state.issueHandler
        }
        for stub in stubs {
            for problem in stub.problems {
                handler(StubDiagnostic(severity: .warning, source: stub.source, message: problem))
            }
        }
        return stubs.map(\.id)
    }

    /// Hands an issue to the issue handler.
    package func report(_ issue: StubDiagnostic) {
        state.withLock { $0.issueHandler }(issue)
    }

    /// Removes a stub; returns whether it was there.
    @discardableResult
    public func remove(_ id: Stub.ID) -> Bool {
        let removed = state.withLock { state -> StubIndex.Entry? in
            let entry = state.index.entry(id: id)
            state.index.remove(id: id)
            return entry
        }
        return removed != nil  // the stub is released here, after the lock
    }

    /// Removes every stub, resets every scenario and clears the journal and the observers.
    public func reset() {
        let dropped = state.withLock { state in
            defer {
                state.index.removeAll()
                state.scenarios.removeAll()
                state.journal.removeAll()
                state.observers.removeAll()
            }
            return (state.index, state.observers)
        }
        _ = dropped  // the stubs and observers are released here, after the lock
    }

    /// The stubs, in the order they are tried: priority first, then newest first.
    public var stubs: [Stub] {
        state.withLock { $0.index.all.map(\.stub) }
    }

    // MARK: Scenarios

    /// A handle on the scenario called `name`, to add stubs to it and to read or move its state.
    public func scenario(_ name: String) -> StubScenario {
        StubScenario(name: name, registry: self)
    }

    /// The current state of a scenario.
    func scenarioState(_ name: String) -> String {
        state.withLock { $0.scenarios[name] ?? StubScenario.started }
    }

    /// Moves a scenario to a state (`nil` for the start).
    func setScenarioState(_ name: String, to newState: String?) {
        state.withLock { $0.scenarios[name] = newState }
    }

    /// Puts every scenario back in `"Started"`.
    public func resetScenarios() {
        state.withLock { $0.scenarios.removeAll() }
    }

    // MARK: Behaviour

    /// Which unmatched requests go to the real network; ``PassThroughPolicy/never`` by default.
    public var passThrough: PassThroughPolicy {
        // Kept in the registry directory, where `canInit` reads it for every request.
        get { RegistryDirectory.passThrough(of: identity) }
        set { RegistryDirectory.setPassThrough(newValue, for: identity) }
    }

    /// Whether redirects answered by stubs are followed (the default, as URLSession does). When
    /// `false`, the caller receives the 3xx response itself.
    public var followsRedirects: Bool {
        get { state.withLock { $0.followsRedirects } }
        set { state.withLock { $0.followsRedirects = newValue } }
    }

    /// Reseeds the generator of random delays, so the delays that follow repeat from run to run.
    /// The same as ``seedRandom(_:)``, whose generator random delays share with templates.
    public func seedRandomDelays(_ seed: UInt64) {
        seedRandom(seed)
    }

    /// Calls `observer` with every request the registry intercepts, before it is answered, with
    /// the body it could recover set as `httpBody`.
    public func observeRequests(_ observer: @escaping @Sendable (URLRequest) -> Void) {
        state.withLock { $0.observers.append(observer) }
    }

    /// Replaces what happens with problems found in stubs (by default they are printed to standard error).
    public func onDiagnostic(_ handler: @escaping @Sendable (StubDiagnostic) -> Void) {
        let previous = state.withLock { state in
            defer { state.issueHandler = handler }
            return state.issueHandler
        }
        _ = previous  // released here, after the lock
    }

    private static let printIssue: @Sendable (StubDiagnostic) -> Void = { issue in
        FileHandle.standardError.write(Data("\(issue)\n".utf8))
    }

    // MARK: Journal

    /// Every intercepted request, oldest first.
    public var journal: [JournalEntry] {
        state.withLock { $0.journal.entries }
    }

    /// The intercepted requests that satisfy `pattern`.
    public func requests(matching pattern: RequestPattern) -> [JournalEntry] {
        journal.filter { pattern.matches($0.request) }
    }

    /// The intercepted requests to a URL fitting `url`, by any method.
    public func requests(to url: URLPattern) -> [JournalEntry] {
        requests(matching: .anyMethod(url))
    }

    /// The intercepted requests with this method to a URL fitting `url`.
    public func requests(to method: InterceptedRequest.Method, _ url: URLPattern) -> [JournalEntry] {
        requests(matching: .method(method, url))
    }

    /// The intercepted requests to a URL fitting the pattern `url` holds (a `String` variable), by any method.
    public func requests(to url: String) -> [JournalEntry] {
        requests(to: URLPattern(url))
    }

    /// The intercepted requests with this method to a URL fitting the pattern `url` holds (a `String` variable).
    public func requests(to method: InterceptedRequest.Method, _ url: String) -> [JournalEntry] {
        requests(to: method, URLPattern(url))
    }

    /// The intercepted requests to `url` (see ``URLPattern/init(_:)-(URL)``), by any method.
    public func requests(to url: URL) -> [JournalEntry] {
        requests(to: URLPattern(url))
    }

    /// The intercepted requests with this method to `url`.
    public func requests(to method: InterceptedRequest.Method, _ url: URL) -> [JournalEntry] {
        requests(to: method, URLPattern(url))
    }

    /// The intercepted requests no stub answered.
    public var unmatchedRequests: [JournalEntry] {
        journal.filter(\.isUnmatched)
    }

    /// The stubs that have not answered any request.
    public var unusedStubs: [Stub] {
        state.withLock { $0.index.all.filter { $0.uses == 0 }.map(\.stub) }
    }

    /// The stubs whose use count does not meet their ``Stub/expectation``, in the order they are tried.
    public var unmetExpectations: [UnmetExpectation] {
        let (unmet, journal) = state.withLock { state in
            let unmet = state.index.all.compactMap { stored -> (Stub, UseExpectation, Int)? in
                guard let expectation = stored.stub.expectation, !expectation.isSatisfied(by: stored.uses) else {
                    return nil
                }
                return (stored.stub, expectation, stored.uses)
            }
            return (unmet, unmet.isEmpty ? [] : state.journal.entries)
        }
        // Ranking the journal evaluates patterns, whose custom matchers are user code: outside the lock.
        return unmet.map { UnmetExpectation(stub: $0.0, expectation: $0.1, uses: $0.2, journal: journal) }
    }

    /// How many requests a stub has answered.
    public func useCount(of id: Stub.ID) -> Int {
        state.withLock { $0.index.entry(id: id)?.uses ?? 0 }
    }

    /// Forgets every journal entry.
    public func clearJournal() {
        state.withLock { $0.journal.removeAll() }
    }

    // MARK: Serving

    /// Choosing the stub for a request (see ``StubSelection``), over this registry's state.
    var selection: StubSelection {
        StubSelection(state: state)
    }

    /// Journals a request that was not served by a stub; returns its journal entry's id.
    @discardableResult
    func record(_ request: InterceptedRequest, _ outcome: JournalEntry.Outcome) -> Int {
        state.withLock { $0.journal.append(request, outcome) }
    }

    /// Remembers the response a journaled request received.
    func attach(_ response: HTTPURLResponse, body: Data, toEntry id: Int, ending: ResponseEnding = .finished) {
        let recorded = RecordedResponse(urlResponse: response, body: body, ending: ending)
        state.withLock { $0.journal.attach(recorded, toEntry: id) }
    }

    /// Records how the response of the journal entry `id` ended, and the body sent before.
    func endResponse(_ id: Int, body: Data, ending: ResponseEnding) {
        state.withLock { $0.journal.endResponse(id, body: body, ending: ending) }
    }

    /// Tells the observers about a request, built only when there are observers.
    func notifyObservers(of request: () -> URLRequest) {
        let observers = state.withLock { $0.observers }
        guard !observers.isEmpty else { return }
        let request = request()
        for observer in observers { observer(request) }
    }

    /// Where the user's code for this registry's requests runs (see ``UserCodeHost``): set by a
    /// test scope while it is open.
    package var userCodeHost: UserCodeHost? {
        get { state.withLock { $0.userCodeHost } }
        set { state.withLock { $0.userCodeHost = newValue } }
    }

    /// Stops using `host`, unless another has replaced it meanwhile.
    package func removeUserCodeHost(_ host: UserCodeHost) {
        state.withLock { state in
            if state.userCodeHost === host { state.userCodeHost = nil }
        }
    }

    /// Runs `job`, which runs the user's code, in the registry's ``userCodeHost``, or in a
    /// detached task when there is none or it is closed.
    func runUserCode(_ job: @escaping @Sendable () async -> Void) {
        if let host = userCodeHost, host.submit(job) { return }
        UserCodeExecutor.run(job, inheritingTaskLocals: false)
    }

    /// Draws a delay from the registry's generator.
    func sample(_ delay: StubDelay) -> Duration {
        state.withLock { delay.sample(using: &$0.generator) }
    }

    /// The recorder that unmatched requests go to, when the registry records.
    var recorder: (any ExchangeRecorder)? {
        state.withLock { $0.recorder }
    }

    /// Sets what happens to unmatched requests when replaying from stub files: the `recorder` they
    /// go to (none: they fail), and the `hint` the near-miss report ends with (how to record them),
    /// worked out for each report, outside the registry's lock.
    package func setRecording(_ recorder: (any ExchangeRecorder)?, hint: (@Sendable () -> String)?) {
        state.withLock { state in
            state.recorder = recorder
            state.unmatchedHint = hint
        }
    }
}
