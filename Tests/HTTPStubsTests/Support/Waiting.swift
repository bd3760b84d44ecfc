import Foundation
import Testing

/// How long a test waits for something that must happen before calling it a hang, in seconds.
///
/// Generous on purpose: under the thread sanitizer on a 2-core CI machine a parallel run can stall
/// for several seconds, and a passing test never waits this long. Nothing that uses it is a timing
/// assertion; it only turns a hang into a failure.
let patience: Double = 60

/// Waits until `condition` holds, checking every millisecond; after ``patience`` it fails the test
/// at the caller's line and throws, rather than hanging.
func waitUntil(
    _ condition: () -> Bool,
    sourceLocation: SourceLocation = #_sourceLocation
) async throws {
    let deadline = ContinuousClock.now + .seconds(patience)
    while !condition() {
        try #require(
            ContinuousClock.now < deadline,
            "the condition did not hold within \(Int(patience)) s",
            sourceLocation: sourceLocation
        )
        try await Task.sleep(for: .milliseconds(1))
    }
}

/// Runs `operation`, and gives up waiting for it after `seconds` (it keeps running): `nil` then.
func within<T: Sendable>(
    _ seconds: Double = patience,
    _ operation: @escaping @Sendable () async -> T
) async -> T? {
    let outcome = OneShot<T>()
    Task { outcome.fulfill(await operation()) }
    return await outcome.value(within: seconds)
}
