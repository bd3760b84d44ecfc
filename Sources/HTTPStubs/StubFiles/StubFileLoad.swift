/// What loading stub files produced: the stubs, in load order, and every diagnostic.
package struct StubFileLoad: Sendable {
    /// The stubs, in the order they were loaded (files in lexicographic path order).
    package let stubs: [Stub]
    /// Every problem found, errors and warnings, in file order.
    package let diagnostics: [StubDiagnostic]
    /// The files that were read.
    package let files: [String]

    /// The diagnostics that are errors.
    package var errors: [StubDiagnostic] { diagnostics.filter { $0.severity == .error } }

    /// The diagnostics that are warnings.
    package var warnings: [StubDiagnostic] { diagnostics.filter { $0.severity == .warning } }
}
