import Foundation

/// One test on a request: its method, host, path, a header, the body, or anything a closure checks.
///
/// Every matcher has a readable ``description`` and explains each verdict, which is what the
/// unmatched-request report and the `stubs match` tool print. Combine matchers with
/// ``allOf(_:)``, ``anyOf(_:)`` and ``not(_:)``, or collect them in a ``RequestPattern``.
public struct RequestMatcher: Sendable, CustomStringConvertible {
    /// The part of the request a matcher looks at, and its weight when ranking near misses
    /// (WireMock's weights: URL, host and port 10, method and scheme 3, everything else 1).
    public struct Part: Sendable, Hashable, CustomStringConvertible {
        /// The part's name, as printed in reports (`method`, `path`, `header Accept`).
        public let name: String
        /// The part's weight in the near-miss distance.
        public let weight: Double

        /// A part of your own, for a custom matcher; `weight` counts against the other parts' weights.
        public init(name: String, weight: Double = 1) {
            self.name = name
            self.weight = weight
        }

        /// The part's name, as reports print it.
        public var description: String { name }

        /// The request method (weight 3).
        public static let method = Part(name: "method", weight: 3)
        /// The URL scheme (weight 3).
        public static let scheme = Part(name: "scheme", weight: 3)
        /// The URL's host (weight 10).
        public static let host = Part(name: "host", weight: 10)
        /// The URL's port, explicit or the scheme's default (weight 10).
        public static let port = Part(name: "port", weight: 10)
        /// The path, or the path and query.
        public static let url = Part(name: "path", weight: 10)
        /// The request body (weight 1).
        public static let body = Part(name: "body", weight: 1)
        /// The query parameter called `name` (weight 1).
        public static func query(_ name: String) -> Part { Part(name: "query \(name)") }
        /// The header field called `name` (weight 1).
        public static func header(_ name: String) -> Part { Part(name: "header \(name)") }
    }

    /// The part of the request this matcher looks at.
    public let part: Part
    /// What the matcher requires, such as `path = "/users/42"`.
    public let description: String
    /// Problems that make the matcher unusable, such as a regular expression that does not compile.
    package let problems: [String]
    /// Whether the matcher reads the body (the body of a streamed request cannot be read before loading).
    let readsBody: Bool
    /// What the matcher tests (`path`, `header Accept`), when a report can name it on its own and
    /// let the verdict say the rest: `✗ path: expected "/users/42", got "/users/43"`.
    package var subject: String?
    /// The exact path the matcher requires, when it requires one: lets a registry index its stubs.
    var literalPath: String?
    /// How the matcher is written on a pattern, when a report can write it into a stub to paste.
    var code: MatcherCode?
    /// The options of the JSON body test this matcher is (`.body(.json(…))`): a report corrects it
    /// with a JSON test of the body sent, not a test of its exact bytes.
    var jsonBodyOptions: JSONComparisonOptions?
    /// A literal start every path the matcher accepts has (`/users/` for `/users/{id}`): lets a
    /// registry index stubs that do not require one exact path.
    var pathPrefix: String?
    private let evaluation: @Sendable (InterceptedRequest) -> MatchVerdict
    /// A yes-or-no test that builds no explanation when the matcher has one (else the
    /// evaluation's verdict): what selection uses, for speed.
    let test: @Sendable (InterceptedRequest) -> Bool
    private let captureParameters: (@Sendable (InterceptedRequest) -> [String: String])?
    /// Whether testing a request runs a closure of the user's (a custom matcher, or a combination
    /// holding one): such code may start a request or take its time, so it never runs on
    /// URLSession's queue (see ``RequestDelivery``).
    let runsUserCode: Bool

    /// Creates a matcher from a closure that explains its verdict.
    public init(
        part: Part,
        description: String,
        evaluate: @escaping @Sendable (InterceptedRequest) -> MatchVerdict
    ) {
        self.init(part: part, description: description, evaluate: evaluate, problems: [], runsUserCode: true)
    }

    package init(
        part: Part,
        description: String,
        evaluate: @escaping @Sendable (InterceptedRequest) -> MatchVerdict,
        problems: [String],
        readsBody: Bool = false,
        pathPrefix: String? = nil,
        predicate: (@Sendable (InterceptedRequest) -> Bool)? = nil,
        captureParameters: (@Sendable (InterceptedRequest) -> [String: String])? = nil,
        runsUserCode: Bool = false
    ) {
        self.part = part
        self.description = description
        self.evaluation = evaluate
        self.problems = problems
        self.readsBody = readsBody
        self.pathPrefix = pathPrefix
        self.test = predicate ?? { evaluate($0).isMatch }
        self.captureParameters = captureParameters
        self.runsUserCode = runsUserCode
    }

