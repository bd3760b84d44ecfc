/// Something that keeps a stub from answering, whatever the request: its uses or its responses
/// are used up, it has no response, or its scenario is in another state.
enum StubBlocker: CustomStringConvertible {
    case usedUp(uses: Int, limit: Int)
    case sequenceFinished(responses: Int)
    case noResponse
    case scenario(name: String, current: String, required: String)

    /// As the near-miss report says it.
    var description: String {
        switch self {
        case let .usedUp(uses, limit):
            "used up: answered \(uses) of \(limit) allowed times"
        case let .sequenceFinished(responses):
            "sequence finished: served all \(responses) responses"
        case .noResponse:
            "the stub has no response"
        case let .scenario(name, current, required):
            "scenario \(quoted(name)) is in state \(quoted(current)), the stub needs \(quoted(required))"
        }
    }

    /// Whether a stub can answer right now (no string is built: this runs for every candidate).
    /// Call under the registry's lock, which guards the entry's use count and `scenarios`.
    static func isEligible(_ stored: StubIndex.Entry, scenarios: [String: String]) -> Bool {
        blockers(of: stored, scenarios: scenarios).isEmpty
    }

    /// Why a stub cannot answer right now, as the near-miss report says it; under the lock.
    static func notes(for stored: StubIndex.Entry, scenarios: [String: String]) -> [String] {
        blockers(of: stored, scenarios: scenarios).map(\.description)
    }

    /// What keeps a stub from answering now. Empty (and not allocated) for a stub that can answer.
    static func blockers(of stored: StubIndex.Entry, scenarios: [String: String]) -> [StubBlocker] {
        let stub = stored.stub
        var blockers: [StubBlocker] = []
        if let limit = stub.maxUses, stored.uses >= limit {
            blockers.append(.usedUp(uses: stored.uses, limit: limit))
        }
        if stub.afterLastResponse == .stopMatching, stored.uses >= stub.responses.count {
            blockers.append(.sequenceFinished(responses: stub.responses.count))
        }
        if stub.responses.isEmpty {
            blockers.append(.noResponse)
        }
        if let rule = stub.scenario, let required = rule.requiredState {
            let current = scenarios[rule.name] ?? StubScenario.started
            if current != required {
                blockers.append(.scenario(name: rule.name, current: current, required: required))
            }
        }
        return blockers
    }
}
