/// What loading stub files produced: the stubs, in load order, and every diagnostic.
public struct StubFileLoad: Sendable {
    /// The stubs, in the order they were loaded (files in lexicographic path order).
    public let stubs: [Stub]
    /// Every problem found, errors and warnings, in file order.
    public let diagnostics: [StubFileDiagnostic]
    /// The files that were read.
    public let files: [String]

    /// The diagnostics that are errors.
    public var errors: [StubFileDiagnostic] { diagnostics.filter { $0.severity == .error } }

    /// The diagnostics that are warnings.
    public var warnings: [StubFileDiagnostic] { diagnostics.filter { $0.severity == .warning } }
}
