import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The toolkit's `URLProtocol`, with the static API of the hand-rolled `URLProtocolStub` many
/// codebases carry, so adopting the toolkit is a matter of deleting that class and importing this
/// module.
///
/// ```swift
/// URLProtocolStub.startInterceptingRequests()
/// defer { URLProtocolStub.stopInterceptingRequests() }
/// URLProtocolStub.stub(data: Data("hi".utf8), response: HTTPURLResponse(...), error: nil)
/// let client = HTTPClient(session: URLProtocolStub.makeSession())
/// ```
///
/// Behind the static API sits ``registry``, a full ``StubRegistry``: stub with patterns, read the
/// journal, and so on. On Linux only sessions whose configuration lists this class are reliably
/// intercepted (``makeSession(configuration:delegate:delegateQueue:)``, ``configuration(basedOn:)``);
/// ``startInterceptingRequests(fileID:filePath:line:column:)`` explains what it can do for
/// `URLSession.shared`.
public final class URLProtocolStub: URLProtocol {
    /// The registry that serves every request this class intercepts. Its reports never name the line
    /// that made a session: requests reach it from sessions it does not see being made.
    public static let registry = StubRegistry().servingUnseenSessions()

    private static let interception = Locked(
        (isIntercepting: false, compatibilityStub: Stub.ID?.none, reportedSharedSession: false)
    )

    /// Created with the instance, inside `URLSessionTask.resume()` (see ``RequestFlights``).
    private let loader: RequestDelivery

    deinit {
        loader.instanceGone()
    }

    #if canImport(FoundationNetworking)
    required init(request: URLRequest, cachedResponse: CachedURLResponse?, client: (any URLProtocolClient)?) {
        loader = Self.makeLoader(for: request)
        super.init(request: request, cachedResponse: cachedResponse, client: client)
    }

    /// The task being loaded. On Linux, corelibs sets it right after `init`, inside
    /// `URLSessionTask.resume()`: the stub that answers is chosen then, on the caller's thread, so
    /// that `startLoading` only delivers the answer.
    override public var task: URLSessionTask? {
        didSet { loader.prepare(self) }
    }
    #else
    // On Apple platforms this initializer is designated but not required (URLSession reaches it
    // through `init(task:cachedResponse:client:)`).
    override init(request: URLRequest, cachedResponse: CachedURLResponse?, client: (any URLProtocolClient)?) {
        loader = Self.makeLoader(for: request)
        super.init(request: request, cachedResponse: cachedResponse, client: client)
    }
    #endif

    /// The loader of an instance serving `request`: from ``registry`` while interception is on;
    /// otherwise it fails the request, saying so (as the network guard's message, when the guard
    /// stopped it).
    static func makeLoader(for request: URLRequest) -> RequestDelivery {
        NetworkGuard.stoppedLoader(for: request)
            ?? RequestDelivery.make(
                registry: isIntercepting ? registry : nil,
                missingRegistry: .notIntercepting,
                request: request
            )
    }

    /// Whether ``startInterceptingRequests(fileID:filePath:line:column:)`` is in effect.
    public static var isIntercepting: Bool {
        interception.withLock { $0.isIntercepting }
    }

    // MARK: The hand-rolled API

    /// Answers every request with this data, response and error, replacing the previous call's
    /// answer (stubs added to ``registry`` in other ways stay). With an error, the request fails
    /// with it, unchanged; otherwise the response (if any) and the data (if any) are delivered.
    public static func stub(data: Data?, response: URLResponse?, error: (any Error)?) {
        let answer: StubResponse = error.map(StubResponse.failure) ?? .raw(response: response, data: data)
        let stub = Stub(.anyRequest, responses: [answer], source: .file("URLProtocolStub.stub(data:response:error:)"))
            .named("URLProtocolStub.stub(data:response:error:)")
        let previous = interception.withLock { state in
            defer { state.compatibilityStub = stub.id }
            return state.compatibilityStub
        }
        if let previous { registry.remove(previous) }
        registry.add(stub)
    }

