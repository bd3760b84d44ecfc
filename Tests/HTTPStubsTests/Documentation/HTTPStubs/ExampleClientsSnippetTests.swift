import ExampleClients
import Foundation
import HTTPStubs
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The Swift code of `Sources/HTTPStubs/HTTPStubs.docc/ExampleClients.md`, run as the article says it runs.
@Suite("Docs: ExampleClients")
struct ExampleClientsSnippetTests {
    @Test("the example clients take a registry's session")
    func injectedSession() async throws {
        let stubs = StubRegistry()
        stubs.stub(.get("https://api.example.com/v1/users/1"), .json(User(id: 1, name: "Ada")))
        stubs.stub(.get("https://api.example.com/v1/users/2"), .status(404))
        let client = AsyncHTTPClient(
            HTTPClient(session: stubs.makeSession(), baseURL: URL(string: "https://api.example.com/v1/")!)
        )
        let user: User = try await client.get("users/1")
        #expect(user == User(id: 1, name: "Ada"))
        await #expect(throws: HTTPClientError.status(404, body: Data())) {
            let _: User = try await client.get("users/2")
        }
        #expect(stubs.journal.count == 2)
    }
}
