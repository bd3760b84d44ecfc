import Foundation
import HTTPStubs
import HTTPStubsFiles
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Secrets in form bodies and in the HAR export never reach disk by default.
extension RecordingTests {
    @Test(
        "form-encoded request and response bodies are written with their secret fields redacted, and replay for any secret"
    )
    func formBodiesAreRedacted() async throws {
        try await withRecordingFixture { root, server in
            let issues = DiagnosticLog()
            let recorder = try root.recorder(
                .once,
                redaction: .default.adding(formFields: ["Device_ID"]),
                reporting: issues
            )
            let session = recorder.makeSession()
            let form =
                "grant_type=refresh_token&refresh_token=r3fr3sh-s3cr3t&client_id=app&client_secret=cl13nt-s3cr3t&device_id=d3v1c3&scope=read+write"
            let live = try Answer(await complete(session, server.request("POST", "/echo", form: form)))
            #expect(
                live.status == 201 && live.body == .bytes(Data(form.utf8)),
                "the client gets the real answer, unredacted: \(live)"
            )
            #expect(live.headers["content-type"] == "application/x-www-form-urlencoded")
            // A body without a Content-Type, which URLSession sends as a form.
            let undeclared = server.request(
                "POST",
                "/echo?kind=undeclared",
                body: Data("user=ada&password=und3cl4r3d".utf8),
                contentType: nil
            )
            #expect(await complete(session, undeclared).status == 201)

            // Read every byte written.
            let written = root.allText()
            for secret in ["r3fr3sh-s3cr3t", "cl13nt-s3cr3t", "d3v1c3", "und3cl4r3d"] {
                #expect(!written.contains(secret), "\(secret) reached disk:\n\(written)")
            }
            let mapping = try root.mapping(prefix: "post-echo-", containing: "refresh_token")
            let request = mapping.objectValue?["request"]?.objectValue
            #expect(
                request?["formParameters"] == [
                    "grant_type": ["equalTo": "refresh_token"],
                    "refresh_token": ["matches": ".*"],
                    "client_id": ["equalTo": "app"],
                    "client_secret": ["matches": ".*"],
                    "device_id": ["matches": ".*"],
                    "scope": ["equalTo": "read write"],
                ]
            )
            #expect(request?["bodyPatterns"] == nil, "the redacted body is matched field by field, not whole")
            let undeclaredRequest = try root.mapping(prefix: "post-echo-", containing: "undeclared").objectValue?[
                "request"
            ]?.objectValue
            #expect(
                undeclaredRequest?["formParameters"] == ["user": ["equalTo": "ada"], "password": ["matches": ".*"]]
            )
            let redactedForm =
                "grant_type=refresh_token&refresh_token=REDACTED&client_id=app&client_secret=REDACTED&device_id=REDACTED&scope=read+write"
            #expect(try root.text("__files/\(try #require(mapping.bodyFileName))") == redactedForm)
            server.stop()

            let replayer = try root.replayer()
            let replaySession = replayer.makeSession()
            let otherSecrets =
                "grant_type=refresh_token&refresh_token=other&client_id=app&client_secret=other&device_id=other&scope=read+write"
            let replayed = try Answer(
                await complete(replaySession, server.request("POST", "/echo", form: otherSecrets))
            )
            #expect(replayed.status == 201 && replayed.body == .bytes(Data(redactedForm.utf8)), "\(replayed)")
            #expect(replayed.headers["content-type"] == "application/x-www-form-urlencoded")
            // What is not secret still has to match.
            let otherClient =
                "grant_type=refresh_token&refresh_token=x&client_id=other-app&client_secret=y&device_id=z&scope=read+write"
            #expect(
                await complete(replaySession, server.request("POST", "/echo", form: otherClient)).urlError?.code
                    == .resourceUnavailable
            )
            #expect(issues.all.isEmpty, "\(issues.all)")
        }
    }

    @Test("a form body that carries no secret is recorded whole with equalTo")
    func formBodyWithoutSecrets() async throws {
        try await withRecordingFixture { root, server in
            let recorder = try root.recorder(.once)
            let form = "q=swift+testing&page=2"
            #expect(await complete(recorder.makeSession(), server.request("POST", "/echo", form: form)).status == 201)
            let request = try root.mapping(prefix: "post-echo-").objectValue?["request"]?.objectValue
            #expect(request?["bodyPatterns"] == [["equalTo": .string(form)]])
            #expect(request?["formParameters"] == nil)
        }
    }

    @Test(
        "journalAsHAR() redacts what recording redacts: headers, query parameters, JSON members and form fields; .none keeps them"
    )
    func harExportIsRedacted() async throws {
        try await withRecordingFixture { root, server in
            let recorder = try root.recorder(.once)
            let session = recorder.makeSession()
            let requests = [
                server.request(
                    "GET",
                    "/users/1",
                    headers: ["Authorization": "Bearer b34r3r-s3cr3t", "Cookie": "session=c00k13-s3cr3t"]
                ),
                server.request("GET", "/search?q=swift&token=qu3ry-s3cr3t"),
                server.request("POST", "/echo", json: #"{"user":"ada","password":"js0n-s3cr3t"}"#),
                server.request("POST", "/echo", form: "user=ada&password=f0rm-s3cr3t"),
            ]
            for request in requests {
                #expect(await complete(session, request).error == nil)
            }
            // The server's own secrets: the users/1 body's token and its Set-Cookie.
            let secrets = [
                "b34r3r-s3cr3t", "c00k13-s3cr3t", "qu3ry-s3cr3t", "js0n-s3cr3t", "f0rm-s3cr3t", "s3cr3t-token",
                "abc123",
            ]

            let harFile = root.folder.appendingPathComponent("journal.har")
            try recorder.journalAsHAR().write(to: harFile)
            let text = try String(contentsOf: harFile, encoding: .utf8)
            for secret in secrets {
                #expect(!text.contains(secret), "\(secret) reached the HAR file")
            }
            let entries = try #require(
                JSONValue(parsing: text).objectValue?["log"]?.objectValue?["entries"]?.arrayValue
            )
            try #require(entries.count == requests.count)
            func header(_ name: String, in message: JSONValue?) -> String? {
                message?.objectValue?["headers"]?.arrayValue?
                    .first { $0.objectValue?["name"]?.stringValue?.lowercased() == name }?
                    .objectValue?["value"]?.stringValue
            }
            func content(_ entry: JSONValue) -> String? {
                entry.objectValue?["response"]?.objectValue?["content"]?.objectValue?["text"]?.stringValue
            }
            func postData(_ entry: JSONValue) -> String? {
                entry.objectValue?["request"]?.objectValue?["postData"]?.objectValue?["text"]?.stringValue
            }
            let users = entries[0].objectValue
            #expect(header("authorization", in: users?["request"]) == "REDACTED")
            #expect(header("cookie", in: users?["request"]) == "REDACTED")
            #expect(header("set-cookie", in: users?["response"]) == "REDACTED")
            #expect(
                try content(entries[0]).map { try JSONValue(parsing: $0) } == [
                    "id": 1, "name": "Ada", "token": "REDACTED",
                ]
            )
            let search = entries[1].objectValue?["request"]?.objectValue
            #expect(search?["url"]?.stringValue == "\(server.base)/search?q=swift&token=REDACTED")
            #expect(
                search?["queryString"] == [["name": "q", "value": "swift"], ["name": "token", "value": "REDACTED"]]
            )
            #expect(
                try postData(entries[2]).map { try JSONValue(parsing: $0) } == ["user": "ada", "password": "REDACTED"]
            )
            #expect(
                try content(entries[2]).map { try JSONValue(parsing: $0) } == ["user": "ada", "password": "REDACTED"]
            )
            #expect(postData(entries[3]) == "user=ada&password=REDACTED")
            #expect(content(entries[3]) == "user=ada&password=REDACTED")
            let loaded = StubFiles.load([harFile.path])
            #expect(loaded.errors.isEmpty && loaded.stubs.count == requests.count, "\(loaded.errors)")

            // Opting out is explicit, and then everything is kept.
            let unredacted = String(decoding: recorder.journalAsHAR(redaction: .none), as: UTF8.self)
            for secret in secrets {
                #expect(unredacted.contains(secret), "\(secret) was redacted")
            }
            #expect(!unredacted.contains("REDACTED"))
        }
    }
}
