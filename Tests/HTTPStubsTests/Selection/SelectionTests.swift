import Foundation
import HTTPStubs
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Which stub answers when several match: priority, recency, sequences, limits and scenarios.
@Suite struct SelectionTests {
    private let url = "https://api.example.com/resource"

    // MARK: Priority and recency

    @Test func higherPriorityBeatsInsertionOrder() async {
        let stubs = StubRegistry()
        stubs.stub(.get(.pathPrefix("/")), .text("priority 1"), priority: 1)
        stubs.stub(.get("/resource"), .text("default priority"))
        stubs.add(Stub(.anyMethod("/resource"), .text("priority 9")).priority(9))
        let session = stubs.makeSession()
        #expect(await answer(session, url) == "priority 1")
        #expect(await answerAsync(session, url) == "priority 1")
        // The tried order is priority first.
        #expect(stubs.stubs.map(\.priority) == [1, 5, 9])
    }

    @Test func defaultPriorityIsFiveAndBeatsLowerPriorityAddedLater() async {
        let stubs = StubRegistry()
        let normal = stubs.stub(.get("/resource"), .text("default"))
        stubs.add(Stub(.get("/resource"), .text("six")).priority(6))
        let session = stubs.makeSession()
        #expect(stubs.stubs.first { $0.id == normal }?.priority == 5)
        #expect(await answer(session, url) == "default")
        // Priority 5 written out is the same as the default: the newest of the two wins.
        stubs.stub(.get("/resource"), .text("explicit five"), priority: 5)
        #expect(await answerAsync(session, url) == "explicit five")
        stubs.add(Stub(.get("/resource"), .text("four")).priority(4))
        #expect(await answer(session, url) == "four")
    }

    @Test func onATieTheMostRecentlyAddedStubWins() async {
        let stubs = StubRegistry()
        stubs.stub(.get("/resource"), .text("first"))
        stubs.stub(.get("/resource"), .text("second"))
        let session = stubs.makeSession()
        #expect(await answer(session, url) == "second")
        stubs.stub(.get(.pathPrefix("/res")), .text("third"))
        #expect(await answerAsync(session, url) == "third")
        // Only stubs that match compete: an unrelated newer stub changes nothing.
        stubs.stub(.get("/other"), .text("other"))
        #expect(await answer(session, url) == "third")
    }

    @Test func reAddingAStubMakesItTheNewest() async {
        let stubs = StubRegistry()
        let older = Stub(.get("/resource"), .text("older"))
        stubs.add(older)
        stubs.stub(.get("/resource"), .text("newer"))
        let session = stubs.makeSession()
        #expect(await answer(session, url) == "newer")
        stubs.add(older)
        #expect(await answer(session, url) == "older")
        #expect(stubs.stubs.count == 2)
    }

    // MARK: Sequences

    @Test func sequenceRepeatsTheLastResponse() async {
        let stubs = StubRegistry()
        stubs.stub(.get("/resource"), responses: [.text("one"), .text("two"), .text("three", status: 201)])
        let session = stubs.makeSession()
        #expect(await answer(session, url) == "one")
        #expect(await answerAsync(session, url) == "two")
        let third = await complete(session, url)
        #expect(third.text == "three")
        #expect(third.status == 201)
        #expect(await answer(session, url) == "three")
        #expect(await answerAsync(session, url) == "three")
    }

    @Test func sequenceThatStopsMatchingFallsThroughToAnotherStub() async {
        let stubs = StubRegistry()
        stubs.stub(.get("/resource"), .text("fallback"))
        let sequence = stubs.stub(.get("/resource"), responses: [.text("one"), .text("two")], afterLast: .stopMatching)
        let session = stubs.makeSession()
        #expect(await answer(session, url) == "one")
        #expect(await answerAsync(session, url) == "two")
        #expect(await answer(session, url) == "fallback")
        #expect(await answer(session, url) == "fallback")
        #expect(stubs.useCount(of: sequence) == 2)
    }

    @Test func sequenceThatStopsMatchingWithoutFallbackIsUnmatched() async {
        let stubs = StubRegistry()
        stubs.add(Stub(.get("/resource"), responses: [.status(503), .text("ok")], afterLast: .stopMatching))
        let session = stubs.makeSession()
        #expect(await complete(session, url).status == 503)
        #expect(await answerAsync(session, url) == "ok")
        #expect(await answer(session, url) == unmatched)
    }

    // MARK: Limits

