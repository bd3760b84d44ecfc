/// A syntax error in a JSON document, located like a compiler diagnostic.
package struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The 1-based line of the problem.
    package let line: Int
    /// The 1-based column of the problem, counted in Unicode scalars.
    package let column: Int
    /// The 0-based byte offset of the problem in the input.
    package let offset: Int
    /// What is wrong and, where possible, how to fix it.
    package let message: String
    /// The JSON path of the value being read when the problem was found (`$.response.headers`),
    /// or `nil` for the document itself.
    package let jsonPath: String?

    /// Creates an error.
    package init(message: String, line: Int, column: Int, offset: Int, jsonPath: String? = nil) {
        self.message = message
        self.line = line
        self.column = column
        self.offset = offset
        self.jsonPath = jsonPath
    }

    /// The same error, placed at `path` (the document itself when `path` is the root).
    func placed(at path: JSONPath) -> JSONParseError {
        JSONParseError(
            message: message,
            line: line,
            column: column,
            offset: offset,
            jsonPath: path.components.isEmpty ? nil : path.description
        )
    }

    /// The error as `line:column: message`, ready to be prefixed with a file path.
    package var description: String {
        "\(line):\(column): \(message)"
    }
}
