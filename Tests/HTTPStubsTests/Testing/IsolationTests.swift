import Dispatch
import Foundation
import HTTPStubs
import HTTPStubsTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The isolation proof: 120 test cases run in parallel, each stubbing the same URL with a body of
/// its own, and each sees only its own body, whichever way its requests reach URLSession.
///
/// Every case fires 10 concurrent requests rotating through five styles: (a) a completion handler
/// started from the test's task, (b) the same after `DispatchQueue.global().async`, (c) `async`
/// `data(for:)`, (d) an injected client that calls the session from its own background queue and
/// (e) a delegate-based task on a session the test builds itself from `stubs.configuration()` with
/// its own delegate. The session used by (a)–(d) comes, by case, from `makeSession()`, from
/// `URLSession(configuration: stubs.configuration())`, or from the latter with a delegate and
/// queue of the test's own.
@Suite("Isolation", .httpStubs)
struct IsolationTests {
    private static let url = URL(string: "https://api.example.com/value")!
    private static let requestsPerCase = 10

    @Test("each of 120 parallel cases gets only its own body for the same URL", arguments: 0..<120)
    func sameURLOwnBody(_ index: Int) async throws {
        let stubs = StubRegistry.current()
        let body = "body-of-case-\(index)-\(UUID().uuidString)"
        stubs.stub(.get(.init(Self.url.absoluteString)), .text(body))

        let sessions = IsolationSessions(stubs: stubs, variant: index % 3)
        defer { sessions.invalidate() }
        let bodies = await withTaskGroup(of: String.self) { group in
            for request in 0..<Self.requestsPerCase {
                group.addTask {
                    await sessions.fetch(
                        style: IsolationStyle.allCases[request % IsolationStyle.allCases.count],
                        Self.url
                    )
                }
            }
            return await group.reduce(into: [String]()) { $0.append($1) }
        }

        #expect(isolationMismatches(bodies, expected: body).isEmpty, "case \(index) got another case's body")
        #expect(bodies.count == Self.requestsPerCase)
        #expect(stubs.journal.count == Self.requestsPerCase)
        #expect(stubs.unmatchedRequests.isEmpty)
    }

