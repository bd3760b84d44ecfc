import Foundation
import HTTPStubs
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The forms a team porting its hand-written stubs reached for first: a status on any response,
/// patterns from `URL` values and `String` variables, the journal by URL alone, scenarios without
/// `Stub` values, and typed stub identities.
@Suite struct PublicAPITests {
    private let base = URL(string: "https://api.example.com")!

    // MARK: .status(_:) on every response

    @Test("`.status(_:)` changes the status of a JSON, text or data response and keeps its body and headers")
    func statusModifier() async throws {
        let stubs = StubRegistry()
        stubs.stub(.post("/users"), .json(User(id: 1, name: "Ada")).status(201))
        stubs.stub(.get("/gone"), .text("gone").header("X-Reason", "moved").status(410))
        stubs.stub(.get("/bytes"), .data(Data([1, 2, 3])).status(206))
        let session = stubs.makeSession()

        let created = await complete(session, request("POST", "https://api.example.com/users"))
        #expect(created.status == 201)
        #expect(created.http?.value(forHTTPHeaderField: "Content-Type") == "application/json")
        #expect(try JSONDecoder().decode(User.self, from: created.data ?? Data()) == User(id: 1, name: "Ada"))

        let (data, response) = try await session.data(from: URL(string: "https://api.example.com/gone")!)
        #expect((response as? HTTPURLResponse)?.statusCode == 410)
        #expect((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "X-Reason") == "moved")
        #expect(String(decoding: data, as: UTF8.self) == "gone")
        #expect(await complete(session, "https://api.example.com/bytes").status == 206)
    }

    @Test("`.status(_:)` and `.header(_:_:)` on a computed response apply to what the closure returns, sync and async")
    func statusOnComputed() async {
        let stubs = StubRegistry()
        stubs.stub(
            .get("/users/{id}"),
            .computed { request in .text("user \(request.pathParameters["id"] ?? "")") }.status(203)
        )
        stubs.stub(
            .get("/later"),
            StubResponse.computed { _ async in .text("later") }.status(202).header("X-Async", "yes")
        )
        let session = stubs.makeSession()
        let user = await complete(session, "https://api.example.com/users/7")
        #expect(user.status == 203 && user.text == "user 7")
        let later = await complete(session, "https://api.example.com/later")
        #expect(later.status == 202 && later.text == "later")
        #expect(later.http?.value(forHTTPHeaderField: "X-Async") == "yes")
    }

