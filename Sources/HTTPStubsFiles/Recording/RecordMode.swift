import Foundation
import HTTPStubs

/// When requests that no stub answers are sent to the real server and recorded into stub files.
///
/// Chosen in code, and overridable without editing code by the environment variable
/// `HTTPSTUBS_RECORD` (`none`, `once`, `new_episodes` or `all`), so a developer can re-record with
/// `HTTPSTUBS_RECORD=all swift test`.
public enum RecordMode: String, Sendable, CaseIterable {
    /// Never record: requests no stub answers fail. What continuous integration should use.
    case none
    /// Record when the stub root does not exist yet; otherwise replay only.
    case once
    /// Replay what matches, record what does not.
    case newEpisodes = "new_episodes"
    /// Re-record everything: existing files are not loaded, and are overwritten.
    case all

    /// The environment variable that overrides the mode chosen in code.
    public static let environmentVariable = "HTTPSTUBS_RECORD"

    /// The mode in effect: the environment variable's when it is set to a valid mode, else `self`.
    /// - Throws: ``RecordModeError`` when the variable is set to something else.
    package func resolved(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(RecordModeError) -> RecordMode {
        guard let value = environment[Self.environmentVariable], !value.isEmpty else { return self }
        guard let mode = RecordMode(rawValue: value.lowercased()) else { throw RecordModeError(value: value) }
        return mode
    }
}

/// `HTTPSTUBS_RECORD` holds a value that is not a mode.
package struct RecordModeError: Error, CustomStringConvertible {
    /// The value found.
    package let value: String

    /// What is wrong and how to fix it.
    package var description: String {
        "\(RecordMode.environmentVariable)=\(value) is not a record mode; "
            + "use one of \(RecordMode.allCases.map(\.rawValue).joined(separator: ", "))"
    }
}
