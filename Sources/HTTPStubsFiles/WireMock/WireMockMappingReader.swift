import Foundation
import HTTPStubs
import HTTPStubsLanguages

/// Reads WireMock stub mapping files (one mapping, or `{"mappings": [ … ]}`) as WireMock does:
/// integers may be written as strings, as Jackson reads them, and date-time operators read "now"
/// from ``wallClock``. The reading itself is in the `WireMock*.swift` extensions of this type.
final class WireMockMappingReader: StubFileReader {
    /// Where date-time operators read "now" (`"before": "now +3 days"`); tests fix it.
    let wallClock: WallClock

    /// Which stubs render their responses as templates.
    let templating: StubTemplating

    /// A reader of the mapping file at `path`, parsed as `document`.
    init(path: String, document: JSONDocument, wallClock: WallClock = .system, templating: StubTemplating = .perStub) {
        self.wallClock = wallClock
        self.templating = templating
        super.init(path: path, document: document)
    }

    /// Jackson reads `"201"` as 201.
    override var readsIntegerStrings: Bool { true }
}
