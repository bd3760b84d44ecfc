/// A bound on the work one request may cost: the steps of the regular expressions, JSON schemas,
/// JSONPath and XPath expressions its stubs' matchers evaluate, and of the helpers its response
/// template calls. Each of those charges the budget as it works and stops with a clear error when
/// the budget is spent, so that no stub (a backtracking regular expression, a schema whose levels
/// each try two `$ref`s, `{{#each (range 1 1000)}}{{ljust 'x' size=1000000}}{{/each}}`) makes a
/// request take minutes or gigabytes.
///
/// One budget covers the matching of a request (``StubSelection`` installs it as ``current``
/// while it tests the stubs), another the rendering of its response template. Work done outside
/// either (a user calling `RequestPattern.matches(_:)` directly) gets a budget of its own for each
/// evaluation, through ``metering(_:)``.
///
/// A unit is about a tenth of a microsecond of work in a debug build, or a byte a helper makes;
/// ``Cost`` says what each kind of work charges.
final class WorkBudget: Sendable {
    /// What each kind of work charges, in units.
    enum Cost {
        /// A progress report of ICU's regular expression engine (every few thousand steps of
        /// backtracking, about 0.2 ms).
        static let regexTick = 2_000
        /// A subschema applied to a value by a JSON schema.
        static let schemaStep = 10
        /// A value a JSONPath or XPath expression visits.
        static let pathNode = 2
        /// A call of a template helper, besides what it reads and makes: its arguments, its
        /// result and the setup a helper does on each call (compiling a regular expression or an
        /// XPath, parsing a small document), about 10 µs in a debug build.
        static let helperCall = 100
        /// An element of a list, or an entry of a map, that a template helper makes (`range`,
        /// `arrayAdd`, `parseJson`): about the bytes it takes.
        static let listElement = 32
        /// A byte of JSON or XML a template helper parses, or prints from a parsed tree.
        static let parsedByte = 2
        /// A date or number formatter a template helper makes (ICU's: about 100 µs in a debug build).
        static let formatter = 1_000
        /// A comparison of two values by a template helper that sorts (`jsonSort`).
        static let sortComparison = 10
        /// A character a template helper draws at random (`randomValue`).
        static let randomCharacter = 10
        /// An element a template block helper renders its body for (`each`), besides the body's
        /// own work: the element's variables (`@index`, `@first`, …) and scope.
        static let blockIteration = 60
    }

    /// The units a budget starts with: about two seconds of work in a debug build, and at most
    /// 20 MB made by helpers.
    static let standardLimit = 20_000_000

    /// Why a budget ran out: the work that spent its last unit.
    struct Exhaustion: Sendable, Equatable, CustomStringConvertible {
        /// What was working when the budget ran out, such as `the regular expression '(a|aa)+'`.
        let activity: String
        /// The units the budget started with.
        let limit: Int

        var description: String {
            "\(activity) spent the request's work budget (\(limit) units, about two seconds of work "
                + "or 20 MB of text) before it finished"
        }
    }

    /// The budget work charges, when a request's matching or rendering installed one.
    @TaskLocal static var current: WorkBudget?

    /// The units the budget started with.
    let limit: Int
    /// The units left, and what spent the last one.
    private let state: Locked<(remaining: Int, exhaustion: Exhaustion?)>

    /// A budget of `limit` units.
    init(limit: Int = WorkBudget.standardLimit) {
        self.limit = limit
        state = Locked((limit, nil))
    }

    /// Why the budget ran out, or `nil` while it has units left.
    var exhaustion: Exhaustion? {
        state.withLock { $0.exhaustion }
    }

    /// Takes `units` from the budget: `false` when it does not hold them, and from then on for
    /// every call (the first activity that ran out is the one kept).
    func spend(_ units: Int, on activity: @autoclosure () -> String) -> Bool {
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

    /// Runs `body` with this budget as ``current``.
    func install<Result>(_ body: () throws -> Result) rethrows -> Result {
        try Self.$current.withValue(self, operation: body)
    }

    /// Runs `body` with ``current``, or, outside any request's budget, with a new budget installed
    /// for the duration of `body`.
    static func metering<Result>(_ body: (WorkBudget) throws -> Result) rethrows -> Result {
        if let current { return try body(current) }
        let budget = WorkBudget()
        return try budget.install { try body(budget) }
    }
}
