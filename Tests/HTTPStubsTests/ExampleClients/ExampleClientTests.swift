import Dispatch
import ExampleClients
import Foundation
import HTTPStubs
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The example clients, a completion-handler `HTTPClient` and its `async` face `AsyncHTTPClient`,
/// tested the way the toolkit recommends: a session from a `StubRegistry` is injected. Each test
/// runs both clients against the same stubs and expects the same result from both.
@Suite("Example clients")
struct ExampleClientTests {
    private static let base = URL(string: "https://api.example.com/v1/")!

    // MARK: Decoding

    @Test("a JSON body decodes into the model")
    func decodesJSON() async throws {
        let stubs = StubRegistry()
        stubs.stub(.get("https://api.example.com/v1/users/1"), .json(User(id: 1, name: "Ada")))
        let clients = Clients(stubs)

        for result in await clients.get("users/1", as: User.self) {
            #expect(result == .success(User(id: 1, name: "Ada")))
        }
        #expect(stubs.journal.count == 2)
    }

    @Test("String and Data responses come back raw")
    func rawResponses() async throws {
        let stubs = StubRegistry()
        stubs.stub(.get("https://api.example.com/v1/motd"), .text("hello, world"))
        let clients = Clients(stubs)
        for result in await clients.get("motd", as: String.self) {
            #expect(result == .success("hello, world"))
        }
        for result in await clients.get("motd", as: Data.self) {
            #expect(result == .success(Data("hello, world".utf8)))
        }
    }

    @Test("a status outside 2xx becomes .status(code, body:) with the body", arguments: [400, 404, 409, 500, 503])
    func statusErrors(_ status: Int) async throws {
        let body = #"{"error":"status \#(status)"}"#
        let stubs = StubRegistry()
        stubs.stub(.get("https://api.example.com/v1/users/1"), .json(text: body, status: status))
        let clients = Clients(stubs)

        for result in await clients.get("users/1", as: User.self) {
            #expect(result == .failure(.status(status, body: Data(body.utf8))))
        }
    }

    @Test("malformed JSON becomes .undecodable with the body")
    func malformedJSON() async throws {
        let body = #"{"id": 1, "name": "#
        let stubs = StubRegistry()
        stubs.stub(.get("https://api.example.com/v1/users/1"), .json(text: body))
        let clients = Clients(stubs)

        for result in await clients.get("users/1", as: User.self) {
            guard case let .failure(.undecodable(returned, reason)) = result else {
                Issue.record("expected .undecodable, got \(result)")
                continue
            }
            #expect(returned == Data(body.utf8))
            #expect(!reason.isEmpty)
        }
    }

    @Test("JSON of the wrong shape becomes .undecodable")
    func wrongShape() async throws {
        let stubs = StubRegistry()
        stubs.stub(.get("https://api.example.com/v1/users/1"), .json(["id": "one", "name": "Ada"]))
        let clients = Clients(stubs)
        for result in await clients.get("users/1", as: User.self) {
            guard case .failure(.undecodable) = result else {
                Issue.record("expected .undecodable, got \(result)")
                continue
            }
        }
    }

    @Test("an empty 200 body becomes .undecodable for a struct")
    func emptyBody() async throws {
        let stubs = StubRegistry()
        stubs.stub(.get("https://api.example.com/v1/users/1"), .status(200))
        let clients = Clients(stubs)

        for result in await clients.get("users/1", as: User.self) {
            guard case let .failure(.undecodable(body, _)) = result else {
                Issue.record("expected .undecodable, got \(result)")
                continue
            }
            #expect(body.isEmpty)
        }
    }

    // MARK: Transport errors

    static let transportCodes: [URLError.Code] = [
        .notConnectedToInternet, .timedOut, .cannotConnectToHost, .cannotFindHost,
        .networkConnectionLost, .badServerResponse, .secureConnectionFailed, .dataNotAllowed,
    ]

    @Test("each URLError becomes .transport with its code", arguments: transportCodes)
    func transportErrors(_ code: URLError.Code) async throws {
        let stubs = StubRegistry()
        stubs.stub(.get("https://api.example.com/v1/users/1"), .error(code))
        let clients = Clients(stubs)

        for result in await clients.get("users/1", as: User.self) {
            #expect(result == .failure(.transport(URLError(code))))
            if case let .failure(.transport(error)) = result {
                #expect(error.failingURL == URL(string: "https://api.example.com/v1/users/1"))
            }
        }
    }

    @Test("an error of another type becomes .transport(.unknown) carrying it")
    func otherErrors() async throws {
        let stubs = StubRegistry()
        stubs.stub(.get("https://api.example.com/v1/users/1"), .failure(ServerExploded()))
        let clients = Clients(stubs)
        for result in await clients.get("users/1", as: User.self) {
            guard case let .failure(.transport(error)) = result else {
                Issue.record("expected .transport, got \(result)")
                continue
            }
            #expect(error.code == .unknown)
            #expect(error.userInfo[NSUnderlyingErrorKey] is ServerExploded)
        }
    }

