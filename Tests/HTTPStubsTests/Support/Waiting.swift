import Foundation
import Testing

/// How long a test waits for something that must happen before calling it a hang, in seconds: 60,
/// or the `HTTPSTUBS_PATIENCE` environment variable's number.
///
/// Generous on purpose: a passing test never waits this long. Nothing that uses it is a timing
/// assertion; it only turns a hang into a failure. `.ci/run` raises it for the thread-sanitizer
/// run: there the whole suite's work, several times slower, shares two cores from the first
/// second, and a test's request can wait behind a minute of other tests' work without any hang.
let patience: Double = ProcessInfo.processInfo.environment["HTTPSTUBS_PATIENCE"].flatMap(Double.init) ?? 60

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
