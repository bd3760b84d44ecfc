import Foundation
import HTTPStubs
import HTTPStubsFiles

/// The set-up the recording tests share: a temporary stub root (``RecordingRoot``, its `stubs`
/// folder not created yet) and a ``RecordingServer`` to record from, given to `body`; the root is
/// removed and the server stopped when `body` returns or throws.
func withRecordingFixture<Result>(
    _ body: (_ root: RecordingRoot, _ server: RecordingServer) async throws -> Result
) async throws -> Result {
    let root = try RecordingRoot()
    defer { root.remove() }
    let server = try RecordingServer.start()
    defer { server.stop() }
    return try await body(root, server)
}

extension RecordingRoot {
    /// A registry recording into the root in `mode` (`HTTPSTUBS_RECORD` still overrides it), with
    /// `redaction`; its diagnostics go to `log` when given, from before the root is read.
    func recorder(
        _ mode: RecordMode = .once,
        redaction: Redaction = .default,
        reporting log: DiagnosticLog? = nil
    ) throws -> StubRegistry {
        let registry = StubRegistry()
        if let log { registry.onDiagnostic { log.append($0) } }
        try registry.replay(path, mode: mode, redaction: redaction)
        return registry
    }

    /// A registry replaying the root in the default mode (`none`: nothing reaches the server); its
    /// diagnostics go to `log` when given, from before the root is read.
    func replayer(reporting log: DiagnosticLog? = nil) throws -> StubRegistry {
        let registry = StubRegistry()
        if let log { registry.onDiagnostic { log.append($0) } }
        try registry.replay(path)
        return registry
    }
}
