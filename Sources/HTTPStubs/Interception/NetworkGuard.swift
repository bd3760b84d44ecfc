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
/// Swift Testing trait or the first scope of a test process does. Such a request fails with
/// `URLError(.notConnectedToInternet)` saying what to do, is journaled as refused in the registry
/// of its test, and fails that test when its scope ends.
///
/// The test is found from the thread that resumes the task (corelibs asks `canInit` there): the
/// registry the scope set as ``scopeRegistry`` for its task and the tasks it starts, or else the
/// registry engaged last by an XCTest test (XCTest runs one test at a time). A request neither
/// finds (made from a `DispatchQueue` while parallel Swift Testing tests run) goes on as it would
/// without the toolkit. The test is told, and the request journaled, right there, on the
/// resuming thread; the protocol instance, made later on URLSession's queues (in another order
/// when the session has a `URLCache`), only fails the request with the message kept for it.
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
        /// When it was engaged, among all: the latest XCTest registry takes unscoped requests.
        let order: Int
        /// The requests the guard stopped for it.
        var stopped: [StoppedRequest] = []
    }

    /// What the guard said of a request it stopped, and where the request is in its test's journal.
    package struct StoppedRequest: Sendable {
        package let message: String
        package let journalEntry: Int
    }

    private struct State {
        var engaged: [ObjectIdentifier: Engaged] = [:]
        var engagements = 0
        /// The requests stopped, until their protocol instance is made (on URLSession's queue,
        /// where no task-local value is left): each instance takes the oldest equal request's
        /// message. Kept after their test ends (an instance may come later); the oldest 256 at most.
        var claimed: [(request: URLRequest, message: String)] = []
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
            state.engagements += 1
            state.engaged[ObjectIdentifier(registry)] = Engaged(
                registry: registry,
                testName: testName,
                claimsUnscopedTasks: claimsUnscopedTasks,
                order: state.engagements
            )
        }
    }

    /// Stops guarding `registry`'s test; returns the requests stopped for it.
    package static func disengage(_ registry: StubRegistry) -> [StoppedRequest] {
        state.withLock { $0.engaged.removeValue(forKey: ObjectIdentifier(registry))?.stopped ?? [] }
    }

    /// Whether `URLSession.shared` asks the guard's class (or ``URLProtocolStub``) first: `false` on
    /// Linux when a URLSession existed before the guard was registered (then it cannot see it).
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
    /// request it stops is journaled in its test's registry and kept for the test's end, and its
    /// message for ``stoppedLoader(for:)``.
    ///
    /// While ``URLProtocolStub`` intercepts (`withSharedSessionStubs` in another test, or this one),
    /// only a request from a scope's own task is the guard's: `URLSession.shared` serves the
    /// others from ``URLProtocolStub/registry``.
    static func verdict(on request: URLRequest, intercepting: Bool) -> Verdict {
        let scoped = scopeRegistry.map(ObjectIdentifier.init)
        let found = state.withLock { state -> (registry: StubRegistry, testName: String)? in
            let engaged: Engaged?
            if let scoped {
                engaged = state.engaged[scoped]
            } else if intercepting {
                engaged = nil
            } else {
                engaged = state.engaged.values.filter(\.claimsUnscopedTasks).max { $0.order < $1.order }
            }
            return engaged.map { ($0.registry, $0.testName) }
        }
        guard let (registry, testName) = found else { return .notAttributed }
        guard !RequestDelivery.shouldPassThrough(request, registry: registry) else { return .letThrough }
        let message = message(for: request, test: testName, registry: registry)
        // Journaled before the lock: the registry's lock is not the guard's to hold it under.
        let entry = registry.record(
            InterceptedRequest(request, body: request.httpBody, bodyUnavailableReason: nil),
            .refused(reason: message)
        )
        state.withLock { state in
            state.engaged[ObjectIdentifier(registry)]?.stopped.append(
                StoppedRequest(message: message, journalEntry: entry)
            )
            state.claimed.append((request, message))
            if state.claimed.count > 256 { state.claimed.removeFirst() }
        }
        return .stop
    }

    /// The loader of a request ``verdict(on:intercepting:)`` stopped, which fails it with what the
    /// guard said, or `nil` for a request it did not stop.
    static func stoppedLoader(for request: URLRequest) -> RequestDelivery? {
        let message = state.withLock { state -> String? in
            guard let index = state.claimed.firstIndex(where: { $0.request == request }) else { return nil }
            return state.claimed.remove(at: index).message
        }
        return message.map { RequestDelivery.make(registry: nil, missingRegistry: .networkGuard($0), request: request) }
    }

    /// What a stopped request's error and its test's failure say.
    private static func message(for request: URLRequest, test: String, registry: StubRegistry) -> String {
        let line = "\(request.httpMethod ?? "GET") \(LogMasking.url(request.url?.absoluteString ?? ""))"
        let host = request.url?.host ?? "localhost"
        let letThrough =
            registry.passThrough.allows(host: host)
            ? "a stub of the test answers it, so it is not let through to \(host)"
            : "to let this host through, set stubs.passThrough = .hosts([\"\(host)\"])"
        return "\(line) was sent through URLSession.shared (or another session the stubs do not serve) while the "
            + "stubs of \(test) were active, and would have reached the network: the stubs answer only the sessions "
            + "made from them. Give the code under test the session stubs.makeSession() makes (or one made from "
            + "stubs.configuration()); for code that can only use URLSession.shared, use withSharedSessionStubs; "
            + "\(letThrough)."
    }
}
