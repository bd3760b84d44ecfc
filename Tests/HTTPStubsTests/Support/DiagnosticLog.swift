import HTTPStubs

/// The diagnostics a registry reports (instead of printing them), collected from any thread.
final class DiagnosticLog: Sendable {
    private let diagnostics = Collected<StubDiagnostic>()

    /// An empty log; hand ``append(_:)`` to a registry's `onDiagnostic`.
    init() {}

    /// Starts collecting `registry`'s diagnostics.
    convenience init(_ registry: StubRegistry) {
        self.init()
        registry.onDiagnostic { [self] diagnostic in append(diagnostic) }
    }

    /// Records a diagnostic.
    func append(_ diagnostic: StubDiagnostic) {
        diagnostics.append(diagnostic)
    }

    /// The diagnostics so far, in order.
    var all: [StubDiagnostic] { diagnostics.all }
}