    @Test("requests that hop through queues, an OperationQueue and a detached task still reach their registry")
    func multiHopClient() async throws {
        let stubs = StubRegistry.current()
        let body = "multi-hop-\(UUID().uuidString)"
        stubs.stub(.get(.init(Self.url.absoluteString)), .text(body))
        let session = stubs.makeSession()
        let serial = DispatchQueue(label: "isolation.multi-hop")
        let operations = OperationQueue()
        let bodies = await withTaskGroup(of: String.self) { group in
            for _ in 0..<10 {
                group.addTask {
                    await withCheckedContinuation { continuation in
                        DispatchQueue.global(qos: .utility).async {
                            serial.async {
                                operations.addOperation {
                                    Task.detached {
                                        session.dataTask(with: Self.url) { data, _, error in
                                            continuation.resume(returning: bodyOrError(data, error))
                                        }.resume()
                                    }
                                }
                            }
                        }
                    }
                }
            }
            return await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(isolationMismatches(bodies, expected: body).isEmpty)
        #expect(stubs.journal.count == 10)
    }

    @Test("requests issued from raw threads reach their registry")
    func threadClient() async throws {
        let stubs = StubRegistry.current()
        let body = "thread-\(UUID().uuidString)"
        stubs.stub(.get(.init(Self.url.absoluteString)), .text(body))
        let session = stubs.makeSession()
        let bodies = await withTaskGroup(of: String.self) { group in
            for _ in 0..<10 {
                group.addTask {
                    await withCheckedContinuation { continuation in
                        Thread.detachNewThread {
                            session.dataTask(with: Self.url) { data, _, error in
                                continuation.resume(returning: bodyOrError(data, error))
                            }.resume()
                        }
                    }
                }
            }
            return await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(isolationMismatches(bodies, expected: body).isEmpty)
        #expect(stubs.journal.count == 10)
    }

    @Test("two registries in one test, same URL, interleaved requests: neither sees the other's stubs")
    func twoRegistriesOneTest() async throws {
        let first = StubRegistry()
        let second = StubRegistry()
        first.stub(.get(.init(Self.url.absoluteString)), .text("first"))
        second.stub(.get(.init(Self.url.absoluteString)), .text("second"))
        let firstClient = IsolationBackgroundClient(session: first.makeSession())
        let secondClient = IsolationBackgroundClient(session: second.makeSession())
        let results = await withTaskGroup(of: (expected: String, got: String).self) { group in
            for index in 0..<20 {
                let (client, expected) = index.isMultiple(of: 2) ? (firstClient, "first") : (secondClient, "second")
                group.addTask { (expected, await client.fetch(Self.url)) }
            }
            return await group.reduce(into: [(expected: String, got: String)]()) { $0.append($1) }
        }
        #expect(results.count == 20)
        #expect(results.allSatisfy { $0.expected == $0.got }, "\(results.filter { $0.expected != $0.got })")
        #expect(first.journal.count == 10)
        #expect(second.journal.count == 10)
    }

    @Test("a session that outlives its registry gets an error, never another registry's stub")
    func sessionOutlivingItsRegistry() async throws {
        var registry: StubRegistry? = StubRegistry()
        registry?.stub(.get(.init(Self.url.absoluteString)), .text("gone"))
        let orphan = try #require(registry?.makeSession())
        registry = nil
        let other = StubRegistry()
        other.stub(.get(.init(Self.url.absoluteString)), .text("someone else's"))
        let text = await IsolationBackgroundClient(session: orphan).fetch(Self.url)
        #expect(text.hasPrefix("error "), "got \(text)")
        #expect(other.journal.isEmpty)
    }

    // MARK: Negative control

    @Test("negative control: the checks detect leakage when two tenants share one registry")
    func negativeControl() async throws {
        // A global stub table, which is what the per-registry protocol classes prevent: both
        // tenants stub the same URL in one registry, and the newest stub wins.
        let shared = StubRegistry()
        shared.stub(.get(.init(Self.url.absoluteString)), .text("tenant A"))
        shared.stub(.get(.init(Self.url.absoluteString)), .text("tenant B"))
        let sessions = IsolationSessions(stubs: shared, variant: 0)
        defer { sessions.invalidate() }
        let leaked = await withTaskGroup(of: String.self) { group in
            for request in 0..<10 {
                group.addTask {
                    await sessions.fetch(
                        style: IsolationStyle.allCases[request % IsolationStyle.allCases.count],
                        Self.url
                    )
                }
            }
            return await group.reduce(into: [String]()) { $0.append($1) }
        }
        // The check the isolation proof relies on flags every one of tenant A's requests.
        #expect(isolationMismatches(leaked, expected: "tenant A").count == 10)
        #expect(leaked.allSatisfy { $0 == "tenant B" })

        // The same check, with a registry per tenant, finds nothing.
        let tenantA = StubRegistry()
        let tenantB = StubRegistry()
        tenantA.stub(.get(.init(Self.url.absoluteString)), .text("tenant A"))
        tenantB.stub(.get(.init(Self.url.absoluteString)), .text("tenant B"))
        let isolatedSessions = IsolationSessions(stubs: tenantA, variant: 0)
        defer { isolatedSessions.invalidate() }
        let isolated = await withTaskGroup(of: String.self) { group in
            for request in 0..<10 {
                group.addTask {
                    await isolatedSessions.fetch(
                        style: IsolationStyle.allCases[request % IsolationStyle.allCases.count],
                        Self.url
                    )
                }
            }
            return await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(isolationMismatches(isolated, expected: "tenant A").isEmpty)
        #expect(tenantB.journal.isEmpty)
    }
}

// MARK: - Helpers

/// The ways a request reaches URLSession in the isolation proof.
private enum IsolationStyle: CaseIterable {
    /// `dataTask(with:completionHandler:)`, called from the test's task.
    case completionHandler
    /// The same, called after `DispatchQueue.global().async`.
    case afterQueueHop
    /// `try await session.data(for:)`.
    case asyncData
    /// An injected client that calls the session from its own serial background queue.
    case injectedClient
    /// A delegate-based data task on a session the test built from `stubs.configuration()` with a
    /// delegate of its own.
    case ownDelegateSession
}

/// The sessions one test case uses, made from its registry.
private final class IsolationSessions: Sendable {
    /// The session of styles (a)–(d).
    let session: URLSession
    /// The injected client of style (d).
    let client: IsolationBackgroundClient
    /// The test's own session and delegate for style (e).
    let delegateSession: URLSession
    let delegate: IsolationCollectingDelegate

    /// Makes the sessions; `variant` picks how the main session is made: 0 `makeSession()`,
    /// 1 `URLSession(configuration: stubs.configuration())`, 2 the same with a delegate and queue
    /// of the test's own.
    init(stubs: StubRegistry, variant: Int) {
        switch variant {
        case 0:
            session = stubs.makeSession()
        case 1:
            session = URLSession(configuration: stubs.configuration())
        default:
            let queue = OperationQueue()
            queue.maxConcurrentOperationCount = 1
            session = URLSession(
                configuration: stubs.configuration(),
                delegate: IsolationIdleDelegate(),
                delegateQueue: queue
            )
        }
        client = IsolationBackgroundClient(session: session)
        delegate = IsolationCollectingDelegate()
        delegateSession = URLSession(configuration: stubs.configuration(), delegate: delegate, delegateQueue: nil)
    }

    /// Fetches `url` in `style` and returns the body as text, or `error …`.
    func fetch(style: IsolationStyle, _ url: URL) async -> String {
        switch style {
        case .completionHandler:
            return await withCheckedContinuation { continuation in
                session.dataTask(with: url) { data, _, error in
                    continuation.resume(returning: bodyOrError(data, error))
                }.resume()
            }
        case .afterQueueHop:
            let session = self.session
            return await withCheckedContinuation { continuation in
                DispatchQueue.global().async {
                    session.dataTask(with: url) { data, _, error in
                        continuation.resume(returning: bodyOrError(data, error))
                    }.resume()
                }
            }
        case .asyncData:
            do {
                let (data, _) = try await session.data(for: URLRequest(url: url))
                return bodyOrError(data, nil)
            } catch {
                return bodyOrError(nil, error)
            }
        case .injectedClient:
            return await client.fetch(url)
        case .ownDelegateSession:
            return await delegate.fetch(url, on: delegateSession)
        }
    }

    /// Lets the sessions (and the delegates they retain) go.
    func invalidate() {
        session.finishTasksAndInvalidate()
        delegateSession.finishTasksAndInvalidate()
    }
}

/// A client in the injected style: it calls the session from its own serial background queue.
private final class IsolationBackgroundClient: Sendable {
    private let session: URLSession
    private let queue = DispatchQueue(label: "isolation.background-client")

    init(session: URLSession) {
        self.session = session
    }

    /// GETs `url` and returns the body as text, or `error …`.
    func fetch(_ url: URL) async -> String {
        await withCheckedContinuation { continuation in
            fetch(url) { continuation.resume(returning: $0) }
        }
    }

    /// GETs `url` from the client's queue and calls `completion` with the body as text.
    func fetch(_ url: URL, completion: @escaping @Sendable (String) -> Void) {
        let session = self.session
        queue.async {
            session.dataTask(with: url) { data, _, error in
                completion(bodyOrError(data, error))
            }.resume()
        }
    }
}

/// A session delegate that does nothing, so the session has a delegate of the test's own.
private final class IsolationIdleDelegate: NSObject, URLSessionDataDelegate, Sendable {}

/// A data delegate that collects each task's body and hands it over when the task completes.
private final class IsolationCollectingDelegate: NSObject, URLSessionDataDelegate, Sendable {
    private struct State {
        var bodies: [Int: Data] = [:]
        var waiters: [Int: CheckedContinuation<String, Never>] = [:]
    }

    private let state = Locked(State())

    /// Runs a delegate-based data task (no completion handler) for `url` and returns its body.
    func fetch(_ url: URL, on session: URLSession) async -> String {
        await withCheckedContinuation { continuation in
            let task = session.dataTask(with: url)
            state.withLock { $0.waiters[task.taskIdentifier] = continuation }
            task.resume()
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        state.withLock { $0.bodies[dataTask.taskIdentifier, default: Data()].append(data) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let (body, waiter) = state.withLock { state in
            (
                state.bodies.removeValue(forKey: task.taskIdentifier),
                state.waiters.removeValue(forKey: task.taskIdentifier)
            )
        }
        waiter?.resume(returning: bodyOrError(body ?? Data(), error))
    }
}

/// The bodies that are not `expected`: another test's body, an error, or nothing.
private func isolationMismatches(_ bodies: [String], expected: String) -> [String] {
    bodies.filter { $0 != expected }
}
