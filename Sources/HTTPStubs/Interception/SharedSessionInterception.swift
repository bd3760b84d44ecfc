import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Whether `URLSession.shared` is served by ``URLProtocolStub``.
public enum SharedSessionInterception: Sendable, Equatable {
    /// `URLSession.shared` asks ``URLProtocolStub`` first.
    case active
    /// `URLSession.shared` does not ask ``URLProtocolStub`` first; the reason says why and what to do.
    case unavailable(reason: String)

    /// The status now. On Linux this creates `URLSession.shared` if nothing has yet.
    static var current: SharedSessionInterception {
        #if canImport(FoundationNetworking)
        let classes = URLSession.shared.configuration.protocolClasses ?? []
        // The network guard's class serves URLProtocolStub's registry while it intercepts.
        if classes.first == URLProtocolStub.self || classes.first == SharedSessionGuard.self { return .active }
        return .unavailable(
            reason:
                "URLSession.shared cannot be intercepted: "
                + "on Linux it copies the registered URLProtocol classes when it is first used, "
                + "and a URLSession already existed before "
                + "URLProtocolStub.startInterceptingRequests() was called, so URLSession.shared "
                + "tries the built-in HTTP protocol first and requests made through it reach the real network. "
                + "Inject a session from URLProtocolStub.makeSession() (or "
                + "StubRegistry.makeSession()) into the code under test, "
                + "or call startInterceptingRequests() before anything creates a URLSession in the test process."
        )
        #else
        return .active
        #endif
    }
}
