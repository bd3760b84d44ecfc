import Foundation
import Testing

@testable import HTTPStubs
@testable import HTTPStubsFiles
@testable import HTTPStubsLanguages
@testable import HTTPStubsTemplates

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `DeliveryTimeline` on its own, without a URLSession: which actions come due by a given time,
/// when the next one is due, the idle timeout it enforces, and that nothing follows the end.
@Suite("DeliveryTimeline")
struct DeliveryTimelineTests {
    // MARK: Responses, data, the end

    @Test("a whole answer due at the start comes at once, in order, and ends the load")
    func wholeAnswerAtTheStart() {
        var timeline = DeliveryTimeline(
            events: answer(at: .zero, body: "hello"),
            timeout: .seconds(60),
            url: url
        )
        #expect(!timeline.isFinished)
        let step = timeline.advance(to: .zero)
        #expect(step.due.actions.map(describe) == ["receive 200", "load hello", "finish"])
        #expect(step.nextWake == nil)
        #expect(timeline.isFinished)
    }

    @Test("nothing comes before its time; the next wake-up is when the first event is due")
    func delayedAnswer() {
        var timeline = DeliveryTimeline(events: answer(at: .seconds(2), body: "late"), timeout: nil, url: url)
        let early = timeline.advance(to: .zero)
        #expect(early.due.actions.isEmpty)
        #expect(early.nextWake == .seconds(2))
        let almost = timeline.advance(to: .milliseconds(1999))
        #expect(almost.due.actions.isEmpty)
        #expect(almost.nextWake == .seconds(2))
        #expect(!timeline.isFinished)

        let due = timeline.advance(to: .seconds(2))
        #expect(due.due.actions.map(describe) == ["receive 200", "load late", "finish"])
        #expect(due.nextWake == nil)
        #expect(timeline.isFinished)
    }

    @Test("a wake-up later than due delivers everything due by then, in order")
    func lateWakeUpDeliversEverythingDue() {
        let events = dribbled(["a", "b", "c", "d"], every: .seconds(1))
        var timeline = DeliveryTimeline(events: events, timeout: nil, url: url)
        let step = timeline.advance(to: .seconds(10))
        #expect(step.due.actions.map(describe) == ["receive 200", "load a", "load b", "load c", "load d", "finish"])
        #expect(step.nextWake == nil)
        #expect(timeline.isFinished)
    }

    @Test("dribbled chunks come one per wake-up, each at its own time, and none twice")
    func dribbledChunks() {
        var timeline = DeliveryTimeline(events: dribbled(["a", "b", "c"], every: .seconds(1)), timeout: nil, url: url)
        var delivered: [String] = []
        var wakes: [Duration?] = []
        var now = Duration.zero
        for _ in 0..<10 {
            let step = timeline.advance(to: now)
            delivered += step.due.actions.map(describe)
            wakes.append(step.nextWake)
            guard let next = step.nextWake else { break }
            now = next
        }
        #expect(delivered == ["receive 200", "load a", "load b", "load c", "finish"])
        #expect(wakes == [.seconds(1), .seconds(2), .seconds(3), nil])
    }

    @Test("advancing again to the same time delivers nothing more")
    func advancingTwiceDeliversOnce() {
        var timeline = DeliveryTimeline(events: dribbled(["a", "b"], every: .seconds(1)), timeout: nil, url: url)
        #expect(timeline.advance(to: .seconds(1)).due.actions.map(describe) == ["receive 200", "load a"])
        let again = timeline.advance(to: .seconds(1))
        #expect(again.due.actions.isEmpty)
        #expect(again.nextWake == .seconds(2))
    }

    @Test("finish ends the load: events after it never come, and the timeline asks for no wake-up")
    func nothingAfterFinish() {
        var timeline = DeliveryTimeline(
            events: [
                .init(time: .zero, action: .receive(response(200))),
                .init(time: .zero, action: .finish),
                .init(time: .seconds(1), action: .load(Data("after".utf8))),
            ],
            timeout: nil,
            url: url
        )
        let step = timeline.advance(to: .seconds(5))
        #expect(step.due.actions.map(describe) == ["receive 200", "finish"])
        #expect(step.nextWake == nil)
        #expect(timeline.isFinished)
        let later = timeline.advance(to: .seconds(10))
        #expect(later.due.actions.isEmpty)
        #expect(later.nextWake == nil)
    }

    @Test("a failure ends the load: what the stub planned after it never comes")
    func nothingAfterFailure() {
        var timeline = DeliveryTimeline(
            events: [
                .init(time: .zero, action: .receive(response(200))),
                .init(time: .seconds(1), action: .fail(URLError(.networkConnectionLost))),
                .init(time: .seconds(2), action: .load(Data("after".utf8))),
                .init(time: .seconds(2), action: .finish),
            ],
            timeout: nil,
            url: url
        )
        #expect(timeline.advance(to: .zero).due.actions.map(describe) == ["receive 200"])
        let step = timeline.advance(to: .seconds(3))
        #expect(step.due.actions.map(describe) == ["fail \(URLError.Code.networkConnectionLost.rawValue)"])
        #expect(step.nextWake == nil)
        #expect(timeline.isFinished)
        #expect(timeline.advance(to: .seconds(4)).due.actions.isEmpty)
    }

