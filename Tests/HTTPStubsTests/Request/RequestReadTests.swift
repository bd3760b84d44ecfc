import Foundation
import HTTPStubs
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A registry reuses the URL parts and header fields of the request it read before when the next
/// one has the same URL text and header dictionary: each request must still see its own, byte for
/// byte, as a request read on its own (`InterceptedRequest(method:url:headers:)`) sees them.
@Suite("Requests read one after another")
struct RequestReadTests {
    /// What the stub answers: the parts and fields it saw, each on its own line.
    static func echo(_ request: InterceptedRequest) -> String {
        [
            request.method.rawValue, request.scheme, request.host, request.port.map(String.init) ?? "-",
            request.path, request.pathAndQuery,
            request.queryParameters.map { "\($0.name)=\($0.value)" }.joined(separator: "&"),
            request.headers.map { "\($0.name)=\($0.value)" }.joined(separator: "&"),
            request.header("Host") ?? "-",
        ].joined(separator: "\n")
    }

    /// The echo of `urlRequest` read on its own, without the registry.
    static func expected(_ urlRequest: URLRequest) -> String {
        echo(
            InterceptedRequest(
                method: InterceptedRequest.Method(rawValue: urlRequest.httpMethod ?? "GET"),
                url: urlRequest.url!,
                headers: HeaderFields(urlRequest.allHTTPHeaderFields ?? [:])
            )
        )
    }

    static func makeRegistry() -> StubRegistry {
        let stubs = StubRegistry()
        stubs.stub(.anyMethod(.pathMatching("/.*")), .computed { .text(echo($0)) })
        return stubs
    }

    @Test(
        "each request sees its own URL parts and header fields, whether its URL, its header fields, both or neither changed since the request before"
    )
    func eachRequestSeesItsOwnParts() async throws {
        let stubs = Self.makeRegistry()
        let session = stubs.makeSession()
        let reused = request("GET", "https://api.example.com/a?x=1", headers: ["Accept": "text/plain"])
        var relative = URLRequest(
            url: URL(string: "users/7?x=1", relativeTo: URL(string: "https://api.example.com/v1/"))!
        )
        relative.setValue("text/plain", forHTTPHeaderField: "Accept")
        let sent: [URLRequest] = [
            reused,
            // The same request again, then an equal one made anew.
            reused,
            request("GET", "https://api.example.com/a?x=1", headers: ["Accept": "text/plain"]),
            // The header fields change, the URL does not, and the other way round.
            request("GET", "https://api.example.com/a?x=1", headers: ["Accept": "text/html"]),
            request("GET", "https://api.example.com/a?x=1", headers: ["Accept": "text/html", "X-B": "2"]),
            request("GET", "http://API.example.com:8080/b?x=2&y", headers: ["Accept": "text/html", "X-B": "2"]),
            request("GET", "http://API.example.com:8080/b?x=2&y"),
            // Values that `==` calls equal but whose bytes differ: `é` as one scalar, then as `e` and a combining accent.
            request("GET", "http://API.example.com:8080/b?x=2&y", headers: ["X-Name": "caf\u{E9}"]),
            request("GET", "http://API.example.com:8080/b?x=2&y", headers: ["X-Name": "cafe\u{301}"]),
            // Hosts the URL text alone does not give: user information, IPv6 literals, a percent-escape.
            request("GET", "http://user:secret@[::1]:8080/p?q=1", headers: ["X-Name": "cafe\u{301}"]),
            request("GET", "http://[::1]:8081/p?q=1"),
            request("GET", "http://ex%41mple.COM/p?q=1"),
            // A relative URL, then the absolute URL with the same text.
            relative,
            request("GET", "https://api.example.com/v1/users/7?x=1", headers: ["Accept": "text/plain"]),
            // Both change; then back to the first request.
            request("POST", "https://other.example.com/c", body: "{}", headers: ["X-C": "3"]),
            reused,
        ]
        for (index, urlRequest) in sent.enumerated() {
            let text: String?
            if index % 2 == 0 {
                text = await complete(session, urlRequest).text
            } else {
                let (data, _) = try await session.data(for: urlRequest)
                text = String(decoding: data, as: UTF8.self)
            }
            // Compared as bytes: `==` would call the two spellings of `é` equal.
            #expect(text.map { Array($0.utf8) } == Array(Self.expected(urlRequest).utf8), "request \(index)")
        }
        let journal = stubs.journal
        try #require(journal.count == sent.count)
        for (index, (entry, urlRequest)) in zip(journal, sent).enumerated() {
            #expect(entry.request.url == urlRequest.url, "request \(index)")
            #expect(entry.request.method.rawValue == urlRequest.httpMethod, "request \(index)")
            let fields = entry.request.headers.map { [Array($0.name.utf8), Array($0.value.utf8)] }
            let sentFields = (urlRequest.allHTTPHeaderFields ?? [:]).sorted { $0.key < $1.key }.map {
                [Array($0.key.utf8), Array($0.value.utf8)]
            }
            #expect(fields == sentFields, "request \(index)")
        }
    }

    @Test("requests with different URLs and header fields sent at once to one registry each see their own")
    func concurrentRequestsSeeTheirOwn() async throws {
        let stubs = Self.makeRegistry()
        let session = stubs.makeSession()
        let requests = (0..<5).map { index in
            request("GET", "https://api.example.com/items/\(index)?n=\(index)", headers: ["X-Index": "\(index)"])
        }
        let mismatches = await withTaskGroup(of: Int?.self) { group in
            for round in 0..<40 {
                let urlRequest = requests[round % requests.count]
                group.addTask {
                    let text = await complete(session, urlRequest).text
                    return text == Self.expected(urlRequest) ? nil : round
                }
            }
            return await group.reduce(into: [Int]()) { if let round = $1 { $0.append(round) } }
        }
        #expect(mismatches.isEmpty, "requests answered with another request's parts or fields: \(mismatches)")
        #expect(stubs.journal.count == 40)
    }
}
