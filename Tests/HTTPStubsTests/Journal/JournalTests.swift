import Foundation
import HTTPStubs
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The journal: every intercepted request, what it carried, and which stub answered it.
@Suite struct JournalTests {
    @Test func journalsMethodURLHeadersBodyTimeAndStub() async throws {
        let stubs = StubRegistry()
        let orders = stubs.stub(.post("https://api.example.com/orders"), .status(201))
        let session = stubs.makeSession()
        let before = Date()
        let sent = request(
            "POST",
            "https://api.example.com/orders?source=app",
            body: #"{"item":"book"}"#,
            headers: ["Content-Type": "application/json", "X-Trace": "t-1"]
        )
        #expect(await complete(session, sent).status == 201)
        let after = Date()

        let journal = stubs.journal
        try #require(journal.count == 1)
        let entry = journal[0]
        #expect(entry.id == 1)
        #expect(entry.request.method == .post)
        #expect(entry.request.url.absoluteString == "https://api.example.com/orders?source=app")
        #expect(entry.request.headers["content-type"] == "application/json")
        #expect(entry.request.header("X-Trace") == "t-1")
        #expect(entry.request.body == Data(#"{"item":"book"}"#.utf8))
        #expect(entry.request.bodyText == #"{"item":"book"}"#)
        #expect(entry.request.bodyUnavailableReason == nil)
        #expect(entry.date >= before && entry.date <= after)
        #expect(entry.stub?.id == orders)
        #expect(entry.stub?.source.file == "HTTPStubsTests/JournalTests.swift")
        #expect(!entry.isUnmatched)
        #expect(entry.description == "#1 POST https://api.example.com/orders?source=app → \(orders)")
        #expect("\(orders)" == "\(try #require(entry.stub?.source))", "a stub is named by the place it was written")
    }

    @Test("a request's header fields are journaled sorted by name, however many it has", arguments: [0, 1, 2, 5])
    func journalsHeaderFieldsSortedByName(_ count: Int) async throws {
        let stubs = StubRegistry()
        stubs.stub(.get("https://api.example.com/items"), .status(204))
        let session = stubs.makeSession()
        let names = Array(["X-Zeta", "Accept", "X-Mid", "Authorization", "X-Alpha"].prefix(count))
        var sent = URLRequest(url: URL(string: "https://api.example.com/items")!)
        for name in names { sent.setValue("v-\(name)", forHTTPHeaderField: name) }
        #expect(await complete(session, sent).status == 204)
        let fields = try #require(stubs.journal.last).request.headers.fields
        #expect(fields.map(\.name) == names.sorted())
        #expect(fields.allSatisfy { $0.value == "v-\($0.name)" })
    }

    @Test func journalsTheStubThatAnsweredEachRequest() async throws {
        let stubs = StubRegistry()
        let users = stubs.stub(.get("/users/{id}"), .text("user"))
        let fallback = stubs.add(Stub(.anyMethod(.pathPrefix("/")), .status(404)).priority(9).named("fallback"))
        let session = stubs.makeSession()
        _ = await complete(session, "https://api.example.com/users/1")
        _ = try await session.data(for: URLRequest(url: URL(string: "https://api.example.com/teams/1")!))
        _ = await complete(session, "https://api.example.com/users/2")
        let journal = stubs.journal
        try #require(journal.count == 3)
        #expect(journal.map(\.stub?.id) == [users, fallback, users])
        #expect(journal.map(\.id) == [1, 2, 3])
        #expect(journal.map(\.request.url.path) == ["/users/1", "/teams/1", "/users/2"])
        #expect(journal[1].stub?.name == "fallback")
        #expect(journal[1].stub?.description.hasPrefix(#""fallback" (HTTPStubsTests/JournalTests.swift:"#) == true)
    }

