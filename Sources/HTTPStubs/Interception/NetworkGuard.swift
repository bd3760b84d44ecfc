import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Stops a request that would reach the network through `URLSession.shared` while a test's stubs
/// are active, and tells that test.
///
/// A test's stubs answer only the sessions made from its registry. Code under test that uses
/// `URLSession.shared` instead is invisible to them; the guard registers a `URLProtocol` class of
/// its own (see ``SharedSessionGuardRole``) that `URLSession.shared` asks first, where the platform
/// lets it: on Linux only when the class is registered before any `URLSession` exists, which the
/// first scope of a test process does. Such a request fails with `URLError(.notConnectedToInternet)`
/// saying what to do, is journaled as refused in the registry of its test, and fails that test when
/// its scope ends.
///
/// The test is found from the thread that resumes the task (corelibs asks `canInit` there): the
/// registry the scope set as ``scopeRegistry`` for its task and the tasks it starts, or else the one
/// registry engaged without a task of its own (XCTest runs one test at a time). A request neither
/// finds (made from a `DispatchQueue` while parallel Swift Testing tests run) goes on as it would
/// without the toolkit.
package enum NetworkGuard {
    /// The registry of the scope the current task runs in, set by the Swift Testing trait and
    /// `withHTTPStubs` around the test's code.
    @TaskLocal package static var scopeRegistry: StubRegistry?

    /// One engaged registry.
    private struct Engaged {
        let registry: StubRegistry
        /// The test, as its framework names it, for messages.
        let testName: String
        /// Whether requests from tasks without ``scopeRegistry`` may be its (an XCTest test).
        let claimsUnscopedTasks: Bool
        /// What was said about each request the guard stopped for it.
        var stopped: [String] = []
    }

    private struct State {
        var engaged: [ObjectIdentifier: Engaged] = [:]
        /// Requests `canInit` claimed for a registry, until their protocol instance is made (on
        /// URLSession's queue, where no task-local value is left). Oldest first, at most 64.
        var claimed: [(method: String, url: URL?, registry: ObjectIdentifier)] = []
        var registered = false
    }

    private static let state = Locked(State())

    /// Registers the guard's class, once per process. The earlier the better: on Linux
    /// `URLSession.shared` sees it only if it is registered before any `URLSession` exists. The
    /// Swift Testing trait calls it when the test plan is built, before any test runs.
    package static func register() {
        let first = state.withLock { state -> Bool in
            defer { state.registered = true }
            return !state.registered
        }
        if first { _ = URLProtocol.registerClass(SharedSessionGuard.self) }
    }

    /// Guards `registry`'s test from now until ``disengage(_:)``: call when its scope opens, on the
    /// test's task, before the test makes a session.
    package static func engage(_ registry: StubRegistry, testName: String, claimsUnscopedTasks: Bool) {
        register()
        state.withLock { state in
            state.engaged[ObjectIdentifier(registry)] = Engaged(
                registry: registry,
                testName: testName,
                claimsUnscopedTasks: claimsUnscopedTasks
            )
        }
    }

    /// Stops guarding `registry`'s test; returns what was said about each request stopped for it.
    package static func disengage(_ registry: StubRegistry) -> [String] {
        let identity = ObjectIdentifier(registry)
        return state.withLock { state in
            state.claimed.removeAll { $0.registry == identity }
            return state.engaged.removeValue(forKey: identity)?.stopped ?? []
        }
    }

    /// Whether `URLSession.shared` asks the guard's class (or ``URLProtocolStub``) first: `false` on
    /// Linux when a URLSession existed before the first scope opened (then the guard cannot see it).
    package static var seesSharedSession: Bool {
        SharedSessionInterception.current == .active
    }

    /// What the guard does with a request `URLSession.shared` is about to send.
    enum Verdict {
        /// A test's stubs are active and its registry lets no such request through: stop it.
        case stop
        /// A test's stubs are active and its pass-through policy lets the request through.
        case letThrough
        /// No test can be told which request it is: the guard leaves it alone.
        case notAttributed
    }

    /// Called from `canInit`, on the thread that resumes the task: what becomes of `request`. A
    /// request to stop is remembered for ``stoppedLoader(for:)``.
    ///
    /// While ``URLProtocolStub`` intercepts (`withSharedSessionStubs` in another test, or this one),
    /// only a request from a scope's own task is the guard's: `URLSession.shared` serves the
    /// others from ``URLProtocolStub/registry``.
    static func verdict(on request: URLRequest, intercepting: Bool) -> Verdict {
        let scoped = scopeRegistry.map(ObjectIdentifier.init)
        let registry = state.withLock { state -> StubRegistry? in
            if let scoped { return state.engaged[scoped]?.registry }
            guard !intercepting else { return nil }
            let unscoped = state.engaged.values.filter(\.claimsUnscopedTasks)
            return unscoped.count == 1 ? unscoped.first?.registry : nil
        }
        guard let registry else { return .notAttributed }
        guard !RequestDelivery.shouldPassThrough(request, registry: registry) else { return .letThrough }
        state.withLock { state in
            state.claimed.append((request.httpMethod ?? "GET", request.url, ObjectIdentifier(registry)))
            if state.claimed.count > 64 { state.claimed.removeFirst() }
        }
        return .stop
    }

    /// The loader of a request ``verdict(on:)`` stopped, which fails it, or `nil` for a request it did
    /// not stop. Journals the request in its test's registry and keeps the message for the test.
    static func stoppedLoader(for request: URLRequest) -> RequestDelivery? {
        let method = request.httpMethod ?? "GET"
        let found = state.withLock { state -> (StubRegistry, String)? in
            guard let index = state.claimed.firstIndex(where: { $0.method == method && $0.url == request.url }) else {
                return nil
            }
            let identity = state.claimed.remove(at: index).registry
            guard let engaged = state.engaged[identity] else { return nil }
            let message = message(for: request, test: engaged.testName)
            state.engaged[identity]?.stopped.append(message)
            return (engaged.registry, message)
        }
        guard let (registry, message) = found else { return nil }
        registry.record(
            InterceptedRequest(request, body: request.httpBody, bodyUnavailableReason: nil),
            .refused(reason: message)
        )
        return RequestDelivery.make(registry: nil, missingRegistry: .networkGuard(message), request: request)
    }

    /// What a stopped request's error and its test's failure say.
    private static func message(for request: URLRequest, test: String) -> String {
        let line = "\(request.httpMethod ?? "GET") \(LogMasking.url(request.url?.absoluteString ?? ""))"
        let host = request.url?.host.map { "\"\($0)\"" } ?? "\"localhost\""
        return "\(line) was sent through URLSession.shared (or another session the stubs do not serve) while the "
            + "stubs of \(test) were active, and would have reached the network: the stubs answer only the sessions made from them. Give the code under test "
            + "the session stubs.makeSession() makes (or one made from stubs.configuration()); for code that can "
            + "only use URLSession.shared, use withSharedSessionStubs; to let this host through, set "
            + "stubs.passThrough = .hosts([\(host)])."
    }
}
