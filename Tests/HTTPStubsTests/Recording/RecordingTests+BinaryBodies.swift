import Foundation
import HTTPStubs
import HTTPStubsFiles
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Request bodies that are not UTF-8 text are matched byte for byte, with `binaryEqualTo`.
extension RecordingTests {
    @Test(
        "two POSTs with different binary bodies to one URL record two mappings (binaryEqualTo), each replaying its own answer"
    )
    func binaryRequestBodies() async throws {
        try await withRecordingFixture { root, server in
            let issues = DiagnosticLog()
            let recorder = try root.recorder(.once, reporting: issues)
            let session = recorder.makeSession()
            // Neither is valid UTF-8 (0xFF, 0xFE, 0xC0 never occur in it).
            let first = Data([0x00, 0xFF, 0xFE, 0x01, 0x02])
            let second = Data([0x00, 0xFF, 0xFE, 0x01, 0xC0])
            let upload = { (body: Data) in
                server.request("POST", "/echo", body: body, contentType: "application/octet-stream")
            }
            for body in [first, second] {
                let live = await complete(session, upload(body))
                #expect(live.status == 201 && live.data == body, "the server echoes the bytes")
            }

            let names = root.mappingNames()
            #expect(names.count == 2 && names.allSatisfy { $0.hasPrefix("post-echo-") }, "\(names)")
            var patterns: Set<JSONValue> = []
            for name in names {
                let mapping = try JSONValue(parsing: root.text("mappings/\(name)"))
                #expect(mapping.objectValue?["scenarioName"] == nil, "\(name) is a scenario: the bodies were merged")
                if let bodyPatterns = mapping.objectValue?["request"]?.objectValue?["bodyPatterns"] {
                    patterns.insert(bodyPatterns)
                }
            }
            #expect(
                patterns == [
                    [["binaryEqualTo": .string(first.base64EncodedString())]],
                    [["binaryEqualTo": .string(second.base64EncodedString())]],
                ]
            )
            server.stop()

            let replayer = try root.replayer()
            let replaySession = replayer.makeSession()
            // In the other order, and each twice: a merged recording would answer in recorded order.
            for body in [second, first, second, first] {
                let replayed = await complete(replaySession, upload(body))
                #expect(
                    replayed.status == 201 && replayed.data == body,
                    "\(Array(body)) got \(replayed.data.map(Array.init) ?? [])"
                )
            }
            #expect(
                await complete(replaySession, upload(Data([0xFF, 0xFF]))).urlError?.code == .resourceUnavailable,
                "other bytes match no recording"
            )
            #expect(issues.all.isEmpty, "\(issues.all)")
        }
    }
}
