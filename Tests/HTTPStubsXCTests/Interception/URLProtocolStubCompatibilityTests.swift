import Foundation
import HTTPStubs
import XCTest

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The test a codebase with a hand-rolled `URLProtocolStub` already has, unchanged but for the
/// import: the toolkit's `URLProtocolStub` offers the same static API.
final class URLProtocolStubCompatibilityTests: XCTestCase {
    override func setUp() {
        super.setUp()
        URLProtocolStub.startInterceptingRequests()
    }

    override func tearDown() {
        URLProtocolStub.stopInterceptingRequests()
        super.tearDown()
    }

    func test_get_performsGETRequestWithURL() {
        let url = anyURL()
        let exp = expectation(description: "Wait for request")
        URLProtocolStub.observeRequests { request in
            XCTAssertEqual(request.url, url)
            XCTAssertEqual(request.httpMethod, "GET")
            exp.fulfill()
        }
        makeSUT().get(from: url) { _ in }
        wait(for: [exp], timeout: 5.0)
    }

    func test_get_failsOnRequestError() throws {
        let requestError = NSError(domain: "any error", code: 1)
        let receivedError = resultErrorFor(data: nil, response: nil, error: requestError) as NSError?
        XCTAssertEqual(receivedError?.domain, requestError.domain)
        XCTAssertEqual(receivedError?.code, requestError.code)
    }

    func test_get_failsOnAllInvalidRepresentationCases() {
        XCTAssertNotNil(resultErrorFor(data: nil, response: nil, error: nil))
        XCTAssertNotNil(resultErrorFor(data: nil, response: nonHTTPURLResponse(), error: nil))
        XCTAssertNotNil(resultErrorFor(data: anyData(), response: nil, error: nil))
        XCTAssertNotNil(resultErrorFor(data: anyData(), response: nil, error: anyNSError()))
        XCTAssertNotNil(resultErrorFor(data: nil, response: nonHTTPURLResponse(), error: anyNSError()))
        XCTAssertNotNil(resultErrorFor(data: nil, response: anyHTTPURLResponse(), error: anyNSError()))
        XCTAssertNotNil(resultErrorFor(data: anyData(), response: nonHTTPURLResponse(), error: anyNSError()))
        XCTAssertNotNil(resultErrorFor(data: anyData(), response: anyHTTPURLResponse(), error: anyNSError()))
        XCTAssertNotNil(resultErrorFor(data: anyData(), response: nonHTTPURLResponse(), error: nil))
    }

    func test_get_succeedsOnHTTPURLResponseWithData() {
        let data = anyData()
        let response = anyHTTPURLResponse()
        let received = resultValuesFor(data: data, response: response, error: nil)
        XCTAssertEqual(received?.data, data)
        XCTAssertEqual(received?.response.url, response.url)
        XCTAssertEqual(received?.response.statusCode, response.statusCode)
    }

    func test_get_succeedsWithEmptyDataOnHTTPURLResponseWithNilData() {
        let response = anyHTTPURLResponse()
        let received = resultValuesFor(data: nil, response: response, error: nil)
        XCTAssertEqual(received?.data, Data())
        XCTAssertEqual(received?.response.statusCode, response.statusCode)
    }

    func test_stub_replacesThePreviousAnswer() {
        URLProtocolStub.stub(data: Data("first".utf8), response: anyHTTPURLResponse(), error: nil)
        URLProtocolStub.stub(data: Data("second".utf8), response: anyHTTPURLResponse(), error: nil)
        if case let .success(values) = get() {
            XCTAssertEqual(values.data, Data("second".utf8))
        } else {
            XCTFail("Expected the second answer")
        }
        XCTAssertEqual(URLProtocolStub.registry.stubs.count, 1)
    }

    func test_sharedSession_isInterceptedOrTheReasonIsGiven() {
        switch URLProtocolStub.startInterceptingRequests() {
        case .active:
            URLProtocolStub.stub(data: Data("shared".utf8), response: anyHTTPURLResponse(), error: nil)
            let exp = expectation(description: "Wait for completion")
            URLSession.shared.dataTask(with: anyURL()) { data, _, _ in
                XCTAssertEqual(data, Data("shared".utf8))
                exp.fulfill()
            }.resume()
            wait(for: [exp], timeout: 5.0)
        case let .unavailable(reason):
            XCTAssertTrue(reason.contains("URLSession.shared cannot be intercepted"), reason)
            XCTAssertTrue(reason.contains("makeSession()"), reason)
        }
    }

