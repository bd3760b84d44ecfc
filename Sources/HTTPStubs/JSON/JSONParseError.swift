/// A syntax error in a JSON document, located like a compiler diagnostic.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The 1-based line of the problem.
    public let line: Int
    /// The 1-based column of the problem, counted in Unicode scalars.
    public let column: Int
    /// The 0-based byte offset of the problem in the input.
    public let offset: Int
    /// What is wrong and, where possible, how to fix it.
    public let message: String

    /// Creates an error.
    public init(message: String, line: Int, column: Int, offset: Int) {
        self.message = message
        self.line = line
        self.column = column
        self.offset = offset
    }

    /// The error as `line:column: message`, ready to be prefixed with a file path.
    public var description: String {
        "\(line):\(column): \(message)"
    }
}
