import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a stub answers: an HTTP response, a redirect, a `URLError`, or a response computed from the
/// request, optionally delayed or dribbled.
///
/// ```swift
/// .json(user)                                   // 200, Content-Type: application/json
/// .status(204)
/// .json(created).status(201)
/// .text("teapot", status: 418).header("X-Brew", "earl grey")
/// .redirect(to: "/login")                       // followed as URLSession on Apple platforms does
/// .error(.notConnectedToInternet)
/// .json(feed).delayed(by: .milliseconds(300))
/// .computed { request in .json(User(id: request.pathParameters["id"]!)) }
/// ```
public struct StubResponse: Sendable {
    package enum Content: Sendable {
        case http(status: Int, reason: String?, headers: HeaderFields, body: ResponseBody)
        case failure(any Error)
        case computed(@Sendable (InterceptedRequest) throws -> StubResponse)
        case computedAsync(@Sendable (InterceptedRequest) async throws -> StubResponse)
        /// A response rendered for each request (response templates), then changed by the modifiers.
        case rendered(any RenderedResponse, modifiers: [HTTPModifier])
        /// A response object given as is, as hand-rolled `URLProtocolStub`s take it.
        case urlResponse(URLResponse?, data: Data?)
    }

    /// A change to an HTTP response's status, reason, headers or body.
    package typealias HTTPModifier =
        @Sendable (inout Int, inout String?, inout HeaderFields, inout ResponseBody) -> Void

    var content: Content
    /// The delay before the response (or error) is delivered; `nil` for none.
    public var delay: StubDelay?
    /// How the body is spread over time; `nil` to send it at once.
    public var dribble: Dribble?
    /// Problems found while building the response (a value that could not be encoded, ...).
    package private(set) var problems: [String] = []

    /// Whether answering runs a closure of the user's (a computed response).
    var runsUserCode: Bool {
        switch content {
        case .computed, .computedAsync: return true
        case .http, .failure, .urlResponse, .rendered: return false
        }
    }

    package init(_ content: Content, problems: [String] = []) {
        self.content = content
        self.problems = problems
    }

    /// An HTTP response with a status, header fields and a body;
    /// ``json(_:status:headers:encoder:fileID:line:column:)``, ``text(_:status:headers:)`` and the others are shortcuts
    /// for it.
    public static func http(status: Int = 200, headers: HeaderFields = [:], body: ResponseBody = .empty) -> StubResponse
    {
        StubResponse(.http(status: status, reason: nil, headers: headers, body: body))
    }

    /// A response with this status and no body.
    public static func status(_ status: Int, headers: HeaderFields = [:]) -> StubResponse {
        http(status: status, headers: headers)
    }

    /// `200 OK` with no body.
    public static var ok: StubResponse { status(200) }

    /// A response with these bytes as body.
    public static func data(_ data: Data, status: Int = 200, headers: HeaderFields = [:]) -> StubResponse {
        http(status: status, headers: headers, body: .data(data))
    }

    /// A UTF-8 text response; `Content-Type: text/plain; charset=utf-8` unless the headers name one.
    public static func text(_ text: String, status: Int = 200, headers: HeaderFields = [:]) -> StubResponse {
        http(
            status: status,
            headers: headers.defaulting("Content-Type", "text/plain; charset=utf-8"),
            body: .text(text)
        )
    }

    /// An `Encodable` value as a JSON body; `Content-Type: application/json` unless the headers name one.
    ///
    /// A value that cannot be encoded makes a response that fails with `URLError(.cannotParseResponse)`
    /// and is reported, with the line that wrote it, when the stub is added.
    public static func json(
        _ value: some Encodable,
        status: Int = 200,
        headers: HeaderFields = [:],
        encoder: JSONEncoder = JSONEncoder(),
        fileID: StaticString = #fileID,
        line: UInt = #line,
        column: UInt = #column
    ) -> StubResponse {
        do {
            return json(data: try encoder.encode(value), status: status, headers: headers)
        } catch {
            let problem = "the JSON body at \(fileID):\(line):\(column) could not be encoded: \(error)"
            return StubResponse(.failure(StubError.brokenStub(problem).urlError(for: nil)), problems: [problem])
        }
    }

