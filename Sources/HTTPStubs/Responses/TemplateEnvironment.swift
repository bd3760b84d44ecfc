import Foundation

/// What a render may read besides the request: the clock (`now`, `date` without a date) and the
/// random source (`randomValue`, `randomInt`, `pickRandom`, `request.id`), so that virtual time and
/// seeded tests give the same bytes every run; and the stub's path template, for WireMock 3's
/// `request.path.<name>`.
package struct TemplateEnvironment: Sendable {
    /// The registry's wall time when the request is answered.
    package var now: @Sendable () -> Date
    /// A number in `0..<n` for `n > 0` (the caller may seed it).
    package var random: @Sendable (Int) -> Int
    /// The `urlPathTemplate` of the stub that answers, whose variables `request.path.<name>`
    /// reads; `nil` when the stub matched its URL otherwise. The request's own
    /// ``InterceptedRequest/pathParameters`` are used when this is `nil`.
    package var pathTemplate: URITemplate?

    /// An environment reading `now` and `random`, with the stub's `pathTemplate`.
    init(
        now: @escaping @Sendable () -> Date,
        random: @escaping @Sendable (Int) -> Int,
        pathTemplate: URITemplate? = nil
    ) {
        self.now = now
        self.random = random
        self.pathTemplate = pathTemplate
    }

    /// The system clock and the system random generator, without a path template.
    package static let system = TemplateEnvironment(
        now: { Date() },
        random: { bound in bound > 0 ? Int.random(in: 0..<bound) : 0 }
    )
}
