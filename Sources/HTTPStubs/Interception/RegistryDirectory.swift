/// Finds a registry from the identity its `URLProtocol` class encodes, without keeping it alive,
/// and keeps each registry's pass-through policy, which `canInit` reads for every request.
enum RegistryDirectory {
    /// A registry, weakly, and its pass-through policy (``StubRegistry/passThrough`` reads and
    /// writes it here: `canInit` then needs the registry itself only when the policy is not
    /// `.never`). A class: a weak reference in a struct is copied (its side table retained and
    /// released) to be read, twice per request (BENCHMARKS.md, "Side tables"). Only touched under the
    /// directory's lock.
    private final class Entry {
        weak var registry: StubRegistry?
        var passThrough = PassThroughPolicy.never
    }

    private struct State {
        var next: UInt64 = 1
        /// The registry of identity `n` at index `n - 1`, or an empty slot once it is gone:
        /// identities are handed out in order and never reused, so a lookup (twice per request)
        /// indexes rather than hashes, for a pointer a registry ever made.
        var registries: [Entry] = []
        /// For each registry gone after its test ended, that test (a few bytes a test, so that a
        /// request made later through its sessions can name it).
        var endedTests: [UInt64: String] = [:]
    }

    private static let state = Locked(State())

    /// Where the registry of `identity` is kept in `registries` (identities start at 1; 0, which none
    /// has, maps to no slot).
    private static func slot(of identity: UInt64) -> Int {
        Int(truncatingIfNeeded: identity &- 1)
    }

    /// The entry of the registry with this identity, if it was ever attached.
    private static func entry(of identity: UInt64, in state: State) -> Entry? {
        let index = slot(of: identity)
        return state.registries.indices.contains(index) ? state.registries[index] : nil
    }

    /// A new identity, never used before in this process.
    static func nextIdentity() -> UInt64 {
        state.withLock { state in
            defer { state.next += 1 }
            return state.next
        }
    }

    static func attach(_ registry: StubRegistry, as identity: UInt64) {
        state.withLock { state in
            let index = slot(of: identity)
            if index >= state.registries.count {
                state.registries.append(
                    contentsOf: (state.registries.count...index).map { _ in Entry() }
                )
            }
            state.registries[index].registry = registry
        }
    }

    /// Forgets a registry that is going away; `endedTest` is the test whose end had closed it.
    static func remove(_ identity: UInt64, endedTest: String?) {
        state.withLock { state in
            let index = slot(of: identity)
            if state.registries.indices.contains(index) { state.registries[index] = Entry() }
            if let endedTest { state.endedTests[identity] = endedTest }
        }
    }

    /// The pass-through policy of the registry with this identity; `.never` for one that is gone.
    static func passThrough(of identity: UInt64) -> PassThroughPolicy {
        state.withLock { entry(of: identity, in: $0)?.passThrough ?? .never }
    }

    /// Sets the pass-through policy of the registry with this identity.
    static func setPassThrough(_ policy: PassThroughPolicy, for identity: UInt64) {
        state.withLock { entry(of: identity, in: $0)?.passThrough = policy }
    }

    /// The registry with this identity when it exists and its pass-through policy is not `.never`;
    /// `nil` otherwise. `canInit` asks this for every request, and most registries pass
    /// nothing through: they are not even loaded then (a strong reference to a registry, an object
    /// with a side table, takes the runtime's slow paths to retain and release).
    static func registryPassingThrough(_ identity: UInt64) -> StubRegistry? {
        state.withLock { state in
            guard let entry = entry(of: identity, in: state), entry.passThrough != .never else { return nil }
            return entry.registry
        }
    }

    /// The registry with this identity, if it still exists; if it does not, the test whose end
    /// closed it, if one did.
    static func registry(_ identity: UInt64) -> (registry: StubRegistry?, endedTest: String?) {
        state.withLock { state in
            if let registry = entry(of: identity, in: state)?.registry { return (registry, nil) }
            return (nil, state.endedTests[identity])
        }
    }
}
