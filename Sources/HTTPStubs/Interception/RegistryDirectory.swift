/// Finds a registry from the identity its `URLProtocol` class encodes, without keeping it alive.
enum RegistryDirectory {
    private final class WeakRegistry: @unchecked Sendable {
        // Invariant: written once in `init`, then only read; `weak` loads are atomic.
        weak var registry: StubRegistry?

        init(_ registry: StubRegistry) {
            self.registry = registry
        }
    }

    /// The registries by identity, and, for each registry gone after its test ended, that test
    /// (a few bytes a test, so that a request made later through its sessions can name it).
    private static let state = Locked(
        (next: UInt64(1), registries: [UInt64: WeakRegistry](), endedTests: [UInt64: String]())
    )

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

    /// Forgets a registry that is going away; `endedTest` is the test whose end had closed it.
    static func remove(_ identity: UInt64, endedTest: String?) {
        state.withLock { state in
            state.registries.removeValue(forKey: identity)
            if let endedTest { state.endedTests[identity] = endedTest }
        }
    }

    /// The registry with this identity, if it still exists; if it does not, the test whose end
    /// closed it, if one did.
    static func registry(_ identity: UInt64) -> (registry: StubRegistry?, endedTest: String?) {
        state.withLock { state in
            if let registry = state.registries[identity]?.registry { return (registry, nil) }
            return (nil, state.endedTests[identity])
        }
    }
}
