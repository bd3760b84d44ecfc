import Foundation
import HTTPStubs
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A registry reuses the URL parts and header fields of the request it read before when the next
/// one has the same URL text and header dictionary: each request must still see its own.
@Suite("Requests read one after another")
struct RequestReadTests {
    @Test(
        "each request sees its own URL parts and header fields, whether its URL, its header fields, both or neither changed since the request before"
    )
    func eachRequestSeesItsOwnParts() async throws {
        let stubs = StubRegistry()
        stubs.stub(
            .anyMethod(.pathMatching("/.*")),
            .computed { request in
                let query = request.queryParameters.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
                let headers = request.headers.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
                let port = request.port.map(String.init) ?? "-"
                return .text(
                    "\(request.scheme) \(request.host) \(port) \(request.pathAndQuery) [\(query)] [\(headers)]"
                )
            }
        )
        let session = stubs.makeSession()
        let reused = request("GET", "https://api.example.com/a?x=1", headers: ["Accept": "text/plain"])
        let sent: [(URLRequest, String)] = [
            (reused, "https api.example.com 443 /a?x=1 [x=1] [Accept=text/plain]"),
            // The same request again, then an equal one made anew.
            (reused, "https api.example.com 443 /a?x=1 [x=1] [Accept=text/plain]"),
            (
                request("GET", "https://api.example.com/a?x=1", headers: ["Accept": "text/plain"]),
                "https api.example.com 443 /a?x=1 [x=1] [Accept=text/plain]"
            ),
            // The header fields change, the URL does not, and the other way round.
            (
                request("GET", "https://api.example.com/a?x=1", headers: ["Accept": "text/html"]),
                "https api.example.com 443 /a?x=1 [x=1] [Accept=text/html]"
            ),
            (
                request("GET", "https://api.example.com/a?x=1", headers: ["Accept": "text/html", "X-B": "2"]),
                "https api.example.com 443 /a?x=1 [x=1] [Accept=text/html&X-B=2]"
            ),
            (
                request("GET", "http://API.example.com:8080/b?x=2&y", headers: ["Accept": "text/html", "X-B": "2"]),
                "http api.example.com 8080 /b?x=2&y [x=2&y=] [Accept=text/html&X-B=2]"
            ),
            (request("GET", "http://API.example.com:8080/b?x=2&y"), "http api.example.com 8080 /b?x=2&y [x=2&y=] []"),
            // Both change; then back to the first request.
            (
                request("POST", "https://other.example.com/c", body: "{}", headers: ["X-C": "3"]),
                "https other.example.com 443 /c [] [X-C=3]"
            ),
            (reused, "https api.example.com 443 /a?x=1 [x=1] [Accept=text/plain]"),
        ]
        for (index, (urlRequest, expected)) in sent.enumerated() {
            let text: String?
            if index % 2 == 0 {
                text = await complete(session, urlRequest).text
            } else {
                let (data, _) = try await session.data(for: urlRequest)
                text = String(decoding: data, as: UTF8.self)
            }
            #expect(text == expected, "request \(index)")
        }
        let journal = stubs.journal
        try #require(journal.count == sent.count)
        for (index, (entry, (urlRequest, _))) in zip(journal, sent).enumerated() {
            #expect(entry.request.url == urlRequest.url, "request \(index)")
            #expect(entry.request.method.rawValue == urlRequest.httpMethod, "request \(index)")
            let headers = Dictionary(uniqueKeysWithValues: entry.request.headers.map { ($0.name, $0.value) })
            #expect(headers == urlRequest.allHTTPHeaderFields ?? [:], "request \(index)")
        }
    }
}
