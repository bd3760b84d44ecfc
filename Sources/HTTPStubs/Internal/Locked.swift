import Foundation

/// A value guarded by a lock.
///
/// ## The toolkit's locks, and their order
///
/// - each registry's state (``StubRegistry``): stubs, use counts, scenarios, journal, observers, planning turns;
/// - each request's loader (`RequestDelivery`): its delivery timeline;
/// - each registry's requests in flight (`RequestFlights`);
/// - each ``StubStream``'s state: what the test sent, how it ended;
/// - each clock's state (``ManualStubClock``, ``ImmediateStubClock``) and each scheduled action
///   (`ReleasingTimer`);
/// - the registry directory (`RegistryDirectory`), stub identities, live-loader count (on Apple
///   platforms; on Linux it is an atomic counter), response cache, request read cache,
///   `URLProtocolStub`'s interception state, the recorder's state;
/// - in HTTPStubsTesting, each scope's state (`HTTPStubsScope`) and the shared-session turn.
///
/// The user's code — custom matchers, request observers, computed responses, issue handlers —
/// never runs while any of them is held, so it may call any of the toolkit's methods. Neither does
/// the `deinit` of what a stub or an observer captured, when the registry drops it.
///
/// The only locks taken while another is held: a loader's lock, held while it calls its
/// URLProtocol client, takes the clock's lock and a scheduled action's lock (reading `now`,
/// scheduling and cancelling wake-ups, telling a ``ManualStubClock`` where the request is; a clock
/// never runs an action inside `schedule`, nor under its own lock), its registry's
/// `RequestFlights` lock (leaving it once answered), the lock of the ``StubStream`` it reads (taking
/// what the test sent; a stream calls nothing under its lock) and, after releasing the stream's, its
/// registry's state lock (journaling how the stream ended). A clock the user writes is called there too,
/// so ``StubClock`` asks it never to run an action inside `schedule`.
/// A protocol instance's `deinit` takes its loader's lock, then that `RequestFlights` lock (leaving
/// the flights when its load never ended): so nothing releases an instance, or a task or wake-up
/// action holding one, while it holds a loader's, a flights' or a scheduled action's lock.
/// The recorder's lock is held while files are written, which takes no other lock. Every other lock
/// is a leaf: nothing is locked, and nothing outside the lock's owner is called, while it is held.
///
/// The lock is a pthread mutex rather than `Synchronization.Mutex` because the thread sanitizer
/// understands it: `Mutex` produced false race reports on the Swift 6.3 Linux toolchain, and users
/// run their suites under `--sanitize=thread`. The mutex and the state share one allocation (an
/// `NSLock` is one or two more: two on Linux), and the state is reached through a pointer, which
/// the runtime's exclusivity checks do not watch: the lock already guarantees exclusive access, and
/// a request takes a dozen of these locks (BENCHMARKS.md, "Locks and allocations"). `package`: HTTPStubsTesting
/// uses it too.
package struct Locked<State>: @unchecked Sendable {
    // Invariant: the state lives in `storage`, which only `withLock` touches, holding its mutex.
    private let storage: LockedBuffer<State>

    /// A lock guarding `state`, which is made in place: a value built in the call (`Locked(State())`)
    /// is moved into the lock's storage rather than copied (a registry's state is large).
    package init(_ state: @autoclosure () -> State) {
        storage = LockedBuffer.make(state)
    }

    /// Runs `body` with exclusive access to the state.
    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        try storage.withLock(body)
    }
}

/// A value (the header) and the pthread mutex guarding it (the one element), in one allocation:
/// ``Locked``'s storage, and the base of an object that keeps its own fields beside its lock
/// (`RequestDelivery`, made for every request, saves an allocation that way). A subclass adds no
/// stored properties (the mutex follows the header, where a subclass's fields would go) and is made
/// with ``make(_:)``.
class LockedBuffer<Value>: ManagedBuffer<Value, pthread_mutex_t> {
    /// A buffer of the class this is called on, holding `value` and a new mutex.
    final class func make(_ value: () -> Value) -> Self {
        let buffer = create(minimumCapacity: 1) { buffer in
            buffer.withUnsafeMutablePointerToElements { mutex in
                mutex.initialize(to: pthread_mutex_t())
                var attributes = pthread_mutexattr_t()
                pthread_mutexattr_init(&attributes)
                defer { pthread_mutexattr_destroy(&attributes) }
                #if DEBUG
                // A thread taking a lock it holds stops at the precondition in `withLock`
                // rather than hanging every URLSession of the process.
                pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ERRORCHECK))
                #endif
                check(pthread_mutex_init(mutex, &attributes), "made")
            }
            return value()
        }
        return unsafeDowncast(buffer, to: self)
    }

    /// Runs `body` with exclusive access to the value.
    final func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try withLockedValue { try body(&$0.pointee) }
    }

    /// Runs `body` with the value's address, holding the mutex: for a subclass whose lock guards
    /// only part of its header, to reach that part alone.
    final func withLockedValue<Result>(_ body: (UnsafeMutablePointer<Value>) throws -> Result) rethrows -> Result {
        try withUnsafeMutablePointers { value, mutex in
            Self.check(pthread_mutex_lock(mutex), "taken")
            defer { Self.check(pthread_mutex_unlock(mutex), "released") }
            return try body(value)
        }
    }

    /// Stops the process when a pthread call on the mutex failed: nothing the toolkit guards is safe
    /// to touch then. `EDEADLK` (debug builds only) means a thread took a lock it already holds.
    private static func check(_ result: Int32, _ what: String) {
        precondition(
            result == 0,
            "swift-http-stubs: one of its locks could not be \(what) (\(String(cString: strerror(result)))); "
                + "this is a bug in swift-http-stubs: please report it with this stack trace"
        )
    }

    deinit {
        withUnsafeMutablePointerToElements { mutex in
            pthread_mutex_destroy(mutex)
            mutex.deinitialize(count: 1)
        }
    }
}

/// Carries a non-`Sendable` value into a `@Sendable` closure.
///
/// Use only where the surrounding code guarantees the value is used safely; every use states why.
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
}
