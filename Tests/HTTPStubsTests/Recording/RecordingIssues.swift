import Foundation
import HTTPStubs

/// The issues a registry reports (instead of printing them).
final class RecordingIssues: @unchecked Sendable {
    // Invariant: `issues` is only touched under `lock`.
    private let lock = NSLock()
    private var issues: [StubDiagnostic] = []

    /// Starts collecting `registry`'s issues.
    init(_ registry: StubRegistry) {
        registry.onDiagnostic { [self] issue in lock.withLock { issues.append(issue) } }
    }

    /// The issues reported so far.
    var all: [StubDiagnostic] { lock.withLock { issues } }
}
