import Foundation
import HTTPStubs
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The Swift code of `Sources/HTTPStubs/HTTPStubs.docc/Responses.md`, run as the article says it runs.
@Suite("Docs: Responses")
struct ResponsesSnippetTests {
    struct Order: Codable, Equatable {
        let item: String
        let quantity: Int
    }

    struct Note: Codable {
        let text: String
    }

    struct Feed: Codable {
        let items: [String]
    }

    struct MyError: Error, Equatable {}

    struct FixtureMissing: Error {
        let name: String
    }

    /// Fixtures a test loads asynchronously.
    actor Fixtures {
        func order(_ id: String) throws -> Order {
            Order(item: "order \(id)", quantity: 1)
        }
    }

    /// Counts the calls of a computed response.
    actor CallCounter {
        private var calls = 0

        func increment() -> Int {
            calls += 1
            return calls
        }
    }

    @Test("every kind of response, as the overview lists them")
    func kinds() async throws {
        let stubs = StubRegistry(clock: ImmediateStubClock())
        let user = User(id: 42, name: "Ada")
        let bytes = Data([0x89, 0x50, 0x4E, 0x47])
        let fixtureURL = FileManager.default.temporaryDirectory.appendingPathComponent(
            "docs-responses-\(UUID().uuidString).txt"
        )
        try Data("from a file".utf8).write(to: fixtureURL)
        defer { try? FileManager.default.removeItem(at: fixtureURL) }
        let fixtures = Fixtures()
        let feed = Feed(items: ["a"])
        let bigBody = Data(repeating: 7, count: 1_000)

        let examples: [StubResponse] = [
            .status(204),
            .text("teapot", status: 418).header("Set-Cookie", "a=1").header("Set-Cookie", "b=2"),
            .json(user),  // Encodable → JSON, Content-Type: application/json
            .json(text: #"{"id": 1}"#),
            .data(bytes, headers: ["Content-Type": "image/png"]),
            .file(fixtureURL),  // read when the stub answers
            .computed { request in .json(try request.decodeJSON(Order.self)) },
            .computed { request in .json(try await fixtures.order(request.pathParameters["id"]!)) },  // async
            .redirect(to: "/login"),  // followed: see below
            .error(.notConnectedToInternet),  // any URLError code, failingURL filled in
            .failure(MyError()),  // any error, delivered unchanged
            .json(feed).delayed(by: .milliseconds(300)),
            .json(feed).delayed(.logNormal(median: .milliseconds(80), sigma: 0.4)),
            .data(bigBody).dribbled(chunks: 5, over: .seconds(1)),
        ]

        for (index, response) in examples.enumerated() {
            stubs.stub(.anyMethod("/\(index)/{id}"), response)
        }
        stubs.stub(.get("/login"), .text("login page"))
        let session = stubs.makeSession()
        func send(_ index: Int, _ method: String = "GET", body: String? = nil) async -> Completion {
            await complete(session, request(method, "https://api.example.com/\(index)/7", body: body))
        }

        #expect(await send(0).status == 204)
        let teapot = await send(1)
        #expect(teapot.status == 418 && teapot.text == "teapot")
        #expect(teapot.http?.value(forHTTPHeaderField: "Set-Cookie") == "a=1, b=2")
        #expect(teapot.http?.value(forHTTPHeaderField: "Content-Type") == "text/plain; charset=utf-8")
        let json = await send(2)
        #expect(canonicalJSON(json.text) == canonicalJSON(#"{"id":42,"name":"Ada"}"#))
        #expect(json.http?.value(forHTTPHeaderField: "Content-Type") == "application/json")
        #expect(await send(3).text == #"{"id": 1}"#)
        let png = await send(4)
        #expect(png.data == bytes && png.http?.value(forHTTPHeaderField: "Content-Type") == "image/png")
        #expect(await send(5).text == "from a file")
        #expect(
            canonicalJSON(await send(6, "POST", body: #"{"item": "pen", "quantity": 3}"#).text)
                == canonicalJSON(#"{"item":"pen","quantity":3}"#)
        )
        #expect(canonicalJSON(await send(7).text) == canonicalJSON(#"{"item":"order 7","quantity":1}"#))
        let redirected = await send(8)
        #expect(redirected.text == "login page")
        #expect(redirected.http?.url?.path == "/login")
        let offline = await send(9)
        #expect(offline.urlError?.code == .notConnectedToInternet)
        #expect(offline.urlError?.failingURL?.absoluteString == "https://api.example.com/9/7")
        #expect(await send(10).error is MyError)
        #expect(await send(11).text == #"{"items":["a"]}"#)
        #expect(await send(12).text == #"{"items":["a"]}"#)
        #expect(await send(13).data == bigBody)
    }

    @Test("the status: parameter and the .status(_:) modifier")
    func statusCodes() async throws {
        let stubs = StubRegistry()
        let order = Order(item: "book", quantity: 1)
        let png = Data([0x89, 0x50])
        stubs.stub(.post("/orders"), .json(order, status: 201))  // the status: parameter
        stubs.stub(.get("/logo.png"), .data(png, status: 203, headers: ["Content-Type": "image/png"]))
        stubs.stub(.get("/legacy"), .text("gone").status(410))  // the .status(_:) modifier
        stubs.stub(.put("/orders/1"), .json(order).status(202).header("ETag", "\"v2\""))

        let session = stubs.makeSession()
        let created = await complete(session, request("POST", "https://api.example.com/orders"))
        #expect(created.status == 201 && canonicalJSON(created.text) == canonicalJSON(#"{"item":"book","quantity":1}"#))
        let logo = await complete(session, "https://api.example.com/logo.png")
        #expect(logo.status == 203 && logo.data == png)
        let legacy = await complete(session, "https://api.example.com/legacy")
        #expect(legacy.status == 410 && legacy.text == "gone")
        #expect(legacy.http?.value(forHTTPHeaderField: "Content-Type") == "text/plain; charset=utf-8")
        let updated = await complete(session, request("PUT", "https://api.example.com/orders/1"))
        #expect(updated.status == 202 && updated.http?.value(forHTTPHeaderField: "ETag") == "\"v2\"")
        #expect(updated.http?.value(forHTTPHeaderField: "Content-Type") == "application/json")
    }

    @Test("status(_:) and header(_:_:) apply to what a computed response returns; on an error they are reported")
    func modifiersOnComputedAndErrors() async throws {
        let stubs = StubRegistry()
        let reported = DiagnosticLog(stubs)
        stubs.stub(.get("/computed"), .computed { _ in .text("made") }.status(203).header("X-Made", "1"))
        stubs.stub(.get("/error"), .error(.timedOut).status(500))
        let line = #line - 1
        let computed = await complete(stubs.makeSession(), "https://api.example.com/computed")
        #expect(computed.status == 203 && computed.text == "made")
        #expect(computed.http?.value(forHTTPHeaderField: "X-Made") == "1")
        let diagnostic = try #require(reported.all.first)
        #expect(diagnostic.message.contains("status(500) does not apply"))
        #expect(diagnostic.source.line == line)
    }

    @Test("a computed response reads the request")
    func computedReadsTheRequest() async throws {
        let stubs = StubRegistry()
        stubs.stub(
            .post("https://api.example.com/users/{id}/notes"),
            .computed { request in
                let id = request.pathParameters["id"]!  // the URI template's capture
                let page = request.queryValues("page").first ?? "1"  // decoded query values
                let language = request.header("Accept-Language") ?? "en"  // case-insensitive names
                let note = try request.decodeJSON(Note.self)  // the body, decoded
                return .json(["user": id, "page": page, "language": language, "text": note.text], status: 201)
            }
        )
        let session = stubs.makeSession()
        let answered = await complete(
            session,
            request(
                "POST",
                "https://api.example.com/users/42/notes?page=2%203",
                body: #"{"text": "hi"}"#,
                headers: ["accept-language": "fr"]
            )
        )
        #expect(answered.status == 201)
        let body = try JSONDecoder().decode([String: String].self, from: try #require(answered.data))
        #expect(body == ["user": "42", "page": "2 3", "language": "fr", "text": "hi"])
        // A body that does not decode throws, which fails the request.
        let undecodable = await complete(
            session,
            request("POST", "https://api.example.com/users/42/notes", body: "not JSON")
        )
        #expect(undecodable.urlError?.code == .cannotParseResponse)
    }

    @Test("a thrown URLError fails the request as it is; any other error as cannotParseResponse")
    func computedThrows() async throws {
        let stubs = StubRegistry()
        // Fails with this URLError
        stubs.stub(.get("/offline"), .computed { _ in throw URLError(.notConnectedToInternet) })
        // Fails with URLError(.cannotParseResponse)
        stubs.stub(.get("/broken"), .computed { _ in throw FixtureMissing(name: "user.json") })
        let session = stubs.makeSession()
        #expect(await complete(session, "https://api.example.com/offline").urlError?.code == .notConnectedToInternet)
        let broken = try #require(await complete(session, "https://api.example.com/broken").urlError)
        #expect(broken.code == .cannotParseResponse)
        #expect(broken.localizedDescription.contains("FixtureMissing"))
        #expect(broken.localizedDescription.contains("ResponsesSnippetTests.swift"))
    }

    @Test("an async computed response may await")
    func computedAsync() async throws {
        let stubs = StubRegistry()
        let counter = CallCounter()  // an actor of the test's
        stubs.stub(
            .get("/count"),
            .computed { _ in
                let calls = await counter.increment()
                return .text("call \(calls)")
            }
        )
        let session = stubs.makeSession()
        #expect(await answer(session, "https://api.example.com/count") == "call 1")
        #expect(await answerAsync(session, "https://api.example.com/count") == "call 2")
    }

    @Test("stub(_:respond:) takes the closure as a trailing closure")
    func trailingClosure() async throws {
        let stubs = StubRegistry()
        stubs.stub(.get("/users/{id}")) { request in
            .json(User(id: Int(request.pathParameters["id"]!)!, name: "Ada"))
        }
        #expect(
            canonicalJSON(await answer(stubs.makeSession(), "https://api.example.com/users/5"))
                == canonicalJSON(#"{"id":5,"name":"Ada"}"#)
        )
    }

    @Test("redirects are followed, each hop journaled; followsRedirects = false delivers the 3xx")
    func redirects() async throws {
        let stubs = StubRegistry()
        stubs.stub(.post("/checkout"), .redirect(to: "/receipt", status: 303))
        stubs.stub(.get("/receipt"), .text("paid"))
        let session = stubs.makeSession()
        let paid = await complete(session, request("POST", "https://api.example.com/checkout", body: "cart=1"))
        #expect(paid.status == 200 && paid.text == "paid")
        #expect(paid.http?.url?.absoluteString == "https://api.example.com/receipt")
        #expect(stubs.journal.map { "\($0.request.method) \($0.request.path)" } == ["POST /checkout", "GET /receipt"])

        stubs.followsRedirects = false
        let redirect = await complete(session, request("POST", "https://api.example.com/checkout", body: "cart=1"))
        #expect(redirect.status == 303)
        #expect(redirect.http?.value(forHTTPHeaderField: "Location") == "/receipt")
    }

    @Test("a delay longer than the timeout fails with timedOut, at once on an ImmediateStubClock")
    func timeouts() async throws {
        let report = Feed(items: ["slow"])
        let stubs = StubRegistry(clock: ImmediateStubClock())  // no waiting, same outcomes
        stubs.stub(.get("/slow"), .json(report).delayed(by: .seconds(30)))
        var request = URLRequest(url: URL(string: "https://api.example.com/slow")!)
        request.timeoutInterval = 10
        // fails at once with URLError(.timedOut), as it would after 10 s
        #expect(await complete(stubs.makeSession(), request).urlError?.code == .timedOut)
        #expect(stubs.clock.now == .seconds(10), "the timeout, not the 30 s delay, ended the request (in virtual time)")
    }
}
