/// A named state machine that stubs take part in, for conversations where the same request gets a
/// different answer as the conversation moves on (signed out, then signed in), with WireMock's
/// scenario semantics.
///
/// Every scenario starts in ``started`` (`"Started"`). A stub added with `whenIn:` answers only
/// while its scenario is in that state (without it, in any state); after answering, a stub added
/// with `moveTo:` moves the scenario to that state.
///
/// ```swift
/// let login = stubs.scenario("login")
/// login.stub(.get("/me"), .status(401), whenIn: StubScenario.started)
/// login.stub(.post("/login"), .ok, moveTo: "signed in")
/// login.stub(.get("/me"), .json(["name": "Ada"]), whenIn: "signed in")
/// ```
///
/// A scenario is a handle: it holds no state of its own, so any number of handles with the same
/// name on one registry see and move the same state. ``Stub/inScenario(_:whenIn:moveTo:)`` does
/// the same for a ``Stub`` value given to ``StubRegistry/add(_:)``.
public struct StubScenario: Sendable {
    /// The state every scenario starts in: `"Started"`.
    public static let started = "Started"

    /// The scenario's name, unique in its registry.
    public let name: String
    private let registry: StubRegistry

    init(name: String, registry: StubRegistry) {
        self.name = name
        self.registry = registry
    }

    /// The scenario's current state: ``started`` until a stub or ``move(to:)`` changes it.
    public var state: String {
        registry.scenarioState(name)
    }

    /// Puts the scenario in `state`, as a stub with `moveTo:` would after answering.
    public func move(to state: String) {
        registry.setScenarioState(name, to: state)
    }

    /// Puts the scenario back in ``started``.
    public func reset() {
        registry.setScenarioState(name, to: nil)
    }

    /// Adds a stub that takes part in this scenario: it answers only while the scenario is in
    /// `state` (in any state when `nil`) and then moves it to `newState` (if given). The other
    /// parameters are those of ``StubRegistry/stub(_:_:priority:expecting:fileID:filePath:line:column:)``.
    @discardableResult
    public func stub(
        _ pattern: RequestPattern,
        _ response: StubResponse,
        whenIn state: String? = nil,
        moveTo newState: String? = nil,
        priority: Int = 5,
        expecting expectation: UseExpectation? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> Stub.ID {
        registry.add(
            pattern,
            responses: [response],
            priority: priority,
            expecting: expectation,
            scenario: ScenarioRule(name, requiredState: state, newState: newState),
            source: .code(fileID: fileID, filePath: filePath, line: line, column: column)
        )
    }
}
