import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension StubRegistry {
    /// The registry's own `URLProtocol` class: sessions whose configuration lists it first are
    /// served by this registry's stubs, and only by them.
    public var protocolClass: URLProtocol.Type {
        registryProtocolClass(for: identity)
    }

    /// A configuration whose sessions are served by this registry.
    ///
    /// The registry's protocol class is put first in `protocolClasses` (so it is asked before
    /// URLSession's own HTTP protocol, which still serves pass-through requests), and `urlCache` is
    /// removed so stubbed answers are never cached.
    /// - Parameter base: The configuration to start from; `.ephemeral` by default.
    public func configuration(basedOn base: URLSessionConfiguration = .ephemeral) -> URLSessionConfiguration {
        base.served(by: protocolClass)
    }

    /// A session served by this registry.
    /// - Parameters:
    ///   - configuration: The configuration to start from; `.ephemeral` by default.
    ///   - delegate: The session delegate, if any.
    ///   - delegateQueue: The queue delegates and completion handlers run on, if any.
    public func makeSession(
        configuration: URLSessionConfiguration = .ephemeral,
        delegate: (any URLSessionDelegate)? = nil,
        delegateQueue: OperationQueue? = nil
    ) -> URLSession {
        .served(by: protocolClass, configuration: configuration, delegate: delegate, delegateQueue: delegateQueue)
    }
}
