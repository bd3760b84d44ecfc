import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The floor: a bare `URLProtocol` that answers every request with one constant response, built
/// once, synchronously inside `startLoading` (the only safe way on Linux). Whatever it costs per
/// request is what URLSession itself costs; no stubbing toolkit can be faster.
final class FloorProtocol: URLProtocol {
    override class func canInit(with request: URLRequest) -> Bool { true }

    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    override func startLoading() {
        guard let client else { return }
        client.urlProtocol(self, didReceive: Self.response, cacheStoragePolicy: .notAllowed)
        client.urlProtocol(self, didLoad: Payload.body)
        client.urlProtocolDidFinishLoading(self)
    }

    override func stopLoading() {}

    /// The constant response. Every benchmark request has the same URL, so one object serves all.
    private static let response = HTTPURLResponse(
        url: targetRequest().url!,
        statusCode: 200,
        httpVersion: "HTTP/1.1",
        headerFields: Payload.headers
    )!

    /// A session served only by the floor protocol, configured like the toolkit's sessions
    /// (`.ephemeral`, no URL cache).
    static func makeSession() -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [FloorProtocol.self]
        configuration.urlCache = nil
        return URLSession(configuration: configuration)
    }
}

/// The response every sequential workload gets: the same bytes from the floor protocol, the
/// toolkit's stubs and the loopback server.
enum Payload {
    static let text = #"{"id":42,"name":"Ada Lovelace","email":"ada@example.com"}"#
    static let body = Data(text.utf8)
    static let headers = ["Content-Type": "application/json"]
    static let host = "api.bench.test"
    /// The URL the sequential workloads request, and the only one the target stub answers.
    static let targetPath = "/users/42"
}
