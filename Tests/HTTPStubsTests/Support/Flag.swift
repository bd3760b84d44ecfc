import HTTPStubs

/// A flag set once from any thread.
final class Flag: Sendable {
    private let flag = Locked(false)

    /// Sets the flag.
    func set() {
        flag.value = true
    }

    /// Whether the flag is set.
    var isSet: Bool { flag.value }
}
