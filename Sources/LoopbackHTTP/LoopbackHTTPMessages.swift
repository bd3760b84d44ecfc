import Foundation

/// A request a ``LoopbackHTTPServer`` received.
package struct LoopbackHTTPRequest: Sendable {
    /// `GET`, `POST`, …
    package let method: String
    /// The request target as sent: the path and the query (`/search?q=a`).
    package let target: String
    /// The header fields, in order.
    package let headers: [(name: String, value: String)]
    /// The body (read by its `Content-Length`).
    package let body: Data

    /// The target's path, without the query.
    package var path: String {
        String(target.prefix { $0 != "?" })
    }

    /// The first value of a query parameter, percent-decoded.
    package func query(_ name: String) -> String? {
        URLComponents(string: target)?.queryItems?.first { $0.name == name }.map { $0.value ?? "" }
    }

    /// The first value of a header field (case-insensitive name).
    package func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// The request line and header fields.
    struct Head {
        let method: String
        let target: String
        let headers: [(name: String, value: String)]

        init?(_ text: String) {
            var lines = text.split(separator: "\r\n", omittingEmptySubsequences: true).makeIterator()
            guard let requestLine = lines.next() else { return nil }
            let parts = requestLine.split(separator: " ")
            guard parts.count >= 2 else { return nil }
            method = String(parts[0])
            target = String(parts[1])
            var headers: [(name: String, value: String)] = []
            while let line = lines.next() {
                let field = line.split(separator: ":", maxSplits: 1)
                guard field.count == 2 else { continue }
                headers.append((String(field[0]), field[1].trimmingCharacters(in: .whitespaces)))
            }
            self.headers = headers
        }

        var contentLength: Int {
            headers.first { $0.name.lowercased() == "content-length" }.flatMap { Int($0.value) } ?? 0
        }
    }
}

/// A response a ``LoopbackHTTPServer`` sends.
package struct LoopbackHTTPResponse: Sendable {
    /// The status code.
    package var status: Int
    /// The header fields, in order; `Content-Length` and `Connection` are added.
    package var headers: [(name: String, value: String)]
    /// The body.
    package var body: Data
    /// Whether the connection is closed after this response.
    package var closesConnection: Bool

    package init(
        status: Int,
        headers: [(name: String, value: String)] = [],
        body: Data = Data(),
        closesConnection: Bool = false
    ) {
        self.status = status
        self.headers = headers
        self.body = body
        self.closesConnection = closesConnection
    }

    /// The response as sent.
    var bytes: [UInt8] {
        var head = "HTTP/1.1 \(status) \(HTTPURLResponseReason.phrase(for: status))\r\n"
        for field in headers {
            head += "\(field.name): \(field.value)\r\n"
        }
        head += "Content-Length: \(body.count)\r\nConnection: \(closesConnection ? "close" : "keep-alive")\r\n\r\n"
        return Array(head.utf8) + Array(body)
    }
}

/// Reason phrases for the status line.
private enum HTTPURLResponseReason {
    static func phrase(for status: Int) -> String {
        switch status {
        case 200: "OK"
        case 201: "Created"
        case 204: "No Content"
        case 302: "Found"
        case 404: "Not Found"
        default: "Status"
        }
    }
}
