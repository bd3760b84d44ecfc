import Foundation
import HTTPStubs
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The Swift code of `Sources/HTTPStubs/HTTPStubs.docc/Journal.md`, run as the article says it runs.
@Suite("Docs: Journal")
struct JournalSnippetTests {
    @Test("the journal and the queries over it")
    func queries() async throws {
        let stubs = StubRegistry()
        let id = stubs.stub(.post("/orders"), .status(201))
        stubs.stub(.anyMethod("https://api.example.com/users/42"), .json(User(id: 42, name: "Ada")))
        stubs.stub(.get("/never"), .ok)
        let session = stubs.makeSession()
        _ = await complete(session, request("POST", "https://api.example.com/orders", body: #"{"item": "book"}"#))
        _ = await complete(session, request("POST", "https://api.example.com/orders", body: #"{"item": "pen"}"#))
        _ = await complete(session, "https://api.example.com/users/42")
        _ = await complete(session, request("DELETE", "https://api.example.com/users/42"))
        _ = await complete(session, "https://api.example.com/nothing")

        let everything = stubs.journal  // [JournalEntry], oldest first
        let orders = stubs.requests(to: .post, "/orders")  // by method and URL pattern
        let toUser = stubs.requests(to: "https://api.example.com/users/42")  // by URL pattern, any method
        let books = stubs.requests(matching: .post("/orders").body(.json(["item": "book"])))
        let unanswered = stubs.unmatchedRequests
        let neverUsed = stubs.unusedStubs
        let uses = stubs.useCount(of: id)  // id returned by stub(…) / add(…)

        #expect(everything.map(\.id) == [1, 2, 3, 4, 5])
        #expect(orders.count == 2)
        #expect(toUser.map(\.request.method) == [.get, .delete])
        #expect(books.count == 1)
        #expect(unanswered.map(\.request.path) == ["/nothing"])
        #expect(
            neverUsed.count == 1
                && neverUsed.first?.pattern.matches(InterceptedRequest(url: URL(string: "https://x.test/never")!))
                    == true
        )
        #expect(uses == 2)
        stubs.clearJournal()
        #expect(stubs.journal.isEmpty)
    }

    @Test("the fields of a journal entry")
    func entryFields() async throws {
        let stubs = StubRegistry()
        let id = stubs.stub(.post("https://api.example.com/orders"), .json(["id": 1], status: 201))
        let sent = Date()
        _ = await complete(
            stubs.makeSession(),
            request("POST", "https://api.example.com/orders", body: #"{"item":"book"}"#)
        )

        let entry = try #require(stubs.journal.last)
        #expect(entry.request.method == .post)
        #expect(entry.request.bodyText == #"{"item":"book"}"#)
        #expect(entry.response?.status == 201)
        #expect(entry.stub?.id == id)
        #expect(!entry.isUnmatched)

        #expect(entry.id == 1)
        #expect(entry.date >= sent.addingTimeInterval(-1))
        #expect(entry.response?.body == Data(#"{"id":1}"#.utf8))
        #expect(entry.response?.headers["Content-Type"] == "application/json")
        guard case .answered = entry.outcome else {
            Issue.record("not answered: \(entry.outcome)")
            return
        }
        #expect(entry.description == "#1 POST https://api.example.com/orders → \(id)")
        #expect(entry.stub?.source.description.contains("JournalSnippetTests.swift") == true)
    }
}
