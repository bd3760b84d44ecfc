import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The `URLProtocol` class ``NetworkGuard`` registers for `URLSession.shared`.
typealias SharedSessionGuard = RegistryURLProtocol<SharedSessionGuardRole>

/// What ``SharedSessionGuard`` does. `URLSession.shared` keeps the classes registered when it is
/// first used, so the class that guards it must also be the one that serves it when
/// ``URLProtocolStub`` intercepts. It stops the requests ``NetworkGuard`` places in a test's scope
/// (and lets through those its pass-through policy allows); while interception is on it serves the
/// others from ``URLProtocolStub/registry`` as ``URLProtocolStub`` does, and otherwise lets them go
/// on as they would without the toolkit. (``URLProtocolStub``, which
/// `URLSession.shared` keeps instead when it was registered first, asks the guard the same.)
enum SharedSessionGuardRole: URLProtocolRole {
    static func serves(_ request: URLRequest) -> Bool {
        let intercepting = URLProtocolStub.isIntercepting
        switch NetworkGuard.verdict(on: request, intercepting: intercepting) {
        case .stop: return true
        case .letThrough: return false
        case .notAttributed:
            return intercepting && !RequestDelivery.shouldPassThrough(request, registry: URLProtocolStub.registry)
        }
    }

    static func loader(for request: URLRequest) -> RequestDelivery {
        URLProtocolStub.makeLoader(for: request)
    }
}