    /// JSON text as the body; `Content-Type: application/json` unless the headers name one.
    public static func json(text: String, status: Int = 200, headers: HeaderFields = [:]) -> StubResponse {
        json(data: Data(text.utf8), status: status, headers: headers)
    }

    private static func json(data: Data, status: Int, headers: HeaderFields) -> StubResponse {
        http(status: status, headers: headers.defaulting("Content-Type", "application/json"), body: .data(data))
    }

    /// A file's contents as the body, read when the stub answers. A file that cannot be read then
    /// fails the request with `URLError(.fileDoesNotExist)` naming the path.
    public static func file(_ url: URL, status: Int = 200, headers: HeaderFields = [:]) -> StubResponse {
        http(status: status, headers: headers, body: .file(url))
    }

    /// A redirect to `location` (absolute, or relative to the request URL).
    ///
    /// The toolkit follows it as URLSession on Apple platforms does: `301`/`302` turn `POST` into
    /// `GET`, `303` turns every method but `HEAD` into `GET` (dropping the body), `307`/`308` keep
    /// the method and body; after 16 redirects the request fails with `URLError(.httpTooManyRedirects)`.
    /// The caller receives the final response, whose `url` is the final URL.
    public static func redirect(to location: String, status: Int = 302, headers: HeaderFields = [:]) -> StubResponse {
        var headers = headers
        headers.set("Location", location)
        return http(status: status, headers: headers)
    }

    /// Fails the request with a `URLError` of this code, whose `failingURL` is the request URL.
    public static func error(_ code: URLError.Code) -> StubResponse {
        StubResponse(.failure(URLError(code)))
    }

    /// Fails the request with this error, delivered unchanged.
    ///
    /// On Linux, build URL errors as `URLError(...)`: an `NSError` in `NSURLErrorDomain` does not
    /// bridge to `URLError` there.
    public static func failure(_ error: any Error) -> StubResponse {
        StubResponse(.failure(error))
    }

    /// A response computed from the request each time the stub answers. The request's
    /// ``InterceptedRequest/pathParameters`` hold the URI-template captures. An error thrown by the closure
    /// fails the request (a `URLError` unchanged, anything else as `URLError(.cannotParseResponse)`
    /// naming the error).
    public static func computed(
        _ responder: @escaping @Sendable (InterceptedRequest) throws -> StubResponse
    ) -> StubResponse {
        StubResponse(.computed(responder))
    }

    /// A response computed from the request by `async` code each time the stub answers: it may
    /// await (an actor that counts calls, a continuation, another request), and throw as
    /// the synchronous `computed(_:)` does. It runs off URLSession's queue, in a task of the test that opened
    /// the registry's scope when there is one (see the README's "Stub code runs in its test").
    ///
    /// ```swift
    /// .computed { request in
    ///     await calls.record(request.url.path)
    ///     return .json(try await fixtures.user(id: request.pathParameters["id"]!))
    /// }
    /// ```
    public static func computed(
        _ responder: @escaping @Sendable (InterceptedRequest) async throws -> StubResponse
    ) -> StubResponse {
        StubResponse(.computedAsync(responder))
    }

    /// A response object and body given as is: the shape hand-rolled `URLProtocolStub`s take.
    /// With neither, the request finishes with no response and no data; an `async` caller, which
    /// corelibs would crash, gets `URLError(.cannotParseResponse)` instead.
    static func raw(response: URLResponse?, data: Data?) -> StubResponse {
        StubResponse(.urlResponse(response, data: data))
    }

    /// This response with another status code: `.json(user).status(201)`, `.text("gone").status(410)`.
    /// On a computed response it applies to whatever the closure returns.
    public func status(_ code: Int) -> StubResponse {
        modifyingHTTP("status(\(code))") { status, _, _, _ in status = code }
    }

