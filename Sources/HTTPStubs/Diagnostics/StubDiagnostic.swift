/// A problem with a stub, located like a compiler diagnostic so that editors make it clickable:
/// `mappings/users.json:12:7: error: $.request.method: …` for a stub file,
/// `UserTests.swift:31:9: warning: …` for a stub written in code.
///
/// Loading stub files throws the errors as a ``StubFileError``; everything else (warnings while
/// loading, a regular expression in code that does not compile, a stub used in a way the platform
/// cannot honour) reaches the handler set with ``StubRegistry/onDiagnostic(_:)``, which by default
/// prints it and, under HTTPStubsTesting, records it as a test failure at ``source``.
public struct StubDiagnostic: Error, Sendable, Hashable, CustomStringConvertible {
    /// How serious a problem is.
    public enum Severity: String, Sendable, Hashable {
        /// The file, or the stub at the JSON path, cannot be loaded.
        case error
        /// The stub loads, but a part of it is ignored or never matches.
        case warning
    }

    /// How serious the problem is.
    public let severity: Severity
    /// Where it is: the stub file's path with the line and column when known, or the
    /// `#fileID`, line and column of the code that declared the stub.
    public let source: StubSource
    /// The JSON path of the offending value in a stub file (`$.request.method`), when there is one.
    public let jsonPath: String?
    /// What is wrong and how to fix it.
    public let message: String
    /// Whether the stub is loaded all the same (an error that fails only the requests it answers,
    /// as WireMock loads a mapping whose body file is missing).
    package let stubLoadsAnyway: Bool

    package init(
        severity: Severity,
        source: StubSource,
        jsonPath: String? = nil,
        message: String,
        stubLoadsAnyway: Bool = false
    ) {
        self.severity = severity
        self.source = source
        self.jsonPath = jsonPath
        self.message = message
        self.stubLoadsAnyway = stubLoadsAnyway
    }

    /// A problem in the stub file at `path`.
    package init(
        severity: Severity,
        path: String,
        line: Int? = nil,
        column: Int? = nil,
        jsonPath: String? = nil,
        message: String,
        stubLoadsAnyway: Bool = false
    ) {
        self.init(
            severity: severity,
            source: .file(path, line: line, column: column),
            jsonPath: jsonPath,
            message: message,
            stubLoadsAnyway: stubLoadsAnyway
        )
    }

    /// `source: severity: $.json.path: message`, the compiler's format.
    public var description: String {
        let place = jsonPath.map { "\($0): " } ?? ""
        return "\(source): \(severity.rawValue): \(place)\(message)"
    }
}

/// Stub files that could not be loaded: every error (and warning) found, in file order.
public struct StubFileError: Error, Sendable, CustomStringConvertible {
    /// The diagnostics, errors and warnings alike.
    public let diagnostics: [StubDiagnostic]

    /// One diagnostic per line.
    public var description: String {
        diagnostics.map(\.description).joined(separator: "\n")
    }

    package init(
        diagnostics: [StubDiagnostic]
    ) {
        self.diagnostics = diagnostics
    }
}
