import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import HTTPStubs

/// Secrets in form bodies and in the HAR export never reach disk by default.
extension RecordingTests {
    @Test("form-encoded request and response bodies are written with their secret fields redacted, and replay for any secret")
    func formBodiesAreRedacted() async throws {
        let root = try RecordingRoot()
        defer { root.remove() }
        let server = try RecordingServer.start()
        defer { server.stop() }
        let recorder = StubRegistry()
        let issues = RecordingIssues(recorder)
        try recorder.replay(root.path, mode: .once, redaction: .default.adding(formFields: ["Device_ID"]))
        let session = recorder.makeSession()
        let form = "grant_type=refresh_token&refresh_token=r3fr3sh-s3cr3t&client_id=app&client_secret=cl13nt-s3cr3t&device_id=d3v1c3&scope=read+write"
        let live = try Answer(await complete(session, server.request("POST", "/echo", form: form)))
        #expect(live.status == 201 && live.body == .bytes(Data(form.utf8)), "the client gets the real answer, unredacted: \(live)")
        #expect(live.headers["content-type"] == "application/x-www-form-urlencoded")

        // Read every byte written.
        let written = root.allText()
        for secret in ["r3fr3sh-s3cr3t", "cl13nt-s3cr3t", "d3v1c3"] {
            #expect(!written.contains(secret), "\(secret) reached disk:\n\(written)")
        }
        let mapping = try root.mapping(prefix: "post-echo-")
        let request = mapping.objectValue?["request"]?.objectValue
        #expect(request?["formParameters"] == [
            "grant_type": ["equalTo": "refresh_token"],
            "refresh_token": ["matches": ".*"],
            "client_id": ["equalTo": "app"],
            "client_secret": ["matches": ".*"],
            "device_id": ["matches": ".*"],
            "scope": ["equalTo": "read write"],
        ])
        #expect(request?["bodyPatterns"] == nil, "the redacted body is matched field by field, not whole")
        let redactedForm = "grant_type=refresh_token&refresh_token=REDACTED&client_id=app&client_secret=REDACTED&device_id=REDACTED&scope=read+write"
        #expect(try root.text("__files/\(try #require(mapping.bodyFileName))") == redactedForm)
        server.stop()

        let replayer = StubRegistry()
        try replayer.replay(root.path)
        let replaySession = replayer.makeSession()
        let otherSecrets = "grant_type=refresh_token&refresh_token=other&client_id=app&client_secret=other&device_id=other&scope=read+write"
        let replayed = try Answer(await complete(replaySession, server.request("POST", "/echo", form: otherSecrets)))
        #expect(replayed.status == 201 && replayed.body == .bytes(Data(redactedForm.utf8)), "\(replayed)")
        #expect(replayed.headers["content-type"] == "application/x-www-form-urlencoded")
        // What is not secret still has to match.
        let otherClient = "grant_type=refresh_token&refresh_token=x&client_id=other-app&client_secret=y&device_id=z&scope=read+write"
        #expect(await complete(replaySession, server.request("POST", "/echo", form: otherClient)).urlError?.code == .resourceUnavailable)
        #expect(issues.all.isEmpty, "\(issues.all)")
    }

    @Test("a form body that carries no secret is recorded whole with equalTo")
    func formBodyWithoutSecrets() async throws {
        let root = try RecordingRoot()
        defer { root.remove() }
        let server = try RecordingServer.start()
        defer { server.stop() }
        let recorder = StubRegistry()
        try recorder.replay(root.path, mode: .once)
        let form = "q=swift+testing&page=2"
        #expect(await complete(recorder.makeSession(), server.request("POST", "/echo", form: form)).status == 201)
        let request = try root.mapping(prefix: "post-echo-").objectValue?["request"]?.objectValue
        #expect(request?["bodyPatterns"] == [["equalTo": .string(form)]])
        #expect(request?["formParameters"] == nil)
    }
}
