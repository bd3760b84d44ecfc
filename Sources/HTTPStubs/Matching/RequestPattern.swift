import Foundation

/// Everything a request must satisfy for a stub to answer it: a list of ``RequestMatcher``s that
/// must all match.
///
/// ```swift
/// RequestPattern.post("https://api.example.com/orders")
///     .header("Content-Type", .contains("json"))
///     .body(.json(["item": "book", "quantity": 1]))
/// ```
public struct RequestPattern: Sendable, CustomStringConvertible {
    /// The matchers, all of which must match.
    public private(set) var matchers: [RequestMatcher]
    /// How the pattern's first matchers were written, when they came from a method and a URL string
    /// (`.get("https://api.example.com/users/{id}")`): the method (`nil` for `anyMethod`), the URL
    /// string, and how many matchers they made. Reports write a corrected stub from it.
    private(set) var head: (method: InterceptedRequest.Method?, url: String, count: Int)?

    /// A pattern that requires every one of `matchers`; with none, it matches every request.
    public init(_ matchers: [RequestMatcher] = []) {
        self.matchers = matchers
    }

    private init(method: InterceptedRequest.Method?, url: URLPattern) {
        self.matchers = (method.map { [RequestMatcher.method($0)] } ?? []) + url.matchers
        self.head = url.literal.map { (method, $0, matchers.count) }
    }

    /// Every request, whatever its method and URL: a catch-all (give it a low priority such as 10).
    public static let anyRequest = RequestPattern()

    /// A request with this method to a URL that fits `url`.
    public static func method(_ method: InterceptedRequest.Method, _ url: URLPattern) -> RequestPattern {
        RequestPattern(method: method, url: url)
    }

    /// A request with any method to a URL that fits `url`.
    public static func anyMethod(_ url: URLPattern) -> RequestPattern { RequestPattern(method: nil, url: url) }
    /// A `GET` request to a URL that fits `url`.
    public static func get(_ url: URLPattern) -> RequestPattern { method(.get, url) }
    /// A `HEAD` request to a URL that fits `url`.
    public static func head(_ url: URLPattern) -> RequestPattern { method(.head, url) }
    /// A `POST` request to a URL that fits `url`.
    public static func post(_ url: URLPattern) -> RequestPattern { method(.post, url) }
    /// A `PUT` request to a URL that fits `url`.
    public static func put(_ url: URLPattern) -> RequestPattern { method(.put, url) }
    /// A `PATCH` request to a URL that fits `url`.
    public static func patch(_ url: URLPattern) -> RequestPattern { method(.patch, url) }
    /// A `DELETE` request to a URL that fits `url`.
    public static func delete(_ url: URLPattern) -> RequestPattern { method(.delete, url) }
    /// An `OPTIONS` request to a URL that fits `url`.
    public static func options(_ url: URLPattern) -> RequestPattern { method(.options, url) }

    /// A request with this method to `url` (see ``URLPattern/init(_:)-(URL)``).
    public static func method(_ method: InterceptedRequest.Method, _ url: URL) -> RequestPattern {
        RequestPattern(method: method, url: URLPattern(url))
    }
    /// A request with any method to `url`.
    public static func anyMethod(_ url: URL) -> RequestPattern { RequestPattern(method: nil, url: URLPattern(url)) }
    /// A `GET` request to `url`.
    public static func get(_ url: URL) -> RequestPattern { method(.get, url) }
    /// A `HEAD` request to `url`.
    public static func head(_ url: URL) -> RequestPattern { method(.head, url) }
    /// A `POST` request to `url`.
    public static func post(_ url: URL) -> RequestPattern { method(.post, url) }
    /// A `PUT` request to `url`.
    public static func put(_ url: URL) -> RequestPattern { method(.put, url) }
    /// A `PATCH` request to `url`.
    public static func patch(_ url: URL) -> RequestPattern { method(.patch, url) }
    /// A `DELETE` request to `url`.
    public static func delete(_ url: URL) -> RequestPattern { method(.delete, url) }
    /// An `OPTIONS` request to `url`.
    public static func options(_ url: URL) -> RequestPattern { method(.options, url) }