    @Test("a request no stub answers becomes .transport(.resourceUnavailable)")
    func unmatched() async throws {
        let stubs = StubRegistry()
        stubs.stub(.get("https://api.example.com/v1/users/1"), .json(User(id: 1, name: "Ada")))
        let clients = Clients(stubs)
        for result in await clients.get("users/2", as: User.self) {
            #expect(result == .failure(.transport(URLError(.resourceUnavailable))))
        }
        #expect(stubs.unmatchedRequests.count == 2)
    }

    // MARK: Redirects

    @Test("a redirect chain is followed to the final user")
    func redirectChain() async throws {
        let stubs = StubRegistry()
        stubs.stub(.get("https://api.example.com/v1/me"), .redirect(to: "users/current", status: 302))
        stubs.stub(
            .get("https://api.example.com/v1/users/current"),
            .redirect(to: "https://accounts.example.com/users/7", status: 301)
        )
        stubs.stub(.get("https://accounts.example.com/users/7"), .redirect(to: "/users/7/profile", status: 307))
        stubs.stub(.get("https://accounts.example.com/users/7/profile"), .json(User(id: 7, name: "Grace")))
        let clients = Clients(stubs)

        for result in await clients.get("me", as: User.self) {
            #expect(result == .success(User(id: 7, name: "Grace")))
        }
        #expect(stubs.journal.count == 8)
    }

    // MARK: POST bodies

