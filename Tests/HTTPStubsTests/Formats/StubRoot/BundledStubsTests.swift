import ExampleClients
import Foundation
import HTTPStubs
import HTTPStubsFiles
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The example API in the repository's `Stubs/` folder, served to the example clients.
@Suite("Bundled Stubs/ example API")
struct BundledStubsTests {
    private struct User: Codable, Equatable, Sendable {
        let id: Int
        let name: String
    }

    private struct Order: Codable, Equatable, Sendable {
        let id: Int
        let status: String
    }

    private struct NewOrder: Codable, Sendable {
        let item: String
        let quantity: Int
    }

    /// `<repo>/Stubs`.
    private static let root = repositoryRoot.appendingPathComponent("Stubs").path

    private func client() throws -> (AsyncHTTPClient, StubRegistry) {
        let stubs = StubRegistry()
        try stubs.load(Self.root)
        let client = HTTPClient(session: stubs.makeSession(), baseURL: URL(string: "https://api.example.com/v1/")!)
        return (AsyncHTTPClient(client), stubs)
    }

    @Test func loadsWithoutDiagnostics() {
        let result = StubFiles.load([Self.root])
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        #expect(result.stubs.count == 10)
    }

    @Test func servesAUserFromABodyFile() async throws {
        let stubs = StubRegistry()
        try stubs.load(Self.root)
        var request = URLRequest(url: URL(string: "https://api.example.com/v1/users/42")!)
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        let user = try await AsyncHTTPClient(
            HTTPClient(session: stubs.makeSession(), baseURL: URL(string: "https://api.example.com")!)
        )
        .send(request, as: User.self)
        #expect(user == User(id: 42, name: "Ada Lovelace"))
    }

    @Test func unknownUsersAre404AndOtherPathsHitTheCatchAll() async throws {
        let (client, stubs) = try client()
        defer { withExtendedLifetime(stubs) {} }  // sessions serve only while their registry lives
        await #expect(throws: HTTPClientError.status(404, body: Data(#"{"error":"user not found"}"#.utf8))) {
            try await client.get("users/7", as: User.self)
        }
        await #expect(
            throws: HTTPClientError.status(404, body: Data(#"{"error":"no such endpoint in the example API"}"#.utf8))
        ) {
            try await client.get("invoices", as: User.self)
        }
    }

    @Test func createsAnOrderOnlyForTheExpectedBody() async throws {
        let (client, stubs) = try client()
        let order = try await client.post("orders", json: NewOrder(item: "swift-book", quantity: 1), as: Order.self)
        #expect(order == Order(id: 1001, status: "pending"))
        await #expect(throws: HTTPClientError.self) {
            try await client.post("orders", json: NewOrder(item: "swift-book", quantity: 0), as: Order.self)
        }
        #expect(stubs.requests(to: .post, "/v1/orders").count == 2)
    }

    @Test func orderStatusMovesThroughTheScenario() async throws {
        let (client, stubs) = try client()
        #expect(try await client.get("orders/1001", as: Order.self).status == "pending")
        #expect(stubs.scenario("order 1001").state == "shipped")
        #expect(try await client.get("orders/1001", as: Order.self).status == "shipped")
        #expect(try await client.get("orders/1001", as: Order.self).status == "shipped")
    }

    @Test func outagesAreURLErrors() async throws {
        let (client, stubs) = try client()
        defer { withExtendedLifetime(stubs) {} }
        await #expect(throws: HTTPClientError.transport(URLError(.networkConnectionLost))) {
            try await client.post("payments", json: NewOrder(item: "x", quantity: 1), as: Order.self)
        }
        await #expect(throws: HTTPClientError.transport(URLError(.notConnectedToInternet))) {
            try await client.get("status", as: Order.self)
        }
    }

    @Test func theUserListIsDelayedAndPaged() async throws {
        let (client, stubs) = try client()
        let clock = ContinuousClock()
        let start = clock.now
        let users = try await client.get("users?page=1", as: [User].self)
        #expect(clock.now - start >= .milliseconds(120))
        #expect(users.map(\.id) == [42, 43])
        await #expect(throws: HTTPClientError.self) {
            try await client.get("users?page=1&per_page=5", as: [User].self)
        }
        #expect(stubs.journal.first?.stub?.name == "users, page 1")
    }
}