    @Test func timesLimitsUses() async {
        let stubs = StubRegistry()
        stubs.stub(.get("/resource"), .text("fallback"), priority: 9)
        let limited = stubs.add(Stub(.get("/resource"), .text("limited")).times(2))
        let session = stubs.makeSession()
        #expect(await answer(session, url) == "limited")
        #expect(await answerAsync(session, url) == "limited")
        #expect(await answer(session, url) == "fallback")
        #expect(stubs.useCount(of: limited) == 2)
    }

    @Test func timesAndSequencesHoldUnderConcurrentRequests() async {
        let stubs = StubRegistry()
        stubs.stub(.get("/resource"), .text("fallback"), priority: 9)
        stubs.add(Stub(.get("/resource"), .text("limited")).times(5))
        stubs.stub(.get("/numbered"), responses: (1...10).map { .text("\($0)") }, afterLast: .stopMatching)
        let session = stubs.makeSession()
        let answers = await withTaskGroup(of: String.self) { group in
            for index in 0..<20 {
                group.addTask {
                    index.isMultiple(of: 2)
                        ? await answer(session, "https://api.example.com/resource")
                        : await answerAsync(session, "https://api.example.com/resource")
                }
            }
            return await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(answers.filter { $0 == "limited" }.count == 5)
        #expect(answers.filter { $0 == "fallback" }.count == 15)
        let numbered = await withTaskGroup(of: String.self) { group in
            for _ in 0..<12 {
                group.addTask { await answer(session, "https://api.example.com/numbered") }
            }
            return await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(
            numbered.sorted()
                == (["1", "10", "2", "3", "4", "5", "6", "7", "8", "9"] + [unmatched, unmatched]).sorted()
        )
    }

    @Test func timesZeroNeverMatchesAndTimesOneMatchesOnce() async {
        let stubs = StubRegistry()
        stubs.add(Stub(.get("/never"), .text("never")).times(0))
        stubs.add(Stub(.get("/once"), .text("once")).times(1))
        let session = stubs.makeSession()
        #expect(await answer(session, "https://api.example.com/never") == unmatched)
        #expect(await answer(session, "https://api.example.com/once") == "once")
        #expect(await answerAsync(session, "https://api.example.com/once") == unmatched)
    }

    @Test func timesAndSequenceTogether() async {
        let stubs = StubRegistry()
        stubs.add(Stub(.get("/resource"), responses: [.text("a"), .text("b")]).times(3))
        let session = stubs.makeSession()
        #expect(await answer(session, url) == "a")
        #expect(await answer(session, url) == "b")
        #expect(await answer(session, url) == "b")
        #expect(await answer(session, url) == unmatched)
    }

    // MARK: Scenarios

    @Test func scenarioFollowsWireMockSemantics() async {
        let stubs = StubRegistry()
        let cart = "https://shop.example.com/cart"
        stubs.add(
            Stub(.get("https://shop.example.com/cart"), .text("empty cart")).inScenario("cart", whenIn: "Started")
        )
        stubs.add(
            Stub(.post("https://shop.example.com/cart"), .status(201)).inScenario(
                "cart",
                whenIn: "Started",
                moveTo: "has item"
            )
        )
        stubs.add(Stub(.get("https://shop.example.com/cart"), .text("one item")).inScenario("cart", whenIn: "has item"))
        stubs.add(
            Stub(.delete("https://shop.example.com/cart"), .status(204)).inScenario(
                "cart",
                whenIn: "has item",
                moveTo: "Started"
            )
        )
        let session = stubs.makeSession()

        #expect(stubs.scenario("cart").state == "Started")
        #expect(await answer(session, cart) == "empty cart")
        // Answering without moveTo leaves the state alone.
        #expect(stubs.scenario("cart").state == "Started")
        // Not eligible in "Started".
        #expect(await answer(session, request("DELETE", cart)) == unmatched)

        #expect(await complete(session, request("POST", cart)).status == 201)
        #expect(stubs.scenario("cart").state == "has item")
        #expect(await answerAsync(session, cart) == "one item")
        #expect(await answer(session, cart) == "one item")
        // The POST needs "Started", so it is no longer eligible.
        #expect(await answer(session, request("POST", cart)) == unmatched)

        #expect(await complete(session, request("DELETE", cart)).status == 204)
        #expect(stubs.scenario("cart").state == "Started")
        #expect(await answer(session, cart) == "empty cart")
    }

    @Test func resetAndSetScenarios() async {
        let stubs = StubRegistry()
        let light = "https://iot.example.com/light"
        stubs.add(Stub(.get("/light"), .text("off")).inScenario("light", whenIn: "Started", moveTo: "on"))
        stubs.add(Stub(.get("/light"), .text("on")).inScenario("light", whenIn: "on", moveTo: "Started"))
        stubs.add(Stub(.get("/light"), .text("broken")).inScenario("light", whenIn: "broken"))
        let session = stubs.makeSession()
        #expect(await answer(session, light) == "off")
        #expect(stubs.scenario("light").state == "on")
        #expect(await answer(session, light) == "on")
        #expect(stubs.scenario("light").state == "Started")
        #expect(await answer(session, light) == "off")

        stubs.resetScenarios()
        #expect(stubs.scenario("light").state == "Started")
        #expect(await answerAsync(session, light) == "off")

        stubs.scenario("light").move(to: "broken")
        #expect(stubs.scenario("light").state == "broken")
        #expect(await answer(session, light) == "broken")
        #expect(await answer(session, light) == "broken")

        stubs.scenario("light").move(to: "nowhere")
        #expect(await answer(session, light) == unmatched)
        #expect(stubs.scenario("never used").state == "Started")
    }

    @Test func scenarioStubWithoutRequiredStateAnswersInAnyStateAndMovesIt() async {
        let stubs = StubRegistry()
        stubs.add(Stub(.post("/login"), .status(200)).inScenario("auth", moveTo: "logged in"))
        stubs.add(Stub(.get("/me"), .text("ada")).inScenario("auth", whenIn: "logged in"))
        stubs.add(Stub(.get("/me"), .status(401)).inScenario("auth", whenIn: "Started"))
        let session = stubs.makeSession()
        #expect(await complete(session, "https://api.example.com/me").status == 401)
        stubs.scenario("auth").move(to: "elsewhere")
        #expect(await complete(session, request("POST", "https://api.example.com/login")).status == 200)
        #expect(stubs.scenario("auth").state == "logged in")
        #expect(await answerAsync(session, "https://api.example.com/me") == "ada")
    }

    @Test func scenariosAreIndependent() async {
        let stubs = StubRegistry()
        stubs.add(Stub(.get("/a"), .text("a")).inScenario("first", whenIn: "Started", moveTo: "done"))
        stubs.add(Stub(.get("/b"), .text("b")).inScenario("second", whenIn: "Started"))
        let session = stubs.makeSession()
        #expect(await answer(session, "https://api.example.com/a") == "a")
        #expect(stubs.scenario("first").state == "done")
        #expect(stubs.scenario("second").state == "Started")
        #expect(await answer(session, "https://api.example.com/b") == "b")
    }

    @Test func ineligibleScenarioStubLetsALowerStubAnswer() async {
        let stubs = StubRegistry()
        stubs.stub(.get("/resource"), .text("plain"), priority: 9)
        stubs.add(Stub(.get("/resource"), .text("special")).inScenario("mode", whenIn: "special").priority(1))
        let session = stubs.makeSession()
        #expect(await answer(session, url) == "plain")
        stubs.scenario("mode").move(to: "special")
        #expect(await answerAsync(session, url) == "special")
    }

    // MARK: Removing

    @Test func removeByID() async {
        let stubs = StubRegistry()
        stubs.stub(.get("/resource"), .text("old"))
        let newer = stubs.stub(.get("/resource"), .text("new"))
        let session = stubs.makeSession()
        #expect(await answer(session, url) == "new")
        #expect(stubs.remove(newer))
        #expect(await answerAsync(session, url) == "old")
        #expect(!stubs.remove(newer))
        #expect(!stubs.remove(Stub.ID("no-such-stub")))
        #expect(stubs.stubs.count == 1)
    }

    @Test func resetRemovesStubsScenariosAndJournal() async {
        let stubs = StubRegistry()
        stubs.add(Stub(.get("/resource"), .text("moved")).inScenario("s", whenIn: "Started", moveTo: "next"))
        let session = stubs.makeSession()
        #expect(await answer(session, url) == "moved")
        #expect(stubs.scenario("s").state == "next")
        #expect(stubs.journal.count == 1)

        stubs.reset()
        #expect(stubs.stubs.isEmpty)
        #expect(stubs.journal.isEmpty)
        #expect(stubs.scenario("s").state == "Started")
        #expect(await answer(session, url) == unmatched)

        // The registry works again after a reset.
        stubs.stub(.get("/resource"), .text("after reset"))
        #expect(await answerAsync(session, url) == "after reset")
        #expect(stubs.journal.count == 2)
    }
}

// MARK: - Helpers
