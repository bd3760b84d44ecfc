import Foundation

extension StubRegistry {
    /// Replays the stub root at `root` and, in a recording mode, records what its stubs do not
    /// answer from the real server into it, as WireMock mappings + `__files/` (the format
    /// ``load(_:)-(String...)`` reads, so recorded and hand-written stubs are one format).
    ///
    /// ```swift
    /// let stubs = StubRegistry()
    /// try stubs.replay("Fixtures/GitHub", relativeTo: #filePath, mode: .once)
    /// // first run: every request reaches api.github.com and is recorded;
    /// // later runs: replayed, and anything new fails with the variable to set to record it.
    /// ```
    ///
    /// | mode | loads `root` | unmatched requests |
    /// |---|---|---|
    /// | `none` | if it exists | fail |
    /// | `once` | if it exists | are recorded only when `root` did not exist |
    /// | `newEpisodes` | if it exists | are recorded |
    /// | `all` | no | every request is recorded; files are overwritten |
    ///
    /// The environment variable `HTTPSTUBS_RECORD` overrides `mode` (see ``RecordMode``), and the
    /// unmatched-request report names it. Secrets are redacted as `redaction` says before anything
    /// is written.
    /// - Returns: The mode in effect.
    @discardableResult
    public func replay(
        _ root: String,
        relativeTo file: StaticString? = nil,
        mode: RecordMode = .none,
        redaction: Redaction = .default
    ) throws -> RecordMode {
        let path = file.map { URL(fileURLWithPath: "\($0)").deletingLastPathComponent().appendingPathComponent(root).path } ?? root
        let resolved = try mode.resolved()
        let exists = FileManager.default.fileExists(atPath: path)
        if exists && resolved != .all {
            try load(path)
        }
        let records = resolved == .newEpisodes || resolved == .all || (resolved == .once && !exists)
        let recorder = records ? StubRecorder(root: URL(fileURLWithPath: path), redaction: redaction, overwrites: resolved == .all) : nil
        setRecording(recorder, replayRoot: path)
        return resolved
    }
}
