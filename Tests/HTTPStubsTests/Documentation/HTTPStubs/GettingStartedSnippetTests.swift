import Foundation
import HTTPStubs
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The Swift code of `Sources/HTTPStubs/HTTPStubs.docc/GettingStarted.md`, run as the article says it runs.
@Suite("Docs: GettingStarted")
struct GettingStartedSnippetTests {
    /// The code under test: a client that takes its session by injection.
    struct APIClient {
        let session: URLSession

        func user(_ id: Int) async throws -> User {
            let (data, _) = try await session.data(from: URL(string: "https://api.example.com/users/\(id)")!)
            return try JSONDecoder().decode(User.self, from: data)
        }
    }

    @Test("stub a request and inject the registry's session")
    func stubARequest() async throws {
        let stubs = StubRegistry()
        stubs.stub(
            .get("https://api.example.com/users/{id}"),
            .computed { request in
                .json(User(id: Int(request.pathParameters["id"]!)!, name: "Ada"))
            }
        )
        let client = APIClient(session: stubs.makeSession())  // or URLSession(configuration: stubs.configuration())
        let user = try await client.user(42)
        #expect(stubs.requests(to: .get, "https://api.example.com/users/42").count == 1)
        #expect(user == User(id: 42, name: "Ada"))
        let other = try await APIClient(session: URLSession(configuration: stubs.configuration())).user(7)
        #expect(other == User(id: 7, name: "Ada"))
    }

    @Test("sessions built from the registry's configuration or protocol class are served by it")
    func buildSessionsYourOwnWay() async throws {
        let stubs = StubRegistry()
        stubs.stub(.get("https://api.example.com/hello"), .text("hello"))
        let fromConfiguration = URLSession(configuration: stubs.configuration(basedOn: .default))
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [stubs.protocolClass]
        let fromProtocolClass = URLSession(configuration: configuration)
        #expect(await answer(fromConfiguration, "https://api.example.com/hello") == "hello")
        #expect(await answer(fromProtocolClass, "https://api.example.com/hello") == "hello")
        #expect(stubs.configuration().urlCache == nil)
        #expect(stubs.configuration().protocolClasses?.first == stubs.protocolClass)
    }

    @Test("a session whose registry is gone fails every request with a URLError")
    func registryGone() async throws {
        var stubs: StubRegistry? = StubRegistry()
        stubs?.stub(.get("https://api.example.com/hello"), .text("hello"))
        let session = stubs!.makeSession()
        stubs = nil
        let completion = await complete(session, "https://api.example.com/hello")
        #expect(completion.urlError != nil)
        #expect(completion.text == nil || completion.text == "")
    }
}