    @Test("only the right JSON body gets 201 (matched with .body(.json(...)))")
    func postMatchedByJSON() async throws {
        let stubs = StubRegistry()
        stubs.stub(
            .post("https://api.example.com/v1/users")
                .header("Content-Type", .equal("application/json"))
                .body(.json(text: #"{ "name" : "Ada" }"#)),
            .json(User(id: 99, name: "Ada"), status: 201)
        )
        stubs.stub(
            .post("https://api.example.com/v1/users"),
            .json(text: #"{"error":"unexpected body"}"#, status: 422),
            priority: 9
        )
        let clients = Clients(stubs)

        for result in await clients.post("users", json: NewUser(name: "Ada"), as: User.self) {
            #expect(result == .success(User(id: 99, name: "Ada")))
        }
        let wrong = await clients.post("users", json: NewUser(name: "Bob"), as: User.self)
        for result in wrong {
            #expect(result == .failure(.status(422, body: Data(#"{"error":"unexpected body"}"#.utf8))))
        }
        #expect(stubs.journal.allSatisfy { $0.request.header("content-type") == "application/json" })
        #expect(
            stubs.journal.map { $0.request.bodyText ?? "" } == [
                #"{"name":"Ada"}"#, #"{"name":"Ada"}"#, #"{"name":"Bob"}"#, #"{"name":"Bob"}"#,
            ]
        )
    }

    @Test("only the right body gets 201 (matched byte for byte)")
    func postMatchedExactly() async throws {
        let stubs = StubRegistry()
        stubs.stub(
            .post("https://api.example.com/v1/users").body(.equal(#"{"name":"Ada"}"#)),
            .json(User(id: 99, name: "Ada"), status: 201)
        )
        stubs.stub(
            .post("https://api.example.com/v1/users"),
            .json(text: #"{"error":"unexpected body"}"#, status: 422),
            priority: 9
        )
        let clients = Clients(stubs)

        for result in await clients.post("users", json: NewUser(name: "Ada"), as: User.self) {
            #expect(result == .success(User(id: 99, name: "Ada")))
        }
        for result in await clients.post("users", json: NewUser(name: "Bob"), as: User.self) {
            #expect(result == .failure(.status(422, body: Data(#"{"error":"unexpected body"}"#.utf8))))
        }
    }

    @Test("a computed stub can answer from the posted JSON")
    func postComputed() async throws {
        let stubs = StubRegistry()
        stubs.stub(.post("https://api.example.com/v1/users")) { request in
            let new = try request.decodeJSON(NewUser.self)
            return .json(User(id: new.name.count, name: new.name.uppercased()), status: 201)
        }
        let clients = Clients(stubs)
        for result in await clients.post("users", json: NewUser(name: "Hopper"), as: User.self) {
            #expect(result == .success(User(id: 6, name: "HOPPER")))
        }
    }

    @Test("session.upload(for:from:) on the clients' session is served and its body matched")
    func upload() async throws {
        let avatar = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0xFF])
        let stubs = StubRegistry()
        stubs.stub(
            .put("https://api.example.com/v1/users/3/avatar").body(.equal(avatar)),
            .json(User(id: 3, name: "with avatar"), status: 201)
        )
        let clients = Clients(stubs)
        var request = URLRequest(url: URL(string: "https://api.example.com/v1/users/3/avatar")!)
        request.httpMethod = "PUT"
        request.setValue("image/png", forHTTPHeaderField: "Content-Type")

        let (data, response) = try await clients.session.upload(for: request, from: avatar)
        #expect((response as? HTTPURLResponse)?.statusCode == 201)
        #expect(try JSONDecoder().decode(User.self, from: data) == User(id: 3, name: "with avatar"))
        #expect(stubs.journal.first?.request.body == avatar)
        // And the clients, which send the body as httpBody, reach the same stub.
        for result in await clients.send(request, body: avatar, as: User.self) {
            #expect(result == .success(User(id: 3, name: "with avatar")))
        }
    }

    // MARK: Timeouts and cancellation

    @Test("a delay within the session's timeout succeeds; beyond it, .transport(.timedOut)")
    func timeouts() async throws {
        let stubs = StubRegistry()
        stubs.stub(
            .get("https://api.example.com/v1/users/1"),
            .json(User(id: 1, name: "Ada")).delayed(by: .milliseconds(50))
        )
        stubs.stub(
            .get("https://api.example.com/v1/users/2"),
            .json(User(id: 2, name: "Late")).delayed(by: .seconds(20))
        )
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 0.3
        let clients = Clients(stubs, configuration: configuration)

        for result in await clients.get("users/1", as: User.self) {
            #expect(result == .success(User(id: 1, name: "Ada")))
        }
        for result in await clients.get("users/2", as: User.self) {
            #expect(result == .failure(.transport(URLError(.timedOut))))
        }
    }

    @Test("a request's own timeoutInterval applies through send(_:)")
    func requestTimeout() async throws {
        let stubs = StubRegistry()
        stubs.stub(
            .get("https://api.example.com/v1/users/1"),
            .json(User(id: 1, name: "Ada")).delayed(by: .milliseconds(400))
        )
        let clients = Clients(stubs)
        var request = URLRequest(url: URL(string: "https://api.example.com/v1/users/1")!)
        request.timeoutInterval = 0.1
        for result in await clients.send(request, as: User.self) {
            #expect(result == .failure(.transport(URLError(.timedOut))))
        }
        request.timeoutInterval = 10
        for result in await clients.send(request, as: User.self) {
            #expect(result == .success(User(id: 1, name: "Ada")))
        }
    }

    @Test("cancelling the async client's Task during a 60 s delay throws .transport(.cancelled) once")
    func cancelAsyncClient() async throws {
        let stubs = StubRegistry()
        stubs.stub(.get("https://api.example.com/v1/slow"), .json(User(id: 1, name: "Never")).delayed(by: .seconds(60)))
        let clients = Clients(stubs)
        let throwsSeen = Counter()

        let task = Task { () -> Result<User, HTTPClientError> in
            do {
                return .success(try await clients.asyncClient.get("slow", as: User.self))
            } catch let error as HTTPClientError {
                throwsSeen.increment()
                return .failure(error)
            } catch {
                Issue.record("AsyncHTTPClient threw a \(type(of: error)): \(error)")
                return .failure(.invalidResponse)
            }
        }
        try await waitUntil { stubs.journal.count == 1 }
        task.cancel()
        let result = try #require(await within { await task.value }, "the cancelled request never finished")
        #expect(result == .failure(.transport(URLError(.cancelled))))
        try await Task.sleep(for: .milliseconds(100))
        #expect(throwsSeen.value == 1)
        #expect(stubs.journal.count == 1)
    }

    @Test(
        "a Task cancelled before the async client starts still throws .transport(.cancelled)",
        .enabled(
            if: StressTests.cancelRaceEnabled,
            "races corelibs' cancel against the task's start, which can hang on 6.3 (#5412); set HTTPSTUBS_CANCEL_RACE=1 on a toolchain with the fix"
        )
    )
    func cancelAsyncClientEarly() async throws {
        let stubs = StubRegistry()
        stubs.stub(.get("https://api.example.com/v1/slow"), .json(User(id: 1, name: "Never")).delayed(by: .seconds(60)))
        let clients = Clients(stubs)

        let task = Task { () -> Result<User, HTTPClientError> in
            do {
                return .success(try await clients.asyncClient.get("slow", as: User.self))
            } catch {
                return .failure(error as? HTTPClientError ?? .invalidResponse)
            }
        }
        task.cancel()
        let result = try #require(await within { await task.value }, "the cancelled request never finished")
        #expect(result == .failure(.transport(URLError(.cancelled))))
    }

    @Test("cancelling the completion-handler client's task calls the completion once with .transport(.cancelled)")
    func cancelCallbackClient() async throws {
        let stubs = StubRegistry()
        stubs.stub(.get("https://api.example.com/v1/slow"), .json(User(id: 1, name: "Never")).delayed(by: .seconds(60)))
        let clients = Clients(stubs)
        let calls = Counter()
        let outcome = OneShot<Result<User, HTTPClientError>>()

        let task = clients.callback.get("slow", as: User.self) { result in
            calls.increment()
            outcome.fulfill(result)
        }
        try await waitUntil { stubs.journal.count == 1 }
        task.cancel()
        let result = try #require(await outcome.value(within: patience), "the cancelled request never finished")
        #expect(result == .failure(.transport(URLError(.cancelled))))
        try await Task.sleep(for: .milliseconds(100))
        #expect(calls.value == 1)
    }

    // MARK: Concurrency

    @Test("200 concurrent requests each get their own user")
    func concurrentUsers() async throws {
        let stubs = StubRegistry(randomSeed: 3)
        stubs.stub(
            .get("https://api.example.com/v1/users/{id}"),
            .computed { request in
                let id = Int(request.pathParameters["id"] ?? "") ?? -1
                return .json(User(id: id, name: "user \(id)"))
            }.delayed(.uniform(.zero ... .milliseconds(2)))
        )
        let clients = Clients(stubs)

        let wrong = await withTaskGroup(of: String?.self) { group in
            for id in 0..<200 {
                group.addTask {
                    let expected = User(id: id, name: "user \(id)")
                    let result: Result<User, HTTPClientError>
                    if id.isMultiple(of: 2) {
                        result = await clients.callbackGet("users/\(id)", as: User.self)
                    } else {
                        result = await clients.asyncGet("users/\(id)", as: User.self)
                    }
                    return result == .success(expected) ? nil : "#\(id): \(result)"
                }
            }
            var wrong: [String] = []
            for await failure in group {
                if let failure { wrong.append(failure) }
            }
            return wrong
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(5))")
        #expect(stubs.journal.count == 200)
    }
}

// MARK: - Helpers

private struct NewUser: Codable, Sendable {
    let name: String
}

private struct ServerExploded: Error, Sendable {}

/// Both clients over one session served by `stubs`.
private struct Clients: Sendable {
    let session: URLSession
    let callback: HTTPClient
    let asyncClient: AsyncHTTPClient

    init(_ stubs: StubRegistry, configuration: URLSessionConfiguration = .ephemeral) {
        session = stubs.makeSession(configuration: configuration)
        callback = HTTPClient(session: session, baseURL: URL(string: "https://api.example.com/v1/")!)
        asyncClient = AsyncHTTPClient(callback)
    }

    /// GETs `path` with the completion-handler client, then with the async client.
    func get<T: Decodable & Sendable>(_ path: String, as type: T.Type) async -> [Result<T, HTTPClientError>] {
        [await callbackGet(path, as: type), await asyncGet(path, as: type)]
    }

    func callbackGet<T: Decodable & Sendable>(_ path: String, as type: T.Type) async -> Result<T, HTTPClientError> {
        await withCheckedContinuation { continuation in
            callback.get(path, as: type) { continuation.resume(returning: $0) }
        }
    }

    func asyncGet<T: Decodable & Sendable>(_ path: String, as type: T.Type) async -> Result<T, HTTPClientError> {
        await catching { try await asyncClient.get(path, as: type) }
    }

    func post<T: Decodable & Sendable>(
        _ path: String,
        json body: NewUser,
        as type: T.Type
    ) async -> [Result<T, HTTPClientError>] {
        let viaCallback = await withCheckedContinuation { continuation in
            callback.post(path, json: body, as: type) { continuation.resume(returning: $0) }
        }
        let viaAsync = await catching { try await asyncClient.post(path, json: body, as: type) }
        return [viaCallback, viaAsync]
    }

    /// Sends `request` (with `body` as its httpBody, if given) through both clients.
    func send<T: Decodable & Sendable>(
        _ request: URLRequest,
        body: Data? = nil,
        as type: T.Type
    ) async -> [Result<T, HTTPClientError>] {
        var request = request
        if let body { request.httpBody = body }
        let sent = request
        let viaCallback = await withCheckedContinuation { continuation in
            callback.send(sent, as: type) { continuation.resume(returning: $0) }
        }
        let viaAsync = await catching { try await asyncClient.send(sent, as: type) }
        return [viaCallback, viaAsync]
    }

    private func catching<T>(_ operation: () async throws -> T) async -> Result<T, HTTPClientError> {
        do {
            return .success(try await operation())
        } catch let error as HTTPClientError {
            return .failure(error)
        } catch {
            Issue.record("AsyncHTTPClient threw a \(type(of: error)), not an HTTPClientError: \(error)")
            return .failure(.invalidResponse)
        }
    }
}
