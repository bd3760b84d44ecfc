import HTTPStubs

/// What loading stub files produced: the stubs, in load order, and every diagnostic.
package struct StubFileLoad: Sendable {
    /// The stubs, in the order they were loaded (files in lexicographic path order).
    package let stubs: [Stub]
    /// Every problem found, errors and warnings, in file order.
    package let diagnostics: [StubDiagnostic]
    /// The files that were read.
    package let files: [String]

    /// The diagnostics that are errors, whether or not their stub loaded.
    package var errors: [StubDiagnostic] { diagnostics.filter { $0.severity == .error } }

    /// The errors that kept a file or a stub from loading.
    package var refusals: [StubDiagnostic] { errors.filter { !$0.stubLoadsAnyway } }

    /// The diagnostics that are warnings.
    package var warnings: [StubDiagnostic] { diagnostics.filter { $0.severity == .warning } }

    /// The diagnostics of stubs that loaded: warnings, and errors that fail only the requests
    /// their stub answers.
    package var reportedOnLoad: [StubDiagnostic] {
        diagnostics.filter { $0.severity == .warning || $0.stubLoadsAnyway }
    }
}