    @Test("a stopped load's timeline, one failure at the start, delivers it whenever it is advanced")
    func stopFailsAtOnce() {
        // What RequestDelivery installs when a load is stopped or abandoned.
        var timeline = DeliveryTimeline(
            events: [.init(time: .zero, action: .fail(URLError(.cancelled)))],
            timeout: nil,
            url: nil
        )
        let step = timeline.advance(to: .seconds(42))
        #expect(step.due.actions.map(describe) == ["fail \(URLError.Code.cancelled.rawValue)"])
        #expect(step.nextWake == nil)
        #expect(timeline.isFinished)
    }

    @Test("only finish and fail end a load")
    func endsTheLoad() {
        #expect(DeliveryTimeline.Action.finish.endsTheLoad)
        #expect(DeliveryTimeline.Action.fail(URLError(.cancelled)).endsTheLoad)
        #expect(!DeliveryTimeline.Action.receive(response(200)).endsTheLoad)
        #expect(!DeliveryTimeline.Action.load(Data()).endsTheLoad)
        #expect(!DeliveryTimeline.Action.progress.endsTheLoad)
    }

    @Test("the end, and only the end, can be taken out of what is due (held for resumes on their way)")
    func removingTheEnd() {
        var timeline = DeliveryTimeline(events: answer(at: .zero, body: "x"), timeout: nil, url: url)
        var due = timeline.advance(to: .zero).due
        #expect(due.removeEnd().map(describe) == "finish")
        #expect(due.actions.map(describe) == ["receive 200", "load x"])
        #expect(due.removeEnd() == nil, "a load is not an end")

        var dribbling = DeliveryTimeline(events: dribbled(["a", "b"], every: .seconds(1)), timeout: nil, url: url)
        var first = dribbling.advance(to: .zero).due
        #expect(first.removeEnd() == nil)
        #expect(first.actions.map(describe) == ["receive 200"])

        var silent = DeliveryTimeline(events: answer(at: .seconds(9), body: "x"), timeout: .seconds(1), url: url)
        var timedOut = silent.advance(to: .seconds(1)).due
        #expect(timedOut.removeEnd().map(describe) == "fail \(URLError.Code.timedOut.rawValue)")
        #expect(timedOut.actions.isEmpty)
    }

    // MARK: Signs of life

    @Test("progress is never delivered, but its time moves the wake-up on")
    func progressIsNotDelivered() {
        var timeline = DeliveryTimeline(
            events: [
                .init(time: .zero, action: .receive(response(200))),
                .init(time: .seconds(1), action: .progress),
                .init(time: .seconds(2), action: .load(Data("body".utf8))),
                .init(time: .seconds(2), action: .finish),
            ],
            timeout: nil,
            url: url
        )
        #expect(timeline.advance(to: .zero).nextWake == .seconds(1))
        let atProgress = timeline.advance(to: .seconds(1))
        #expect(atProgress.due.actions.isEmpty)
        #expect(atProgress.nextWake == .seconds(2))
        #expect(timeline.advance(to: .seconds(2)).due.actions.map(describe) == ["load body", "finish"])
    }

    // MARK: The request timeout

    @Test("a gap longer than the timeout fails the load with timedOut when the timeout ends, not when the event is due")
    func idleGapTimesOut() throws {
        var timeline = DeliveryTimeline(
            events: [
                .init(time: .zero, action: .receive(response(200))),
                .init(time: .seconds(10), action: .load(Data("late".utf8))),
                .init(time: .seconds(10), action: .finish),
            ],
            timeout: .seconds(5),
            url: url
        )
        let first = timeline.advance(to: .zero)
        #expect(first.due.actions.map(describe) == ["receive 200"])
        #expect(first.nextWake == .seconds(5), "the wake-up is the deadline, not the late event")
        let before = timeline.advance(to: .milliseconds(4999))
        #expect(before.due.actions.isEmpty)
        #expect(before.nextWake == .seconds(5))
        #expect(!timeline.isFinished)

        let step = timeline.advance(to: .seconds(5))
        #expect(step.nextWake == nil)
        #expect(timeline.isFinished)
        #expect(step.due.actions.count == 1)
        let urlError = try failure(step.due.actions.first)
        #expect(urlError.code == .timedOut)
        #expect(urlError.failingURL == url)
        #expect(urlError.localizedDescription.contains("5.0 s"), "\(urlError.localizedDescription)")
        #expect(timeline.advance(to: .seconds(20)).due.actions.isEmpty, "the late data never comes")
    }

    @Test("the timeout counts from the start when the first event is late: no response at all")
    func lateFirstEventTimesOut() {
        var timeline = DeliveryTimeline(events: answer(at: .seconds(6), body: "x"), timeout: .seconds(5), url: url)
        let step = timeline.advance(to: .seconds(6))
        #expect(step.due.actions.map(describe) == ["fail \(URLError.Code.timedOut.rawValue)"])
        #expect(timeline.isFinished)
    }

