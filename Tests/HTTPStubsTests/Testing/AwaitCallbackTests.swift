import Dispatch
import ExampleClients
import Foundation
import HTTPStubs
import HTTPStubsTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `awaitCallback`: completion-handler APIs awaited from `async` tests. It returns the value, and
/// it fails (without hanging or crashing) when the callback never comes or comes twice.
@Suite("awaitCallback")
struct AwaitCallbackTests {
    // MARK: Shapes of completion-handler functions

    @Test("a function whose only parameter is the callback, as a closure and as a function reference")
    func callbackOnly() async throws {
        let loader = CallbackLoader()
        let value = try await awaitCallback { done in loader.loadGreeting(completion: done) }
        #expect(value == "hello")
        #expect(try await awaitCallback(loader.loadGreeting) == "hello")
    }

    @Test("a callback without a value")
    func voidCallback() async throws {
        let loader = CallbackLoader()
        try await awaitCallback { done in loader.ping { done(()) } }
        #expect(loader.pings == 1)
    }

    @Test("a function with one argument before its callback")
    func oneArgument() async throws {
        let loader = CallbackLoader()
        #expect(try await awaitCallback(loader.loadName, 42) == .success("user 42"))
        #expect(try await awaitCallback(loader.loadName, -1) == .failure(CallbackLoader.Failure.notFound))
    }

    @Test("a function with two arguments before its callback")
    func twoArguments() async throws {
        let loader = CallbackLoader()
        #expect(try await awaitCallback(loader.add, 2, 3) == 5)
    }

    @Test("completion handlers declared without @Sendable work too, called at once or later from a queue")
    func nonSendableCompletionHandlers() async throws {
        let loader = LegacyLoader()
        #expect(try await awaitCallback(loader.cachedValue, "key") == "cached key")
        #expect(try await awaitCallback(loader.fetch, "key") == "fetched key")
        #expect(try await awaitCallback { done in loader.fetch("closure", completion: done) } == "fetched closure")
    }

    // MARK: Failures

    @Test("a callback that never comes throws CallbackTimeout naming this call site, without hanging")
    func neverCalled() async throws {
        let callLine = #line + 2
        do {
            let value: Int = try await awaitCallback(timeout: .milliseconds(200)) { _ in }
            Issue.record("awaitCallback returned \(value) without a callback")
        } catch let timeout as CallbackTimeout {
            #expect(timeout.timeout == .milliseconds(200))
            #expect(timeout.location.fileID == #fileID)
            #expect(timeout.location.line == callLine)
            #expect(timeout.description.contains("the callback was not called within"))
            #expect(timeout.description.contains("\(#fileID):\(callLine)"))
        }
    }

    @Test("a callback that comes once after the timeout is ignored; coming twice, it is reported, without crashing")
    func lateCallbackAfterTimeout() async throws {
        let kept = CallbackKeeper<Int>()
        await #expect(throws: CallbackTimeout.self) {
            _ = try await awaitCallback(timeout: .milliseconds(100)) { done in kept.keep(done) }
        }
        kept.call(7)
        withKnownIssue {
            kept.call(8)
        } matching: { issue in
            issue.description.contains("called 2 times")
        }
    }

    @Test("a callback called twice fails the test at the call site with the count")
    func calledTwice() async throws {
        let issues = Collected<Issue>()
        var callLine = 0
        try await withKnownIssue {
            callLine = #line + 1
            let value: Int = try await awaitCallback { done in
                done(1)
                done(2)
            }
            #expect(value == 1, "the first value wins")
        } matching: { issue in
            issues.append(issue)
            return issue.description.contains("called 2 times")
        }
        #expect(issues.all.count == 1)
        #expect(issues.all.first?.description.contains("a completion handler must be called exactly once") == true)
        #expect(issues.all.first?.sourceLocation?.fileID == #fileID)
        #expect(issues.all.first?.sourceLocation?.line == callLine)
    }

    @Test("a callback called three times reports three")
    func calledThreeTimes() async throws {
        try await withKnownIssue {
            let value: String = try await awaitCallback(CallbackLoader().greetThrice)
            #expect(value == "hello 1")
        } matching: { issue in
            issue.description.contains("called 3 times")
        }
    }

    @Test("a second call long after awaitCallback returned is reported when it comes, at the awaiting line")
    func secondCallAfterReturn() async throws {
        let kept = CallbackKeeper<Int>()
        let callLine = #line + 1
        let value = try await awaitCallback { done in
            kept.keep(done)
            done(1)
        }
        #expect(value == 1)
        try await Task.sleep(for: .milliseconds(10))
        let issues = Collected<Issue>()
        withKnownIssue {
            kept.call(2)
            kept.call(3)
        } matching: { issue in
            issues.append(issue)
            return issue.description.contains("a completion handler must be called exactly once")
        }
        #expect(issues.all.map { $0.description.contains("called 2 times") } == [true, false])
        #expect(issues.all.last?.description.contains("called 3 times") == true)
        #expect(issues.all.allSatisfy { $0.sourceLocation?.line == callLine })
    }

    // MARK: With the example client and stubs

    @Test(
        "HTTPClient.get, awaited through awaitCallback against stubs",
        .httpStubs { stubs in
            stubs.stub(.get("https://api.example.com/users/42"), .json(Profile(id: 42, name: "Ada")))
            stubs.stub(.get("https://api.example.com/users/7"), .text("no such user", status: 404))
        }
    )
    func exampleClient() async throws {
        let client = HTTPClient(
            session: StubRegistry.current().makeSession(),
            baseURL: URL(string: "https://api.example.com")!
        )

        let found = try await awaitCallback { done in client.get("/users/42", as: Profile.self, completion: done) }
        #expect(try found.get() == Profile(id: 42, name: "Ada"))

        let missing: Result<Profile, HTTPClientError> = try await awaitCallback(
            { path, done in client.get(path, as: Profile.self, completion: done) },
            "/users/7"
        )
        #expect(missing == .failure(.status(404, body: Data("no such user".utf8))))
        #expect(StubRegistry.current().journal.count == 2)
    }
}

