import HTTPStubs

extension Locked {
    /// The current state, read or replaced under the lock (one step: to change it from its old value,
    /// use `withLock`).
    var value: State {
        get { withLock { $0 } }
        nonmutating set { withLock { $0 = newValue } }
    }
}
