import Foundation

/// Which URLs a stub answers, written the way you would write the URL.
///
/// A string literal is read as a URL:
/// - `"https://api.example.com/users/42"` requires that scheme, host (any case), port (the scheme's
///   default unless one is written) and path;
/// - `"/users/42"` requires only the path;
/// - `{name}` in the path makes a URI template (`"/users/{id}"`) whose captures reach computed
///   responses as ``InterceptedRequest/pathParameters``;
/// - query items (`"/search?q=swift"`) must be present with those decoded values; other query
///   items may be present too. Use ``RequestPattern/queryParameters(exactly:)`` to forbid others.
public struct URLPattern: Sendable, ExpressibleByStringInterpolation, CustomStringConvertible {
    let matchers: [RequestMatcher]
    /// The pattern as written.
    public let description: String
    /// The string the pattern was read from, when it was read from one: how a report writes it back
    /// into a stub to paste.
    let literal: String?

    init(matchers: [RequestMatcher], description: String, literal: String? = nil) {
        self.matchers = matchers
        self.description = description
        self.literal = literal
    }

    /// Reads a URL pattern from a string literal, interpolations included.
    public init(stringLiteral value: String) {
        self.init(value)
    }

    /// Reads a URL pattern from a string (see the type's documentation).
    public init(_ text: String) {
        var matchers: [RequestMatcher] = []
        var rest = Substring(text)
        if let schemeEnd = rest.range(of: "://") {
            let scheme = rest[..<schemeEnd.lowerBound].lowercased()
            rest = rest[schemeEnd.upperBound...]
            let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
            let authority = rest[..<authorityEnd]
            rest = rest[authorityEnd...]
            var host = Substring(authority)
            var port = scheme == "https" || scheme == "wss" ? 443 : (scheme == "http" || scheme == "ws" ? 80 : nil)
            if let colon = authority.lastIndex(of: ":"), !authority.hasSuffix("]"),
                let explicit = Int(authority[authority.index(after: colon)...])
            {
                host = authority[..<colon]
                port = explicit
            }
            if host.hasPrefix("["), host.hasSuffix("]") {
                host = host.dropFirst().dropLast()  // URL.host reports IPv6 literals without brackets
            }
            matchers.append(.scheme(scheme))
            matchers.append(.host(.equal(host.lowercased())))
            if let port { matchers.append(.port(port)) }
        }
        let queryStart = rest.firstIndex(of: "?")
        var path = String(queryStart.map { rest[..<$0] } ?? rest)
        if path.isEmpty { path = "/" }
        if path.contains("{") {
            matchers.append(.pathTemplate(path))
        } else {
            matchers.append(.path(.equal(path)))
        }
        if let queryStart {
            for item in FormURLEncoding.decode(String(rest[rest.index(after: queryStart)...])) {
                matchers.append(.query(item.name, .equal(item.value)))
            }
        }
        self.init(matchers: matchers, description: text, literal: text)
    }

    /// Exactly this URL, as if its absolute string were written as a literal: its scheme, host,
    /// port, path and query items (the fragment, which is never sent, is ignored).
    ///
    /// ```swift
    /// let url = baseURL.appendingPathComponent("users/42")
    /// stubs.stub(.get(url), .json(user))
    /// ```
    public init(_ url: URL) {
        var components = URLComponents(url: url, resolvingAgainstBaseURL: true)
        components?.fragment = nil
        self.init(components?.string ?? url.absoluteString)
    }

    /// Every URL: `.anyMethod(.anyURL)` is the same as ``RequestPattern/anyRequest``, and `.get(.anyURL)` catches every
    /// `GET`.
    public static let anyURL = URLPattern(matchers: [], description: "any URL")

    /// The path (percent-encoded, without the query) satisfies `matcher`, on any host.
    public static func path(_ matcher: StringMatcher) -> URLPattern {
        URLPattern(matchers: [.path(matcher)], description: "path \(matcher)")
    }

    /// The path (percent-encoded, without the query) is `path`, on any host.
    public static func path(_ path: String) -> URLPattern {
        self.path(.equal(path))
    }

    /// The path starts with `prefix`, on any host.
    public static func pathPrefix(_ prefix: String) -> URLPattern {
        path(.hasPrefix(prefix))
    }

    /// The whole path matches a regular expression (ICU syntax), on any host.
    public static func pathMatching(
        _ pattern: String,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        column: UInt = #column
    ) -> URLPattern {
        path(.matches(pattern, fileID: fileID, line: line, column: column))
    }

    /// The whole absolute URL, as sent, matches a regular expression (ICU syntax).
    public static func urlMatching(
        _ pattern: String,
        fileID: StaticString = #fileID,
        line: UInt = #line,
        column: UInt = #column
    ) -> URLPattern {
        let matcher = StringMatcher.matches(pattern, fileID: fileID, line: line, column: column)
        return URLPattern(matchers: [.absoluteURL(matcher)], description: "URL \(matcher)")
    }
}
