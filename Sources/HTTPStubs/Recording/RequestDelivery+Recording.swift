import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The recording path of a load: a request no stub answers, in a registry that records, goes to
/// the real server (``LiveRequest``); its exchange goes to the registry's ``ExchangeRecorder`` and
/// its journal, and the real answer is delivered as a stubbed one would be.
extension RequestDelivery {
    /// Sends the request of `progress`, which no stub answers, to the real server, records the
    /// exchange, and delivers the real answer unchanged once it arrives (waking the task as a
    /// delay does). A redirect is recorded as such and then followed by the planner, as a stubbed
    /// one is, so every hop is recorded.
    func record(
        _ progress: ResponsePlanner.Progress,
        planner: ResponsePlanner,
        timeout: TimeInterval?,
        for urlProtocol: URLProtocol
    ) {
        let registry = planner.registry
        let request = progress.request
        let target = UncheckedSendable(value: urlProtocol)  // only used under this loader's lock.
        let loader = shared
        let deliver: @Sendable (ResponsePlanner.Plan) -> Void = { plan in
            loader.value.deliverRecorded(plan, url: request.url, planner: planner, timeout: timeout, for: target.value)
        }
        LiveRequest.send(request, timeout: timeout) { result in
            let outcome: RecordedOutcome
            switch result {
            case let .success((response, body)): outcome = .response(response, body)
            case let .failure(error): outcome = .failure((error as? URLError)?.code ?? .unknown)
            }
            if let recorder = registry.recorder {
                do {
                    let id = registry.record(request, .recorded(file: try recorder.record(request, outcome: outcome)))
                    if case let .response(response, body) = outcome {
                        registry.attach(response, body: body, toEntry: id)
                    }
                } catch {
                    registry.record(request, .passedThrough)
                    // The recorder's own errors say what to do; a Foundation file error is put in words.
                    let problem =
                        FileFailure.posixCode(of: error) == nil
                        ? "\(error)" : FileFailure.writeProblem(error, alternative: "record into another folder")
                    registry.report(
                        StubDiagnostic(
                            severity: .error,
                            source: .file(recorder.root.path),
                            message:
                                "the answer to \(request) could not be recorded into \(recorder.root.path): \(problem)"
                        )
                    )
                }
            }
            switch result {
            case let .success((response, body)):
                var progress = progress
                if let plan = planner.plan(afterLive: response, body: body, from: &progress) {
                    deliver(plan)
                } else {
                    // A redirect: following it may run the user's code (the delegate, matchers).
                    registry.runUserCode { [progress] in deliver(await planner.plan(from: progress)) }
                }
            case let .failure(error):
                loader.value.deliverRecorded([.fail(error)], url: request.url, for: target.value)
            }
        }
    }

    /// Delivers what the plan after a recorded answer brings: records the next hop when no stub
    /// answers it either.
    private func deliverRecorded(
        _ plan: ResponsePlanner.Plan,
        url: URL,
        planner: ResponsePlanner,
        timeout: TimeInterval?,
        for urlProtocol: URLProtocol
    ) {
        switch plan {
        case let .record(next):
            record(next, planner: planner, timeout: timeout, for: urlProtocol)
        case let .events(events, _, _):
            deliverRecorded(events.map(\.action), url: url, for: urlProtocol)
        }
    }

    /// Delivers what recording brought back, waking the task as a delay does.
    private func deliverRecorded(_ actions: [DeliveryTimeline.Action], url: URL, for urlProtocol: URLProtocol) {
        withState { state in
            guard state.abandoned == nil else { return }  // its test ended: it already failed
            let now = clock.now - state.start
            state.timeline = DeliveryTimeline(
                events: actions.map { .init(time: now, action: $0) },
                timeout: nil,
                url: url
            )
            guard !state.stopped else { return }
            state.timer?.cancel()
            state.wake = clock.now
            state.timer = scheduleWake(at: clock.now, urlProtocol)
        }
    }
}