    /// Adds a header field (a name may repeat). On a computed response it applies to whatever the
    /// closure returns.
    public func header(_ name: String, _ value: String) -> StubResponse {
        modifyingHTTP("header(\(quoted(name)), ...)") { _, _, headers, _ in headers.add(name, value) }
    }

    /// Sets the reason phrase (`Not Found`). URLSession does not expose reason phrases; the journal
    /// and the `stubs` tool show it.
    public func reason(_ phrase: String) -> StubResponse {
        modifyingHTTP("reason(\(quoted(phrase)))") { _, reason, _, _ in reason = phrase }
    }

    /// Applies `change` to an HTTP response, now or (for a computed one) to each response the
    /// closure returns. An error or a raw `URLResponse` has no HTTP parts to change: the modifier
    /// becomes a problem of the stub, reported when the stub is added, instead of being dropped.
    private func modifyingHTTP(
        _ modifier: String,
        _ change: @escaping HTTPModifier
    ) -> StubResponse {
        var copy = self
        switch content {
        case var .http(status, reason, headers, body):
            change(&status, &reason, &headers, &body)
            copy.content = .http(status: status, reason: reason, headers: headers, body: body)
        case let .computed(responder):
            copy.content = .computed { request in try responder(request).modifyingHTTP(modifier, change) }
        case let .computedAsync(responder):
            copy.content = .computedAsync { request in try await responder(request).modifyingHTTP(modifier, change) }
        case let .rendered(template, modifiers):
            copy.content = .rendered(template, modifiers: modifiers + [change])
        case .failure, .urlResponse:
            copy.problems.append("\(modifier) does not apply to \(summary), which is not an HTTP response; remove it")
        }
        return copy
    }

    /// This response with a problem saying that `modifier` does not apply to it, and `fix`, when it
    /// is a ``StubStream``'s (see ``stream(_:status:headers:)``); `nil` for any other.
    func refusedByStream(_ modifier: String, fix: String) -> StubResponse? {
        guard let stream = dribble?.pushed?.stream else { return nil }
        var copy = self
        copy.problems.append("\(modifier) does not apply to the response of the \(stream): \(fix)")
        return copy
    }

    /// Delays the answer by a fixed duration.
    public func delayed(by delay: Duration) -> StubResponse {
        delayed(.fixed(delay))
    }

    /// Delays the answer by a duration drawn from a distribution.
    public func delayed(_ delay: StubDelay) -> StubResponse {
        var copy = self
        copy.delay = delay
        return copy
    }

    /// Sends the body in `chunks` pieces spread over `duration` (see ``Dribble``).
    public func dribbled(chunks: Int, over duration: Duration) -> StubResponse {
        if let refused = refusedByStream(
            "dribbled(chunks:over:)",
            fix: "the test sends each chunk with stream.send(_:) when it chooses; remove it"
        ) {
            return refused
        }
        var copy = self
        copy.dribble = Dribble(chunks: chunks, over: duration)
        return copy
    }

    /// A short description such as `200 "hello"` or `error …`, for listings and reports.
    public var summary: String {
        switch content {
        case let .http(status, reason, _, body):
            return "\(status)\(reason.map { " \($0)" } ?? "") \(body)"
        case let .failure(error as URLError):
            return "URLError .\(URLErrorNames.name(of: error.code)) (\(error.code.rawValue))"
        case let .failure(error):
            return "error \(error)"
        case .computed, .computedAsync:
            return "computed response"
        case let .rendered(template, _):
            return "\(template.status) templated response"
        case let .urlResponse(response, data):
            let status = (response as? HTTPURLResponse)?.statusCode
            return "\(status.map(String.init) ?? "no response") (\(data?.count ?? 0) bytes)"
        }
    }
}

extension HeaderFields {
    /// These headers with `name: value` added when no field has that name.
    package func defaulting(_ name: String, _ value: String) -> HeaderFields {
        guard !contains(name) else { return self }
        var copy = self
        copy.add(name, value)
        return copy
    }
}
