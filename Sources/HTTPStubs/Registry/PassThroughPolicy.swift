/// Which unmatched requests go to the real network instead of failing.
///
/// The decision is made before the request is loaded, from its method, URL, headers and (when it
/// is not streamed) body. The default, ``never``, is what continuous integration should use.
public struct PassThroughPolicy: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        case never
        case all
        case hosts(Set<String>)
    }

    let kind: Kind

    /// Unmatched requests fail with a diagnostic; nothing reaches the network.
    public static let never = PassThroughPolicy(kind: .never)
    /// Every unmatched request goes to the network.
    public static let all = PassThroughPolicy(kind: .all)
    /// Unmatched requests to these hosts (case-insensitive) go to the network; others fail.
    public static func hosts(_ hosts: Set<String>) -> PassThroughPolicy {
        PassThroughPolicy(kind: .hosts(Set(hosts.map { $0.lowercased() })))
    }

    /// Whether an unmatched request to `host` may go to the network.
    func allows(host: String) -> Bool {
        switch kind {
        case .never: return false
        case .all: return true
        case let .hosts(hosts): return hosts.contains(host.lowercased())
        }
    }
}
