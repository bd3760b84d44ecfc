import Foundation
import HTTPStubs
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The Swift code of `Sources/HTTPStubs/HTTPStubs.docc/AdoptingFromAHandRolledStub.md`: an XCTest
/// case written for a hand-rolled `URLProtocolStub`, run against the toolkit's.
final class AdoptingFromAHandRolledStubSnippetTests: XCTestCase {
    private let url = URL(string: "https://api.example.com/greeting")!

    override func setUp() { URLProtocolStub.startInterceptingRequests() }
    override func tearDown() { URLProtocolStub.stopInterceptingRequests() }

    func test_get_deliversData() {
        URLProtocolStub.stub(
            data: Data("hi".utf8),
            response: HTTPURLResponse(url: url, statusCode: 200, httpVersion: nil, headerFields: nil),
            error: nil
        )
        let sut = URLSessionHTTPClient(session: URLProtocolStub.makeSession())
        let exp = expectation(description: "Wait for the completion")
        sut.get(from: url) { result in
            XCTAssertEqual(try? result.get().data, Data("hi".utf8))
            exp.fulfill()
        }
        wait(for: [exp], timeout: 5)
    }

    func test_observeRequests_seesTheBodyAsHTTPBody() async throws {
        let observed = expectation(description: "observed")
        URLProtocolStub.observeRequests { request in
            XCTAssertEqual(request.httpMethod, "POST")
            XCTAssertEqual(request.httpBody, Data("a=1".utf8))
            observed.fulfill()
        }
        URLProtocolStub.stub(
            data: Data(),
            response: HTTPURLResponse(url: url, statusCode: 204, httpVersion: nil, headerFields: nil),
            error: nil
        )
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        _ = try await URLProtocolStub.makeSession().upload(for: request, from: Data("a=1".utf8))
        await fulfillment(of: [observed], timeout: 5)
    }

    func test_registry_isAFullStubRegistry() async throws {
        URLProtocolStub.registry.stub(
            .get("https://api.example.com/users/{id}"),
            .computed { request in
                .text("user \(request.pathParameters["id"]!)")
            }
        )
        let (data, _) = try await URLProtocolStub.makeSession().data(
            from: URL(string: "https://api.example.com/users/7")!
        )
        XCTAssertEqual(String(decoding: data, as: UTF8.self), "user 7")
        XCTAssertEqual(URLProtocolStub.registry.journal.count, 1)
    }

    func test_stopInterceptingRequests_resetsTheRegistryAndFailsLaterRequests() async throws {
        URLProtocolStub.registry.stub(.get("https://api.example.com/x"), .ok)
        let session = URLProtocolStub.makeSession()
        URLProtocolStub.stopInterceptingRequests()
        XCTAssertTrue(URLProtocolStub.registry.stubs.isEmpty)
        do {
            _ = try await session.data(from: URL(string: "https://api.example.com/x")!)
            XCTFail("a request after stopInterceptingRequests() was answered")
        } catch {
            XCTAssertNotNil(error as? URLError)
        }
        URLProtocolStub.startInterceptingRequests()  // tearDown stops it again
    }
}