    @Test(
        "`.status(_:)` on an error response is reported at its line instead of being dropped; the error still fails the request"
    )
    func statusOnErrorIsReported() async {
        let stubs = StubRegistry()
        let diagnostics = Collected<StubDiagnostic>()
        stubs.onDiagnostic { diagnostics.append($0) }
        let line = #line + 1
        stubs.stub(.get("/offline"), .error(.notConnectedToInternet).status(500))
        #expect(diagnostics.all.count == 1)
        let diagnostic = diagnostics.all.first
        #expect(diagnostic?.severity == .warning)
        #expect(diagnostic?.source.line == line)
        #expect(diagnostic?.source.file == #fileID)
        #expect(
            diagnostic?.message.contains("status(500) does not apply to URLError .notConnectedToInternet") == true,
            "\(String(describing: diagnostic))"
        )
        let completion = await complete(stubs.makeSession(), "https://api.example.com/offline")
        #expect(completion.urlError?.code == .notConnectedToInternet)
    }

    // MARK: Patterns from values

    @Test(
        "a pattern built from a URL value matches that URL (scheme, host, port, path, query) and ignores its fragment"
    )
    func patternFromURL() async {
        let stubs = StubRegistry()
        let users = base.appendingPathComponent("v1/users")
        let search = URL(string: "https://api.example.com/search?q=swift%20testing#results")!
        stubs.stub(.get(users), .text("users"))
        stubs.stub(.anyMethod(search), .text("search"))
        stubs.stub(.method("PROPFIND", URL(string: "http://localhost:8080/dav")!), .text("dav"))
        let session = stubs.makeSession()
        #expect(await answer(session, users.absoluteString) == "users")
        #expect(
            await answerAsync(session, request("POST", "https://api.example.com/search?q=swift%20testing&page=2"))
                == "search"
        )
        #expect(await answer(session, request("PROPFIND", "http://localhost:8080/dav")) == "dav")
        // Another host, port, scheme or query value does not match.
        #expect(await answer(session, "https://other.example.com/v1/users") == unmatched)
        #expect(await answer(session, "http://localhost:8081/dav") == unmatched)
        #expect(await answer(session, "http://api.example.com/v1/users") == unmatched)
        #expect(await answer(session, "https://api.example.com/search?q=swift") == unmatched)
        #expect(URLPattern(search).description == "https://api.example.com/search?q=swift%20testing")
    }

    @Test("String variables work where literals do: header, query, host, path and form fields compare for equality")
    func stringVariables() async {
        let stubs = StubRegistry()
        let accept = "application/json"
        let query = "swift"
        let host = "API.Example.com"
        let path = "/v1/items"
        let fields = ["grant_type": "password", "user": "ada"]
        stubs.stub(.get(.path(path)).header("Accept", accept).query("q", query).host(host), .text("items"))
        stubs.stub(.post("/token").body(.form(fields)), .text("token"))
        let session = stubs.makeSession()
        #expect(
            await answer(
                session,
                request("GET", "https://api.example.com/v1/items?q=swift", headers: ["Accept": accept])
            ) == "items"
        )
        #expect(
            await answer(
                session,
                request("GET", "https://api.example.com/v1/items?q=swiftui", headers: ["Accept": accept])
            ) == unmatched
        )
        #expect(
            await answer(
                session,
                request("GET", "https://api.example.com/v1/items?q=swift", headers: ["Accept": "text/html"])
            ) == unmatched
        )
        #expect(
            await answer(
                session,
                request("GET", "https://api.example.org/v1/items?q=swift", headers: ["Accept": accept])
            ) == unmatched
        )
        #expect(
            await answer(
                session,
                request("POST", "https://api.example.com/token", body: "user=ada&grant_type=password&scope=x")
            ) == "token"
        )
        #expect(
            await answer(
                session,
                request("POST", "https://api.example.com/token", body: "user=bob&grant_type=password")
            ) == unmatched
        )
    }

    @Test("`.anyMethod(.anyURL)` and `.anyRequest` both match every request")
    func anyForms() async {
        for pattern in [RequestPattern.anyMethod(.anyURL), .anyRequest] {
            let stubs = StubRegistry()
            stubs.stub(pattern, .text("caught"))
            let session = stubs.makeSession()
            #expect(await answer(session, request("DELETE", "https://elsewhere.example.net/x?y=1")) == "caught")
            #expect(await answerAsync(session, "http://localhost/") == "caught")
        }
    }

    // MARK: Journal

    @Test("`requests(to:)` lists the requests to a URL by any method; `requests(to:_:)` by one method")
    func journalByURL() async {
        let stubs = StubRegistry()
        stubs.stub(.anyMethod("/orders"), .ok)
        let session = stubs.makeSession()
        _ = await complete(session, "https://api.example.com/orders")
        _ = await complete(session, request("POST", "https://api.example.com/orders"))
        _ = await complete(session, "https://api.example.com/other")
        #expect(stubs.requests(to: "/orders").map(\.request.method) == [.get, .post])
        #expect(stubs.requests(to: .post, "/orders").count == 1)
        #expect(stubs.requests(to: URLPattern(base.appendingPathComponent("orders"))).count == 2)
    }

    // MARK: Scenarios

    @Test("a scenario handle adds stubs that answer by state and move it; its state can be read, moved and reset")
    func scenarioHandle() async {
        let stubs = StubRegistry()
        let login = stubs.scenario("login")
        login.stub(.get("/me"), .status(401), whenIn: StubScenario.started)
        login.stub(.post("/login"), .ok, moveTo: "signed in")
        login.stub(.get("/me"), .json(["name": "Ada"]), whenIn: "signed in")
        let session = stubs.makeSession()

        #expect(login.state == StubScenario.started)
        #expect(await complete(session, "https://api.example.com/me").status == 401)
        #expect(await complete(session, request("POST", "https://api.example.com/login")).status == 200)
        #expect(login.state == "signed in")
        #expect(stubs.scenario("login").state == "signed in", "another handle sees the same state")
        #expect(await answerAsync(session, "https://api.example.com/me") == #"{"name":"Ada"}"#)

        login.reset()
        #expect(await complete(session, "https://api.example.com/me").status == 401)
        stubs.scenario("login").move(to: "signed in")
        #expect(await complete(session, "https://api.example.com/me").status == 200)
        #expect(stubs.scenario("other").state == StubScenario.started, "scenarios are independent")
    }

    // MARK: Identities

    @Test("a stub's identity names it in the journal, in useCount(of:) and in remove(_:)")
    func typedIdentity() async {
        let stubs = StubRegistry()
        let firstLine = #line + 1
        let first = stubs.stub(.get("/a"), .text("first"))
        let second = stubs.stub(.get("/a"), .text("second"))
        #expect(first != second)
        let session = stubs.makeSession()
        #expect(await answer(session, "https://api.example.com/a") == "second")
        #expect(stubs.journal.last?.stub?.id == second)
        #expect(stubs.useCount(of: second) == 1 && stubs.useCount(of: first) == 0)
        #expect(stubs.remove(second))
        #expect(await answer(session, "https://api.example.com/a") == "first")
        #expect(stubs.journal.last?.stub?.id == first)
        #expect("\(first)" == "HTTPStubsTests/PublicAPITests.swift:\(firstLine):31", "named by where it was written")
    }
}
