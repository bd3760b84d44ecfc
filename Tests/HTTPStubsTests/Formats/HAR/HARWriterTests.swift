import Foundation
import Testing

@testable import HTTPStubs
@testable import HTTPStubsFiles
@testable import HTTPStubsLanguages
@testable import HTTPStubsTemplates

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The journal's HAR export is written from the HAR model that the HAR reader reads into, so what
/// is written reads back as the same exchanges.
@Suite("HAR writer")
struct HARWriterTests {
    @Test("journalAsHAR reads back into the model it was written from: requests, bodies, responses, failures")
    func roundTrip() async throws {
        let stubs = StubRegistry()
        let answer = StubResponse.json(text: #"{"id": 7}"#, status: 201).header("X-Trace", "abc")
        stubs.stub(.post("https://api.example.com/items"), answer)
        let session = stubs.makeSession()
        var create = URLRequest(url: URL(string: "https://api.example.com/items?page=2")!)
        create.httpMethod = "POST"
        create.setValue("application/json", forHTTPHeaderField: "Content-Type")
        create.httpBody = Data(#"{"name":"pen"}"#.utf8)
        _ = try await session.data(for: create)
        _ = try? await session.data(from: URL(string: "https://api.example.com/missing")!)

        let har = stubs.journalAsHAR(redaction: .none)
        let reader = StubFileReader(path: "journal.har", document: try JSONValue.parseDocument(har))
        let requests = HARReader(file: reader).recording()
        #expect(reader.diagnostics.isEmpty, "\(reader.diagnostics)")
        try #require(requests.count == 2)

        let created = requests[0].exchanges[0]
        #expect(created.entryIndex == 0)
        #expect(created.request.stubRequest.method == .post)
        #expect(created.request.stubRequest.url.absoluteString == "https://api.example.com/items?page=2")
        #expect(created.request.stubRequest.queryParameters.map(\.value) == ["2"])
        #expect(created.request.body?.key == .json(["name": "pen"]))
        guard case let .response(response) = created.outcome else {
            Issue.record("expected a response, got \(created.outcome)")
            return
        }
        #expect(response.status == 201)
        #expect(response.headers["X-Trace"] == "abc")
        #expect(try JSONValue(parsing: String(decoding: response.body, as: UTF8.self)) == ["id": 7])

        let missing = requests[1].exchanges[0]
        #expect(missing.request.stubRequest.url.path == "/missing")
        guard case let .failure(errorName) = missing.outcome else {
            Issue.record("expected a failure, got \(missing.outcome)")
            return
        }
        #expect(errorName == "no stub answered the request")
    }

    @Test("a body recorded from a live request keeps its exact bytes, text or not")
    func recordedBody() {
        let text = Data("héllo".utf8)
        #expect(HARBody(recorded: text).data == text)
        #expect(HARBody(recorded: text).key == .text("héllo"))
        let bytes = Data([0xFF, 0x00, 0xC3])
        #expect(HARBody(recorded: bytes).data == bytes)
        #expect(HARBody(recorded: bytes).key == .bytes(bytes))
    }
}
