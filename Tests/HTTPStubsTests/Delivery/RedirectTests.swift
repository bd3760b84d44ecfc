import Foundation
import HTTPStubs
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Redirects answered by stubs are followed by the toolkit (corelibs traps on a protocol's
/// `wasRedirectedTo`), with the method and body rules URLSession applies on Apple platforms.
@Suite("Redirects")
struct RedirectTests {
    @Test(
        "a 3xx with Location is followed; the caller gets the final response and URL",
        arguments: [301, 302, 303, 307, 308]
    )
    func followsRedirect(_ status: Int) async throws {
        let stubs = StubRegistry()
        stubs.stub(.get("https://api.example.com/old"), .redirect(to: "https://cdn.example.com/new", status: status))
        stubs.stub(.get("https://cdn.example.com/new"), .text("moved here", status: 203).header("X-Served-By", "cdn"))
        let session = stubs.makeSession()

        let completion = await complete(session, "https://api.example.com/old")
        #expect(completion.error == nil)
        #expect(completion.status == 203)
        #expect(completion.text == "moved here")
        #expect(completion.response?.url == URL(string: "https://cdn.example.com/new"))
        #expect(completion.http?.value(forHTTPHeaderField: "X-Served-By") == "cdn")
        #expect(completion.http?.value(forHTTPHeaderField: "Location") == nil)

        let (data, response) = try await session.data(for: URLRequest(url: URL(string: "https://api.example.com/old")!))
        #expect(String(decoding: data, as: UTF8.self) == "moved here")
        #expect(response.url == URL(string: "https://cdn.example.com/new"))
        #expect((response as? HTTPURLResponse)?.statusCode == 203)

        // Each hop is journaled, in order.
        let urls = stubs.journal.map(\.request.url.absoluteString)
        #expect(
            urls == [
                "https://api.example.com/old", "https://cdn.example.com/new",
                "https://api.example.com/old", "https://cdn.example.com/new",
            ]
        )
        #expect(stubs.journal.allSatisfy { $0.stub != nil })
        // Each hop's entry has the response it was answered with: the redirect, then the answer.
        #expect(stubs.journal.map { $0.response?.status } == [status, 203, status, 203])
        #expect(stubs.journal.first?.response?.headers["Location"] == "https://cdn.example.com/new")
    }

    @Test("301 and 302 turn POST into GET and drop the body and its headers", arguments: [301, 302])
    func postBecomesGet(_ status: Int) async throws {
        let stubs = StubRegistry()
        stubs.stub(.post("https://api.example.com/form"), .redirect(to: "/thanks", status: status))
        stubs.stub(.get("https://api.example.com/thanks").body(.absent), .text("thank you"))
        let session = stubs.makeSession()
        let post = request(
            "POST",
            "https://api.example.com/form",
            body: "name=Ada",
            headers: ["Content-Type": "application/x-www-form-urlencoded", "X-Token": "t1"]
        )

        let completion = await complete(session, post)
        #expect(completion.text == "thank you")
        #expect(completion.response?.url == URL(string: "https://api.example.com/thanks"))
        let (data, _) = try await session.data(for: post)
        #expect(String(decoding: data, as: UTF8.self) == "thank you")

        let journal = stubs.journal
        try #require(journal.count == 4)
        for pair in [(journal[0], journal[1]), (journal[2], journal[3])] {
            #expect(pair.0.request.method == .post)
            #expect(pair.0.request.bodyText == "name=Ada")
            #expect(pair.1.request.method == .get)
            #expect(pair.1.request.body == nil)
            #expect(pair.1.request.header("Content-Type") == nil)
            #expect(pair.1.request.header("X-Token") == "t1", "other headers are kept")
        }
    }

    @Test("301 and 302 keep a PUT as it is, with its body", arguments: [301, 302])
    func putStaysPut(_ status: Int) async throws {
        let stubs = StubRegistry()
        stubs.stub(.put("https://api.example.com/doc"), .redirect(to: "/doc/v2", status: status))
        stubs.stub(.put("https://api.example.com/doc/v2").body(.equal("content")), .status(204))
        let session = stubs.makeSession()

        #expect(await complete(session, request("PUT", "https://api.example.com/doc", body: "content")).status == 204)
        let (_, response) = try await session.data(for: request("PUT", "https://api.example.com/doc", body: "content"))
        #expect((response as? HTTPURLResponse)?.statusCode == 204)
        #expect(
            stubs.requests(to: .put, "https://api.example.com/doc/v2").map(\.request.bodyText) == [
                "content", "content",
            ]
        )
    }

    @Test("303 turns PUT (and POST, DELETE) into GET without a body", arguments: ["PUT", "POST", "DELETE"])
    func seeOther(_ method: String) async throws {
        let stubs = StubRegistry()
        stubs.stub(.anyMethod("https://api.example.com/jobs"), .redirect(to: "/jobs/7/status", status: 303))
        stubs.stub(.get("https://api.example.com/jobs/7/status"), .json(text: #"{"state":"queued"}"#))
        let session = stubs.makeSession()

        let completion = await complete(
            session,
            request(
                method,
                "https://api.example.com/jobs",
                body: #"{"run":true}"#,
                headers: ["Content-Type": "application/json"]
            )
        )
        #expect(completion.text == #"{"state":"queued"}"#)
        let (data, response) = try await session.data(for: request(method, "https://api.example.com/jobs", body: "x"))
        #expect(String(decoding: data, as: UTF8.self) == #"{"state":"queued"}"#)
        #expect(response.url == URL(string: "https://api.example.com/jobs/7/status"))

        let hops = stubs.requests(to: .get, "https://api.example.com/jobs/7/status")
        #expect(hops.count == 2)
        #expect(hops.allSatisfy { $0.request.body == nil && $0.request.header("Content-Type") == nil })
    }

    @Test("303 keeps HEAD as HEAD")
    func seeOtherHead() async throws {
        let stubs = StubRegistry()
        stubs.stub(.head("https://api.example.com/thing"), .redirect(to: "/other", status: 303))
        stubs.stub(.head("https://api.example.com/other"), .status(200, headers: ["X-Found": "yes"]))
        let session = stubs.makeSession()
        let completion = await complete(session, request("HEAD", "https://api.example.com/thing"))
        #expect(completion.http?.value(forHTTPHeaderField: "X-Found") == "yes")
        #expect(stubs.journal.map(\.request.method) == [.head, .head])
    }

    @Test("307 and 308 keep the method and the body", arguments: [307, 308])
    func keepsMethodAndBody(_ status: Int) async throws {
        let stubs = StubRegistry()
        stubs.stub(
            .post("https://api.example.com/upload"),
            .redirect(to: "https://storage.example.com/upload", status: status)
        )
        stubs.stub(
            .post("https://storage.example.com/upload").body(.equal("payload-bytes")),
            .text("stored", status: 201)
        )
        let session = stubs.makeSession()
        let post = request(
            "POST",
            "https://api.example.com/upload",
            body: "payload-bytes",
            headers: ["Content-Type": "application/octet-stream"]
        )

        let completion = await complete(session, post)
        #expect(completion.status == 201)
        #expect(completion.text == "stored")
        let (data, response) = try await session.data(for: post)
        #expect(String(decoding: data, as: UTF8.self) == "stored")
        #expect(response.url == URL(string: "https://storage.example.com/upload"))

        let hops = stubs.requests(to: .post, "https://storage.example.com/upload")
        #expect(hops.count == 2)
        #expect(
            hops.allSatisfy {
                $0.request.bodyText == "payload-bytes"
                    && $0.request.header("Content-Type") == "application/octet-stream"
            }
        )
    }

    @Test(
        "a relative Location resolves against the request URL",
        arguments: [
            ("next", "https://api.example.com/a/b/next"),
            ("../up", "https://api.example.com/a/up"),
            ("/root?x=1", "https://api.example.com/root?x=1"),
            ("//other.example.com/p", "https://other.example.com/p"),
            ("?page=2", "https://api.example.com/a/b/c?page=2"),
        ]
    )
    func relativeLocation(_ location: String, _ expected: String) async throws {
        let stubs = StubRegistry()
        stubs.stub(.get("https://api.example.com/a/b/c").queryAbsent("page"), .redirect(to: location), priority: 1)
        stubs.stub(.anyRequest, .computed { request in .text(request.url.absoluteString) })
        let session = stubs.makeSession()

        let completion = await complete(session, "https://api.example.com/a/b/c")
        #expect(completion.text == expected)
        #expect(completion.response?.url?.absoluteString == expected)
        let (_, response) = try await session.data(from: URL(string: "https://api.example.com/a/b/c")!)
        #expect(response.url?.absoluteString == expected)
    }

    @Test("a chain of several hops is followed and each hop is journaled")
    func chain() async throws {
        let stubs = StubRegistry()
        stubs.stub(.get("https://api.example.com/hop/1"), .redirect(to: "/hop/2", status: 301))
        stubs.stub(.get("https://api.example.com/hop/2"), .redirect(to: "https://b.example.com/hop/3", status: 302))
        stubs.stub(.get("https://b.example.com/hop/3"), .redirect(to: "/hop/4", status: 307))
        stubs.stub(.get("https://b.example.com/hop/4"), .redirect(to: "https://api.example.com/end", status: 308))
        stubs.stub(.get("https://api.example.com/end"), .json(User(id: 4, name: "Hops")))
        let session = stubs.makeSession()

        let completion = await complete(session, "https://api.example.com/hop/1")
        #expect(try JSONDecoder().decode(User.self, from: #require(completion.data)) == User(id: 4, name: "Hops"))
        #expect(completion.response?.url == URL(string: "https://api.example.com/end"))
        let expectedHops = [
            "https://api.example.com/hop/1", "https://api.example.com/hop/2", "https://b.example.com/hop/3",
            "https://b.example.com/hop/4", "https://api.example.com/end",
        ]
        #expect(stubs.journal.map(\.request.url.absoluteString) == expectedHops)
        #expect(stubs.journal.map(\.id) == [1, 2, 3, 4, 5])

        stubs.clearJournal()
        let (data, response) = try await session.data(
            for: URLRequest(url: URL(string: "https://api.example.com/hop/1")!)
        )
        #expect(try JSONDecoder().decode(User.self, from: data) == User(id: 4, name: "Hops"))
        #expect(response.url == URL(string: "https://api.example.com/end"))
        #expect(stubs.journal.map(\.request.url.absoluteString) == expectedHops)
    }

    @Test("delays of every hop add up")
    func delayedHops() async throws {
        let stubs = StubRegistry()
        stubs.stub(.get("https://api.example.com/slow/1"), .redirect(to: "/slow/2").delayed(by: .milliseconds(60)))
        stubs.stub(.get("https://api.example.com/slow/2"), .text("done").delayed(by: .milliseconds(60)))
        let session = stubs.makeSession()
        let clock = ContinuousClock()
        let start = clock.now
        let (data, _) = try await session.data(from: URL(string: "https://api.example.com/slow/1")!)
        #expect(String(decoding: data, as: UTF8.self) == "done")
        #expect(clock.now - start >= .milliseconds(120))
    }

    @Test("each hop's answer restarts the request's idle timeout, as a new response from a server does")
    func hopsRestartTimeout() async throws {
        let stubs = StubRegistry()
        stubs.stub(.get("https://api.example.com/hop/1"), .redirect(to: "/hop/2").delayed(by: .milliseconds(200)))
        stubs.stub(.get("https://api.example.com/hop/2"), .text("arrived").delayed(by: .milliseconds(200)))
        let session = stubs.makeSession()
        var request = URLRequest(url: URL(string: "https://api.example.com/hop/1")!)
        request.timeoutInterval = 0.35

        let completion = await complete(session, request)
        #expect(completion.error == nil)
        #expect(completion.text == "arrived")
        // Each hop alone is well within the timeout.
        var single = URLRequest(url: URL(string: "https://api.example.com/hop/2")!)
        single.timeoutInterval = 0.35
        #expect(await complete(session, single).text == "arrived")
    }

    @Test("16 redirects are followed")
    func sixteenRedirects() async throws {
        let stubs = StubRegistry()
        stubs.stub(
            .get("https://api.example.com/r/{n}"),
            .computed { request in
                let n = Int(request.pathParameters["n"] ?? "") ?? 0
                return n < 16 ? .redirect(to: "/r/\(n + 1)") : .text("arrived at \(n)")
            }
        )
        let session = stubs.makeSession()

        let completion = await complete(session, "https://api.example.com/r/0")
        #expect(completion.text == "arrived at 16")
        #expect(stubs.journal.count == 17)
        let (data, _) = try await session.data(from: URL(string: "https://api.example.com/r/0")!)
        #expect(String(decoding: data, as: UTF8.self) == "arrived at 16")
    }

    @Test("more than 16 redirects fail with URLError(.httpTooManyRedirects)")
    func tooManyRedirects() async throws {
        let stubs = StubRegistry()
        stubs.stub(
            .get("https://api.example.com/r/{n}"),
            .computed { request in
                let n = Int(request.pathParameters["n"] ?? "") ?? 0
                return n < 17 ? .redirect(to: "/r/\(n + 1)") : .text("arrived at \(n)")
            }
        )
        stubs.stub(.get("https://api.example.com/loop"), .redirect(to: "/loop", status: 307))
        let session = stubs.makeSession()

        let completion = await complete(session, "https://api.example.com/r/0")
        let error = try #require(completion.urlError)
        #expect(error.code == .httpTooManyRedirects)
        #expect(completion.response == nil)
        #expect(error.failingURL != nil)

        let loop = try #require(
            await asyncError(session, URLRequest(url: URL(string: "https://api.example.com/loop")!)) as? URLError
        )
        #expect(loop.code == .httpTooManyRedirects)
        #expect(loop.failingURL == URL(string: "https://api.example.com/loop"))
        #expect(loop.localizedDescription.contains("https://api.example.com/loop"))
    }

    @Test("followsRedirects = false delivers the 3xx itself", arguments: [301, 302, 303, 307, 308])
    func notFollowing(_ status: Int) async throws {
        let stubs = StubRegistry()
        stubs.followsRedirects = false
        stubs.stub(.post("https://api.example.com/old"), .redirect(to: "/new", status: status).header("X-Why", "moved"))
        stubs.stub(.anyMethod("https://api.example.com/new"), .text("should not be reached"))
        let session = stubs.makeSession()
        let post = request("POST", "https://api.example.com/old", body: "b")

        let completion = await complete(session, post)
        #expect(completion.status == status)
        #expect(completion.http?.value(forHTTPHeaderField: "Location") == "/new")
        #expect(completion.http?.value(forHTTPHeaderField: "X-Why") == "moved")
        #expect(completion.response?.url == URL(string: "https://api.example.com/old"))

        let (_, response) = try await session.data(for: post)
        #expect((response as? HTTPURLResponse)?.statusCode == status)
        #expect((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "location") == "/new")
        #expect(stubs.journal.count == 2)
        #expect(stubs.requests(to: .get, "https://api.example.com/new").isEmpty)
        #expect(stubs.requests(to: .post, "https://api.example.com/new").isEmpty)
    }

    @Test(
        "a 3xx without Location, and 300/304, are delivered as they are",
        arguments: [
            (302, false), (301, false), (300, true), (304, true),
        ]
    )
    func notARedirect(_ status: Int, _ withLocation: Bool) async throws {
        let stubs = StubRegistry()
        let headers: HeaderFields = withLocation ? ["Location": "/elsewhere"] : [:]
        stubs.stub(.get("https://api.example.com/odd"), .status(status, headers: headers))
        stubs.stub(.get("https://api.example.com/elsewhere"), .text("followed"))
        let session = stubs.makeSession()

        let completion = await complete(session, "https://api.example.com/odd")
        #expect(completion.status == status)
        #expect(completion.text != "followed")
        #expect(stubs.journal.count == 1)
    }

    @Test("a redirect to an unstubbed URL fails with the unmatched report")
    func redirectToUnstubbed() async throws {
        let stubs = StubRegistry()
        stubs.stub(.get("https://api.example.com/start"), .redirect(to: "/nowhere"))
        let session = stubs.makeSession()

        let completion = await complete(session, "https://api.example.com/start")
        let error = try #require(completion.urlError)
        #expect(error.code == .resourceUnavailable)
        #expect(error.failingURL == URL(string: "https://api.example.com/nowhere"))
        #expect(error.localizedDescription.contains("Unmatched request: GET https://api.example.com/nowhere"))
        #expect(completion.response == nil)

        let asyncFailure = try #require(
            await asyncError(session, URLRequest(url: URL(string: "https://api.example.com/start")!)) as? URLError
        )
        #expect(asyncFailure.code == .resourceUnavailable)
        #expect(asyncFailure.localizedDescription.contains("https://api.example.com/nowhere"))

        let journal = stubs.journal
        #expect(journal.count == 4)
        #expect(journal.map(\.isUnmatched) == [false, true, false, true])
        #expect(
            stubs.unmatchedRequests.map(\.request.url.absoluteString) == [
                "https://api.example.com/nowhere", "https://api.example.com/nowhere",
            ]
        )
    }

    @Test("path parameters come from the hop's own stub")
    func pathParametersPerHop() async throws {
        let stubs = StubRegistry()
        stubs.stub(
            .get("https://api.example.com/users/{name}"),
            .computed { request in
                .redirect(to: "/profiles/\(request.pathParameters["name"] ?? "?")/card")
            }
        )
        stubs.stub(
            .get("https://api.example.com/profiles/{who}/card"),
            .computed { request in
                .text(
                    "card of \(request.pathParameters["who"] ?? "?"); name=\(request.pathParameters["name"] ?? "none")"
                )
            }
        )
        let session = stubs.makeSession()
        #expect(await complete(session, "https://api.example.com/users/ada").text == "card of ada; name=none")
    }
}
