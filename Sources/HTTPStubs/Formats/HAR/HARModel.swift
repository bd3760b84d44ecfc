import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A request that a HAR log recorded at least once, and every exchange that answered it.
struct HARDistinctRequest: Sendable {
    /// The request as first recorded.
    let request: HARRequest
    /// Whether the body tells this request apart from others with the same method, URL and query.
    let matchesBody: Bool
    /// The recorded exchanges, in the order they are replayed; never empty.
    let exchanges: [HARExchange]

    /// What a request must satisfy to be this one.
    var pattern: RequestPattern {
        let recorded = request.stubRequest
        var matchers: [RequestMatcher] = [
            .method(recorded.method),
            .scheme(recorded.scheme),
            .host(.equal(recorded.host)),
        ]
        if let port = recorded.port {
            matchers.append(.port(port))
        }
        matchers.append(.path(.equal(recorded.path)))
        matchers.append(.queryPairs(exactly: recorded.queryParameters))
        if matchesBody {
            switch request.body?.key {
            case let .json(value)?: matchers.append(.body(.json(value)))
            case let .text(text)?: matchers.append(.body(.equal(text)))
            case let .bytes(bytes)?: matchers.append(.body(.equal(bytes)))
            case nil: matchers.append(.body(.absent))
            }
        }
        return RequestPattern(matchers)
    }
}

/// One HAR entry: a request and what answered it.
struct HARExchange: Sendable {
    /// The entry's index in `log.entries`.
    let entryIndex: Int
    /// The entry's JSON path.
    let jsonPath: JSONPath
    /// The request.
    let request: HARRequest
    /// The response, or the failure.
    let outcome: HAROutcome
    /// When the request started, in nanoseconds since 1970, if the entry says.
    let startedAt: Int64?
    /// Polly.JS's `_order`: the index among identical requests.
    let order: Int?
}

/// A recorded request.
struct HARRequest: Sendable {
    /// The URL exactly as recorded (without a fragment).
    let url: String
    /// The method and URL as matchers see them, so the recorded side is normalised exactly as
    /// requests are (lower-cased scheme and host, default port, percent-encoded path, decoded query).
    let stubRequest: InterceptedRequest
    /// The body, when the request had a non-empty one.
    let body: HARBody?

    /// What identifies the request apart from its body: method, scheme, host, port, path and the
    /// query multiset.
    var key: HARRequestKey {
        HARRequestKey(
            method: stubRequest.method.rawValue,
            scheme: stubRequest.scheme,
            host: stubRequest.host,
            port: stubRequest.port,
            path: stubRequest.path,
            query: stubRequest.queryParameters.map { QueryPair(name: $0.name, value: $0.value) }.sorted()
        )
    }
}

/// The parts of a request that must agree for a recorded entry to answer it, body aside.
struct HARRequestKey: Hashable, Sendable {
    /// The upper-cased method.
    let method: String
    /// The lower-cased scheme.
    let scheme: String
    /// The lower-cased host.
    let host: String
    /// The explicit or default port.
    let port: Int?
    /// The percent-encoded path.
    let path: String
    /// The decoded query pairs, sorted.
    let query: [QueryPair]
}

/// A recorded request body.
struct HARBody: Sendable {
    /// The body text (rebuilt from `params` when the entry had no `text`), or the base64 of a body
    /// that is not UTF-8 text.
    let text: String
    /// What two bodies must share to be the same body: the JSON value for a JSON object or array
    /// (compared semantically), else the text, or the bytes of a body that is not text.
    let key: Key
    /// Whether the body is `application/x-www-form-urlencoded`, so that its fields can be matched
    /// one by one.
    let isForm: Bool

    /// A body with this text.
    init(text: String, isForm: Bool = false) {
        self.text = text
        self.isForm = isForm
        if let value = try? JSONValue(parsing: text), value.objectValue != nil || value.arrayValue != nil {
            self.key = .json(value)
        } else {
            self.key = .text(text)
        }
    }

    /// A body of bytes that are not UTF-8 text.
    init(bytes: Data) {
        self.text = bytes.base64EncodedString()
        self.isForm = false
        self.key = .bytes(bytes)
    }

    /// A body as a live request sent it: its text when it is UTF-8, else its bytes.
    init(recorded data: Data) {
        let text = String(decoding: data, as: UTF8.self)
        if Data(text.utf8) == data {
            self.init(text: text)
        } else {
            self.init(bytes: data)
        }
    }

    /// The body's bytes.
    var data: Data {
        if case let .bytes(bytes) = key { return bytes }
        return Data(text.utf8)
    }

    /// A body's identity for telling requests apart.
    enum Key: Hashable, Sendable {
        /// A JSON object or array, compared semantically.
        case json(JSONValue)
        /// Any other text, compared exactly.
        case text(String)
        /// Bytes that are not UTF-8 text, compared exactly.
        case bytes(Data)
    }
}

/// What answered a recorded request.
enum HAROutcome: Sendable {
    /// An HTTP response.
    case response(HARResponse)
    /// A request that failed (`status: 0`), with the browser's error name (`net::ERR_…`) if recorded.
    case failure(errorName: String?)
    /// A request that failed with this `URLError` when it was recorded live.
    case urlError(URLError.Code)

    /// The stub response that replays it.
    var stubResponse: StubResponse {
        switch self {
        case let .response(response):
            let answer = StubResponse.http(
                status: response.status,
                headers: response.headers,
                body: response.body.isEmpty ? .empty : .data(response.body)
            )
            return response.reason.isEmpty ? answer : answer.reason(response.reason)
        case let .failure(errorName):
            return .error(HARReader.urlErrorCode(forBrowserError: errorName))
        case let .urlError(code):
            return .error(code)
        }
    }
}

/// A recorded HTTP response, ready to replay.
struct HARResponse: Sendable {
    /// The status code.
    let status: Int
    /// The reason phrase (`statusText`), possibly empty.
    let reason: String
    /// The header fields, without pseudo-headers and without `Content-Encoding`,
    /// `Content-Length` and `Transfer-Encoding` (the recorded text is already decoded).
    let headers: HeaderFields
    /// The decoded body.
    let body: Data
    /// The media type: the `Content-Type` header, else `content.mimeType`; empty when unknown.
    let contentType: String
}
