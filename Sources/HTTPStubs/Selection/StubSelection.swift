import Foundation

/// Choosing the stub that answers a request: the step between matching and building the response.
///
/// The candidates come from the registry's ``StubIndex`` (priority first, then newest first); a
/// stub that is used up (`maxUses`, a finished sequence) or whose scenario is in another state is
/// skipped (see ``StubBlocker``). Choosing consumes one of the stub's uses, advances its scenario
/// and journals the request; when no stub answers, the near-miss report is built and journaled.
/// The state lives in the registry's storage, under its lock; the logic lives here.
struct StubSelection {
    /// The registry's state.
    let state: Locked<StubRegistry.State>

    /// Chooses the stub that answers `request`, consumes one of its uses, advances its scenario and
    /// records the request in the journal; journals the near-miss report when none does.
    ///
    /// The matchers (which may be the user's closures, calling back into the registry) run outside
    /// the lock: the candidates are taken under it with whether each could answer then, tested
    /// outside it in order, and the first that matches is committed under it again if it is still
    /// in the index and still able to answer. If it is not (another request used it up, a scenario
    /// moved, it was removed), the selection starts over: that happens only as often as such
    /// changes do. A stub added or a scenario moved between the two is a change that comes after
    /// this request.
    func choose(_ request: InterceptedRequest) -> StubChoice {
        // Declines only when told to decline the user's code.
        choose(request, declinesUserCode: false)!
    }

    /// ``choose(_:)``, or `nil` when `declinesUserCode` and choosing would run a closure of the
    /// user's (a custom matcher or a computed response, or the near-miss report testing a stub
    /// that has one): nothing was consumed or journaled then.
    func choose(_ request: InterceptedRequest, declinesUserCode: Bool) -> StubChoice? {
        while true {
            let chosen: StubIndex.Entry
            switch WorkBudget.scope({ search(request, declinesUserCode: declinesUserCode) }) {
            case let .found(entry): chosen = entry
            case .none: return unmatched(request, declinesUserCode: declinesUserCode)
            case .declined: return nil
            case let .gaveUp(entry, exhaustion): return gaveUp(request, at: entry, exhaustion)
            }
            guard let committed = commit(chosen, for: request) else { continue }  // it changed meanwhile: choose again
            // Outside the lock too: capturing parameters may run matchers (those of `anyOf`).
            var answered = request
            let parameters = chosen.pathParameters(of: request)
            // Else `answered` keeps sharing the request's storage.
            if !parameters.isEmpty || !request.pathParameters.isEmpty {
                answered.pathParameters = parameters
            }
            return .answered(
                ChosenStub(
                    entry: chosen,
                    responseIndex: committed.responseIndex,
                    request: answered,
                    journalID: committed.journalID
                )
            )
        }
    }

    /// What testing the candidates for a request found.
    private enum Search {
        /// The first candidate that matches.
        case found(StubIndex.Entry)
        /// No candidate matches.
        case none
        /// A candidate runs the user's code, which the caller declines.
        case declined
        /// Testing this candidate spent the request's work budget.
        case gaveUp(StubIndex.Entry, WorkBudget.Exhaustion)
    }

    /// Tests the candidates for `request` in order, outside the lock, charging the work budget of
    /// the scope the caller opened (see ``WorkBudget``).
    private func search(_ request: InterceptedRequest, declinesUserCode: Bool) -> Search {
        var walk = candidates(for: request)
        while let candidate = walk.next(in: state) {
            if declinesUserCode && candidate.runsUserCode { return .declined }
            let matches = candidate.matches(request)
            if let exhaustion = WorkBudget.exhaustionInScope { return .gaveUp(candidate, exhaustion) }
            if matches { return .found(candidate) }
        }
        return .none
    }

    /// The choice for a request no stub answers: the near-miss report, journaled (unless the
    /// request is recorded), or `nil` when `declinesUserCode` and the report would run the user's code.
    private func unmatched(_ request: InterceptedRequest, declinesUserCode: Bool) -> StubChoice? {
        guard let report = unmatchedReport(for: request, declinesUserCode: declinesUserCode) else { return nil }
        state.withLock { state in
            // A request the registry records is journaled with the file it is recorded into.
            if state.recorder == nil { state.journal.append(request, .unmatched(report)) }
        }
        return .unmatched(report)
    }

