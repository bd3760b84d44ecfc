/// A problem with a stub that the registry noticed, such as a regular expression that does not
/// compile. Such a stub never matches the part that is broken.
public struct StubIssue: Sendable, CustomStringConvertible {
    /// What is wrong and how to fix it.
    public let message: String
    /// Where the stub was written.
    public let source: StubSource

    /// `File.swift:12:5: warning: …`, the compiler's format, which editors make clickable.
    public var description: String { "\(source): warning: \(message)" }
}