    /// A request with this method to a URL that fits the pattern `url` holds, read as a literal is
    /// (see ``URLPattern``): for a `String` variable, `.get(baseURL + "/users")`.
    public static func method(_ method: InterceptedRequest.Method, _ url: String) -> RequestPattern {
        RequestPattern(method: method, url: URLPattern(url))
    }
    /// A request with any method to a URL that fits the pattern `url` holds.
    public static func anyMethod(_ url: String) -> RequestPattern { RequestPattern(method: nil, url: URLPattern(url)) }
    /// A `GET` request to a URL that fits the pattern `url` holds.
    public static func get(_ url: String) -> RequestPattern { method(.get, url) }
    /// A `HEAD` request to a URL that fits the pattern `url` holds.
    public static func head(_ url: String) -> RequestPattern { method(.head, url) }
    /// A `POST` request to a URL that fits the pattern `url` holds.
    public static func post(_ url: String) -> RequestPattern { method(.post, url) }
    /// A `PUT` request to a URL that fits the pattern `url` holds.
    public static func put(_ url: String) -> RequestPattern { method(.put, url) }
    /// A `PATCH` request to a URL that fits the pattern `url` holds.
    public static func patch(_ url: String) -> RequestPattern { method(.patch, url) }
    /// A `DELETE` request to a URL that fits the pattern `url` holds.
    public static func delete(_ url: String) -> RequestPattern { method(.delete, url) }
    /// An `OPTIONS` request to a URL that fits the pattern `url` holds.
    public static func options(_ url: String) -> RequestPattern { method(.options, url) }

    /// This pattern with one more matcher, which must match too.
    public func matching(_ matcher: RequestMatcher) -> RequestPattern {
        var copy = self
        copy.matchers.append(matcher)
        return copy
    }

    /// Requires the scheme (case-insensitive).
    public func scheme(_ scheme: String) -> RequestPattern { matching(.scheme(scheme)) }
    /// Requires the host to satisfy `matcher`.
    public func host(_ matcher: StringMatcher) -> RequestPattern { matching(.host(matcher)) }
    /// Requires the host to be `host` (in any case, as hosts are compared).
    public func host(_ host: String) -> RequestPattern { matching(.host(.equal(host.lowercased()))) }
    /// Requires the port, explicit in the URL or the scheme's default (443 for `https`).
    public func port(_ port: Int) -> RequestPattern { matching(.port(port)) }
    /// Requires some value of a header (case-insensitive name) to satisfy `matcher`.
    public func header(_ name: String, _ matcher: StringMatcher) -> RequestPattern { matching(.header(name, matcher)) }
    /// Requires some value of a header (case-insensitive name) to equal `value`.
    public func header(_ name: String, _ value: String) -> RequestPattern { matching(.header(name, .equal(value))) }
    /// Requires a header to be absent.
    public func headerAbsent(_ name: String) -> RequestPattern { matching(.headerAbsent(name)) }
    /// Requires some value of a decoded query parameter to satisfy `matcher`.
    public func query(_ name: String, _ matcher: StringMatcher) -> RequestPattern { matching(.query(name, matcher)) }
    /// Requires some decoded value of a query parameter to equal `value`.
    public func query(_ name: String, _ value: String) -> RequestPattern { matching(.query(name, .equal(value))) }
    /// Requires a query parameter to be absent.
    public func queryAbsent(_ name: String) -> RequestPattern { matching(.queryAbsent(name)) }
    /// Requires exactly these decoded query parameters, in any order, and no others.
    public func queryParameters(exactly parameters: [String: String]) -> RequestPattern {
        matching(.queryParameters(exactly: parameters))
    }
    /// Requires the body to satisfy `matcher`.
    public func body(_ matcher: BodyMatcher) -> RequestPattern { matching(.body(matcher)) }
    /// Requires a custom test to pass; `description` is what reports print for it.
    public func matching(
        _ description: String,
        _ predicate: @escaping @Sendable (InterceptedRequest) -> Bool
    ) -> RequestPattern {
        matching(.custom(description, predicate))
    }

