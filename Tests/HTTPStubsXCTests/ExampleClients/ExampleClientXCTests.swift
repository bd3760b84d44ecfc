import ExampleClients
import Foundation
import HTTPStubs
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The example clients under XCTest, each test with its own registry.
final class ExampleClientXCTests: XCTestCase {
    private struct User: Codable, Equatable, Sendable {
        let id: Int
        let name: String
    }

    private let baseURL = URL(string: "https://api.example.com")!

    func test_completionClient_decodesJSON() {
        let stubs = StubRegistry()
        stubs.stub(.get("https://api.example.com/users/1"), .json(User(id: 1, name: "Ada")))
        let client = HTTPClient(session: stubs.makeSession(), baseURL: baseURL)
        let exp = expectation(description: "completion")
        client.get("/users/1", as: User.self) { result in
            XCTAssertEqual(try? result.get(), User(id: 1, name: "Ada"))
            exp.fulfill()
        }
        wait(for: [exp], timeout: 5)
    }

    func test_completionClient_reportsStatusWithBody() {
        let stubs = StubRegistry()
        stubs.stub(.get("https://api.example.com/users/2"), .text("no such user", status: 404))
        let client = HTTPClient(session: stubs.makeSession(), baseURL: baseURL)
        let exp = expectation(description: "completion")
        client.get("/users/2", as: User.self) { result in
            XCTAssertEqual(result, .failure(.status(404, body: Data("no such user".utf8))))
            exp.fulfill()
        }
        wait(for: [exp], timeout: 5)
    }

    func test_asyncClient_throwsTransportErrors() async {
        let stubs = StubRegistry()
        stubs.stub(.get("https://api.example.com/users/3"), .error(.notConnectedToInternet))
        let client = AsyncHTTPClient(HTTPClient(session: stubs.makeSession(), baseURL: baseURL))
        do {
            _ = try await client.get("/users/3", as: User.self)
            XCTFail("Expected a transport error")
        } catch {
            XCTAssertEqual(error as? HTTPClientError, .transport(URLError(.notConnectedToInternet)))
        }
    }

    func test_asyncClient_timesOutWhenTheStubIsTooSlow() async {
        let stubs = StubRegistry()
        stubs.stub(.get("https://api.example.com/slow"), .json(User(id: 4, name: "Late")).delayed(by: .seconds(30)))
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 0.2
        let client = AsyncHTTPClient(
            HTTPClient(session: stubs.makeSession(configuration: configuration), baseURL: baseURL)
        )
        do {
            _ = try await client.get("/slow", as: User.self)
            XCTFail("Expected a timeout")
        } catch {
            XCTAssertEqual(error as? HTTPClientError, .transport(URLError(.timedOut)))
        }
    }

    func test_unmatchedRequest_namesTheClosestStub() async {
        let stubs = StubRegistry()
        stubs.stub(.get("https://api.example.com/users/42"), .json(User(id: 42, name: "Ada")))
        let client = AsyncHTTPClient(HTTPClient(session: stubs.makeSession(), baseURL: baseURL))
        do {
            _ = try await client.get("/users/43", as: User.self)
            XCTFail("Expected an unmatched-request error")
        } catch let HTTPClientError.transport(error) {
            XCTAssertEqual(error.code, .resourceUnavailable)
            XCTAssertTrue(
                error.localizedDescription.contains(#"✗ path: expected "/users/42", got "/users/43""#),
                error.localizedDescription
            )
        } catch {
            XCTFail("Unexpected \(error)")
        }
    }
}
