import Foundation

/// A value guarded by an `NSLock`.
///
/// ## The toolkit's locks, and their order
///
/// - each registry's state (``StubRegistry``): stubs, use counts, scenarios, journal, observers;
/// - each request's loader (`RequestDelivery`'s own `NSLock`): its delivery timeline;
/// - each registry's requests in flight (`RequestFlights`);
/// - each clock's state (``ManualStubClock``, ``ImmediateStubClock``) and each scheduled action
///   (`ReleasingTimer`);
/// - the registry directory (`RegistryDirectory`), stub identities, live-loader count, response
///   cache, `URLProtocolStub`'s interception state, the recorder's state;
/// - in HTTPStubsTesting, each scope's state (`HTTPStubsScope`) and the shared-session turn.
///
/// The user's code — custom matchers, request observers, computed responses, issue handlers —
/// never runs while any of them is held, so it may call any of the toolkit's methods. Neither does
/// the `deinit` of what a stub or an observer captured, when the registry drops it.
///
/// The only locks taken while another is held: a loader's lock, held while it calls its
/// URLProtocol client, takes the clock's lock and a scheduled action's lock (reading `now`,
/// scheduling and cancelling wake-ups, telling a ``ManualStubClock`` where the request is; a clock
/// never runs an action inside `schedule`, nor under its own lock) and its registry's
/// `RequestFlights` lock (leaving it once answered). A clock the user writes is called there too,
/// so ``StubClock`` asks it never to run an action inside `schedule`.
/// A protocol instance's `deinit` takes its loader's lock, then that `RequestFlights` lock (leaving
/// the flights when its load never ended): so nothing releases an instance, or a task or wake-up
/// action holding one, while it holds a loader's, a flights' or a scheduled action's lock.
/// The recorder's lock is held while files are written, which takes no other lock. Every other lock
/// is a leaf: nothing is locked, and nothing outside the lock's owner is called, while it is held.
///
/// `NSLock` is used rather than `Synchronization.Mutex` because the thread sanitizer understands it:
/// `Mutex` produced false race reports on the Swift 6.3 Linux toolchain, and users run their suites
/// under `--sanitize=thread`. `package`: HTTPStubsTesting uses it too.
package final class Locked<State>: @unchecked Sendable {
    // Invariant: `state` is read and written only inside `withLock`, which holds `lock`.
    private let lock = NSLock()
    private var state: State

    package init(_ state: State) {
        self.state = state
    }

    /// Runs `body` with exclusive access to the state.
    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }
}

/// Carries a non-`Sendable` value into a `@Sendable` closure.
///
/// Use only where the surrounding code guarantees the value is used safely; every use states why.
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
}
