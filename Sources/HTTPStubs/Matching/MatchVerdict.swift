/// The outcome of testing one part of a request against one matcher.
public struct MatchVerdict: Sendable, Hashable {
    /// Whether the part matched.
    public let isMatch: Bool
    /// How far the part is from matching: 0 when it matches, up to 1.
    public let distance: Double
    /// What was expected and what the request had, such as `expected "/users/42", got "/users/43"`.
    public let detail: String

    /// A verdict for a custom matcher; a missing `distance` is 1 for a miss (it is always 0 for a match).
    public init(isMatch: Bool, distance: Double? = nil, detail: String) {
        self.isMatch = isMatch
        self.distance = isMatch ? 0 : min(max(distance ?? 1, 0), 1)
        self.detail = detail
    }
}
