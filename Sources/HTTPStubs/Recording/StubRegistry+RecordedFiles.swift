import Foundation

extension StubRegistry {
    /// The stub files the registry's recording wrote (mappings and `__files/` bodies), sorted, each
    /// as its path in the stub root (`mappings/get-users-1-1a2b3c4d.json`) and its file URL; empty
    /// when it does not record (see HTTPStubsFiles' `replay(_:relativeTo:mode:redaction:)`). A failing recording
    /// test attaches them (HTTPStubsTesting's failure attachments).
    package var recordedFiles: [(path: String, url: URL)] {
        guard let recorder else { return [] }
        return recorder.writtenFiles.map { ($0, recorder.root.appendingPathComponent($0)) }
    }
}