    /// Calls `observer` with every intercepted request before it is answered (with its body as
    /// `httpBody`, even when URLSession streamed it).
    public static func observeRequests(_ observer: @escaping @Sendable (URLRequest) -> Void) {
        registry.observeRequests(observer)
    }

    /// Starts serving requests from ``registry``, and registers this class with `URLProtocol` so
    /// that `URLSession.shared` (and sessions whose `protocolClasses` is empty) use it where the
    /// platform allows.
    ///
    /// On Linux, `URLSession.shared` copies the list of registered classes when it is first used,
    /// and that list only lets this class ahead of the built-in HTTP protocol when it is registered
    /// before any `URLSession` exists. When it is too late, the returned status says why, and a
    /// warning naming this call's line is reported (once per process) through the registry's issue handler, because
    /// `URLSession.shared` would send requests to the real network.
    @discardableResult
    public static func startInterceptingRequests(
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> SharedSessionInterception {
        interception.withLock { $0.isIntercepting = true }
        _ = URLProtocol.registerClass(URLProtocolStub.self)
        let status = SharedSessionInterception.current
        // Reported once per process: it cannot change, and set-up code calls this before every test.
        let firstTime = interception.withLock { state -> Bool in
            defer { state.reportedSharedSession = true }
            return !state.reportedSharedSession
        }
        if case let .unavailable(reason) = status, firstTime {
            registry.report(
                StubDiagnostic(
                    severity: .warning,
                    source: .code(fileID: fileID, filePath: filePath, line: line, column: column),
                    message: reason
                )
            )
        }
        return status
    }

    /// Stops serving requests, unregisters the class, and resets ``registry``: its stubs,
    /// scenarios, journal and observers are gone. Requests made through this class's sessions
    /// afterwards fail with a `URLError` saying that interception is off.
    public static func stopInterceptingRequests() {
        interception.withLock { state in
            state.isIntercepting = false
            state.compatibilityStub = nil
        }
        URLProtocol.unregisterClass(URLProtocolStub.self)
        registry.reset()
    }

    // MARK: Sessions

    /// A configuration whose sessions this class serves: it is put first in `protocolClasses`, and
    /// `urlCache` is removed.
    public static func configuration(basedOn base: URLSessionConfiguration = .ephemeral) -> URLSessionConfiguration {
        base.served(by: URLProtocolStub.self)
    }

    /// A session this class serves.
    public static func makeSession(
        configuration: URLSessionConfiguration = .ephemeral,
        delegate: (any URLSessionDelegate)? = nil,
        delegateQueue: OperationQueue? = nil
    ) -> URLSession {
        .served(
            by: URLProtocolStub.self,
            configuration: configuration,
            delegate: delegate,
            delegateQueue: delegateQueue
        )
    }

    // MARK: URLProtocol

    /// Accepts every request but local `file:`, `data:` and `about:` ones, except those the
    /// registry's pass-through policy sends to the network. While interception is off, a request
    /// the network guard places in a test's scope (of `URLSession.shared`, which keeps this class
    /// when it was registered first) is stopped or let through as the guard says.
    override public class func canInit(with request: URLRequest) -> Bool {
        guard RequestDelivery.isInterceptable(request) else { return false }
        // While it intercepts, its sessions (which it cannot tell from URLSession.shared) are served.
        guard !isIntercepting else { return !RequestDelivery.shouldPassThrough(request, registry: registry) }
        return NetworkGuard.verdict(on: request, intercepting: false) != .letThrough
    }

    /// The request, unchanged.
    override public class func canonicalRequest(for request: URLRequest) -> URLRequest {
        request
    }

    /// Serves the request from ``registry``.
    override public func startLoading() {
        loader.start(self)
    }

    /// Stops serving the request.
    override public func stopLoading() {
        loader.stop()
    }
}
