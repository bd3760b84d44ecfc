/// Where a stub was written: a line of Swift code, or an entry of a stub file.
public struct StubSource: Sendable, Hashable, CustomStringConvertible {
    /// The `#filePath` of the code that declared the stub, as XCTest's failure functions take it;
    /// `nil` for stubs from files.
    package let staticFilePath: StaticString?
    /// The `#fileID` of the code that declared the stub, or the path of the stub file.
    public let file: String
    /// The `#filePath` of the code that declared the stub (for test-failure reporting); the path of a stub file.
    public let filePath: String
    /// The line (1-based), or `nil` when unknown.
    public let line: Int?
    /// The column (1-based), or `nil` when unknown.
    public let column: Int?
    /// For a stub file holding several stubs, the stub's index in it.
    public let index: Int?

    /// The place in Swift code where a stub was declared.
    public static func code(fileID: StaticString, filePath: StaticString, line: UInt, column: UInt) -> StubSource {
        StubSource(
            staticFilePath: filePath,
            file: "\(fileID)",
            filePath: "\(filePath)",
            line: Int(line),
            column: Int(column),
            index: nil
        )
    }

    /// An entry of a stub file.
    public static func file(_ path: String, index: Int? = nil, line: Int? = nil, column: Int? = nil) -> StubSource {
        StubSource(staticFilePath: nil, file: path, filePath: path, line: line, column: column, index: index)
    }

    /// Two sources are equal when they name the same place.
    public static func == (lhs: StubSource, rhs: StubSource) -> Bool {
        (lhs.file, lhs.filePath, lhs.line, lhs.column, lhs.index) == (
            rhs.file, rhs.filePath, rhs.line, rhs.column, rhs.index
        )
    }

    /// Hashes the place.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(file)
        hasher.combine(filePath)
        hasher.combine(line)
        hasher.combine(column)
        hasher.combine(index)
    }

    /// `File.swift:12:5`, or `mappings/users.json[2]:20:5` (an entry's index, then its line and column).
    public var description: String {
        var text = file
        if let index { text += "[\(index)]" }
        if let line {
            text += ":\(line)"
            if let column { text += ":\(column)" }
        }
        return text
    }
}
