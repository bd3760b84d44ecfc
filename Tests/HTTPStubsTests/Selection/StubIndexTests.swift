import Foundation
import HTTPStubs
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Stubs are indexed by literal path and path prefix; the order they are tried in must stay
/// priority first, then newest first, whichever index each stub sits in.
@Suite("Stub index")
struct StubIndexTests {
    @Test("the newest stub wins among exact paths, templates, path regexes and catch-alls of one priority")
    func newestWinsAcrossIndexes() async throws {
        let stubs = StubRegistry()
        let session = stubs.makeSession()
        stubs.stub(.get("/users/42"), .text("exact"))
        #expect(await complete(session, "https://api.example.com/users/42").text == "exact")
        stubs.stub(.get("/users/{id}"), .text("template"))
        #expect(await complete(session, "https://api.example.com/users/42").text == "template")
        stubs.stub(.get(.pathMatching("/users/[0-9]+")), .text("regex"))
        #expect(await complete(session, "https://api.example.com/users/42").text == "regex")
        stubs.stub(.get(.pathPrefix("/us")), .text("prefix"))
        #expect(await complete(session, "https://api.example.com/users/42").text == "prefix")
        stubs.stub(.anyRequest, .text("anything"))
        #expect(await complete(session, "https://api.example.com/users/42").text == "anything")
    }

    @Test("a path asked for again sees the stubs as they are now: after a removal, a batch, a reset")
    func pathAskedAgainSeesChanges() async throws {
        let stubs = StubRegistry()
        let session = stubs.makeSession()
        let url = "https://api.example.com/users/42"
        // Asked from a task, within a limit: a lookup kept after its stub was removed would make
        // choosing retry for ever, on the thread that resumes the request.
        func answer(_ url: String, async: Bool = false) async -> String? {
            await within { async ? await answerAsync(session, url) : await HTTPStubsTests.answer(session, url) }
        }
        let older = stubs.stub(.get("/users/42"), .text("older"))
        let newer = stubs.stub(.get("/users/42"), .text("newer"))
        #expect(await answer(url) == "newer")
        #expect(await answer(url, async: true) == "newer")
        stubs.remove(newer)
        #expect(await answer(url) == "older")
        stubs.add(contentsOf: [Stub(.get("/users/{id}"), .text("batch")), Stub(.get("/orders/1"), .text("order"))])
        #expect(await answer(url, async: true) == "batch")
        #expect(await answer("https://api.example.com/orders/1") == "order")
        #expect(await answer(url) == "batch")
        stubs.remove(older)
        #expect(await answer(url) == "batch")
        stubs.reset()
        #expect(await answer(url) == unmatched)
        stubs.stub(.get("/users/42"), .text("after the reset"))
        #expect(await answer(url, async: true) == "after the reset")
    }

    @Test("priority beats recency across indexes, and each index still answers its own paths")
    func priorityAcrossIndexes() async throws {
        let stubs = StubRegistry()
        let session = stubs.makeSession()
        stubs.stub(.get("/users/{id}"), .text("template"), priority: 1)
        stubs.stub(.get("/users/42"), .text("exact"), priority: 3)
        stubs.stub(.anyRequest, .text("fallback"), priority: 10)
        stubs.stub(.get(.pathMatching("/files/.*")), .text("files"))
        #expect(await complete(session, "https://api.example.com/users/42").text == "template")
        #expect(await complete(session, "https://api.example.com/files/a/b").text == "files")
        #expect(await complete(session, "https://api.example.com/user/42").text == "fallback")
        // A regex whose last literal is optional must not be indexed under it.
        stubs.stub(.get(.pathMatching("/colou?r")), .text("colour"), priority: 2)
        #expect(await complete(session, "https://api.example.com/color").text == "colour")
        #expect(await complete(session, "https://api.example.com/colour").text == "colour")
    }

