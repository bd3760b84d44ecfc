/// A problem found while loading a stub file, located like a compiler diagnostic so that editors
/// make it clickable: `mappings/users.json:12:7: error: $.request.method: …`.
public struct StubFileDiagnostic: Error, Sendable, Hashable, CustomStringConvertible {
    /// How serious a problem is.
    public enum Severity: String, Sendable, Hashable {
        /// The file, or the stub at the JSON path, cannot be loaded.
        case error
        /// The file loads, but something in it is ignored or surprising.
        case warning
    }

    /// How serious the problem is.
    public let severity: Severity
    /// The file's path, as given to the loader.
    public let path: String
    /// The line (1-based), when known.
    public let line: Int?
    /// The column (1-based), when known.
    public let column: Int?
    /// The JSON path of the offending value (`$.request.method`), when there is one.
    public let jsonPath: String?
    /// What is wrong and how to fix it.
    public let message: String

    /// Creates a diagnostic.
    public init(severity: Severity, path: String, line: Int? = nil, column: Int? = nil, jsonPath: String? = nil, message: String) {
        self.severity = severity
        self.path = path
        self.line = line
        self.column = column
        self.jsonPath = jsonPath
        self.message = message
    }

    /// `path:line:column: error: $.json.path: message`.
    public var description: String {
        var location = path
        if let line {
            location += ":\(line)"
            if let column { location += ":\(column)" }
        }
        let place = jsonPath.map { "\($0): " } ?? ""
        return "\(location): \(severity.rawValue): \(place)\(message)"
    }
}

/// Stub files that could not be loaded: every error (and warning) found, in file order.
public struct StubFileError: Error, Sendable, CustomStringConvertible {
    /// The diagnostics, errors and warnings alike.
    public let diagnostics: [StubFileDiagnostic]

    /// One diagnostic per line.
    public var description: String {
        diagnostics.map(\.description).joined(separator: "\n")
    }
}
