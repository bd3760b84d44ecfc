/// How many requests a stub is expected to answer, checked when a test's stub scope ends.
public struct UseExpectation: Sendable, Hashable, CustomStringConvertible {
    /// The smallest number of uses allowed.
    public let minimum: Int
    /// The largest number of uses allowed, or `nil` for no limit.
    public let maximum: Int?

    /// Exactly `count` uses.
    public static func exactly(_ count: Int) -> UseExpectation { UseExpectation(minimum: count, maximum: count) }
    /// At least `count` uses.
    public static func atLeast(_ count: Int) -> UseExpectation { UseExpectation(minimum: count, maximum: nil) }
    /// At most `count` uses (zero is fine).
    public static func atMost(_ count: Int) -> UseExpectation { UseExpectation(minimum: 0, maximum: count) }
    /// Exactly one use.
    public static let once = exactly(1)
    /// The stub must answer no request: it stands for an endpoint the code under test must not call.
    public static let never = exactly(0)
    /// At least one use: the stub must be used.
    public static let used = atLeast(1)

    /// Whether `uses` satisfies the expectation.
    public func isSatisfied(by uses: Int) -> Bool {
        uses >= minimum && maximum.map { uses <= $0 } ?? true
    }

    /// `exactly 2 times`, `at least once`, `at most 3 times`.
    public var description: String {
        func times(_ count: Int) -> String { count == 1 ? "once" : "\(count) times" }
        switch (minimum, maximum) {
        case let (minimum, maximum?) where minimum == maximum: return "exactly \(times(minimum))"
        case let (0, maximum?): return "at most \(times(maximum))"
        case let (minimum, nil): return "at least \(times(minimum))"
        case let (minimum, maximum?): return "between \(minimum) and \(maximum) times"
        }
    }
}
