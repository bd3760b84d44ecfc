import Foundation

/// Where a command writes and reads: the process's standard streams, or buffers in tests.
public protocol CommandIO {
    /// Writes to standard output.
    mutating func out(_ text: String)
    /// Writes to standard error.
    mutating func err(_ text: String)
    /// Reads all of standard input.
    mutating func readInput() -> Data
}

/// The process's standard output, error and input.
public struct StandardStreams: CommandIO {
    /// Creates the streams.
    public init() {}

    /// Writes to standard output.
    public mutating func out(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    /// Writes to standard error.
    public mutating func err(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// Reads all of standard input.
    public mutating func readInput() -> Data {
        FileHandle.standardInput.readDataToEndOfFile()
    }
}
