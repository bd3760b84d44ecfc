import Foundation
import HTTPStubs
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a request matches, proved through real URLSession calls against a registry's session.
@Suite struct MatchingTests {
    // MARK: Method, scheme, host, port

    @Test func methodMustMatch() async {
        let stubs = StubRegistry()
        stubs.stub(.get("https://api.example.com/items"), .text("get"))
        stubs.stub(.delete("https://api.example.com/items"), .text("delete"))
        let session = stubs.makeSession()
        #expect(await answer(session, request("GET", "https://api.example.com/items")) == "get")
        #expect(await answerAsync(session, request("DELETE", "https://api.example.com/items")) == "delete")
        #expect(await answer(session, request("PUT", "https://api.example.com/items")) == unmatched)
    }

    @Test func anyMethodAndCustomMethods() async {
        let stubs = StubRegistry()
        stubs.stub(.anyMethod("https://api.example.com/anything"), .text("any"))
        stubs.stub(.method("PROPFIND", "https://api.example.com/dav"), .text("propfind"))
        let session = stubs.makeSession()
        for method in ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] {
            #expect(await answer(session, request(method, "https://api.example.com/anything")) == "any", "\(method)")
        }
        #expect(await answerAsync(session, request("PROPFIND", "https://api.example.com/dav")) == "propfind")
        #expect(await answer(session, request("GET", "https://api.example.com/dav")) == unmatched)
    }

    @Test(
        "a String variable is a URL pattern wherever a literal is: every method, anyMethod, method(_:_:), and the journal's queries"
    )
    func stringVariablesAsURLPatterns() async {
        let base: String = "https://api.example.com"
        let paris: String = base + "/weather/{city}"
        let path: String = "/orders"
        let stubs = StubRegistry()
        stubs.stub(.get(paris), .text("get"))
        stubs.stub(.head(paris), .status(204))
        stubs.stub(.post(path), .text("post"))
        stubs.stub(.put(path), .text("put"))
        stubs.stub(.patch(path), .text("patch"))
        stubs.stub(.delete(path), .text("delete"))
        stubs.stub(.options(path), .text("options"))
        stubs.stub(.anyMethod(base + "/any"), .text("any"))
        stubs.stub(.method("PROPFIND", base + "/dav"), .text("propfind"))
        let session = stubs.makeSession()
        #expect(await answer(session, request("GET", base + "/weather/paris")) == "get")
        #expect(await complete(session, request("HEAD", base + "/weather/paris")).status == 204)
        for method in ["POST", "PUT", "PATCH", "DELETE", "OPTIONS"] {
            #expect(await answerAsync(session, request(method, base + path)) == method.lowercased(), "\(method)")
        }
        #expect(await answer(session, request("TRACE", base + "/any")) == "any")
        #expect(await answer(session, request("PROPFIND", base + "/dav")) == "propfind")
        #expect(stubs.requests(to: paris).count == 2)
        #expect(stubs.requests(to: .get, paris).count == 1)
        #expect(stubs.requests(to: path).count == 5)
        #expect(stubs.requests(to: .post, path).count == 1)
        let url = URL(string: base + "/dav")!
        #expect(stubs.requests(to: url).count == 1)
        #expect(stubs.requests(to: "PROPFIND", url).count == 1)
    }

    @Test func schemeMustMatch() async {
        let stubs = StubRegistry()
        stubs.stub(.get("https://api.example.com/scheme"), .text("secure"))
        stubs.stub(.get("http://api.example.com/scheme"), .text("plain"))
        stubs.stub(.get("https://only-secure.example.com/x"), .text("x"))
        let session = stubs.makeSession()
        #expect(await answer(session, "https://api.example.com/scheme") == "secure")
        #expect(await answerAsync(session, "http://api.example.com/scheme") == "plain")
        #expect(await answer(session, "http://only-secure.example.com/x") == unmatched)
    }

    @Test func hostIsCaseInsensitive() async {
        let stubs = StubRegistry()
        stubs.stub(.get("https://API.Example.COM/host"), .text("host"))
        let session = stubs.makeSession()
        #expect(await answer(session, "https://api.example.com/host") == "host")
        #expect(await answerAsync(session, "https://Api.EXAMPLE.com/host") == "host")
        #expect(await answer(session, "https://api.example.org/host") == unmatched)
        #expect(await answer(session, "https://www.api.example.com/host") == unmatched)
    }

    @Test func explicitPortMustMatch() async {
        let stubs = StubRegistry()
        stubs.stub(.get("https://api.example.com:8443/port"), .text("8443"))
        let session = stubs.makeSession()
        #expect(await answer(session, "https://api.example.com:8443/port") == "8443")
        #expect(await answer(session, "https://api.example.com/port") == unmatched)
        #expect(await answerAsync(session, "https://api.example.com:9443/port") == unmatched)
    }

    @Test func defaultPortsAre443And80() async {
        let stubs = StubRegistry()
        stubs.stub(.get("https://api.example.com/default"), .text("https default"))
        stubs.stub(.get("http://api.example.com/default"), .text("http default"))
        let session = stubs.makeSession()
        #expect(await answer(session, "https://api.example.com:443/default") == "https default")
        #expect(await answerAsync(session, "http://api.example.com:80/default") == "http default")
        #expect(await answer(session, "https://api.example.com:80/default") == unmatched)
        #expect(await answer(session, "http://api.example.com:8080/default") == unmatched)
    }

    @Test func portMatcherOnAPattern() async {
        let stubs = StubRegistry()
        stubs.stub(.get(.pathPrefix("/")).port(9000), .text("9000"))
        let session = stubs.makeSession()
        #expect(await answer(session, "http://localhost:9000/any") == "9000")
        #expect(await answer(session, "http://localhost/any") == unmatched)
    }

    @Test func ipv6LiteralHost() async {
        let stubs = StubRegistry()
        stubs.stub(.get("http://[::1]:8080/v6"), .text("v6 with port"))
        stubs.stub(.get("http://[::1]/v6"), .text("v6 default port"))
        let session = stubs.makeSession()
        #expect(await answer(session, "http://[::1]:8080/v6") == "v6 with port")
        #expect(await answerAsync(session, "http://[::1]/v6") == "v6 default port")
    }

    // MARK: Paths

    @Test func rootPath() async {
        let stubs = StubRegistry()
        stubs.stub(.get("https://api.example.com"), .text("root"))
        let session = stubs.makeSession()
        #expect(await answer(session, "https://api.example.com") == "root")
        #expect(await answerAsync(session, "https://api.example.com/") == "root")
        #expect(await answer(session, "https://api.example.com/x") == unmatched)
    }

    @Test func exactPath() async {
        let stubs = StubRegistry()
        stubs.stub(.get("/users/42"), .text("user 42"))
        let session = stubs.makeSession()
        #expect(await answer(session, "https://api.example.com/users/42") == "user 42")
        #expect(await answerAsync(session, "http://other.example.org:8080/users/42") == "user 42")
        #expect(await answer(session, "https://api.example.com/users/420") == unmatched)
        #expect(await answer(session, "https://api.example.com/users/42/posts") == unmatched)
        #expect(await answer(session, "https://api.example.com/users") == unmatched)
    }

    @Test func pathPrefix() async {
        let stubs = StubRegistry()
        stubs.stub(.get(.pathPrefix("/api/")), .text("api"))
        let session = stubs.makeSession()
        #expect(await answer(session, "https://api.example.com/api/v1/users") == "api")
        #expect(await answerAsync(session, "https://api.example.com/api/") == "api")
        #expect(await answer(session, "https://api.example.com/apix") == unmatched)
        #expect(await answer(session, "https://api.example.com/v1/api/") == unmatched)
    }

    @Test func pathRegexMustMatchTheWholePath() async {
        let stubs = StubRegistry()
        stubs.stub(.get(.pathMatching("/users/[0-9]+")), .text("numeric user"))
        let session = stubs.makeSession()
        #expect(await answer(session, "https://api.example.com/users/123") == "numeric user")
        #expect(await answerAsync(session, "https://api.example.com/users/7") == "numeric user")
        // Partial matches do not count.
        #expect(await answer(session, "https://api.example.com/users/123/posts") == unmatched)
        #expect(await answer(session, "https://api.example.com/v2/users/123") == unmatched)
        #expect(await answer(session, "https://api.example.com/users/abc") == unmatched)
    }

    @Test func uriTemplateCapturesReachComputedResponses() async throws {
        let stubs = StubRegistry()
        stubs.stub(
            .get("https://api.example.com/users/{id}/posts/{postID}"),
            .computed { request in
                .text(
                    request.pathParameters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(
                        separator: ","
                    )
                )
            }
        )
        let session = stubs.makeSession()
        #expect(await answer(session, "https://api.example.com/users/42/posts/7") == "id=42,postID=7")
        let (data, response) = try await session.data(
            for: URLRequest(url: URL(string: "https://api.example.com/users/ada/posts/first-post")!)
        )
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(String(decoding: data, as: UTF8.self) == "id=ada,postID=first-post")
        // A variable captures one non-empty segment.
        #expect(await answer(session, "https://api.example.com/users/42/posts/") == unmatched)
        #expect(await answer(session, "https://api.example.com/users/4/2/posts/7") == unmatched)
        #expect(await answer(session, "https://api.example.com/users/42/posts/7/comments") == unmatched)
    }

    @Test func uriTemplateLiteralPartsAreLiteral() async {
        let stubs = StubRegistry()
        stubs.stub(
            .get("/v1.0/reports/{name}.json"),
            .computed { .text("report \($0.pathParameters["name"] ?? "none")") }
        )
        let session = stubs.makeSession()
        #expect(await answer(session, "https://api.example.com/v1.0/reports/q3.json") == "report q3")
        #expect(await answer(session, "https://api.example.com/v1x0/reports/q3.json") == unmatched)
        #expect(await answerAsync(session, "https://api.example.com/v1.0/reports/q3xjson") == unmatched)
    }

    @Test func uriTemplateWithStubClosure() async {
        let stubs = StubRegistry()
        stubs.stub(.get("/users/{id}")) { request in
            .text("user \(request.pathParameters["id"] ?? "?")")
        }
        let session = stubs.makeSession()
        #expect(await answerAsync(session, "https://api.example.com/users/99") == "user 99")
    }

    @Test func greedyTemplateCapturesTheRestOfThePath() async {
        let stubs = StubRegistry()
        stubs.stub(.get("/files/{+path}"), .computed { .text($0.pathParameters["path"] ?? "none") })
        let session = stubs.makeSession()
        #expect(await answer(session, "https://cdn.example.com/files/a/b/c.txt") == "a/b/c.txt")
        #expect(await answerAsync(session, "https://cdn.example.com/files/readme") == "readme")
        #expect(await answer(session, "https://cdn.example.com/files/") == unmatched)
    }

    @Test func templateCapturesArePercentDecoded() async {
        let stubs = StubRegistry()
        stubs.stub(.get("/people/{name}"), .computed { .text("[\($0.pathParameters["name"] ?? "none")]") })
        let session = stubs.makeSession()
        #expect(await answer(session, "https://api.example.com/people/John%20Doe") == "[John Doe]")
        #expect(await answerAsync(session, "https://api.example.com/people/caf%C3%A9") == "[café]")
        #expect(await answer(session, "https://api.example.com/people/a%2Fb") == "[a/b]")
    }

    // MARK: Query

    @Test func queryValuesAreDecoded() async {
        let stubs = StubRegistry()
        stubs.stub(.get("/search?q=swift%20testing"), .text("found"))
        let session = stubs.makeSession()
        #expect(await answer(session, "https://api.example.com/search?q=swift%20testing") == "found")
        #expect(await answerAsync(session, "https://api.example.com/search?q=swift+testing") == "found")
        #expect(await answer(session, "https://api.example.com/search?q=swift") == unmatched)
        #expect(await answer(session, "https://api.example.com/search") == unmatched)
    }

    @Test func queryIsOrderInsensitiveAndAllowsOthers() async {
        let stubs = StubRegistry()
        stubs.stub(.get("https://api.example.com/list?a=1&b=2"), .text("a and b"))
        stubs.stub(.get("https://api.example.com/one?a=1"), .text("a"))
        let session = stubs.makeSession()
        #expect(await answer(session, "https://api.example.com/list?b=2&a=1") == "a and b")
        #expect(await answer(session, "https://api.example.com/list?a=1&c=3&b=2") == "a and b")
        #expect(await answer(session, "https://api.example.com/list?a=1") == unmatched)
        #expect(await answer(session, "https://api.example.com/list?a=1&b=3") == unmatched)
        // "These and maybe others".
        #expect(await answerAsync(session, "https://api.example.com/one?b=2&a=1") == "a")
        #expect(await answer(session, "https://api.example.com/one?a=2") == unmatched)
    }

    @Test func queryExactlyForbidsOthers() async {
        let stubs = StubRegistry()
        stubs.stub(.get("/exact").queryParameters(exactly: ["a": "1", "b": "two words"]), .text("exact"))
        let session = stubs.makeSession()
        #expect(await answer(session, "https://api.example.com/exact?b=two+words&a=1") == "exact")
        #expect(await answerAsync(session, "https://api.example.com/exact?a=1&b=two%20words") == "exact")
        #expect(await answer(session, "https://api.example.com/exact?a=1&b=two+words&c=3") == unmatched)
        #expect(await answer(session, "https://api.example.com/exact?a=1") == unmatched)
        #expect(await answer(session, "https://api.example.com/exact") == unmatched)
    }

    @Test func queryParameterEqualMatchingAndAbsent() async {
        let stubs = StubRegistry()
        stubs.stub(
            .get("/page").query("page", .matches("[0-9]+")).query("sort", "name").queryAbsent("debug"),
            .text("paged")
        )
        let session = stubs.makeSession()
        #expect(await answer(session, "https://api.example.com/page?page=12&sort=name") == "paged")
        #expect(await answer(session, "https://api.example.com/page?page=12a&sort=name") == unmatched)
        #expect(await answer(session, "https://api.example.com/page?page=12&sort=date") == unmatched)
        #expect(await answerAsync(session, "https://api.example.com/page?page=12&sort=name&debug=1") == unmatched)
        #expect(await answer(session, "https://api.example.com/page?page=12&sort=name&debug") == unmatched)
        #expect(await answer(session, "https://api.example.com/page?sort=name") == unmatched)
    }

    @Test func repeatedQueryValuesMatchWhenAnyValueDoes() async {
        let stubs = StubRegistry()
        stubs.stub(.get("/tags").query("tag", "swift"), .text("swift tagged"))
        let session = stubs.makeSession()
        #expect(await answer(session, "https://api.example.com/tags?tag=linux&tag=swift") == "swift tagged")
        #expect(await answerAsync(session, "https://api.example.com/tags?tag=swift&tag=linux") == "swift tagged")
        #expect(await answer(session, "https://api.example.com/tags?tag=linux&tag=rust") == unmatched)
    }

    // MARK: Headers

    @Test func headerNamesAreCaseInsensitive() async {
        let stubs = StubRegistry()
        stubs.stub(.get("/h").header("x-api-key", "secret"), .text("authorised"))
        let session = stubs.makeSession()
        #expect(
            await answer(session, request("GET", "https://api.example.com/h", headers: ["X-API-Key": "secret"]))
                == "authorised"
        )
        #expect(
            await answerAsync(session, request("GET", "https://api.example.com/h", headers: ["x-api-key": "secret"]))
                == "authorised"
        )
        #expect(
            await answer(session, request("GET", "https://api.example.com/h", headers: ["X-Api-Key": "SECRET"]))
                == unmatched
        )
        #expect(await answer(session, request("GET", "https://api.example.com/h")) == unmatched)
    }

    @Test func headerContainsRegexAndAbsent() async {
        let stubs = StubRegistry()
        stubs.stub(.get("/contains").header("Accept", .contains("json")), .text("json accepted"))
        stubs.stub(.get("/regex").header("Authorization", .matches("Bearer [a-z0-9]+")), .text("bearer"))
        stubs.stub(.get("/absent").headerAbsent("Authorization"), .text("anonymous"))
        let session = stubs.makeSession()
        let url = "https://api.example.com"
        #expect(
            await answer(session, request("GET", url + "/contains", headers: ["Accept": "application/json; q=1"]))
                == "json accepted"
        )
        #expect(await answer(session, request("GET", url + "/contains", headers: ["Accept": "text/html"])) == unmatched)
        #expect(
            await answerAsync(session, request("GET", url + "/regex", headers: ["Authorization": "Bearer abc123"]))
                == "bearer"
        )
        #expect(
            await answer(session, request("GET", url + "/regex", headers: ["Authorization": "Bearer ABC"])) == unmatched
        )
        #expect(
            await answer(session, request("GET", url + "/regex", headers: ["Authorization": "Bearer abc123 extra"]))
                == unmatched
        )
        #expect(await answer(session, request("GET", url + "/absent")) == "anonymous")
        #expect(
            await answerAsync(session, request("GET", url + "/absent", headers: ["authorization": "Basic x"]))
                == unmatched
        )
    }

    // MARK: Bodies

    @Test func exactBodyBytes() async {
        let stubs = StubRegistry()
        let bytes = Data([0x00, 0x01, 0xFE, 0xFF])
        stubs.stub(.post("/bytes").body(.equal(bytes)), .text("bytes"))
        let session = stubs.makeSession()
        var exact = URLRequest(url: URL(string: "https://api.example.com/bytes")!)
        exact.httpMethod = "POST"
        exact.httpBody = bytes
        #expect(await answer(session, exact) == "bytes")
        #expect(await answerAsync(session, exact) == "bytes")
        var longer = exact
        longer.httpBody = bytes + Data([0x00])
        #expect(await answer(session, longer) == unmatched)
        var none = exact
        none.httpBody = nil
        #expect(await answer(session, none) == unmatched)
    }

    @Test func bodyStringContainsAndRegex() async {
        let stubs = StubRegistry()
        stubs.stub(.post("/equal").body(.equal("hello world")), .text("equal"))
        stubs.stub(.post("/contains").body(.contains("needle")), .text("contains"))
        stubs.stub(.post("/regex").body(.matches(#"id=[0-9]{3}"#)), .text("regex"))
        stubs.stub(.post("/absent").body(.absent), .text("empty"))
        let session = stubs.makeSession()
        let url = "https://api.example.com"
        #expect(await answer(session, request("POST", url + "/equal", body: "hello world")) == "equal")
        #expect(await answer(session, request("POST", url + "/equal", body: "hello world!")) == unmatched)
        #expect(await answerAsync(session, request("POST", url + "/contains", body: "hay needle hay")) == "contains")
        #expect(await answer(session, request("POST", url + "/contains", body: "hay hay")) == unmatched)
        #expect(await answer(session, request("POST", url + "/regex", body: "id=123")) == "regex")
        #expect(await answer(session, request("POST", url + "/regex", body: "id=1234")) == unmatched)
        #expect(await answer(session, request("POST", url + "/absent")) == "empty")
        #expect(await answer(session, request("POST", url + "/absent", body: "x")) == unmatched)
    }

    @Test(
        "contains finds needles that overlap themselves, and a hostile body costs linear time",
        .timeLimit(.minutes(1))
    )
    func containsWithSelfOverlappingNeedles() async {
        let stubs = StubRegistry()
        let cases: [(needle: String, body: String, found: Bool)] = [
            ("aab", "aaab", true), ("abab", "abaabab", true), ("abac", "ababac", true), ("aaa", "aa", false),
            ("ab", "ba", false), ("é", "cafe\u{301}", false), ("\u{301}", "cafe\u{301}", true), ("x", "", false),
            (String(repeating: "a", count: 2_000) + "b", String(repeating: "a", count: 1_000_000), false),
            (String(repeating: "a", count: 2_000) + "b", String(repeating: "a", count: 1_000_000) + "b", true),
        ]
        for (index, item) in cases.enumerated() {
            stubs.stub(.post("/c/\(index)").body(.contains(item.needle)), .text("found"))
        }
        let session = stubs.makeSession()
        for (index, item) in cases.enumerated() {
            let answer = await answer(session, request("POST", "https://api.example.com/c/\(index)", body: item.body))
            #expect(
                (answer == "found") == item.found,
                "case \(index): \(item.needle.prefix(20)) in \(item.body.prefix(20))"
            )
        }
    }

    @Test("a body that is not UTF-8 never matches a text matcher, however permissive; an empty body is empty text")
    func binaryBodiesAreNotText() async {
        let stubs = StubRegistry()
        stubs.stub(.post("/text").body(.matches(".*")), .text("text"))
        let session = stubs.makeSession()
        var binary = URLRequest(url: URL(string: "https://api.example.com/text")!)
        binary.httpMethod = "POST"
        binary.httpBody = Data([0xFF, 0xFE, 0x00, 0x80])
        #expect(await answer(session, binary) == unmatched)
        var empty = binary
        empty.httpBody = Data()
        #expect(await answerAsync(session, empty) == "text")
        #expect(await answer(session, request("POST", "https://api.example.com/text", body: "hello")) == "text")
        stubs.stub(.get("/no-body").body(.text(.doesNotContain("secret"))), .text("no secret"))
        #expect(
            await answer(session, request("GET", "https://api.example.com/no-body")) == "no secret",
            "no body is empty text"
        )
    }

    @Test("contains compares code points, as WireMock (Java) does: no Unicode normalisation")
    func containsComparesCodePoints() async {
        let stubs = StubRegistry()
        stubs.stub(.post("/precomposed").body(.contains("caf\u{E9}")), .text("precomposed"))
        stubs.stub(.post("/not").body(.text(.doesNotContain("\u{E9}"))), .text("no precomposed é"))
        stubs.stub(.post("/header").header("X-Name", .contains("Zo\u{EB}")), .text("header"))
        let session = stubs.makeSession()
        let url = "https://api.example.com"
        #expect(
            await answer(session, request("POST", url + "/precomposed", body: "un caf\u{E9} noir")) == "precomposed"
        )
        #expect(
            await answerAsync(session, request("POST", url + "/precomposed", body: "un cafe\u{301} noir")) == unmatched,
            "the decomposed spelling has other code points"
        )
        #expect(await answer(session, request("POST", url + "/not", body: "cafe\u{301}")) == "no precomposed é")
        #expect(await answer(session, request("POST", url + "/not", body: "caf\u{E9}")) == unmatched)
        #expect(
            await answer(session, request("POST", url + "/header", headers: ["X-Name": "Zo\u{EB} Smith"])) == "header"
        )
        #expect(await answer(session, request("POST", url + "/header", headers: ["X-Name": "Zo"])) == unmatched)
    }

    @Test func formFields() async {
        let stubs = StubRegistry()
        stubs.stub(
            .post("/login").body(.form(["user": "ada lovelace", "code": .matches("[0-9]{4}")])),
            .text("logged in")
        )
        let session = stubs.makeSession()
        let url = "https://api.example.com/login"
        let form = ["Content-Type": "application/x-www-form-urlencoded"]
        #expect(
            await answer(session, request("POST", url, body: "code=1234&user=ada+lovelace&remember=1", headers: form))
                == "logged in"
        )
        #expect(
            await answerAsync(session, request("POST", url, body: "user=ada%20lovelace&code=9999", headers: form))
                == "logged in"
        )
        #expect(
            await answer(session, request("POST", url, body: "user=ada+lovelace&code=12", headers: form)) == unmatched
        )
        #expect(await answer(session, request("POST", url, body: "code=1234", headers: form)) == unmatched)
    }

    @Test func bodySentAsAStreamIsMatched() async {
        let stubs = StubRegistry()
        stubs.stub(.post("/stream").body(.equal("streamed payload")), .text("stream matched"))
        stubs.stub(.post("/stream").body(.equal("other")), .text("wrong stub"))
        let session = stubs.makeSession()
        var streamed = URLRequest(url: URL(string: "https://api.example.com/stream")!)
        streamed.httpMethod = "POST"
        streamed.httpBodyStream = InputStream(data: Data("streamed payload".utf8))
        #expect(await answer(session, streamed) == "stream matched")
        var again = URLRequest(url: URL(string: "https://api.example.com/stream")!)
        again.httpMethod = "POST"
        again.httpBodyStream = InputStream(data: Data("streamed payload".utf8))
        #expect(await answerAsync(session, again) == "stream matched")
        var mismatch = again
        mismatch.httpBodyStream = InputStream(data: Data("nope".utf8))
        #expect(await answer(session, mismatch) == unmatched)
    }

    // MARK: JSON bodies

    @Test func jsonKeyOrderAndNumberSpellingDoNotMatter() async {
        let stubs = StubRegistry()
        stubs.stub(
            .post("/orders").body(.json(["item": "book", "quantity": 1, "gift": false, "note": nil])),
            .text("json order")
        )
        let session = stubs.makeSession()
        let url = "https://api.example.com/orders"
        #expect(
            await answer(session, request("POST", url, body: #"{"item":"book","quantity":1,"gift":false,"note":null}"#))
                == "json order"
        )
        #expect(
            await answerAsync(
                session,
                request("POST", url, body: #"{ "note": null, "gift": false, "quantity": 1.0, "item": "book" }"#)
            ) == "json order"
        )
        #expect(
            await answer(
                session,
                request("POST", url, body: #"{"quantity":1e0,"item":"book","gift":false,"note":null}"#)
            ) == "json order"
        )
        #expect(
            await answer(session, request("POST", url, body: #"{"item":"book","quantity":2,"gift":false,"note":null}"#))
                == unmatched
        )
        #expect(
            await answer(
                session,
                request("POST", url, body: #"{"item":"book","quantity":"1","gift":false,"note":null}"#)
            ) == unmatched
        )
        #expect(
            await answer(session, request("POST", url, body: #"{"item":"book","quantity":1,"gift":false}"#))
                == unmatched
        )
        #expect(await answer(session, request("POST", url, body: "item=book")) == unmatched)
    }

    @Test func jsonBooleansAreNotNumbers() async {
        let stubs = StubRegistry()
        stubs.stub(.post("/flag").body(.json(["on": true])), .text("true"))
        stubs.stub(.post("/one").body(.json(["on": 1])), .text("one"))
        let session = stubs.makeSession()
        #expect(await answer(session, request("POST", "https://api.example.com/flag", body: #"{"on":true}"#)) == "true")
        #expect(await answer(session, request("POST", "https://api.example.com/flag", body: #"{"on":1}"#)) == unmatched)
        #expect(await answer(session, request("POST", "https://api.example.com/one", body: #"{"on":1}"#)) == "one")
        #expect(
            await answerAsync(session, request("POST", "https://api.example.com/one", body: #"{"on":true}"#))
                == unmatched
        )
    }

    @Test func jsonLargeIntegersAreExact() async {
        let stubs = StubRegistry()
        stubs.stub(.post("/big").body(.json(text: #"{"id":9007199254740993}"#)), .text("big"))
        let session = stubs.makeSession()
        #expect(
            await answer(session, request("POST", "https://api.example.com/big", body: #"{"id":9007199254740993}"#))
                == "big"
        )
        #expect(
            await answer(session, request("POST", "https://api.example.com/big", body: #"{"id":9007199254740992}"#))
                == unmatched
        )
    }

    @Test func jsonArrayOrderMattersUnlessIgnored() async {
        let stubs = StubRegistry()
        stubs.stub(.post("/strict").body(.json(["tags": ["a", "b", "b"]])), .text("strict"))
        stubs.stub(.post("/loose").body(.json(["tags": ["a", "b", "b"]], ignoreArrayOrder: true)), .text("loose"))
        let session = stubs.makeSession()
        let base = "https://api.example.com"
        #expect(await answer(session, request("POST", base + "/strict", body: #"{"tags":["a","b","b"]}"#)) == "strict")
        #expect(await answer(session, request("POST", base + "/strict", body: #"{"tags":["b","a","b"]}"#)) == unmatched)
        #expect(
            await answerAsync(session, request("POST", base + "/loose", body: #"{"tags":["b","b","a"]}"#)) == "loose"
        )
        // Ignoring order is not ignoring how many times an element appears.
        #expect(await answer(session, request("POST", base + "/loose", body: #"{"tags":["a","a","b"]}"#)) == unmatched)
        #expect(await answer(session, request("POST", base + "/loose", body: #"{"tags":["a","b"]}"#)) == unmatched)
    }

    @Test func jsonExtraMembersMatterUnlessIgnored() async {
        let stubs = StubRegistry()
        stubs.stub(.post("/strict").body(.json(["user": ["name": "Ada"]])), .text("strict"))
        stubs.stub(.post("/loose").body(.json(["user": ["name": "Ada"]], ignoreExtraMembers: true)), .text("loose"))
        let session = stubs.makeSession()
        let base = "https://api.example.com"
        let extra = #"{"user":{"name":"Ada","id":1},"trace":"x"}"#
        #expect(await answer(session, request("POST", base + "/strict", body: #"{"user":{"name":"Ada"}}"#)) == "strict")
        #expect(await answer(session, request("POST", base + "/strict", body: extra)) == unmatched)
        #expect(await answerAsync(session, request("POST", base + "/loose", body: extra)) == "loose")
        // Missing members still matter.
        #expect(await answer(session, request("POST", base + "/loose", body: #"{"user":{"id":1}}"#)) == unmatched)
    }

    @Test func jsonTextAndEncodable() async {
        let stubs = StubRegistry()
        stubs.stub(.post("/text").body(.json(text: #"{"a":[1,2,{"b":"caf\u00e9"}]}"#)), .text("from text"))
        stubs.stub(.post("/encoded").body(.json(encoding: User(id: 7, name: "Ada"))), .text("from encodable"))
        let session = stubs.makeSession()
        let base = "https://api.example.com"
        #expect(
            await answer(session, request("POST", base + "/text", body: #"{ "a" : [ 1, 2, { "b" : "café" } ] }"#))
                == "from text"
        )
        #expect(await answer(session, request("POST", base + "/text", body: #"{"a":[1,2,{"b":"cafe"}]}"#)) == unmatched)
        #expect(
            await answerAsync(session, request("POST", base + "/encoded", body: #"{"name":"Ada","id":7}"#))
                == "from encodable"
        )
        #expect(await answer(session, request("POST", base + "/encoded", body: #"{"name":"Ada","id":8}"#)) == unmatched)
    }

    @Test func invalidExpectedJSONIsReportedAndNeverMatches() async throws {
        let stubs = StubRegistry()
        let issues = Collected<StubDiagnostic>()
        stubs.onDiagnostic { issues.append($0) }
        let jsonLine = #line + 1
        stubs.stub(.post("/bad").body(.json(text: #"{"a": "#)), .text("bad"))
        let reported = issues.all.map(\.message)
        try #require(reported.count == 1)
        #expect(reported[0].contains("MatchingTests.swift:\(jsonLine):"), "\(reported[0])")
        #expect(reported[0].contains("is not JSON"), "\(reported[0])")
        let session = stubs.makeSession()
        #expect(await answer(session, request("POST", "https://api.example.com/bad", body: #"{"a":1}"#)) == unmatched)
        #expect(await answer(session, request("POST", "https://api.example.com/bad")) == unmatched)
        #expect(await answer(session, request("POST", "https://api.example.com/bad", body: #"{"a": "#)) == unmatched)
    }

    @Test func unencodableExpectedJSONIsReportedAndNeverMatches() async throws {
        let stubs = StubRegistry()
        let issues = Collected<StubDiagnostic>()
        stubs.onDiagnostic { issues.append($0) }
        let jsonLine = #line + 1
        stubs.stub(.post("/nan").body(.json(encoding: ["ratio": Double.nan])), .text("nan"))
        let reported = issues.all.map(\.message)
        try #require(reported.count == 1)
        #expect(reported[0].contains("MatchingTests.swift:\(jsonLine):"), "\(reported[0])")
        #expect(reported[0].contains("could not be encoded"), "\(reported[0])")
        let session = stubs.makeSession()
        #expect(
            await answer(session, request("POST", "https://api.example.com/nan", body: #"{"ratio":0}"#)) == unmatched
        )
        #expect(await answer(session, request("POST", "https://api.example.com/nan")) == unmatched)
    }

    // MARK: Custom and composed matchers

    @Test func customClosure() async {
        let stubs = StubRegistry()
        stubs.stub(
            .get("/custom").matching("has an even id") { request in
                request.queryValues("id").first.flatMap(Int.init).map { $0 % 2 == 0 } ?? false
            },
            .text("even")
        )
        let session = stubs.makeSession()
        #expect(await answer(session, "https://api.example.com/custom?id=4") == "even")
        #expect(await answerAsync(session, "https://api.example.com/custom?id=5") == unmatched)
        #expect(await answer(session, "https://api.example.com/custom") == unmatched)
    }

    @Test func allOfAnyOfAndNot() async {
        let stubs = StubRegistry()
        stubs.stub(RequestPattern([.anyOf([.path("/a"), .path("/b")])]), .text("a or b"))
        stubs.stub(RequestPattern([.path("/c"), .not(.method(.delete))]), .text("c but not delete"))
        stubs.stub(RequestPattern([.allOf([.path(.hasPrefix("/d")), .header("X-Flag", "on")])]), .text("d flagged"))
        let session = stubs.makeSession()
        let url = "https://api.example.com"
        #expect(await answer(session, url + "/a") == "a or b")
        #expect(await answerAsync(session, request("POST", url + "/b")) == "a or b")
        #expect(await answer(session, url + "/ab") == unmatched)
        #expect(await answer(session, request("PUT", url + "/c")) == "c but not delete")
        #expect(await answer(session, request("DELETE", url + "/c")) == unmatched)
        #expect(await answer(session, request("GET", url + "/d1", headers: ["X-Flag": "on"])) == "d flagged")
        #expect(await answer(session, request("GET", url + "/d1", headers: ["X-Flag": "off"])) == unmatched)
        #expect(await answer(session, request("GET", url + "/e", headers: ["X-Flag": "on"])) == unmatched)
    }

    @Test func anyOfCarriesTemplateCaptures() async {
        let stubs = StubRegistry()
        stubs.stub(
            RequestPattern([.anyOf([.pathTemplate("/v1/users/{id}"), .pathTemplate("/v2/members/{id}")])]),
            .computed { .text("id \($0.pathParameters["id"] ?? "none")") }
        )
        let session = stubs.makeSession()
        #expect(await answer(session, "https://api.example.com/v2/members/8") == "id 8")
        #expect(await answerAsync(session, "https://api.example.com/v1/users/3") == "id 3")
    }

    // MARK: Descriptions

    @Test func matcherDescriptionsAreReadable() {
        #expect(RequestMatcher.method(.get).description == "method GET")
        #expect(RequestMatcher.path(.equal("/users/42")).description == #"path = "/users/42""#)
        #expect(RequestMatcher.pathTemplate("/users/{id}").description == #"path template "/users/{id}""#)
        #expect(RequestMatcher.header("Accept", .contains("json")).description == #"header Accept contains "json""#)
        #expect(RequestMatcher.query("page", .matches("[0-9]+")).description == #"query page matches "[0-9]+""#)
        #expect(
            RequestMatcher.pathAndQuery(.matches("/v1/.*")).description == #"path and query matches "/v1/.*""#,
            "no doubled slashes; a URL pattern tests the query too"
        )
        #expect(RequestMatcher.headerAbsent("Authorization").description == "header Authorization absent")
        #expect(RequestMatcher.queryAbsent("debug").description == "query debug absent")
        #expect(RequestMatcher.port(8443).description == "port 8443")
        #expect(RequestMatcher.body(.contains("x")).description == #"body contains "x""#)
        #expect(RequestMatcher.body(.equal(Data([0xFF, 0xFE]))).description == "body = 2 bytes of binary data")
        #expect(RequestMatcher.not(.method(.delete)).description == "not (method DELETE)")
        #expect(RequestMatcher.anyOf([.path("/a"), .path("/b")]).description == #"(path = "/a" or path = "/b")"#)
        #expect(
            RequestMatcher.allOf([.method(.post), .header("X", .hasPrefix("y"))]).description
                == #"(method POST and header X starts with "y")"#
        )
        #expect(RequestMatcher.queryParameters(exactly: ["b": "2", "a": "1"]).description == "query exactly a=1&b=2")
        #expect(StringMatcher.equal("Ada", caseInsensitive: true).description == #"= "Ada" (ignoring case)"#)
        #expect(
            BodyMatcher.form(["user": "ada", "code": .matches("[0-9]+")]).description
                == #"form code matches "[0-9]+", user = "ada""#
        )
        #expect(
            BodyMatcher.json(["item": "book", "quantity": 1]).description == #"= JSON {"item":"book","quantity":1}"#
        )
        #expect(
            BodyMatcher.json(["tags": ["a"]], ignoreArrayOrder: true, ignoreExtraMembers: true).description
                == #"= JSON {"tags":["a"]} (ignoring array order) (ignoring extra members)"#
        )
        #expect(RequestMatcher.body(.json(text: "[1, 2.50]")).description == "body = JSON [1,2.50]")
        #expect(
            RequestPattern.get("https://api.example.com/users/{id}").description
                == #"method GET and scheme = "https" and host = "api.example.com" and port 443 and path template "/users/{id}""#
        )
        #expect(RequestPattern.anyRequest.description == "any request")
        #expect(
            RequestPattern.post("/orders").matching("is signed") { _ in true }.description
                == #"method POST and path = "/orders" and is signed"#
        )
    }

    // MARK: Broken regular expressions

    @Test func invalidRegexIsReportedAtItsLineAndNeverMatches() async throws {
        let stubs = StubRegistry()
        let issues = Collected<StubDiagnostic>()
        stubs.onDiagnostic { issues.append($0) }
        let regexLine = #line + 1
        let brokenHeader = StringMatcher.matches("[0-9")
        let id = stubs.stub(.get("/broken").header("X-Id", brokenHeader), .text("broken"))
        let reported = issues.all
        try #require(reported.count == 1)
        let message = reported[0].message
        #expect(message.contains("HTTPStubsTests/MatchingTests.swift:\(regexLine):"), "\(message)")
        #expect(message.contains("'[0-9'"), "\(message)")
        #expect(message.contains("a '[' is never closed"), "\(message)")
        #expect(message.contains("escape special characters"), "\(message)")
        #expect(reported[0].source.file == "HTTPStubsTests/MatchingTests.swift")
        #expect(reported[0].description.contains(": warning: "))
        // The stub is registered but never matches, whatever the header holds.
        #expect(stubs.stubs.map(\.id) == [id])
        let session = stubs.makeSession()
        #expect(
            await answer(session, request("GET", "https://api.example.com/broken", headers: ["X-Id": "[0-9"]))
                == unmatched
        )
        #expect(
            await answerAsync(session, request("GET", "https://api.example.com/broken", headers: ["X-Id": "5"]))
                == unmatched
        )
        #expect(stubs.useCount(of: id) == 0)
    }

    @Test func invalidPathRegexAndNegatedRegexAreReported() async throws {
        let stubs = StubRegistry()
        let issues = Collected<StubDiagnostic>()
        stubs.onDiagnostic { issues.append($0) }
        let pathLine = #line + 1
        stubs.stub(.get(.pathMatching("/users/(")), .text("path"))
        let negatedLine = #line + 1
        stubs.stub(.get("/neg").header("X", .doesNotMatch("a)")), .text("negated"))
        let reported = issues.all.map(\.message)
        try #require(reported.count == 2)
        #expect(reported[0].contains("MatchingTests.swift:\(pathLine):"), "\(reported[0])")
        #expect(reported[0].contains("a '(' is never closed"), "\(reported[0])")
        #expect(reported[1].contains("MatchingTests.swift:\(negatedLine):"), "\(reported[1])")
        #expect(reported[1].contains("a ')' has no matching '('"), "\(reported[1])")
        let session = stubs.makeSession()
        #expect(await answer(session, "https://api.example.com/users/(") == unmatched)
        // A broken "does not match" must not match everything either.
        #expect(
            await answerAsync(session, request("GET", "https://api.example.com/neg", headers: ["X": "b"])) == unmatched
        )
    }

    @Test func validPatternsReportNoIssues() {
        let stubs = StubRegistry()
        let issues = Collected<StubDiagnostic>()
        stubs.onDiagnostic { issues.append($0) }
        stubs.stub(.get(.pathMatching("/users/[0-9]+")).header("A", .matches("x|y")), .text("fine"))
        stubs.stub(.get("/users/{id}"), .text("fine"))
        #expect(issues.all.isEmpty)
    }
}

// MARK: - Helpers