    @Test("the timeout counts from the last event: a slow dribble whose every gap is shorter never times out")
    func timeoutCountsFromTheLastEvent() {
        let events = dribbled(["a", "b", "c"], every: .seconds(4))
        var timeline = DeliveryTimeline(events: events, timeout: .seconds(5), url: url)
        let step = timeline.advance(to: .seconds(12))
        #expect(step.due.actions.map(describe) == ["receive 200", "load a", "load b", "load c", "finish"])
    }

    @Test("a gap exactly as long as the timeout does not time out")
    func gapEqualToTheTimeout() {
        var timeline = DeliveryTimeline(events: answer(at: .seconds(5), body: "x"), timeout: .seconds(5), url: url)
        #expect(timeline.advance(to: .seconds(5)).due.actions.map(describe) == ["receive 200", "load x", "finish"])
    }

    @Test("progress is a sign of life: it starts the timeout over")
    func progressRestartsTheTimeout() {
        func events(progress: Bool) -> [DeliveryTimeline.Event] {
            [.init(time: .zero, action: .receive(response(200)))]
                + (progress ? [.init(time: .seconds(4), action: .progress)] : [])
                + [
                    .init(time: .seconds(8), action: .load(Data("body".utf8))),
                    .init(time: .seconds(8), action: .finish),
                ]
        }
        var kept = DeliveryTimeline(events: events(progress: true), timeout: .seconds(5), url: url)
        #expect(kept.advance(to: .seconds(8)).due.actions.map(describe) == ["receive 200", "load body", "finish"])
        var silent = DeliveryTimeline(events: events(progress: false), timeout: .seconds(5), url: url)
        let timedOut = "fail \(URLError.Code.timedOut.rawValue)"
        #expect(silent.advance(to: .seconds(8)).due.actions.map(describe) == ["receive 200", timedOut])
    }

    @Test("without a timeout any gap is waited out")
    func noTimeout() {
        var timeline = DeliveryTimeline(events: answer(at: .seconds(3600), body: "x"), timeout: nil, url: url)
        #expect(timeline.advance(to: .seconds(3599)).nextWake == .seconds(3600))
        #expect(timeline.advance(to: .seconds(3600)).due.actions.map(describe) == ["receive 200", "load x", "finish"])
    }

    @Test("a timed-out load without a URL has no failing URL")
    func timeoutWithoutURL() throws {
        var timeline = DeliveryTimeline(events: answer(at: .seconds(2), body: "x"), timeout: .seconds(1), url: nil)
        let urlError = try failure(timeline.advance(to: .seconds(1)).due.actions.first)
        #expect(urlError.code == .timedOut)
        #expect(urlError.failingURL == nil)
    }

    // MARK: Helpers

    private let url = URL(string: "https://api.example.com/users/1")!

    private func response(_ status: Int) -> URLResponse {
        HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: [:])!
    }

    /// A 200 with `body`, all due at `time`.
    private func answer(at time: Duration, body: String) -> [DeliveryTimeline.Event] {
        [
            .init(time: time, action: .receive(response(200))),
            .init(time: time, action: .load(Data(body.utf8))),
            .init(time: time, action: .finish),
        ]
    }

    /// A 200 at the start, then one chunk every `interval`, the last one with the finish.
    private func dribbled(_ chunks: [String], every interval: Duration) -> [DeliveryTimeline.Event] {
        var events: [DeliveryTimeline.Event] = [.init(time: .zero, action: .receive(response(200)))]
        for (index, chunk) in chunks.enumerated() {
            events.append(.init(time: interval * (index + 1), action: .load(Data(chunk.utf8))))
        }
        events.append(.init(time: interval * chunks.count, action: .finish))
        return events
    }

    /// The `URLError` that `action` fails the load with; fails the test when it is anything else.
    private func failure(
        _ action: DeliveryTimeline.Action?,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> URLError {
        let action = try #require(action, "no action was due", sourceLocation: sourceLocation)
        var failed: (any Error)?
        if case let .fail(error) = action { failed = error }
        let error = try #require(failed, "expected a failure, got \(describe(action))", sourceLocation: sourceLocation)
        return try #require(error as? URLError, "\(error) is not a URLError", sourceLocation: sourceLocation)
    }

    /// `receive <status>`, `load <text>`, `finish`, `fail <URLError code>`, `progress`, `stream`.
    private func describe(_ action: DeliveryTimeline.Action) -> String {
        switch action {
        case let .receive(response): "receive \((response as? HTTPURLResponse)?.statusCode ?? -1)"
        case let .load(data): "load \(String(decoding: data, as: UTF8.self))"
        case .finish: "finish"
        case let .fail(error): "fail \((error as? URLError)?.code.rawValue ?? -1)"
        case .progress: "progress"
        case .stream: "stream"
        }
    }
}

extension DeliveryTimeline.Due {
    /// The actions due, in the order they are told to the client.
    fileprivate var actions: [DeliveryTimeline.Action] {
        var actions: [DeliveryTimeline.Action] = []
        forEachAction { actions.append($0) }
        return actions
    }
}
