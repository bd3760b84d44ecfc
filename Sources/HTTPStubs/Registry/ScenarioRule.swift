/// A stub's part in a scenario: a named state machine, with WireMock's semantics.
///
/// Every scenario starts in ``StubScenario/started`` (`"Started"`). A stub with a ``requiredState`` answers
/// only while its scenario is in that state; after answering, a stub with a ``newState`` moves the
/// scenario to it.
public struct ScenarioRule: Sendable, Hashable, CustomStringConvertible {
    /// The scenario's name.
    public let name: String
    /// The state the scenario must be in for the stub to answer; `nil` for any state.
    public let requiredState: String?
    /// The state the scenario moves to after the stub answers; `nil` to stay.
    public let newState: String?

    /// A stub's part in scenario `name`: it answers only in `requiredState` (any state when `nil`) and then moves the
    /// scenario to `newState` (if given).
    public init(_ name: String, requiredState: String? = nil, newState: String? = nil) {
        self.name = name
        self.requiredState = requiredState
        self.newState = newState
    }

    /// `scenario "checkout" in "Started" → "paid"`.
    public var description: String {
        var text = "scenario \(quoted(name))"
        if let requiredState { text += " in \(quoted(requiredState))" }
        if let newState { text += " → \(quoted(newState))" }
        return text
    }
}