    @Test("a journaled stub dumps as its identity, name and source")
    func stubSummaryReflectsItsFields() async throws {
        let stubs = StubRegistry()
        let id = stubs.add(Stub(.get("/users/1"), .text("user")).named("one user"))
        _ = await complete(stubs.makeSession(), "https://api.example.com/users/1")
        let summary = try #require(stubs.journal.first?.stub)
        #expect(Mirror(reflecting: summary).children.map(\.label) == ["id", "name", "source"])
        var dumped = ""
        dump(summary, to: &dumped)
        #expect(dumped.contains(#""one user""#), "\(dumped)")
        #expect(dumped.contains("\(id)"), "\(dumped)")
    }

    @Test func journalsUnmatchedRequests() async throws {
        let stubs = StubRegistry()
        stubs.stub(.get("/known"), .text("known"))
        let session = stubs.makeSession()
        _ = await complete(session, "https://api.example.com/known")
        _ = await complete(session, request("DELETE", "https://api.example.com/unknown"))
        await #expect(throws: URLError.self) {
            _ = try await session.data(for: URLRequest(url: URL(string: "https://api.example.com/missing")!))
        }
        let journal = stubs.journal
        try #require(journal.count == 3)
        #expect(journal.map(\.isUnmatched) == [false, true, true])
        #expect(journal[1].stub == nil)
        #expect(journal[1].request.method == .delete)
        #expect(journal[1].description == "#2 DELETE https://api.example.com/unknown → unmatched")
        #expect(stubs.unmatchedRequests.map(\.request.url.path) == ["/unknown", "/missing"])
    }

    @Test func streamedBodyIsReadOnceAndKept() async throws {
        let stubs = StubRegistry()
        let seen = Collected<URLRequest>()
        stubs.observeRequests { seen.append($0) }
        stubs.stub(
            .post("/stream").body(.contains("payload")),
            .computed { request in
                .text("echo \(request.bodyText ?? "nil")")
            }
        )
        let session = stubs.makeSession()
        var streamed = URLRequest(url: URL(string: "https://api.example.com/stream")!)
        streamed.httpMethod = "POST"
        streamed.httpBodyStream = InputStream(data: Data("streamed payload".utf8))
        #expect(await complete(session, streamed).text == "echo streamed payload")

        var again = URLRequest(url: URL(string: "https://api.example.com/stream")!)
        again.httpMethod = "POST"
        again.httpBodyStream = InputStream(data: Data("second payload".utf8))
        let (data, _) = try await session.data(for: again)
        #expect(String(decoding: data, as: UTF8.self) == "echo second payload")

        #expect(stubs.journal.map(\.request.bodyText) == ["streamed payload", "second payload"])
        #expect(stubs.journal.allSatisfy { $0.request.bodyUnavailableReason == nil })
        #expect(
            seen.all.map { $0.httpBody.map { String(decoding: $0, as: UTF8.self) } } == [
                "streamed payload", "second payload",
            ]
        )
        #expect(seen.all.allSatisfy { $0.httpBodyStream == nil })
    }

    @Test func uploadTaskBodyIsRecovered() async throws {
        let stubs = StubRegistry()
        let seen = Collected<URLRequest>()
        stubs.observeRequests { seen.append($0) }
        let upload = stubs.stub(.post("/upload").body(.equal("uploaded bytes")), .text("upload matched"))
        let session = stubs.makeSession()
        var post = URLRequest(url: URL(string: "https://api.example.com/upload")!)
        post.httpMethod = "POST"
        let completion = await sendUpload(session, post, from: Data("uploaded bytes".utf8))
        #expect(completion.text == "upload matched")
        let entry = try #require(stubs.journal.last)
        #expect(entry.request.body == Data("uploaded bytes".utf8))
        #expect(entry.request.bodyUnavailableReason == nil)
        #expect(entry.stub?.id == upload)
        #expect(seen.all.map(\.httpBody) == [Data("uploaded bytes".utf8)])
    }

    @Test func asyncUploadBodyIsRecovered() async throws {
        let stubs = StubRegistry()
        let upload = stubs.stub(.put("/upload").body(.equal("async bytes")), .text("async upload matched"))
        let session = stubs.makeSession()
        var put = URLRequest(url: URL(string: "https://api.example.com/upload")!)
        put.httpMethod = "PUT"
        let (data, _) = try await session.upload(for: put, from: Data("async bytes".utf8))
        #expect(String(decoding: data, as: UTF8.self) == "async upload matched")
        let entry = try #require(stubs.journal.last)
        #expect(entry.request.body == Data("async bytes".utf8))
        #expect(entry.request.bodyUnavailableReason == nil)
        #expect(entry.stub?.id == upload)
    }

    @Test func uploadFromFileBodyIsRecovered() async throws {
        let stubs = StubRegistry()
        let upload = stubs.stub(.post("/file").body(.equal("file contents")), .text("file matched"))
        let session = stubs.makeSession()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "journal-upload-\(UUID().uuidString).txt"
        )
        try Data("file contents".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        var post = URLRequest(url: URL(string: "https://api.example.com/file")!)
        post.httpMethod = "POST"
        let completion = await withCheckedContinuation { (continuation: CheckedContinuation<Completion, Never>) in
            session.uploadTask(with: post, fromFile: file) { data, response, error in
                continuation.resume(returning: Completion(data: data, response: response, error: error))
            }.resume()
        }
        #expect(completion.text == "file matched")
        let entry = try #require(stubs.journal.last)
        #expect(entry.request.body == Data("file contents".utf8))
        #expect(entry.stub?.id == upload)
    }

    @Test func unreadableUploadBodyIsJournaledWithTheReason() async throws {
        let stubs = StubRegistry()
        stubs.stub(.post("/file").body(.equal("x")), .text("file matched"))
        let session = stubs.makeSession()
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent(
            "journal-missing-\(UUID().uuidString).txt"
        )
        var post = URLRequest(url: URL(string: "https://api.example.com/file")!)
        post.httpMethod = "POST"
        let completion = await withCheckedContinuation { (continuation: CheckedContinuation<Completion, Never>) in
            session.uploadTask(with: post, fromFile: missing) { data, response, error in
                continuation.resume(returning: Completion(data: data, response: response, error: error))
            }.resume()
        }
        let entry = try #require(stubs.journal.last)
        #expect(entry.request.body == nil)
        let reason = try #require(entry.request.bodyUnavailableReason)
        #expect(reason.contains("hides upload bodies from a URLProtocol"))
        #expect(reason.contains("its file does not exist"))
        // A body matcher cannot match what it cannot read, and the report says why.
        #expect(entry.isUnmatched)
        let report = try #require(completion.urlError)
        #expect(report.code == .resourceUnavailable)
        #expect(report.localizedDescription.contains("  Body: unreadable (\(reason))"))
        #expect(report.localizedDescription.contains(#"✗ body = "x": the body could not be read: "#))
    }

    @Test func requestsMatchingAndTo() async throws {
        let stubs = StubRegistry()
        stubs.stub(.anyMethod(.pathPrefix("/")), .status(200))
        let session = stubs.makeSession()
        _ = await complete(session, request("POST", "https://api.example.com/orders", body: #"{"item":"book"}"#))
        _ = await complete(session, request("POST", "https://api.example.com/orders", body: #"{"item":"pen"}"#))
        _ = try await session.data(for: request("GET", "https://api.example.com/orders"))
        _ = await complete(session, request("POST", "https://api.example.com/orders/1/cancel"))
        _ = await complete(session, request("POST", "https://other.example.com/orders", headers: ["X-Tenant": "b"]))

        #expect(stubs.journal.count == 5)
        // A path-only URL pattern matches any host.
        #expect(stubs.requests(to: .post, "/orders").count == 3)
        #expect(stubs.requests(to: .post, "https://api.example.com/orders").count == 2)
        #expect(stubs.requests(to: .get, "/orders").count == 1)
        #expect(stubs.requests(to: .delete, "/orders").isEmpty)
        let pens = stubs.requests(matching: .post("/orders").body(.contains("pen")))
        #expect(pens.map(\.id) == [2])
        #expect(
            stubs.requests(matching: .post(.pathPrefix("/orders/"))).map(\.request.url.path) == ["/orders/1/cancel"]
        )
        #expect(
            stubs.requests(matching: RequestPattern().header("x-tenant", "b")).map(\.request.url.host) == [
                "other.example.com"
            ]
        )
        #expect(stubs.requests(matching: .anyRequest).count == 5)
    }

    @Test func useCountsAndUnusedStubs() async throws {
        let stubs = StubRegistry()
        let users = stubs.stub(.get("/users"), .text("users"))
        let teams = stubs.stub(.get("/teams"), .text("teams"))
        let never = stubs.stub(.get("/never"), .text("never"))
        let session = stubs.makeSession()
        #expect(Set(stubs.unusedStubs.map(\.id)) == [users, teams, never])
        _ = await complete(session, "https://api.example.com/users")
        _ = try await session.data(for: URLRequest(url: URL(string: "https://api.example.com/users")!))
        _ = await complete(session, "https://api.example.com/teams")
        _ = await complete(session, "https://api.example.com/nothing")
        #expect(stubs.useCount(of: users) == 2)
        #expect(stubs.useCount(of: teams) == 1)
        #expect(stubs.useCount(of: never) == 0)
        #expect(stubs.useCount(of: Stub.ID("no-such-stub")) == 0)
        #expect(stubs.unusedStubs.map(\.id) == [never])
        #expect(stubs.unmatchedRequests.count == 1)
    }

    @Test func clearJournal() async throws {
        let stubs = StubRegistry()
        stubs.stub(.get("/a"), .text("a"))
        let session = stubs.makeSession()
        _ = await complete(session, "https://api.example.com/a")
        _ = await complete(session, "https://api.example.com/b")
        #expect(stubs.journal.count == 2)
        #expect(stubs.unmatchedRequests.count == 1)
        stubs.clearJournal()
        #expect(stubs.journal.isEmpty)
        #expect(stubs.unmatchedRequests.isEmpty)
        #expect(stubs.requests(to: .get, "/a").isEmpty)
        // The stubs stay, and new requests are journaled again.
        #expect(stubs.stubs.count == 1)
        #expect(await complete(session, "https://api.example.com/a").text == "a")
        #expect(stubs.journal.count == 1)
        #expect(stubs.journal.first?.request.url.path == "/a")
    }

    @Test func observersSeeEveryRequestWithItsBody() async throws {
        let stubs = StubRegistry()
        let seen = Collected<URLRequest>()
        stubs.observeRequests { seen.append($0) }
        stubs.stub(.post("/notes"), .status(201))
        let session = stubs.makeSession()
        _ = await complete(
            session,
            request("POST", "https://api.example.com/notes", body: "note one", headers: ["X-Trace": "t-9"])
        )
        _ = try await session.data(for: request("POST", "https://api.example.com/notes", body: "note two"))
        _ = await complete(session, "https://api.example.com/unmatched")
        let observed = seen.all
        try #require(observed.count == 3)
        #expect(observed.map(\.url?.path) == ["/notes", "/notes", "/unmatched"])
        #expect(observed.map(\.httpMethod) == ["POST", "POST", "GET"])
        #expect(observed[0].httpBody == Data("note one".utf8))
        #expect(observed[0].value(forHTTPHeaderField: "x-trace") == "t-9")
        #expect(observed[1].httpBody == Data("note two".utf8))
        #expect(observed[2].httpBody == nil)
    }

    @Test func resetForgetsObservers() async {
        let stubs = StubRegistry()
        let seen = Collected<URLRequest>()
        stubs.observeRequests { seen.append($0) }
        stubs.reset()
        stubs.stub(.get("/a"), .text("a"))
        #expect(await complete(stubs.makeSession(), "https://api.example.com/a").text == "a")
        #expect(seen.all.isEmpty)
        #expect(stubs.journal.count == 1)
    }
}

/// Sends a body through `uploadTask(with:from:completionHandler:)` and waits for the completion handler.
private func sendUpload(_ session: URLSession, _ request: URLRequest, from body: Data) async -> Completion {
    await withCheckedContinuation { continuation in
        session.uploadTask(with: request, from: body) { data, response, error in
            continuation.resume(returning: Completion(data: data, response: response, error: error))
        }.resume()
    }
}
