import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a `URLProtocol` class of the toolkit does: which requests it serves, and from where.
protocol URLProtocolRole {
    /// Whether the class serves `request`, one that ``RequestDelivery/isInterceptable(_:)`` allows.
    static func serves(_ request: URLRequest) -> Bool
    /// The loader of an instance serving `request`.
    static func loader(for request: URLRequest) -> RequestDelivery
}

/// A type that stands for a registry identity, so that every registry gets a `URLProtocol` class
/// of its own: `RegistryURLProtocol<Bit1<Bit0<Bit1<Origin>>>>` serves registry 5.
///
/// URLSession keeps protocol *classes*, not instances, in a configuration, and on Linux nothing
/// else of the session reaches a protocol: no header (`httpAdditionalHeaders` are invisible) and no
/// task-local value. A class per registry is the one thing that travels with every session made
/// from the registry's configuration, whichever thread or task uses it. The Swift runtime creates
/// the generic class on demand; each costs about a kilobyte that lives as long as the process.
protocol RegistryKey: URLProtocolRole {
    static var identity: UInt64 { get }
}

extension RegistryKey {
    /// Every request but those the registry's pass-through policy sends to the network.
    static func serves(_ request: URLRequest) -> Bool {
        guard let registry = RegistryDirectory.registryPassingThrough(identity) else { return true }
        return !RequestDelivery.shouldPassThrough(request, registry: registry)
    }

    /// A loader serving the request from the registry, or failing it once the registry is gone.
    static func loader(for request: URLRequest) -> RequestDelivery {
        RequestDelivery.make(RegistryDirectory.registry(identity), request: request)
    }
}

/// The empty key.
enum Origin: RegistryKey {
    static var identity: UInt64 { 0 }
}

/// Appends a 0 bit.
enum Bit0<Rest: RegistryKey>: RegistryKey {
    static var identity: UInt64 { Rest.identity &<< 1 }
}

/// Appends a 1 bit.
enum Bit1<Rest: RegistryKey>: RegistryKey {
    static var identity: UInt64 { (Rest.identity &<< 1) | 1 }
}

/// The `URLProtocol` class of the registry whose identity `Key` encodes, or of another role (see
/// ``SharedSessionGuardRole``).
final class RegistryURLProtocol<Key: URLProtocolRole>: URLProtocol {
    /// Created with the instance, inside `URLSessionTask.resume()`, so the registry knows the
    /// request from then on (see ``RequestFlights``).
    private let loader: RequestDelivery

    deinit {
        loader.instanceGone()
    }

    #if canImport(FoundationNetworking)
    required init(request: URLRequest, cachedResponse: CachedURLResponse?, client: (any URLProtocolClient)?) {
        loader = Key.loader(for: request)
        super.init(request: request, cachedResponse: cachedResponse, client: client)
    }

    /// Set by corelibs right after `init`, inside `URLSessionTask.resume()`: the request is planned
    /// then, on the caller's thread, so that `startLoading` only delivers (see
    /// ``RequestDelivery/prepare(_:)``).
    override var task: URLSessionTask? {
        didSet { loader.prepare(self) }
    }
    #else
    // On Apple platforms this initializer is designated but not required (URLSession reaches it
    // through `init(task:cachedResponse:client:)`).
    override init(request: URLRequest, cachedResponse: CachedURLResponse?, client: (any URLProtocolClient)?) {
        loader = Key.loader(for: request)
        super.init(request: request, cachedResponse: cachedResponse, client: client)
    }
    #endif

    override class func canInit(with request: URLRequest) -> Bool {
        RequestDelivery.isInterceptable(request) && Key.serves(request)
    }

    override class func canonicalRequest(for request: URLRequest) -> URLRequest {
        request
    }

    override func startLoading() {
        loader.start(self)
    }

    override func stopLoading() {
        loader.stop()
    }
}

/// The `URLProtocol` class of the registry with this identity.
func registryProtocolClass(for identity: UInt64) -> URLProtocol.Type {
    var key: any RegistryKey.Type = Origin.self
    var bit = 63 - identity.leadingZeroBitCount
    while bit >= 0 {
        key = (identity >> UInt64(bit)) & 1 == 0 ? appendingZero(key) : appendingOne(key)
        bit -= 1
    }
    return protocolClass(for: key)
}

private func appendingZero<Rest: RegistryKey>(_: Rest.Type) -> any RegistryKey.Type { Bit0<Rest>.self }
private func appendingOne<Rest: RegistryKey>(_: Rest.Type) -> any RegistryKey.Type { Bit1<Rest>.self }
private func protocolClass<Key: RegistryKey>(for _: Key.Type) -> URLProtocol.Type { RegistryURLProtocol<Key>.self }
