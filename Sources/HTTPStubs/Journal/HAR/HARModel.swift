import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A request that a HAR log recorded at least once, and every exchange that answered it.
package struct HARDistinctRequest: Sendable {
    /// The request as first recorded.
    package let request: HARRequest
    /// Whether the body tells this request apart from others with the same method, URL and query.
    package let matchesBody: Bool
    /// The recorded exchanges, in the order they are replayed; never empty.
    package let exchanges: [HARExchange]

    /// What a request must satisfy to be this one.
    package var pattern: RequestPattern {
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

    package init(
        request: HARRequest,
        matchesBody: Bool,
        exchanges: [HARExchange]
    ) {
        self.request = request
        self.matchesBody = matchesBody
        self.exchanges = exchanges
    }
}

/// One HAR entry: a request and what answered it.
package struct HARExchange: Sendable {
    /// The entry's index in `log.entries`.
    package let entryIndex: Int
    /// The entry's JSON path.
    package let jsonPath: JSONPath
    /// The request.
    package let request: HARRequest
    /// The response, or the failure.
    package let outcome: HAROutcome
    /// When the request started, in nanoseconds since 1970, if the entry says.
    package let startedAt: Int64?
    /// Polly.JS's `_order`: the index among identical requests.
    package let order: Int?

    package init(
        entryIndex: Int,
        jsonPath: JSONPath,
        request: HARRequest,
        outcome: HAROutcome,
        startedAt: Int64? = nil,
        order: Int? = nil
    ) {
        self.entryIndex = entryIndex
        self.jsonPath = jsonPath
        self.request = request
        self.outcome = outcome
        self.startedAt = startedAt
        self.order = order
    }
}

/// A recorded request.
package struct HARRequest: Sendable {
    /// The URL exactly as recorded (without a fragment).
    let url: String
    /// The method and URL as matchers see them, so the recorded side is normalised exactly as
    /// requests are (lower-cased scheme and host, default port, percent-encoded path, decoded query).
    package let stubRequest: InterceptedRequest
    /// The body, when the request had a non-empty one.
    package let body: HARBody?

    /// What identifies the request apart from its body: method, scheme, host, port, path and the
    /// query multiset.
    package var key: HARRequestKey {
        HARRequestKey(
            method: stubRequest.method.rawValue,
            scheme: stubRequest.scheme,
            host: stubRequest.host,
            port: stubRequest.port,
            path: stubRequest.path,
            query: stubRequest.queryParameters.map { QueryPair(name: $0.name, value: $0.value) }.sorted()
        )
    }

    package init(
        url: String,
        stubRequest: InterceptedRequest,
        body: HARBody? = nil
    ) {
        self.url = url
        self.stubRequest = stubRequest
        self.body = body
    }
}

/// The parts of a request that must agree for a recorded entry to answer it, body aside.
package struct HARRequestKey: Hashable, Sendable {
    /// The upper-cased method.
    package let method: String
    /// The lower-cased scheme.
    package let scheme: String
    /// The lower-cased host.
    package let host: String
    /// The explicit or default port.
    package let port: Int?
    /// The percent-encoded path.
    package let path: String
    /// The decoded query pairs, sorted.
    package let query: [QueryPair]
}

/// A recorded request body.
package struct HARBody: Sendable {
    /// The body text (rebuilt from `params` when the entry had no `text`), or the base64 of a body
    /// that is not UTF-8 text.
    package let text: String
    /// What two bodies must share to be the same body: the JSON value for a JSON object or array
    /// (compared semantically), else the text, or the bytes of a body that is not text.
    package let key: Key
    /// Whether the body is `application/x-www-form-urlencoded`, so that its fields can be matched
    /// one by one.
    package let isForm: Bool

    /// A body with this text.
    package init(text: String, isForm: Bool = false) {
        self.text = text
        self.isForm = isForm
        if let value = try? JSONValue(parsing: text), value.objectValue != nil || value.arrayValue != nil {
            self.key = .json(value)
        } else {
            self.key = .text(text)
        }
    }

    /// A body of bytes that are not UTF-8 text.
    package init(bytes: Data) {
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
    package enum Key: Hashable, Sendable {
        /// A JSON object or array, compared semantically.
        case json(JSONValue)
        /// Any other text, compared exactly.
        case text(String)
        /// Bytes that are not UTF-8 text, compared exactly.
        case bytes(Data)
    }
}

/// What answered a recorded request.
package enum HAROutcome: Sendable {
    /// An HTTP response.
    case response(HARResponse)
    /// A request that failed (`status: 0`), with the browser's error name (`net::ERR_…`) if recorded.
    case failure(errorName: String?)
    /// A request that failed with this `URLError` when it was recorded live.
    case urlError(URLError.Code)
}

/// A recorded HTTP response, ready to replay.
package struct HARResponse: Sendable {
    /// The status code.
    package let status: Int
    /// The reason phrase (`statusText`), possibly empty.
    package let reason: String
    /// The header fields, without pseudo-headers and without `Content-Encoding`,
    /// `Content-Length` and `Transfer-Encoding` (the recorded text is already decoded).
    package let headers: HeaderFields
    /// The decoded body.
    package let body: Data
    /// The media type: the `Content-Type` header, else `content.mimeType`; empty when unknown.
    package let contentType: String

    package init(
        status: Int,
        reason: String,
        headers: HeaderFields,
        body: Data,
        contentType: String
    ) {
        self.status = status
        self.reason = reason
        self.headers = headers
        self.body = body
        self.contentType = contentType
    }
}
