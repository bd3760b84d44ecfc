import HTTPStubs

#if canImport(Testing)
import Testing
#endif

/// A place in a test's source, captured as four separate defaulted parameters at every entry point
/// (a defaulted struct parameter would capture the library's location, not the caller's).
public struct SourceCodeLocation: Sendable, CustomStringConvertible {
    /// The `#fileID`.
    public let fileID: String
    /// The `#filePath`.
    public let filePath: String
    /// The `#filePath`, as XCTest's failure functions need it.
    let staticFilePath: StaticString?
    /// The line (1-based).
    public let line: Int
    /// The column (1-based).
    public let column: Int

    /// The place of a call, from its `#fileID`, `#filePath`, `#line` and `#column`.
    public init(fileID: StaticString, filePath: StaticString, line: UInt, column: UInt) {
        self.fileID = "\(fileID)"
        self.filePath = "\(filePath)"
        self.staticFilePath = filePath
        self.line = Int(line)
        self.column = Int(column)
    }

    /// The place a stub was written, when it was written in code.
    init?(_ source: StubSource) {
        guard let line = source.line else { return nil }
        self.fileID = source.file
        self.filePath = source.filePath
        self.staticFilePath = source.staticFilePath
        self.line = line
        self.column = source.column ?? 1
    }

    #if canImport(Testing)
    /// The place Swift Testing knows a test by.
    init(_ location: SourceLocation) {
        self.fileID = location.fileID
        self.filePath = location.filePath
        self.staticFilePath = nil
        self.line = location.line
        self.column = location.column
    }

    /// The place as Swift Testing records issues and attachments at it.
    var testingSourceLocation: SourceLocation {
        SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    }
    #endif

    /// `Module/File.swift:12:5`.
    public var description: String { "\(fileID):\(line):\(column)" }
}
