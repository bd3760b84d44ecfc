import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLSessionConfiguration {
    /// A copy whose sessions `protocolClass` serves: the class is put first in `protocolClasses` (so
    /// it is asked before URLSession's own HTTP protocol, which still serves pass-through requests),
    /// and `urlCache` is removed so stubbed answers are never cached.
    func served(by protocolClass: URLProtocol.Type) -> URLSessionConfiguration {
        let configuration = copy() as! URLSessionConfiguration
        let others = (configuration.protocolClasses ?? []).filter { $0 != protocolClass }
        configuration.protocolClasses = [protocolClass] + others
        configuration.urlCache = nil
        return configuration
    }
}

extension URLSession {
    /// A session made from `configuration` whose requests `protocolClass` serves (see
    /// ``URLSessionConfiguration/served(by:)``).
    static func served(
        by protocolClass: URLProtocol.Type,
        configuration: URLSessionConfiguration,
        delegate: (any URLSessionDelegate)?,
        delegateQueue: OperationQueue?
    ) -> URLSession {
        URLSession(
            configuration: configuration.served(by: protocolClass),
            delegate: delegate,
            delegateQueue: delegateQueue
        )
    }
}
