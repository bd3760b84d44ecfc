import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a command writes and reads: the process's standard streams, or buffers in tests.
package protocol CommandIO {
    /// Writes to standard output; the text is passed on at once, not buffered.
    mutating func out(_ text: String)
    /// Writes to standard error.
    mutating func err(_ text: String)
    /// The next bytes of standard input, at most `maximumCount`, as soon as any are available;
    /// empty at the end of the input, `nil` when it cannot be read.
    mutating func readInput(upTo maximumCount: Int) -> Data?
}

/// The process's standard output, error and input.
package struct StandardStreams: CommandIO {
    /// Creates the streams.
    package init() {}

    /// Writes to standard output (one `write(2)`, so each answer leaves at once).
    package mutating func out(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    /// Writes to standard error.
    package mutating func err(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// The next bytes of standard input, with one `read(2)`.
    package mutating func readInput(upTo maximumCount: Int) -> Data? {
        readChunk(fileDescriptor: STDIN_FILENO, upTo: maximumCount)
    }
}

/// The next bytes of `fileDescriptor`, at most `maximumCount`, from one `read(2)` (retried when a
/// signal interrupts it): what is available now, without waiting for more. Empty at the end of
/// the input, `nil` on a read error (`errno` then says which).
func readChunk(fileDescriptor: Int32, upTo maximumCount: Int) -> Data? {
    var buffer = [UInt8](repeating: 0, count: maximumCount)
    while true {
        let count = buffer.withUnsafeMutableBytes { read(fileDescriptor, $0.baseAddress, maximumCount) }
        if count >= 0 { return Data(buffer[..<count]) }
        if errno != EINTR { return nil }
    }
}
