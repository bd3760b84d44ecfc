import Foundation

/// How long a stub waits before it answers: fixed, or drawn from a distribution as WireMock's
/// `delayDistribution` does. Random delays come from the registry's seedable generator, so a test
/// that seeds it (`StubRegistry(randomSeed:)`, ``StubRegistry/seedRandomDelays(_:)``) sees the
/// same delays on every run.
public struct StubDelay: Sendable, Hashable, CustomStringConvertible {
    enum Kind: Sendable, Hashable {
        case fixed(Duration)
        case uniform(lower: Duration, upper: Duration)
        case logNormal(median: Duration, sigma: Double, maximum: Duration?)
    }

    let kind: Kind
    /// A fixed duration added to every sample (WireMock adds `fixedDelayMilliseconds` to a distribution).
    var offset = Duration.zero

    /// Always the same delay.
    public static func fixed(_ delay: Duration) -> StubDelay {
        StubDelay(kind: .fixed(max(delay, .zero)))
    }

    /// A delay drawn uniformly from a range (both ends included).
    public static func uniform(_ range: ClosedRange<Duration>) -> StubDelay {
        StubDelay(kind: .uniform(lower: max(range.lowerBound, .zero), upper: max(range.upperBound, .zero)))
    }

    /// A delay drawn from a log-normal distribution with the given median and sigma, optionally
    /// capped, as WireMock's `lognormal` distribution: realistic long-tailed latency.
    public static func logNormal(median: Duration, sigma: Double, maximum: Duration? = nil) -> StubDelay {
        StubDelay(kind: .logNormal(median: max(median, .zero), sigma: max(sigma, 0), maximum: maximum))
    }

    /// This delay plus a fixed duration.
    package func adding(_ duration: Duration) -> StubDelay {
        var copy = self
        copy.offset += max(duration, .zero)
        return copy
    }

    /// Draws one delay.
    func sample(using generator: inout some RandomNumberGenerator) -> Duration {
        offset + draw(using: &generator)
    }

    private func draw(using generator: inout some RandomNumberGenerator) -> Duration {
        switch kind {
        case let .fixed(delay):
            return delay
        case let .uniform(lower, upper):
            let low = lower.seconds
            let high = upper.seconds
            guard high > low, high.isFinite else { return lower }
            return .saturatingSeconds(Double.random(in: low...high, using: &generator))
        case let .logNormal(median, sigma, maximum):
            // Box–Muller: a standard normal sample from two uniform ones.
            let u1 = Double.random(in: Double.leastNonzeroMagnitude..<1, using: &generator)
            let u2 = Double.random(in: 0..<1, using: &generator)
            let normal = (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
            var seconds = median.seconds * exp(sigma * normal)
            if let maximum { seconds = min(seconds, maximum.seconds) }
            return .saturatingSeconds(seconds)
        }
    }

    /// A readable form such as `fixed 200 ms`.
    public var description: String {
        offset == .zero ? distribution : "\(offset.milliseconds) ms + \(distribution)"
    }

    private var distribution: String {
        switch kind {
        case let .fixed(delay): return "fixed \(delay.milliseconds) ms"
        case let .uniform(lower, upper): return "uniform \(lower.milliseconds)–\(upper.milliseconds) ms"
        case let .logNormal(median, sigma, maximum):
            return "log-normal median \(median.milliseconds) ms, sigma \(sigma)"
                + (maximum.map { ", at most \($0.milliseconds) ms" } ?? "")
        }
    }
}

extension Duration {
    /// The longest wait the toolkit schedules: 100 years, effectively for ever, and far from overflow.
    static let longestWait = Duration.seconds(100 * 365 * 24 * 3600)

    /// `seconds` as a duration, with NaN, negative and huge values clamped to 0…``longestWait``.
    static func saturatingSeconds(_ seconds: Double) -> Duration {
        guard seconds.isFinite, seconds > 0 else { return seconds == .infinity ? longestWait : .zero }
        return seconds >= longestWait.seconds ? longestWait : .seconds(seconds)
    }

    /// The duration in seconds, as a `Double`.
    var seconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }

    /// The duration in whole milliseconds.
    var milliseconds: Int64 {
        let parts = components
        return parts.seconds * 1_000 + parts.attoseconds / 1_000_000_000_000_000
    }
}
