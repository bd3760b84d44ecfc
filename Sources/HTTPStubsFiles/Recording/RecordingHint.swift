import Foundation
import HTTPStubs

/// What the near-miss report tells about recording, for a registry that replays a stub root.
enum RecordingHint {
    /// The hint for a request the stub root at `replayRoot` has no answer for: where it was
    /// not recorded, and the `HTTPSTUBS_RECORD` values that record it.
    static func unrecorded(replayRoot root: String) -> String {
        let variable = RecordMode.environmentVariable
        let record =
            "run the tests with \(variable)=\(RecordMode.newEpisodes.rawValue) "
            + "(or \(variable)=\(RecordMode.all.rawValue) to record everything again)."
        guard FileManager.default.fileExists(atPath: root) else {
            return "It was not recorded: the stub root \(root) does not exist. If it was recorded elsewhere, "
                + "check it in; to record it from the real server, \(record)"
        }
        return "It was not recorded in \(root). To record it from the real server, \(record)"
    }
}