    /// Tests a request against every matcher.
    public func evaluate(_ request: InterceptedRequest) -> PatternEvaluation {
        let results = matchers.map { PatternEvaluation.Row(matcher: $0, verdict: $0.evaluate(request)) }
        return PatternEvaluation(rows: results)
    }

    /// Whether testing a request runs a closure of the user's.
    var runsUserCode: Bool { matchers.contains { $0.runsUserCode } }

    /// Whether every matcher matches `request`.
    public func matches(_ request: InterceptedRequest) -> Bool {
        // Only each matcher's test is copied out: iterating the matchers would copy each whole.
        for index in matchers.indices where !matchers[index].test(request) {
            return false
        }
        return true
    }

    /// The URI-template variables captured from a request the pattern matches.
    func pathParameters(of request: InterceptedRequest) -> [String: String] {
        var parameters: [String: String]?
        for index in matchers.indices where matchers[index].capturesParameters {
            let captured = matchers[index].pathParameters(of: request)
            // One capturing matcher (the usual case) hands over its dictionary as it is.
            if parameters == nil {
                parameters = captured
            } else {
                parameters!.merge(captured) { _, new in new }
            }
        }
        return parameters ?? [:]
    }

    /// Problems that make the pattern unusable (regular expressions that do not compile, ...).
    package var problems: [String] { matchers.flatMap(\.problems) }

    /// Whether some matcher reads the body.
    var readsBody: Bool { matchers.contains { $0.readsBody } }

    /// The exact path the pattern requires, if one of its matchers requires one.
    var literalPath: String? { matchers.lazy.compactMap(\.literalPath).first }

    /// A literal start every path the pattern accepts has, if one of its matchers tells one.
    var pathPrefix: String? {
        matchers.lazy.compactMap(\.pathPrefix).filter { !$0.isEmpty }.max { $0.count < $1.count }
    }

    /// The matchers' descriptions joined with `and`, or `any request`.
    public var description: String {
        matchers.isEmpty ? "any request" : matchers.map(\.description).joined(separator: " and ")
    }

    /// The ``description`` as reports print it, which go into logs: what each matcher quotes of
    /// secrets masked (`header Authorization = "Bearer <redacted:1a2b3c>"`, see ``LogMasking``).
    var maskedDescription: String {
        maskedDescription(noting: nil)
    }

    /// The ``maskedDescription``, the values masked by name noted in `collector`, when given.
    func maskedDescription(noting collector: SecretCollector?) -> String {
        matchers.isEmpty
            ? "any request"
            : matchers.map { LogMasking.text($0.description, part: $0.part, noting: collector) }.joined(
                separator: " and "
            )
    }
}

/// The verdict of every matcher of a pattern on one request.
public struct PatternEvaluation: Sendable {
    /// One matcher and its verdict.
    public struct Row: Sendable {
        /// The matcher.
        public let matcher: RequestMatcher
        /// Its verdict.
        public let verdict: MatchVerdict

        /// The row as reports print it after its ✓ or ✗: the matcher's description when it matched
        /// (`method GET`); when it failed, the verdict after what the matcher tests, naming that part
        /// once (`path: expected "/users/42", got "/users/43"`, not `path = "/users/42": expected …`).
        package var explanation: String {
            if verdict.isMatch { return matcher.description }
            // A verdict that says what it expected needs only the matcher's subject before it.
            let name =
                verdict.detail.hasPrefix("expected ") ? matcher.subject ?? matcher.description : matcher.description
            return "\(name): \(verdict.detail)"
        }
    }

    /// The rows, in the pattern's order.
    public let rows: [Row]

    /// Whether every matcher matched.
    public var isMatch: Bool { rows.allSatisfy(\.verdict.isMatch) }

    /// WireMock's weighted distance: Σ(weight × distance) / Σ weights, 0 for a match, up to 1.
    public var distance: Double {
        let totalWeight = rows.map(\.matcher.part.weight).reduce(0, +)
        guard totalWeight > 0 else { return 0 }
        return rows.map { $0.matcher.part.weight * $0.verdict.distance }.reduce(0, +) / totalWeight
    }
}
