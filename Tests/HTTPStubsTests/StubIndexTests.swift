import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPStubs
import Testing

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
        stubs.stub(.any(.any), .text("anything"))
        #expect(await complete(session, "https://api.example.com/users/42").text == "anything")
    }

    @Test("priority beats recency across indexes, and each index still answers its own paths")
    func priorityAcrossIndexes() async throws {
        let stubs = StubRegistry()
        let session = stubs.makeSession()
        stubs.stub(.get("/users/{id}"), .text("template"), priority: 1)
        stubs.stub(.get("/users/42"), .text("exact"), priority: 3)
        stubs.stub(.any(.any), .text("fallback"), priority: 10)
        stubs.stub(.get(.pathMatching("/files/.*")), .text("files"))
        #expect(await complete(session, "https://api.example.com/users/42").text == "template")
        #expect(await complete(session, "https://api.example.com/files/a/b").text == "files")
        #expect(await complete(session, "https://api.example.com/user/42").text == "fallback")
        // A regex whose last literal is optional must not be indexed under it.
        stubs.stub(.get(.pathMatching("/colou?r")), .text("colour"), priority: 2)
        #expect(await complete(session, "https://api.example.com/color").text == "colour")
        #expect(await complete(session, "https://api.example.com/colour").text == "colour")
    }
}