// MARK: - Helpers

/// A user, as the example API returns it.
private struct Profile: Codable, Equatable, Sendable {
    let id: Int
    let name: String
}

/// Completion-handler APIs of the modern kind: `@Sendable` callbacks, called from a background queue.
private final class CallbackLoader: Sendable {
    /// Why a load failed.
    enum Failure: Error, Equatable {
        case notFound
    }

    private let queue = DispatchQueue(label: "await-callback.loader")
    private let pingCount = Locked(0)

    /// How many times ``ping(completion:)`` ran.
    var pings: Int { pingCount.value }

    /// Calls back with a greeting.
    func loadGreeting(completion: @escaping @Sendable (String) -> Void) {
        queue.async { completion("hello") }
    }

    /// Calls back with nothing.
    func ping(completion: @escaping @Sendable () -> Void) {
        queue.async { [pingCount] in
            pingCount.withLock { $0 += 1 }
            completion()
        }
    }

    /// Calls back with the name of user `id`, or `.notFound` for a negative id.
    func loadName(_ id: Int, completion: @escaping @Sendable (Result<String, Failure>) -> Void) {
        queue.async { completion(id >= 0 ? .success("user \(id)") : .failure(.notFound)) }
    }

    /// Calls back with the sum.
    func add(_ left: Int, _ right: Int, completion: @escaping @Sendable (Int) -> Void) {
        queue.async { completion(left + right) }
    }

    /// A double-completion bug, three times over: calls back three times in a row.
    func greetThrice(completion: @escaping @Sendable (String) -> Void) {
        completion("hello 1")
        completion("hello 2")
        completion("hello 3")
    }
}

/// A completion-handler API of the older kind: its callbacks are not declared `@Sendable`.
private final class LegacyLoader: Sendable {
    private let queue = DispatchQueue(label: "await-callback.legacy")

    /// Calls back at once, on the caller's thread.
    func cachedValue(_ key: String, completion: @escaping (String) -> Void) {
        completion("cached \(key)")
    }

    /// Calls back later, from a background queue, as pre-concurrency code does.
    func fetch(_ key: String, completion: @escaping (String) -> Void) {
        let callback = AwaitCallbackUnchecked(completion)
        queue.async { callback.value("fetched \(key)") }
    }
}

/// A callback carried across threads, as pre-concurrency code does without checking.
private struct AwaitCallbackUnchecked<Argument>: @unchecked Sendable {
    // Invariant: wraps a callback that its owner documents as safe to call from any thread.
    let value: (Argument) -> Void

    init(_ value: @escaping (Argument) -> Void) {
        self.value = value
    }
}

/// Keeps a callback so a test can call it after `awaitCallback` is done with it.
private final class CallbackKeeper<Value: Sendable>: Sendable {
    private let box = Locked<(@Sendable (Value) -> Void)?>(nil)

    /// Keeps `callback`.
    func keep(_ callback: @escaping @Sendable (Value) -> Void) {
        box.value = callback
    }

    /// Calls the kept callback, if any.
    func call(_ value: Value) {
        box.value?(value)
    }
}
