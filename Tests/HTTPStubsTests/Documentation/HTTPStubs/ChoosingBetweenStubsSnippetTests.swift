import Foundation
import HTTPStubs
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The Swift code of `Sources/HTTPStubs/HTTPStubs.docc/ChoosingBetweenStubs.md`, run as the article says it runs.
@Suite("Docs: ChoosingBetweenStubs")
struct ChoosingBetweenStubsSnippetTests {
    @Test("priority first, then newest first")
    func priority() async throws {
        let stubs = StubRegistry()
        let defaultFeed = ["items": ["default"]]
        stubs.stub(.get("/feed"), .json(defaultFeed))  // shared default
        stubs.stub(.get("/feed"), .status(500))  // this test's override wins
        stubs.stub(.anyMethod(.pathPrefix("/")), .status(404), priority: 10)  // catch-all, tried last
        let session = stubs.makeSession()
        #expect(await complete(session, "https://api.example.com/feed").status == 500)
        #expect(await complete(session, request("POST", "https://api.example.com/other")).status == 404)
        #expect(stubs.stubs.map(\.priority) == [5, 5, 10])
    }

    @Test("sequences repeat the last response, or stop matching")
    func sequences() async throws {
        let stubs = StubRegistry()
        let ready = ["state": "ready"]
        let token = ["token": "t1"]
        stubs.stub(.get("/status"), responses: [.status(503), .status(503), .json(ready)])
        stubs.stub(.get("/token"), responses: [.json(token)], afterLast: .stopMatching)
        let session = stubs.makeSession()
        var statuses: [Int?] = []
        for _ in 1...4 {
            statuses.append(await complete(session, "https://api.example.com/status").status)
        }
        #expect(statuses == [503, 503, 200, 200])
        #expect(await answer(session, "https://api.example.com/token") == #"{"token":"t1"}"#)
        #expect(await answer(session, "https://api.example.com/token") == unmatched)
    }

    @Test("Stub values: a use limit, a name, a priority, an expectation")
    func stubValues() async throws {
        let stubs = StubRegistry()
        let promo = ["code": "WELCOME"]
        let flags = ["beta": true]
        let promoID = stubs.add(Stub(.get("/promo"), .json(promo)).times(1).named("one-time promo"))
        stubs.add(Stub(.get("/flags"), .json(flags)).priority(1).expect(.atLeast(1)))
        let session = stubs.makeSession()
        #expect(stubs.unmetExpectations.count == 1)
        #expect(await answer(session, "https://api.example.com/promo") == #"{"code":"WELCOME"}"#)
        #expect(await answer(session, "https://api.example.com/promo") == unmatched)
        #expect(stubs.useCount(of: promoID) == 1)
        #expect(stubs.journal.first?.stub?.name == "one-time promo")
        #expect(await answer(session, "https://api.example.com/flags") == #"{"beta":true}"#)
        #expect(stubs.unmetExpectations.isEmpty)
        #expect(stubs.stubs.first?.priority == 1)
        #expect(stubs.remove(promoID))
        #expect(stubs.stubs.count == 1)
        stubs.reset()
        #expect(stubs.stubs.isEmpty && stubs.journal.isEmpty)
    }

    @Test("a scenario made with stubs.scenario(_:)")
    func scenario() async throws {
        let stubs = StubRegistry()
        let user = User(id: 1, name: "Ada")
        let login = stubs.scenario("login")
        login.stub(.get("/me"), .status(401), whenIn: StubScenario.started)
        login.stub(.post("/login"), .ok, moveTo: "signed in")
        login.stub(.get("/me"), .json(user), whenIn: "signed in")

        let session = stubs.makeSession()
        #expect(await complete(session, "https://api.example.com/me").status == 401)
        #expect(await complete(session, request("POST", "https://api.example.com/login")).status == 200)
        #expect(
            canonicalJSON(await answer(session, "https://api.example.com/me"))
                == canonicalJSON(#"{"id":1,"name":"Ada"}"#)
        )

        let before = login.state  // "Started", or where the stubs moved it
        login.move(to: "signed in")
        login.reset()  // back to "Started"
        #expect(before == "signed in")
        #expect(login.state == "Started")
        #expect(await complete(session, "https://api.example.com/me").status == 401)

        login.move(to: "signed in")
        stubs.resetScenarios()
        #expect(login.state == "Started")
    }

    @Test("Stub values join a scenario with inScenario(_:whenIn:moveTo:)")
    func stubValueScenario() async throws {
        let stubs = StubRegistry()
        let fullCart = ["items": ["book"]]
        stubs.add(Stub(.post("/cart/items"), .status(201)).inScenario("cart", whenIn: "Started", moveTo: "has items"))
        stubs.add(Stub(.get("/cart"), .json(fullCart)).inScenario("cart", whenIn: "has items"))
        let session = stubs.makeSession()
        #expect(await answer(session, "https://api.example.com/cart") == unmatched)
        #expect(await complete(session, request("POST", "https://api.example.com/cart/items")).status == 201)
        #expect(await answer(session, "https://api.example.com/cart") == #"{"items":["book"]}"#)
        #expect(stubs.scenario("cart").state == "has items")
    }

    @Test("many stubs at once: a later stub wins a tie")
    func manyAtOnce() async throws {
        let stubs = StubRegistry()
        let generatedStubs = (1...3).map { Stub(.get("/generated"), .text("stub \($0)")) }
        stubs.add(contentsOf: generatedStubs)
        #expect(stubs.stubs.count == 3)
        #expect(await answer(stubs.makeSession(), "https://api.example.com/generated") == "stub 3")
    }
}
