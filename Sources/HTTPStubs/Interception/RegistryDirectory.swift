/// Finds a registry from the identity its `URLProtocol` class encodes, without keeping it alive.
enum RegistryDirectory {
    private final class WeakRegistry: @unchecked Sendable {
        // Invariant: written once in `init`, then only read; `weak` loads are atomic.
        weak var registry: StubRegistry?

        init(_ registry: StubRegistry) {
            self.registry = registry
        }
    }

    private static let state = Locked((next: UInt64(1), registries: [UInt64: WeakRegistry]()))

    /// A new identity, never used before in this process.
    static func nextIdentity() -> UInt64 {
        state.withLock { state in
            defer { state.next += 1 }
            return state.next
        }
    }

    static func attach(_ registry: StubRegistry, as identity: UInt64) {
        state.withLock { $0.registries[identity] = WeakRegistry(registry) }
    }

    static func remove(_ identity: UInt64) {
        state.withLock { _ = $0.registries.removeValue(forKey: identity) }
    }

    /// The registry with this identity, if it still exists.
    static func registry(_ identity: UInt64) -> StubRegistry? {
        state.withLock { $0.registries[identity]?.registry }
    }
}
