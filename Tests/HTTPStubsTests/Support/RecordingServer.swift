import Foundation
import HTTPStubs
import LoopbackHTTP
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The real server recordings are made from in the tests: a ``LoopbackHTTPServer`` in the test
/// process, on 127.0.0.1 at a free port, serving the endpoints below until ``stop()`` (or until it
/// is no longer referenced). Every response carries `X-Server-Instance`, unique to this server,
/// and `X-Served`, the number of requests it has served so far, and closes its connection.
///
///     GET  /users/1       200 {"id":1,"name":"Ada","token":"s3cr3t-token"} + Set-Cookie: session=abc123
///     GET  /counter       200 {"count":n}, n = 1, 2, 3, ... (per server)
///     POST /echo          201 the request body, with the request's Content-Type (else
///                         application/json); each request header X-Reply-<Name>: <value> is
///                         answered as the response header <Name>: <value>; so do /echo/… and
///                         /echo;… (a path segment or matrix parameter to record)
///     GET  /image         200 a few binary bytes (not UTF-8), image/png
///     GET  /status/404    404 {"error":"not found"}
///     GET  /redirect      302 Location: /users/1
///     GET  /search?q=...  200 {"q":"<q>"} (other query parameters are ignored)
///     GET  /slow          200 {"slow":true}, after 2 seconds
///     anything else       404 {"error":"no such endpoint"}
final class RecordingServer: Sendable {
    private let server: LoopbackHTTPServer
    /// What answers: replaced by ``restart()``.
    private let endpoints: Locked<Endpoints>

    /// The port it listens on.
    var port: Int { server.port }

    private init(server: LoopbackHTTPServer, endpoints: Locked<Endpoints>) {
        self.server = server
        self.endpoints = endpoints
    }

    /// `http://127.0.0.1:<port>`.
    var base: String { server.base }

    /// Starts the server on a free port.
    static func start() throws -> RecordingServer {
        let endpoints = Locked(Endpoints())
        return RecordingServer(server: try LoopbackHTTPServer { endpoints.value.answer($0) }, endpoints: endpoints)
    }

    /// Answers from now on as a server started afresh on the same port would: a new
    /// `X-Server-Instance`, counters from zero. (Stopping and binding the port again could lose it
    /// to another test's server meanwhile.)
    func restart() {
        endpoints.value = Endpoints()
    }

    /// A request to `path` (with its query) on this server, with a short timeout.
    func request(_ method: String, _ path: String, json: String? = nil, headers: [String: String] = [:]) -> URLRequest {
        request(
            method,
            path,
            body: json.map { Data($0.utf8) },
            contentType: json == nil ? nil : "application/json",
            headers: headers
        )
    }

    /// A request to `path` on this server with an `application/x-www-form-urlencoded` body.
    func request(_ method: String, _ path: String, form: String) -> URLRequest {
        request(method, path, body: Data(form.utf8), contentType: "application/x-www-form-urlencoded")
    }

    /// A request to `path` on this server with this body and `Content-Type`, timing out after
    /// ``patience``: a bound, not a speed (under the thread sanitizer, with the suite and a child
    /// run sharing two cores, the server's answer to a recorded request took more than 10 s).
    func request(
        _ method: String,
        _ path: String,
        body: Data?,
        contentType: String?,
        headers: [String: String] = [:]
    ) -> URLRequest {
        var request = URLRequest(url: URL(string: base + path)!, timeoutInterval: patience)
        request.httpMethod = method
        request.httpBody = body
        if let contentType { request.setValue(contentType, forHTTPHeaderField: "Content-Type") }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        return request
    }

    /// How many requests the server had served before this call, asked directly (not through stubs).
    func servedCount() async throws -> Int {
        let (_, response) = try await URLSession(configuration: .ephemeral).data(for: request("GET", "/status/404"))
        let served = (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "X-Served").flatMap { Int($0) }
        return try #require(served) - 1
    }

    /// Stops the server: connecting to it fails from then on.
    func stop() {
        server.stop()
    }

    /// Whether a direct request to `base` (not through stubs) fails with `cannotConnectToHost`.
    static func refusesConnections(_ base: String) async -> Bool {
        do {
            _ = try await URLSession(configuration: .ephemeral).data(from: URL(string: base + "/status/404")!)
            return false
        } catch {
            return (error as? URLError)?.code == .cannotConnectToHost
        }
    }
}

/// The recording server's endpoints, and its counters.
private final class Endpoints: Sendable {
    private let instance = String(UUID().uuidString.prefix(12)).lowercased()
    private let served = Locked(0)
    private let counter = Locked(0)
    /// Not valid UTF-8 (0x89, 0xFF, 0xFE), so the body can only be kept as bytes.
    private static let image = Data([
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0xFF, 0xFE, 0x01, 0x80, 0x7F,
    ])

    func answer(_ request: LoopbackHTTPRequest) -> LoopbackHTTPResponse {
        switch (request.method, request.path) {
        case ("GET", "/users/1"):
            return json(
                200,
                #"{"id":1,"name":"Ada","token":"s3cr3t-token"}"#,
                headers: [("Set-Cookie", "session=abc123; Path=/")]
            )
        case ("GET", "/counter"):
            let count = counter.withLock { value -> Int in
                value += 1
                return value
            }
            return json(200, #"{"count":\#(count)}"#)
        case ("GET", "/image"):
            return respond(200, Self.image, contentType: "image/png")
        case ("GET", "/events"):
            return respond(200, Data("id: 1\ndata: a\n\nid: 2\ndata: b\n\n".utf8), contentType: "text/event-stream")
        case ("GET", "/status/404"):
            return json(404, #"{"error":"not found"}"#)
        case ("GET", "/redirect"):
            return respond(302, Data(), contentType: "text/plain", headers: [("Location", "/users/1")])
        case ("GET", "/slow"):
            Thread.sleep(forTimeInterval: 2)
            return json(200, #"{"slow":true}"#)
        case ("GET", "/search"):
            let query = request.query("q") ?? ""
            let encoded = (try? JSONSerialization.data(withJSONObject: ["q": query])) ?? Data(#"{"q":""}"#.utf8)
            return respond(200, encoded, contentType: "application/json")
        case ("POST", let path) where path == "/echo" || path.hasPrefix("/echo/") || path.hasPrefix("/echo;"):
            let replies = request.headers.compactMap { field -> (name: String, value: String)? in
                guard field.name.lowercased().hasPrefix("x-reply-") else { return nil }
                return (String(field.name.dropFirst("X-Reply-".count)), field.value)
            }
            return respond(
                201,
                request.body,
                contentType: request.header("Content-Type") ?? "application/json",
                headers: replies
            )
        default:
            return json(404, #"{"error":"no such endpoint"}"#)
        }
    }

    private func json(
        _ status: Int,
        _ text: String,
        headers: [(name: String, value: String)] = []
    ) -> LoopbackHTTPResponse {
        respond(status, Data(text.utf8), contentType: "application/json", headers: headers)
    }

    private func respond(
        _ status: Int,
        _ body: Data,
        contentType: String,
        headers: [(name: String, value: String)] = []
    ) -> LoopbackHTTPResponse {
        let count = served.withLock { value -> Int in
            value += 1
            return value
        }
        let fields =
            [("Content-Type", contentType), ("X-Server-Instance", instance), ("X-Served", "\(count)")] + headers
        return LoopbackHTTPResponse(status: status, headers: fields, body: body, closesConnection: true)
    }
}