    func test_stopInterceptingRequests_failsLaterRequestsWithAClearError() {
        let session = URLProtocolStub.makeSession()
        URLProtocolStub.stub(data: anyData(), response: anyHTTPURLResponse(), error: nil)
        URLProtocolStub.stopInterceptingRequests()
        let exp = expectation(description: "Wait for completion")
        session.dataTask(with: anyURL()) { _, _, error in
            let urlError = error as? URLError
            XCTAssertEqual(urlError?.code, .resourceUnavailable)
            XCTAssertTrue(
                urlError?.localizedDescription.contains("startInterceptingRequests") == true,
                "\(String(describing: urlError))"
            )
            exp.fulfill()
        }.resume()
        wait(for: [exp], timeout: 5.0)
        URLProtocolStub.startInterceptingRequests()
    }

    // MARK: - Helpers

    private func makeSUT() -> URLSessionHTTPClient {
        URLSessionHTTPClient(session: URLProtocolStub.makeSession())
    }

    private func resultValuesFor(
        data: Data?,
        response: URLResponse?,
        error: Error?,
        file: StaticString = #filePath,
        line: UInt = #line
    ) -> (data: Data, response: HTTPURLResponse)? {
        switch resultFor(data: data, response: response, error: error, file: file, line: line) {
        case let .success(values):
            return values
        case let .failure(error):
            XCTFail("Expected success, got \(error) instead", file: file, line: line)
            return nil
        }
    }

    private func resultErrorFor(
        data: Data?,
        response: URLResponse?,
        error: Error?,
        file: StaticString = #filePath,
        line: UInt = #line
    ) -> Error? {
        switch resultFor(data: data, response: response, error: error, file: file, line: line) {
        case let .success(values):
            XCTFail("Expected failure, got \(values) instead", file: file, line: line)
            return nil
        case let .failure(error):
            return error
        }
    }

    private func resultFor(
        data: Data?,
        response: URLResponse?,
        error: Error?,
        file: StaticString,
        line: UInt
    ) -> URLSessionHTTPClient.Result {
        URLProtocolStub.stub(data: data, response: response, error: error)
        return get()
    }

    private func get() -> URLSessionHTTPClient.Result {
        let exp = expectation(description: "Wait for completion")
        let box = ResultBox()
        makeSUT().get(from: anyURL()) { result in
            box.result = result
            exp.fulfill()
        }
        wait(for: [exp], timeout: 5.0)
        return box.result ?? .failure(NSError(domain: "no result", code: 0))
    }

    private func anyURL() -> URL { URL(string: "http://any-url.com")! }
    private func anyData() -> Data { Data("any data".utf8) }
    private func anyNSError() -> NSError { NSError(domain: "any error", code: 0) }
    private func nonHTTPURLResponse() -> URLResponse {
        URLResponse(url: anyURL(), mimeType: nil, expectedContentLength: 0, textEncodingName: nil)
    }
    private func anyHTTPURLResponse() -> HTTPURLResponse {
        HTTPURLResponse(url: anyURL(), statusCode: 200, httpVersion: nil, headerFields: nil)!
    }
}

/// The client such a codebase tests: the shape of the common `URLSessionHTTPClient` (also the
/// Adopting article's tests' client).
final class URLSessionHTTPClient: Sendable {
    typealias Result = Swift.Result<(data: Data, response: HTTPURLResponse), Error>

    private struct UnexpectedValuesRepresentation: Error {}

    private let session: URLSession

    init(session: URLSession) {
        self.session = session
    }

    func get(from url: URL, completion: @escaping @Sendable (Result) -> Void) {
        session.dataTask(with: url) { data, response, error in
            if let error {
                completion(.failure(error))
            } else if let data, let response = response as? HTTPURLResponse {
                completion(.success((data, response)))
            } else {
                completion(.failure(UnexpectedValuesRepresentation()))
            }
        }.resume()
    }
}

/// Carries a result out of a completion handler; read only after the expectation is fulfilled.
private final class ResultBox: @unchecked Sendable {
    var result: URLSessionHTTPClient.Result?
}
