import Foundation
import HTTPStubs
import Testing

/// The parts of a request URL that matchers read are split the way `URLComponents` splits them.
@Suite("InterceptedRequest URL parts")
struct InterceptedRequestTests {
    static let urls = [
        "https://api.example.com/users/42",
        "https://API.Example.COM:8443/users/42?b=2&a=1#top",
        "http://api.example.com",
        "http://api.example.com?x=1",
        "http://api.example.com#frag?not=query",
        "http://api.example.com/?",
        "http://api.example.com/a%20b/c%2Fd?q=a%2Bb+c&q=&flag",
        "http://user:pass@api.example.com:80/p;params?x=y",
        "http://[::1]:8080/ipv6?z=%E2%9C%93",
        "http://127.0.0.1/a/../b/./c",
        "HTTPS://api.example.com/Case",
        "ws://socket.example.com/live",
        "custom+scheme.v1://host/path?x",
        "mailto:someone@example.com",
        "urn:isbn:0451450523",
        "file:///tmp/a%20file.txt",
        "about:blank",
        "https://api.example.com/search?q=%3F%23&next=/a?b",
        // Hosts: percent-escaped, empty, with an empty port or user information, a trailing dot.
        "http://ex%41mple.COM/p",
        "http:///no-host",
        "http://host.example.com:/empty-port",
        "http://@host.example.com/empty-user",
        "http://user@host.example.com:81",
        "http://Host.Example.com./dot",
        "http://192.168.0.1:9000/v4",
        "http://[2001:DB8::1]/v6",
        "http://BÜCHER.example/Straße?q=é",
        "HTTP://API.Example.COM",
        // Ports: zero, leading zeros, the largest, out of range, too long.
        "http://host.example.com:0/p",
        "http://host.example.com:0080/p",
        "http://host.example.com:65535/p",
        "http://host.example.com:70000/p",
        "http://host.example.com:123456/p",
    ]

    @Test(
        "path, path and query, query parameters, scheme, host and port agree with URLComponents and URL",
        arguments: urls
    )
    func agreesWithURLComponents(_ text: String) throws {
        let url = try #require(URL(string: text))
        let request = InterceptedRequest(url: url)
        let components = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false))
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        #expect(request.path == path)
        #expect(request.pathAndQuery == (components.percentEncodedQuery.map { "\(path)?\($0)" } ?? path))
        // WireMock's decoding: `+` is a space, then percent-escapes are decoded.
        let decode = { (text: Substring) in text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? ""
        }
        let expected = (components.percentEncodedQuery?.split(separator: "&") ?? []).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return "\(decode(parts[0]))=\(parts.count > 1 ? decode(parts[1]) : "")"
        }
        #expect(request.queryParameters.map { "\($0.name)=\($0.value)" } == expected)
        #expect(request.scheme == (components.scheme ?? "").lowercased())
        #expect(request.host == (url.host ?? "").lowercased())
        let defaultPorts = ["http": 80, "ws": 80, "https": 443, "wss": 443]
        #expect(request.port == (url.port ?? defaultPorts[(url.scheme ?? "").lowercased()]))
    }

    @Test("a request is a value: changing a copy leaves the original as it was, and the other way round")
    func copiesAreIndependent() throws {
        var original = InterceptedRequest(
            method: .post,
            url: URL(string: "https://a.example.com/one?x=1")!,
            headers: ["A": "1"],
            body: Data("hi".utf8)
        )
        var copy = original
        copy.url = URL(string: "http://b.example.com/two")!
        copy.method = .put
        copy.headers.add("B", "2")
        copy.body = Data("bye".utf8)
        copy.bodyUnavailableReason = "hidden"
        copy.pathParameters = ["id": "7"]

        #expect(original.url.absoluteString == "https://a.example.com/one?x=1")
        #expect(original.host == "a.example.com")
        #expect(original.path == "/one")
        #expect(original.queryValues("x") == ["1"])
        #expect(original.method == .post)
        #expect(original.headers == ["A": "1"])
        #expect(original.bodyText == "hi")
        #expect(original.bodyUnavailableReason == nil)
        #expect(original.pathParameters.isEmpty)

        #expect(copy.host == "b.example.com")
        #expect(copy.path == "/two")
        #expect(copy.queryParameters.isEmpty)
        #expect(copy.method == .put)
        #expect(copy.headers == ["A": "1", "B": "2"])
        #expect(copy.bodyText == "bye")
        #expect(copy.bodyUnavailableReason == "hidden")
        #expect(copy.pathParameters == ["id": "7"])

        let second = original
        original.body = nil
        #expect(original.bodyText == nil)
        #expect(second.bodyText == "hi")
    }

    @Test("changing one field of a copy keeps every other field")
    func copyKeepsTheOtherFields() throws {
        let original = InterceptedRequest(
            method: .patch,
            url: URL(string: "https://a.example.com/items/3?q=1")!,
            headers: ["A": "1"],
            body: Data("text".utf8),
            bodyUnavailableReason: "partly hidden",
            pathParameters: ["id": "3"]
        )
        var copy = original
        copy.method = .delete
        #expect(copy.method == .delete)
        #expect(copy.url == original.url)
        #expect(copy.path == "/items/3")
        #expect(copy.host == "a.example.com")
        #expect(copy.queryValues("q") == ["1"])
        #expect(copy.headers == ["A": "1"])
        #expect(copy.bodyText == "text")
        #expect(copy.bodyUnavailableReason == "partly hidden")
        #expect(copy.pathParameters == ["id": "3"])
        #expect(original.method == .patch)
    }

    @Test(
        "a URL relative to a base has the parts of the URL it resolves to",
        arguments: [
            ("/p?x=1", "http://h.example.com:8080"),
            ("//other.example.com:81/q", "https://h.example.com"),
            ("http:/p", "http://h.example.com:8080/base/"),
            ("sub/item#f", "https://H.example.com/base/"),
        ]
    )
    func relativeURLs(_ relative: String, _ base: String) throws {
        let url = try #require(URL(string: relative, relativeTo: URL(string: base)))
        let request = InterceptedRequest(url: url)
        let absolute = try #require(URL(string: url.absoluteString))
        let components = try #require(URLComponents(url: absolute, resolvingAgainstBaseURL: false))
        #expect(request.path == (components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath))
        #expect(request.host == (url.host ?? "").lowercased())
        #expect(request.scheme == (url.scheme ?? "").lowercased())
        let defaultPorts = ["http": 80, "ws": 80, "https": 443, "wss": 443]
        #expect(request.port == (url.port ?? defaultPorts[(url.scheme ?? "").lowercased()]))
    }

    @Test("changing the URL of a request recomputes its parts")
    func changingTheURL() throws {
        var request = InterceptedRequest(url: URL(string: "https://a.example.com/one?x=1")!)
        request.url = URL(string: "http://B.example.com/two")!
        #expect(request.path == "/two")
        #expect(request.pathAndQuery == "/two")
        #expect(request.queryParameters.isEmpty)
        #expect(request.host == "b.example.com")
        #expect(request.scheme == "http")
    }
}