    /// Tests a request, explaining the verdict.
    public func evaluate(_ request: InterceptedRequest) -> MatchVerdict {
        evaluation(request)
    }

    /// Whether a request matches (the verdict without its explanation).
    public func matches(_ request: InterceptedRequest) -> Bool {
        test(request)
    }

    /// This matcher described as `description` (the near-miss report's masked description).
    func described(as description: String) -> RequestMatcher {
        var matcher = RequestMatcher(
            part: part,
            description: description,
            evaluate: evaluation,
            problems: problems,
            readsBody: readsBody,
            pathPrefix: pathPrefix,
            predicate: test,
            captureParameters: captureParameters
        )
        matcher.literalPath = literalPath
        matcher.subject = subject
        matcher.code = code
        return matcher
    }

    /// Whether the matcher captures URI-template variables.
    var capturesParameters: Bool { captureParameters != nil }

    /// The URI-template variables this matcher captures from a request it matches.
    func pathParameters(of request: InterceptedRequest) -> [String: String] {
        captureParameters?(request) ?? [:]
    }

    /// A matcher on a text value of the request, which may be missing (`nil`).
    static func value(
        _ part: Part,
        named name: String? = nil,
        _ matcher: StringMatcher,
        _ extract: @escaping @Sendable (InterceptedRequest) -> String?
    ) -> RequestMatcher {
        let name = name ?? part.name
        var valueMatcher = RequestMatcher(
            part: part,
            description: "\(name) \(matcher)",
            evaluate: { request in
                guard let actual = extract(request) else {
                    return MatchVerdict(isMatch: false, detail: "expected \(matcher.expectation), but it is missing")
                }
                if matcher.matches(actual) { return MatchVerdict(isMatch: true, detail: quoted(actual)) }
                return MatchVerdict(
                    isMatch: false,
                    distance: matcher.distance(toMismatch: actual),
                    detail: "expected \(matcher.expectation), got \(quoted(actual))"
                )
            },
            problems: matcher.problems,
            // Not `extract(request).map(matcher.matches)`: that makes a closure of `matcher.matches`
            // for every test, copying (retaining) the matcher into it.
            predicate: { request in
                guard let actual = extract(request) else { return false }
                return matcher.matches(actual)
            }
        )
        valueMatcher.subject = name
        return valueMatcher
    }
}

extension RequestMatcher {
    /// The method is `method`.
    public static func method(_ method: InterceptedRequest.Method) -> RequestMatcher {
        var methodMatcher = RequestMatcher(
            part: .method,
            description: "method \(method)",
            evaluate: { request in
                request.method == method
                    ? MatchVerdict(isMatch: true, detail: method.rawValue)
                    : MatchVerdict(isMatch: false, detail: "expected \(method), got \(request.method)")
            },
            problems: [],
            predicate: { $0.method == method }
        )
        methodMatcher.subject = Part.method.name
        return methodMatcher
    }

    /// The scheme is `scheme` (case-insensitive).
    public static func scheme(_ scheme: String) -> RequestMatcher {
        value(.scheme, .equal(scheme.lowercased())) { $0.scheme }
    }

    /// The host satisfies `matcher` (hosts are lower-cased before the test).
    public static func host(_ matcher: StringMatcher) -> RequestMatcher {
        value(.host, matcher) { $0.host }
    }

    /// The port, explicit or the scheme's default, is `port`.
    public static func port(_ port: Int) -> RequestMatcher {
        var portMatcher = RequestMatcher(
            part: .port,
            description: "port \(port)",
            evaluate: { request in
                request.port == port
                    ? MatchVerdict(isMatch: true, detail: "\(port)")
                    : MatchVerdict(
                        isMatch: false,
                        detail: "expected \(port), got \(request.port.map(String.init) ?? "none")"
                    )
            },
            problems: [],
            predicate: { $0.port == port }
        )
        portMatcher.subject = Part.port.name
        return portMatcher
    }

    /// The percent-encoded path satisfies `matcher`; the query is not looked at.
    public static func path(_ matcher: StringMatcher) -> RequestMatcher {
        var path = value(.url, matcher) { $0.path }
        switch matcher.kind {
        case let .equal(literal, caseInsensitive: false):
            path.literalPath = literal.isEmpty ? "/" : literal
        case let .hasPrefix(prefix):
            path.pathPrefix = prefix
        case let .matches(expression):
            path.pathPrefix = expression.literalPrefix
        default:
            break
        }
        return path
    }