    @Test("add(contentsOf:) orders a batch as adding its stubs one by one would, across indexes")
    func batchKeepsTheOrderOfSingleAdds() async throws {
        let batch = StubRegistry()
        let single = StubRegistry()
        func stubs() -> [Stub] {
            var high = Stub(.get("/users/{id}"), .text("template, priority 1"))
            high.priority = 1
            return [
                Stub(.anyRequest, .text("catch-all")),
                Stub(.get("/users/42"), .text("exact, older")),
                high,
                Stub(.get("/users/42"), .text("exact, newer")),
                Stub(.get(.pathMatching("/files/[a-z]+")), .text("regex, older")),
                Stub(.get(.pathPrefix("/files/")), .text("prefix, newer")),
                Stub(.get("/orders/7"), .text("exact, in the batch")),
            ]
        }
        batch.stub(.get("/orders/7"), .text("added before the batch"))
        single.stub(.get("/orders/7"), .text("added before the batch"))
        batch.add(contentsOf: stubs())
        for stub in stubs() { single.add(stub) }
        #expect(batch.stubs.map(\.pattern.description) == single.stubs.map(\.pattern.description))
        for registry in [batch, single] {
            let session = registry.makeSession()
            #expect(await complete(session, "https://api.example.com/users/42").text == "template, priority 1")
            #expect(await complete(session, "https://api.example.com/files/abc").text == "prefix, newer")
            #expect(await complete(session, "https://api.example.com/orders/7").text == "exact, in the batch")
            #expect(await complete(session, "https://api.example.com/other").text == "catch-all")
        }
    }

    @Test("a stub added again (same id) replaces the old one, in a batch and singly; within a batch the last copy wins")
    func sameIdentityReplaces() async throws {
        let stubs = StubRegistry()
        let session = stubs.makeSession()
        var first = Stub(.get("/a"), .text("first"))
        stubs.add(first)
        var replacement = first
        replacement.pattern = .get("/b/{x}")
        replacement.responses = [.text("replacement")]
        var lastCopy = first
        lastCopy.pattern = .get("/c")
        lastCopy.responses = [.text("last copy")]
        stubs.add(contentsOf: [replacement, Stub(.get("/d"), .text("d")), lastCopy])
        #expect(stubs.stubs.count == 2)
        #expect(await complete(session, "https://api.example.com/a").isUnmatched)
        #expect(await complete(session, "https://api.example.com/b/1").isUnmatched)
        #expect(await complete(session, "https://api.example.com/c").text == "last copy")
        first.pattern = .get("/e")
        stubs.add(first)
        #expect(stubs.stubs.count == 2)
        #expect(await complete(session, "https://api.example.com/c").isUnmatched)
        #expect(await complete(session, "https://api.example.com/e").text == "first")
        #expect(stubs.useCount(of: first.id) == 1)
    }

    @Test("removing the last stub of a path prefix, then adding another prefix, leaves lookups right")
    func prefixesComeAndGo() async throws {
        let stubs = StubRegistry()
        let session = stubs.makeSession()
        let template = stubs.stub(.get("/teams/{id}"), .text("teams"))
        stubs.stub(.get(.pathMatching("/teams/[0-9]+/members")), .text("members"))
        stubs.stub(.get(.pathMatching("/caf%C3%A9/[0-9]+")), .text("café"))
        #expect(await complete(session, "https://api.example.com/teams/1").text == "teams")
        #expect(await complete(session, "https://api.example.com/teams/1/members").text == "members")
        #expect(await complete(session, "https://api.example.com/caf%C3%A9/1").text == "café")
        #expect(stubs.remove(template))
        #expect(await complete(session, "https://api.example.com/teams/1").isUnmatched)
        #expect(await complete(session, "https://api.example.com/teams/1/members").text == "members")
        stubs.stub(.get("/te{+rest}"), .text("te"))
        #expect(await complete(session, "https://api.example.com/teams/1").text == "te")
    }
}
