import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A type that stands for a registry identity, so that every registry gets a `URLProtocol` class
/// of its own: `RegistryURLProtocol<Bit1<Bit0<Bit1<Origin>>>>` serves registry 5.
///
/// URLSession keeps protocol *classes*, not instances, in a configuration, and on Linux nothing
/// else of the session reaches a protocol: no header (`httpAdditionalHeaders` are invisible) and no
/// task-local value. A class per registry is the one thing that travels with every session made
/// from the registry's configuration, whichever thread or task uses it. The Swift runtime creates
/// the generic class on demand; each costs about a kilobyte that lives as long as the process.
protocol RegistryKey {
    static var identity: UInt64 { get }
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

/// The `URLProtocol` class of the registry whose identity `Key` encodes.
final class RegistryURLProtocol<Key: RegistryKey>: URLProtocol {
    /// Created with the instance, inside `URLSessionTask.resume()`, so the registry knows the
    /// request from then on (see ``RequestFlights``).
    private let loader: RequestDelivery

    deinit {
        loader.instanceGone()
    }

    #if canImport(FoundationNetworking)
    required init(request: URLRequest, cachedResponse: CachedURLResponse?, client: (any URLProtocolClient)?) {
        loader = RequestDelivery.make(RegistryDirectory.registry(Key.identity), request: request)
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
        loader = RequestDelivery.make(RegistryDirectory.registry(Key.identity), request: request)
        super.init(request: request, cachedResponse: cachedResponse, client: client)
    }
    #endif

    override class func canInit(with request: URLRequest) -> Bool {
        guard RequestDelivery.isInterceptable(request) else { return false }
        guard let registry = RegistryDirectory.registryPassingThrough(Key.identity) else { return true }
        return !RequestDelivery.shouldPassThrough(request, registry: registry)
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