    /// The choice for a request whose matching spent its work budget at `entry`'s stub: the request
    /// fails, and is journaled as refused, saying which stub and which of its tests to simplify.
    private func gaveUp(
        _ request: InterceptedRequest,
        at entry: StubIndex.Entry,
        _ exhaustion: WorkBudget.Exhaustion
    ) -> StubChoice {
        let error = StubError.matchingGaveUp(
            stub: entry.summary.source,
            request: "\(request.method) \(LogMasking.url(request.url.absoluteString))",
            exhaustion: exhaustion
        )
        _ = state.withLock { $0.journal.append(request, .refused(reason: error.message)) }
        return .gaveUp(error, stub: entry.summary)
    }

    /// Consumes a use of `chosen`, advances its scenario and journals the request, if it can still
    /// answer; `nil` when it cannot (it was removed, used up, or its scenario moved).
    private func commit(
        _ chosen: StubIndex.Entry,
        for request: InterceptedRequest
    ) -> (responseIndex: Int, journalID: Int)? {
        state.withLock { state in
            guard chosen.isIndexed, StubBlocker.isEligible(chosen, scenarios: state.scenarios) else { return nil }
            let responseIndex = min(chosen.uses, chosen.stub.responses.count - 1)
            chosen.uses += 1
            if let rule = chosen.stub.scenario, let newState = rule.newState {
                state.scenarios[rule.name] = newState
            }
            let id = state.journal.append(request, .answered(by: chosen.summary))
            return (responseIndex, id)
        }
    }

    /// Whether some stub would answer `request` now (nothing is consumed or journaled). A request
    /// whose body is still a stream counts as answered by stubs that test the body. The matchers
    /// run outside the lock, as in ``choose(_:)``.
    func wouldAnswer(_ request: InterceptedRequest, bodyReadable: Bool) -> Bool {
        WorkBudget.scope {
            var walk = candidates(for: request)
            while let candidate = walk.next(in: state) {
                if !bodyReadable && candidate.readsBody { return true }
                // A stub whose test spent the budget answers: the request stays with the stubs,
                // which fail it, rather than going to the network.
                if candidate.matches(request) || WorkBudget.exhaustionInScope != nil { return true }
            }
            return false
        }
    }

    /// The candidates for `request`, the first 64 judged (see ``CandidateWalk``).
    private func candidates(for request: InterceptedRequest) -> CandidateWalk {
        state.withLock { CandidateWalk($0.index.candidates(forPath: request.path), scenarios: $0.scenarios) }
    }

    /// The near-miss report for a request no stub answers: every stub with what keeps it from
    /// answering now, and, when the registry replays a stub root, how to record the request.
    /// `nil` when `declinesUserCode` and some stub's test runs a closure of the user's.
    private func unmatchedReport(for request: InterceptedRequest, declinesUserCode: Bool) -> UnmatchedRequestReport? {
        typealias Snapshot = (
            candidates: [(stub: Stub, notes: [String])], hint: (@Sendable () -> String)?, sessions: [StubSource]
        )
        let snapshot = state.withLock { state -> Snapshot? in
            if declinesUserCode && state.index.all.contains(where: \.runsUserCode) { return nil }
            let candidates = state.index.all.map { entry in
                (stub: entry.stub, notes: StubBlocker.notes(for: entry, scenarios: state.scenarios))
            }
            return (candidates, state.unmatchedHint, state.sessionOrigins ?? [])
        }
        guard let (candidates, unmatchedHint, sessions) = snapshot else { return nil }
        let hint = unmatchedHint?()
        // A budget of its own: the report tests every stub again. What spends it reads as a miss.
        return WorkBudget.scope {
            UnmatchedRequestReport(request: request, candidates: candidates, sessionOrigins: sessions, hint: hint)
        }
    }
}
