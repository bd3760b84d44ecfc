import Foundation

/// A bound on the work one request may cost: the steps of the regular expressions, JSON schemas,
/// JSONPath and XPath expressions its stubs' matchers evaluate, and of the helpers its response
/// template calls. Each of those charges the budget as it works and stops with a clear error when
/// the budget is spent, so that no stub (a backtracking regular expression, a schema whose levels
/// each try two `$ref`s, `{{#each (range 1 1000)}}{{ljust 'x' size=1000000}}{{/each}}`) makes a
/// request take minutes or gigabytes.
///
/// One budget covers the matching of a request (``StubSelection`` opens a ``scope(_:)`` while it
/// tests the stubs), another the rendering of its response template. Work done outside either (a
/// user calling `RequestPattern.matches(_:)` directly) gets a budget of its own for each
/// evaluation, through ``metering(_:)``.
///
/// A unit is about a tenth of a microsecond of work in a debug build, or a byte a helper makes;
/// ``Cost`` says what each kind of work charges.
package final class WorkBudget: Sendable {
    /// What each kind of work charges, in units.
    package enum Cost {
        /// A progress report of ICU's regular expression engine (every few thousand steps of
        /// backtracking, about 0.2 ms): a budget lasts about 3,000, about 0.7 s.
        static let regexTick = 6_000
        /// A subschema applied to a value by a JSON schema (about 10 µs in a debug build): a
        /// budget lasts about 200,000, a 20,000-element array of objects of five members.
        package static let schemaStep = 100
        /// Two array elements compared while pairing arrays in any order (`ignoreArrayOrder`), once
        /// elements equal as values are paired.
        static let comparison = 80
        /// A value a JSONPath expression visits (about 4 µs in a debug build): a budget lasts
        /// about 500,000.
        package static let pathNode = 40
        /// An XML element read, built by libxml2, compared or printed (about 3 µs in a debug
        /// build): a budget lasts about 650,000.
        package static let xmlElement = 30
        /// An XML attribute read or compared, and each node an XPath expression may visit (an
        /// upper bound charged before libxml2, which cannot be interrupted, evaluates it).
        package static let xmlVisit = 2
        /// A call of a template helper, besides what it reads and makes: its arguments, its
        /// result and the setup a helper does on each call (compiling a regular expression or an
        /// XPath, parsing a small document), about 10 µs in a debug build.
        package static let helperCall = 100
        /// An element of a list, or an entry of a map, that a template helper makes (`range`,
        /// `arrayAdd`, `parseJson`): about the bytes it takes.
        package static let listElement = 32
        /// A byte of JSON or XML a template helper parses, or prints from a parsed tree.
        package static let parsedByte = 2
        /// A date or number formatter a template helper makes (ICU's: about 100 µs in a debug build).
        package static let formatter = 1_000
        /// A comparison of two values by a template helper that sorts (`jsonSort`).
        package static let sortComparison = 10
        /// A character a template helper draws at random (`randomValue`).
        package static let randomCharacter = 10
        /// An element a template block helper renders its body for (`each`), besides the body's
        /// own work: the element's variables (`@index`, `@first`, …) and scope.
        package static let blockIteration = 60
    }

    /// The units a budget starts with: about two seconds of work in a debug build, and at most
    /// 20 MB made by helpers.
    static let standardLimit = 20_000_000

    /// Why a budget ran out: the work that spent its last unit.
    package struct Exhaustion: Sendable, Equatable, CustomStringConvertible {
        /// What was working when the budget ran out, such as `the regular expression '(a|aa)+'`.
        let activity: String
        /// The units the budget started with.
        let limit: Int

        package var description: String {
            "\(activity) spent the request's work budget (\(limit) units, about two seconds of work "
                + "or 20 MB of text) before it finished"
        }
    }

    /// The units the budget started with.
    let limit: Int
    /// The units left, and what spent the last one.
    private let state: Locked<(remaining: Int, exhaustion: Exhaustion?)>

    /// A budget of `limit` units.
    package init(limit: Int = WorkBudget.standardLimit) {
        self.limit = limit
        state = Locked((limit, nil))
    }

    /// Why the budget ran out, or `nil` while it has units left.
    package var exhaustion: Exhaustion? {
        state.withLock { $0.exhaustion }
    }

    /// Takes `units` from the budget: `false` when it does not hold them, and from then on for
    /// every call (the first activity that ran out is the one kept).
    package func spend(_ units: Int, on activity: @autoclosure () -> String) -> Bool {
        let spent = state.withLock { state -> Bool? in
            guard state.exhaustion == nil else { return false }
            guard units <= state.remaining else { return nil }
            state.remaining -= units
            return true
        }
        if let spent { return spent }
        // Describing the activity may be costly: done once, outside the lock.
        let exhaustion = Exhaustion(activity: activity(), limit: limit)
        state.withLock { state in
            state.remaining = 0
            if state.exhaustion == nil { state.exhaustion = exhaustion }
        }
        return false
    }

    // MARK: The budget of the work under way on this thread

    /// The budget work on this thread charges: the one installed by ``install(_:)``, or the one a
    /// ``scope(_:)`` makes when it is first asked for; `nil` outside both.
    ///
    /// A thread-local slot rather than a `@TaskLocal`: binding a task-local outside a task costs an
    /// allocation (about 170 ns), and every request's matching opens a scope; the slot costs two
    /// calls, and a budget is only made when some work charges one (a regular expression that
    /// runs long, a JSON schema, a JSONPath expression), which literal stubs never do. The work a
    /// budget bounds is synchronous, so it runs on the thread that opened the scope.
    package static var current: WorkBudget? {
        guard let slot = pthread_getspecific(slotKey) else { return nil }
        if slot != unmade { return Unmanaged<WorkBudget>.fromOpaque(slot).takeUnretainedValue() }
        let budget = WorkBudget()
        // Released when the scope closes.
        pthread_setspecific(slotKey, Unmanaged.passRetained(budget).toOpaque())
        return budget
    }

    /// Why the budget of the scope under way on this thread ran out; `nil` while it has units
    /// left, when no work has asked for it yet (none is made to answer), or outside any scope.
    static var exhaustionInScope: Exhaustion? {
        guard let slot = pthread_getspecific(slotKey), slot != unmade else { return nil }
        return Unmanaged<WorkBudget>.fromOpaque(slot).takeUnretainedValue().exhaustion
    }

    /// Runs `body` with this budget as ``current``.
    package func install<Result>(_ body: () throws -> Result) rethrows -> Result {
        let outer = pthread_getspecific(Self.slotKey)
        pthread_setspecific(Self.slotKey, Unmanaged.passUnretained(self).toOpaque())
        defer { pthread_setspecific(Self.slotKey, outer) }
        return try body()
    }

    /// Runs `body` in a scope of its own, whose budget is made only if some work asks for
    /// ``current``; ``exhaustionInScope`` tells, meanwhile, whether it ran out.
    static func scope<Result>(_ body: () throws -> Result) rethrows -> Result {
        let outer = pthread_getspecific(slotKey)
        pthread_setspecific(slotKey, unmade)
        defer {
            // The budget the scope made, if any, is released, and the outer one is current again.
            let slot = pthread_getspecific(slotKey)
            pthread_setspecific(slotKey, outer)
            if let slot, slot != unmade { Unmanaged<WorkBudget>.fromOpaque(slot).release() }
        }
        return try body()
    }

    /// Runs `body` with ``current``, or, outside any scope, with a new budget installed for the
    /// duration of `body`: what a single evaluation outside a request (a user calling
    /// `RequestPattern.matches(_:)` directly) is bounded by.
    package static func metering<Result>(_ body: (WorkBudget) throws -> Result) rethrows -> Result {
        if let current { return try body(current) }
        let budget = WorkBudget()
        return try budget.install { try body(budget) }
    }

    /// The thread-local slot of ``current``: empty outside any scope, ``unmade`` in a scope whose
    /// budget is not made yet, else the budget.
    private static let slotKey: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key, nil)
        precondition(status == 0, "pthread_key_create failed (\(status)): the process has no thread-local keys left")
        return key
    }()

    /// The slot's value in a scope whose budget is not made yet (no object lives at address 1).
    private static var unmade: UnsafeMutableRawPointer { UnsafeMutableRawPointer(bitPattern: 1)! }
}
