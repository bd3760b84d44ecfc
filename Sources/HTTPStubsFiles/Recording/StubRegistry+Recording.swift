import Foundation
import HTTPStubs

extension StubRegistry {
    /// Replays the stub root at `root` and, in a recording mode, records what its stubs do not
    /// answer from the real server into it, as WireMock mappings + `__files/` (the format
    /// ``load(_:templating:)-(String...,StubTemplating)`` reads, so recorded and hand-written stubs are one format).
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
    /// A relative `root` is found in the folder of `file` (pass `#filePath`), or in the current
    /// directory without `file`; an absolute `root` is used as it is.
    ///
    /// The environment variable `HTTPSTUBS_RECORD` overrides `mode` (see ``RecordMode``), and the
    /// unmatched-request report names it. Secrets are redacted as `redaction` says before anything
    /// is written.
    /// - Returns: The mode in effect.
    /// - Throws: `StubFileError` when the stub root does not load, or when `HTTPSTUBS_RECORD` holds
    ///   a value that is not a mode (the diagnostic names the variable and the valid values).
    @discardableResult
    public func replay(
        _ root: String,
        relativeTo file: StaticString? = nil,
        mode: RecordMode = .none,
        redaction: Redaction = .default
    ) throws(StubFileError) -> RecordMode {
        let path = StubRootPath.resolving(root, relativeTo: file)
        let resolved: RecordMode
        do {
            resolved = try mode.resolved()
        } catch {
            throw StubFileError(diagnostics: [StubDiagnostic(severity: .error, path: path, message: error.description)])
        }
        let exists = FileManager.default.fileExists(atPath: path)
        if exists && resolved != .all {
            try load(path)
        }
        let records = resolved == .newEpisodes || resolved == .all || (resolved == .once && !exists)
        let recorder =
            records
            ? StubRecorder(root: URL(fileURLWithPath: path), redaction: redaction, overwrites: resolved == .all) : nil
        setRecording(recorder, hint: { RecordingHint.unrecorded(replayRoot: path) })
        return resolved
    }
}