    /// The path matches a URI template such as `/users/{id}`; the captured variables reach
    /// computed responses as ``InterceptedRequest/pathParameters``.
    ///
    /// `{name}` captures one path segment; `{+name}` captures the rest of the path, slashes included.
    public static func pathTemplate(_ template: String) -> RequestMatcher {
        let compiled = URITemplate(template)
        var templateMatcher = RequestMatcher(
            part: .url,
            description: "path template \(quoted(template))",
            evaluate: { request in
                compiled.matches(request.path)
                    ? MatchVerdict(isMatch: true, detail: quoted(request.path))
                    : MatchVerdict(
                        isMatch: false,
                        distance: Levenshtein.normalisedDistance(template, request.path),
                        detail: "expected template \(quoted(template)), got \(quoted(request.path))"
                    )
            },
            problems: compiled.problem.map { [$0] } ?? [],
            pathPrefix: String(template.prefix { $0 != "{" }),
            predicate: { compiled.matches($0.path) },
            captureParameters: { compiled.match($0.path) ?? [:] }
        )
        templateMatcher.subject = Part.url.name
        return templateMatcher
    }

    /// The path and query as sent (`/users?page=2`) satisfy `matcher`: WireMock's `url` / `urlPattern`.
    public static func pathAndQuery(_ matcher: StringMatcher) -> RequestMatcher {
        var pathAndQuery = value(.url, named: "path and query", matcher) { $0.pathAndQuery }
        if case let .equal(literal, caseInsensitive: false) = matcher.kind, !literal.isEmpty {
            pathAndQuery.literalPath = String(literal.prefix { $0 != "?" })
        }
        return pathAndQuery
    }

    /// The full URL as sent satisfies `matcher`.
    public static func absoluteURL(_ matcher: StringMatcher) -> RequestMatcher {
        value(.url, matcher) { $0.url.absoluteString }
    }

    /// Some value of the decoded query parameter `name` satisfies `matcher`.
    public static func query(_ name: String, _ matcher: StringMatcher) -> RequestMatcher {
        var query = anyValue(.query(name), matcher) { $0.queryValues(name) }
        query.code = .query(name, matcher)
        return query
    }

    /// The query parameter `name` is absent.
    public static func queryAbsent(_ name: String) -> RequestMatcher {
        var absent = absence(.query(name)) { $0.queryValues(name) }
        absent.code = .queryAbsent(name)
        return absent
    }

    /// The query has exactly these decoded parameters (in any order), and no others.
    public static func queryParameters(exactly expected: [String: String]) -> RequestMatcher {
        let wanted = expected.map { "\($0.key)=\($0.value)" }.sorted()
        return RequestMatcher(part: .query("(all)"), description: "query exactly \(wanted.joined(separator: "&"))") {
            request in
            let actual = request.queryParameters.map { "\($0.name)=\($0.value)" }.sorted()
            if actual == wanted { return MatchVerdict(isMatch: true, detail: actual.joined(separator: "&")) }
            let extra = actual.filter { !wanted.contains($0) }
            let missing = wanted.filter { !actual.contains($0) }
            var parts: [String] = []
            if !missing.isEmpty { parts.append("missing \(missing.joined(separator: ", "))") }
            if !extra.isEmpty { parts.append("unexpected \(extra.joined(separator: ", "))") }
            let total = Double(Set(actual).union(wanted).count)
            return MatchVerdict(
                isMatch: false,
                distance: total == 0 ? 1 : Double(missing.count + extra.count) / total,
                detail: parts.isEmpty ? "expected each parameter once" : parts.joined(separator: "; ")
            )
        }
    }

    /// Some value of the header `name` (case-insensitive) satisfies `matcher`.
    public static func header(_ name: String, _ matcher: StringMatcher) -> RequestMatcher {
        var header = anyValue(.header(name), matcher) { $0.sentValues(ofHeader: name) }
        header.code = .header(name, matcher)
        return header
    }

    /// The header `name` (case-insensitive) is absent.
    public static func headerAbsent(_ name: String) -> RequestMatcher {
        var absent = absence(.header(name)) { $0.sentValues(ofHeader: name) }
        absent.code = .headerAbsent(name)
        return absent
    }

    /// The body satisfies `matcher`.
    public static func body(_ matcher: BodyMatcher) -> RequestMatcher {
        var bodyMatcher = RequestMatcher(
            part: .body,
            description: "body \(matcher)",
            evaluate: { matcher.evaluate($0) },
            problems: matcher.problems,
            readsBody: true
        )
        bodyMatcher.subject = Part.body.name
        if case let .json(_, options) = matcher.kind { bodyMatcher.jsonBodyOptions = options }
        return bodyMatcher
    }

    /// A custom test. The description is what reports print for it.
    public static func custom(
        _ description: String,
        _ predicate: @escaping @Sendable (InterceptedRequest) -> Bool
    ) -> RequestMatcher {
        RequestMatcher(
            part: Part(name: "custom"),
            description: description,
            evaluate: { request in
                predicate(request)
                    ? MatchVerdict(isMatch: true, detail: "passed")
                    : MatchVerdict(isMatch: false, detail: "not satisfied")
            },
            problems: [],
            readsBody: true,
            runsUserCode: true
        )
    }

