import Foundation
import HTTPStubs
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The Swift code of `Sources/HTTPStubs/HTTPStubs.docc/Matching.md`, run as the article says it runs.
@Suite("Docs: Matching")
struct MatchingSnippetTests {
    struct Profile: Codable {
        let name: String
    }

    @Test("methods, URLs, templates, prefixes and regular expressions")
    func urlForms() async throws {
        let stubs = StubRegistry()
        let user = User(id: 42, name: "Ada")
        stubs.stub(.get("https://api.example.com/users/42"), .json(user))  // scheme, host (any case), port 443, path
        stubs.stub(.get("/accounts/7"), .text("account"))  // path only, any host
        stubs.stub(.get("/orders/{id}"), .computed { .text($0.pathParameters["id"]!) })  // URI template
        // {+name} captures slashes too
        stubs.stub(.get("/files/{+path}"), .computed { .text($0.pathParameters["path"]!) })
        stubs.stub(.anyMethod(.pathPrefix("/admin/")), .status(503))  // any method, path prefix
        stubs.stub(.get(.pathMatching("/reports/[0-9]+")), .text("report"))  // regex on the whole path
        stubs.stub(.get(.urlMatching("https://cdn[0-9]\\.example\\.com/.*")), .text("cdn"))  // regex on the whole URL

        let session = stubs.makeSession()
        #expect(
            canonicalJSON(await answer(session, "https://API.Example.com/users/42"))
                == canonicalJSON(#"{"id":42,"name":"Ada"}"#)
        )
        #expect(
            canonicalJSON(await answer(session, "https://api.example.com:443/users/42"))
                == canonicalJSON(#"{"id":42,"name":"Ada"}"#)
        )
        #expect(await answer(session, "http://api.example.com/users/42") == unmatched)
        #expect(await answer(session, "https://api.example.com:8443/users/42") == unmatched)
        #expect(await answer(session, "https://anywhere.test/accounts/7") == "account")
        #expect(await answer(session, "http://localhost:8080/accounts/7") == "account")
        #expect(await answer(session, "https://api.example.com/orders/15") == "15")
        #expect(await answer(session, "https://api.example.com/orders/15/items") == unmatched)
        #expect(await answer(session, "https://api.example.com/files/a/b/c.txt") == "a/b/c.txt")
        for method in ["GET", "POST", "DELETE"] {
            #expect(await complete(session, request(method, "https://api.example.com/admin/users")).status == 503)
        }
        #expect(await answer(session, "https://api.example.com/reports/12") == "report")
        #expect(await answer(session, "https://api.example.com/reports/12x") == unmatched)
        #expect(await answer(session, "https://cdn1.example.com/logo.png") == "cdn")
        #expect(await answer(session, "https://cdn.example.com/logo.png") == unmatched)
    }