    /// Every matcher matches.
    public static func allOf(_ matchers: [RequestMatcher]) -> RequestMatcher {
        RequestMatcher(
            part: Part(name: "all of"),
            description: "(" + matchers.map(\.description).joined(separator: " and ") + ")",
            evaluate: { request in
                let verdicts = matchers.map { $0.evaluate(request) }
                let failures = verdicts.filter { !$0.isMatch }
                if failures.isEmpty { return MatchVerdict(isMatch: true, detail: "all matched") }
                return MatchVerdict(
                    isMatch: false,
                    distance: verdicts.map(\.distance).reduce(0, +) / Double(verdicts.count),
                    detail: failures.map(\.detail).joined(separator: "; ")
                )
            },
            problems: matchers.flatMap(\.problems),
            readsBody: matchers.contains { $0.readsBody },
            predicate: { request in matchers.allSatisfy { $0.matches(request) } },
            captureParameters: { request in
                matchers.reduce(into: [:]) { $0.merge($1.pathParameters(of: request)) { _, new in new } }
            },
            runsUserCode: matchers.contains { $0.runsUserCode }
        )
    }

    /// At least one matcher matches.
    public static func anyOf(_ matchers: [RequestMatcher]) -> RequestMatcher {
        RequestMatcher(
            part: Part(name: "any of"),
            description: "(" + matchers.map(\.description).joined(separator: " or ") + ")",
            evaluate: { request in
                let verdicts = matchers.map { $0.evaluate(request) }
                if let match = verdicts.first(where: \.isMatch) { return match }
                return MatchVerdict(
                    isMatch: false,
                    distance: verdicts.map(\.distance).min() ?? 1,
                    detail: "none matched: " + verdicts.map(\.detail).joined(separator: " | ")
                )
            },
            problems: matchers.flatMap(\.problems),
            readsBody: matchers.contains { $0.readsBody },
            predicate: { request in matchers.contains { $0.matches(request) } },
            captureParameters: { request in
                matchers.first { $0.matches(request) }?.pathParameters(of: request) ?? [:]
            },
            runsUserCode: matchers.contains { $0.runsUserCode }
        )
    }

    /// The matcher does not match.
    public static func not(_ matcher: RequestMatcher) -> RequestMatcher {
        RequestMatcher(
            part: matcher.part,
            description: "not (\(matcher.description))",
            evaluate: { request in
                let verdict = matcher.evaluate(request)
                return verdict.isMatch
                    ? MatchVerdict(isMatch: false, detail: "it matched")
                    : MatchVerdict(isMatch: true, detail: verdict.detail)
            },
            problems: matcher.problems,
            readsBody: matcher.readsBody,
            predicate: { !matcher.matches($0) },
            runsUserCode: matcher.runsUserCode
        )
    }

    private static func anyValue(
        _ part: Part,
        _ matcher: StringMatcher,
        _ extract: @escaping @Sendable (InterceptedRequest) -> [String]
    ) -> RequestMatcher {
        var valuesMatcher = RequestMatcher(
            part: part,
            description: "\(part) \(matcher)",
            evaluate: { request in
                let values = extract(request)
                guard !values.isEmpty else {
                    return MatchVerdict(isMatch: false, detail: "expected \(matcher.expectation), but it is missing")
                }
                if let match = values.first(where: matcher.matches) {
                    return MatchVerdict(isMatch: true, detail: quoted(match))
                }
                return MatchVerdict(
                    isMatch: false,
                    distance: values.map(matcher.distance(to:)).min() ?? 1,
                    detail: "expected \(matcher.expectation), got " + values.map(quoted).joined(separator: ", ")
                )
            },
            problems: matcher.problems,
            predicate: { request in extract(request).contains { matcher.matches($0) } }  // no copy of `matcher`
        )
        valuesMatcher.subject = part.name
        return valuesMatcher
    }

    private static func absence(
        _ part: Part,
        _ extract: @escaping @Sendable (InterceptedRequest) -> [String]
    ) -> RequestMatcher {
        var absenceMatcher = RequestMatcher(
            part: part,
            description: "\(part) absent",
            evaluate: { request in
                let values = extract(request)
                return values.isEmpty
                    ? MatchVerdict(isMatch: true, detail: "absent")
                    : MatchVerdict(
                        isMatch: false,
                        detail: "expected it absent, got " + values.map(quoted).joined(separator: ", ")
                    )
            },
            problems: [],
            predicate: { extract($0).isEmpty }
        )
        absenceMatcher.subject = part.name
        return absenceMatcher
    }
}