    @Test("a pattern adds matchers one after the other")
    func addedMatchers() async throws {
        let stubs = StubRegistry()
        stubs.stub(
            .post("https://api.example.com/orders")
                .header("Content-Type", .contains("json"))  // names are case-insensitive
                .headerAbsent("X-Debug")
                .query("dry-run", "false")  // decoded values
                .queryAbsent("force")
                .body(.json(["item": "book", "quantity": 1], ignoreArrayOrder: true, ignoreExtraMembers: true)),
            .status(201)
        )
        let session = stubs.makeSession()
        let body = #"{"quantity": 1.0, "item": "book", "note": "gift"}"#
        let url = "https://api.example.com/orders?dry-run=false"
        #expect(
            await complete(session, request("POST", url, body: body, headers: ["content-type": "application/json"]))
                .status == 201
        )
        #expect(
            await complete(
                session,
                request("POST", url, body: body, headers: ["Content-Type": "application/json", "X-Debug": "1"])
            ).isUnmatched
        )
        #expect(
            await complete(
                session,
                request("POST", url + "&force=1", body: body, headers: ["Content-Type": "application/json"])
            ).isUnmatched
        )
        #expect(
            await complete(
                session,
                request(
                    "POST",
                    "https://api.example.com/orders?dry-run=true",
                    body: body,
                    headers: ["Content-Type": "application/json"]
                )
            ).isUnmatched
        )
        #expect(
            await complete(
                session,
                request(
                    "POST",
                    url,
                    body: #"{"item": "pen", "quantity": 1}"#,
                    headers: ["Content-Type": "application/json"]
                )
            ).isUnmatched
        )
        #expect(
            await complete(session, request("POST", url, body: body, headers: ["Content-Type": "text/plain"]))
                .isUnmatched
        )
    }

    @Test("any method, any URL, any request")
    func anything() async throws {
        let stubs = StubRegistry()
        stubs.stub(.anyMethod("/health"), .text("up"))  // any method to /health
        stubs.stub(.get(.anyURL), .text("some GET"))  // a GET to any URL
        stubs.stub(.anyRequest, .status(404), priority: 10)  // anything else, tried last
        let session = stubs.makeSession()
        #expect(await answer(session, request("DELETE", "https://api.example.com/health")) == "up")
        #expect(await answer(session, "https://api.example.com/health") == "some GET")
        #expect(await answer(session, "https://other.test/anything") == "some GET")
        #expect(await complete(session, request("POST", "https://api.example.com/x")).status == 404)
    }

    @Test("URLs and strings from variables")
    func variables() async throws {
        let stubs = StubRegistry()
        let user = User(id: 42, name: "Ada")
        let parisURL = "https://api.example.com/weather/paris"
        stubs.stub(.get(parisURL), .text("sunny"))
        let url = URL(string: "https://api.example.com/users/42")!
        let accept = "application/json"
        let language = "en"
        let host = "docs.example.com"
        let path = "/intro"
        let name = "ada"
        stubs.stub(.get(url).header("Accept", accept).query("lang", language), .json(user))
        stubs.stub(.get(.path(path)).host(host), .text("by path"))
        stubs.stub(.post("/login").body(.form(["user": name])), .ok)

        let session = stubs.makeSession()
        #expect(await answer(session, parisURL) == "sunny")
        #expect(stubs.requests(to: parisURL).count == 1)
        let userURL = "https://api.example.com/users/42?lang=en"
        #expect(
            canonicalJSON(await answer(session, request("GET", userURL, headers: ["Accept": "application/json"])))
                == canonicalJSON(#"{"id":42,"name":"Ada"}"#)
        )
        #expect(await answer(session, request("GET", userURL, headers: ["Accept": "text/html"])) == unmatched)
        #expect(
            await answer(
                session,
                request("GET", "http://api.example.com/users/42?lang=en", headers: ["Accept": "application/json"])
            ) == unmatched
        )
        #expect(await answer(session, "https://docs.example.com/intro") == "by path")
        #expect(await answer(session, "https://docs.example.com/intro/more") == unmatched)
        let form = ["Content-Type": "application/x-www-form-urlencoded"]
        #expect(
            await complete(
                session,
                request("POST", "https://api.example.com/login", body: "user=ada&remember=1", headers: form)
            ).status == 200
        )
        #expect(
            await complete(session, request("POST", "https://api.example.com/login", body: "user=adam", headers: form))
                .isUnmatched
        )
        #expect(
            await complete(
                session,
                request("GET", "https://api.example.com/users/42", headers: ["Accept": "application/json"])
            ).isUnmatched
        )
        #expect(stubs.requests(to: URLPattern(url)).count == 3)  // all but the http:// request
        #expect(stubs.requests(to: .get, URLPattern(url)).count == 3)
    }

    @Test("string matchers compare whole values and code points")
    func stringMatchers() {
        #expect(StringMatcher.matches("[a-z]+").matches("abc"))
        #expect(!StringMatcher.matches("[a-z]+").matches("abc1"))
        #expect(!StringMatcher.contains("é").matches("e\u{301}"))
        #expect(StringMatcher.equal("ADA", caseInsensitive: true).matches("ada"))
        #expect(StringMatcher.not(.hasPrefix("x")).matches("abc"))
    }

    @Test("the three forms of an expected JSON body")
    func jsonBodies() async throws {
        let stubs = StubRegistry()
        stubs.stub(
            .post("/users").body(.json(["name": "Ada", "tags": ["a", "b"]], ignoreArrayOrder: true)),
            .status(201)
        )
        stubs.stub(.post("/drafts").body(.json(text: #"{"title": "Hi", "tags": []}"#)), .status(201))
        stubs.stub(
            .post("/profiles").body(.json(encoding: Profile(name: "Ada"), ignoreExtraMembers: true)),
            .status(201)
        )

        let session = stubs.makeSession()
        func post(_ path: String, _ body: String) async -> Int? {
            await complete(session, request("POST", "https://api.example.com" + path, body: body)).status
        }
        #expect(await post("/users", #"{"tags": ["b", "a"], "name": "Ada"}"#) == 201)
        #expect(await post("/users", #"{"tags": ["b", "a"], "name": "Ada", "age": 36}"#) == nil)
        #expect(await post("/drafts", #"{"tags": [], "title": "Hi"}"#) == 201)
        #expect(await post("/drafts", #"{"tags": [], "title": "Hi", "draft": true}"#) == nil)
        #expect(await post("/profiles", #"{"name": "Ada", "id": 7}"#) == 201)
        #expect(await post("/profiles", #"{"name": "Grace"}"#) == nil)
    }

    /// The signature the article prints, which `RequestPattern` must have for this to compile.
    protocol DocumentedCustomMatching {
        func matching(
            _ description: String,
            _ predicate: @escaping @Sendable (InterceptedRequest) -> Bool
        ) -> RequestPattern
    }

    @Test("a custom matcher: a description and a predicate")
    func customMatcher() async throws {
        let stubs = StubRegistry()
        stubs.stub(
            .get("/reports").matching("is signed") { request in
                request.header("Authorization")?.hasPrefix("Bearer ") == true
            },
            .text("report")
        )
        let session = stubs.makeSession()
        #expect(
            await answer(
                session,
                request("GET", "https://api.example.com/reports", headers: ["Authorization": "Bearer abc"])
            ) == "report"
        )
        #expect(await answer(session, "https://api.example.com/reports") == unmatched)
        let entry = try #require(stubs.unmatchedRequests.first)
        guard case let .unmatched(report) = entry.outcome else {
            Issue.record("not unmatched")
            return
        }
        #expect(report.text.contains("is signed"))
    }

    @Test("any RequestMatcher, combinations included")
    func combinations() async throws {
        let stubs = StubRegistry()
        stubs.stub(
            .get("/items").matching(.anyOf([.header("Accept", "application/json"), .query("format", "json")])),
            .json(["book"])
        )
        let session = stubs.makeSession()
        #expect(
            await answer(
                session,
                request("GET", "https://api.example.com/items", headers: ["Accept": "application/json"])
            ) == #"["book"]"#
        )
        #expect(await answer(session, "https://api.example.com/items?format=json") == #"["book"]"#)
        #expect(await answer(session, "https://api.example.com/items") == unmatched)
    }

    @Test("a matcher may call the registry: answer only the first call")
    func matcherCallsTheRegistry() async throws {
        let stubs = StubRegistry()
        let url = "https://api.example.com/welcome"
        stubs.stub(
            .get(URLPattern(url)).matching("first visit") { _ in stubs.requests(to: .get, URLPattern(url)).isEmpty },
            .text("welcome")
        )
        let session = stubs.makeSession()
        #expect(await answer(session, url) == "welcome")
        #expect(await answer(session, url) == unmatched)
    }

    @Test("a regular expression that does not compile never matches, and is reported with its line")
    func brokenPattern() async throws {
        let stubs = StubRegistry()
        let diagnostics = DiagnosticLog()
        stubs.onDiagnostic { diagnostic in diagnostics.append(diagnostic) }
        stubs.stub(.get(.pathMatching("/users/(")), .ok)  // never matches; reported with this line
        let line = #line - 1
        #expect(await answer(stubs.makeSession(), "https://api.example.com/users/(") == unmatched)
        let diagnostic = try #require(diagnostics.all.first)
        #expect(diagnostic.severity == .warning)
        #expect("\(diagnostic.source)".contains("MatchingSnippetTests.swift:\(line)"))
    }
}

extension RequestPattern: MatchingSnippetTests.DocumentedCustomMatching {}
