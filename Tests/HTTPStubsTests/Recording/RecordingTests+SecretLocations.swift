import Foundation
import HTTPStubs
import HTTPStubsFiles
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One place a secret can live in an exchange with the recording server's `POST /echo`, which
/// answers with the request's body and `Content-Type` and with the response headers asked for
/// (`X-Reply-<Name>`).
struct SecretLocation: Sendable, CustomTestStringConvertible {
    /// What the place is, as the test's name says it.
    let testDescription: String
    /// The path and query of the request.
    var path = "/echo"
    /// Request headers.
    var headers: [String: String] = [:]
    /// The request body, echoed back as the response body.
    var body: Data?
    /// The body's `Content-Type`.
    var contentType: String?
    /// Response headers the server is asked to send.
    var replyHeaders: [String: String] = [:]
    /// The secrets, each of which must be found nowhere.
    let secrets: [String]
    /// Text around the secrets that must still be written.
    var kept: [String] = []

    /// The request, to `server`, with every secret replaced by `replacing(secret)`.
    func request(to server: RecordingServer, replacing: (String) -> String = { $0 }) -> URLRequest {
        func swap(_ text: String) -> String {
            secrets.reduce(text) { $0.replacingOccurrences(of: $1, with: replacing($1)) }
        }
        var allHeaders = headers.mapValues(swap)
        for (name, value) in replyHeaders { allHeaders["X-Reply-\(name)"] = value }
        let swappedBody = body.map { body in
            secrets.reduce(body) { data, secret in
                guard let range = data.range(of: Data(secret.utf8)) else { return data }
                var data = data
                data.replaceSubrange(range, with: Data(replacing(secret).utf8))
                return data
            }
        }
        return server.request("POST", swap(path), body: swappedBody, contentType: contentType, headers: allHeaders)
    }

    /// A JWT (`{"alg":"HS256"}`, `{"sub":"<subject>"}`, a signature) for the tests.
    static func jwt(_ subject: String) -> String {
        func segment(_ text: String) -> String {
            Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        }
        return segment(#"{"alg":"HS256"}"#) + "." + segment(#"{"sub":"\#(subject)"}"#) + "." + segment("sig-\(subject)")
    }

    /// Every place the issues (#12, #39) found a secret written to disk or into a HAR export.
    static let all: [SecretLocation] = issue12 + issue39

    /// The places of issue 39: each a class of values the redaction did not reach.
    static let issue39: [SecretLocation] = [
        SecretLocation(
            testDescription: "a JWT as a path segment (and so in the mapping's file name)",
            path: "/echo/\(jwt("p4th-jwt"))/profile",
            secrets: [jwt("p4th-jwt")],
            kept: ["post-echo-redacted-profile-"]
        ),
        SecretLocation(
            testDescription: "a matrix parameter ;api_key=",
            path: "/echo;api_key=m4tr1x-k3y",
            secrets: ["m4tr1x-k3y"],
            kept: ["post-echo-api-key-redacted-"]
        ),
        SecretLocation(
            testDescription: "the query names PHPSESSID, jsessionid, access_key, appid and subscription-key",
            path:
                "/echo?PHPSESSID=php-s3ss&jsessionid=j-s3ss&access_key=4cc3ss-k3y&appid=4pp-1d-k3y&subscription-key=sub-k3y&page=2",
            secrets: ["php-s3ss", "j-s3ss", "4cc3ss-k3y", "4pp-1d-k3y", "sub-k3y"],
            kept: ["page"]
        ),
        SecretLocation(
            testDescription: "the header Ocp-Apim-Subscription-Key (HAR export)",
            headers: ["Ocp-Apim-Subscription-Key": "0cp-4p1m-k3y"],
            secrets: ["0cp-4p1m-k3y"]
        ),
        SecretLocation(
            testDescription: "URLs in Link and Refresh",
            replyHeaders: [
                "Link": "<https://api.example.com/items?page=2&access_token=l1nk-t0k3n>; rel=\"next\"",
                "Refresh": "0; url=https://app.example.com/next?token=r3fr3sh-url-t0k3n",
            ],
            secrets: ["l1nk-t0k3n", "r3fr3sh-url-t0k3n"],
            kept: ["https://api.example.com/items?page=2&access_token=REDACTED", "rel=\\\"next\\\""]
        ),
        SecretLocation(
            testDescription: "a JWT as a text/plain body",
            body: Data(jwt("pl41n-jwt").utf8),
            contentType: "text/plain",
            secrets: [jwt("pl41n-jwt")]
        ),
        SecretLocation(
            testDescription: "a JWT as a top-level JSON string",
            body: Data("\"\(jwt("t0p-jwt"))\"".utf8),
            contentType: "application/json",
            secrets: [jwt("t0p-jwt")]
        ),
        SecretLocation(
            testDescription: "JSON with one byte that is not UTF-8",
            body: Data(#"{"note":"caf"#.utf8) + Data([0xE9]) + Data(#"","password":"n0n-utf8-js0n"}"#.utf8),
            contentType: "application/json",
            secrets: ["n0n-utf8-js0n"],
            kept: [#""password":"REDACTED""#]
        ),
        SecretLocation(
            testDescription: "JSON nested deeper than the parser's limit",
            body: Data(
                (String(repeating: "[", count: 600) + #"{"password":"d33p-js0n"}"# + String(repeating: "]", count: 600))
                    .utf8
            ),
            contentType: "application/json",
            secrets: ["d33p-js0n"],
            kept: [#"{"password":"REDACTED"}"#]
        ),
        SecretLocation(
            testDescription: "newline-delimited JSON with one line that is not JSON",
            body: Data("{\"event\":\"login\"}\n{\"password\": \"b4d-l1n3\", oops}\n".utf8),
            contentType: "application/x-ndjson",
            secrets: ["b4d-l1n3"],
            kept: ["login"]
        ),
        SecretLocation(
            testDescription: "JSON with a trailing comma",
            body: Data(#"{"user":"ada","password":"tr41l1ng-c0mm4",}"#.utf8),
            contentType: "application/json",
            secrets: ["tr41l1ng-c0mm4"],
            kept: ["ada"]
        ),
        SecretLocation(
            testDescription: "the form field password[0]",
            body: Data("user=ada&password%5B0%5D=1nd3x3d-pw".utf8),
            contentType: "application/x-www-form-urlencoded",
            secrets: ["1nd3x3d-pw"],
            kept: ["user=ada"]
        ),
        SecretLocation(
            testDescription: "JSON inside a JSON string, and a URL with a token in one",
            body: Data(
                #"{"payload":"{\"password\":\"1nn3r-js0n\"}","next":"https://api.example.com/x?access_token=1nn3r-url"}"#
                    .utf8
            ),
            contentType: "application/json",
            secrets: ["1nn3r-js0n", "1nn3r-url"],
            kept: ["payload", "https://api.example.com/x?access_token=REDACTED"]
        ),
    ]

    /// The places of issue 12.
    static let issue12: [SecretLocation] = [
        SecretLocation(
            testDescription: "an OAuth code in a Location query",
            replyHeaders: ["Location": "https://app.example.com/callback?code=0auth-c0de-1&state=st4te"],
            secrets: ["0auth-c0de-1"],
            kept: ["https://app.example.com/callback?code=REDACTED&state=st4te"]
        ),
        SecretLocation(
            testDescription: "an access token in a Location fragment",
            replyHeaders: ["Location": "https://app.example.com/cb#access_token=fr4gm3nt-t0k3n&token_type=bearer"],
            secrets: ["fr4gm3nt-t0k3n"],
            kept: ["https://app.example.com/cb#access_token=REDACTED&token_type=bearer"]
        ),
        SecretLocation(
            testDescription: "a password in the user info of a Location URL",
            replyHeaders: ["Content-Location": "https://ada:us3r1nf0-pw@files.example.com/report"],
            secrets: ["us3r1nf0-pw"],
            kept: ["https://ada:REDACTED@files.example.com/report"]
        ),
        SecretLocation(
            testDescription: "camelCase JSON members (clientSecret, accessToken, refreshToken)",
            body: Data(
                #"{"clientId":"app","clientSecret":"cl13nt-s3cr3t","accessToken":"acc3ss-t0k3n","refreshToken":"r3fr3sh-t0k3n","apikey":"l0w3r-k3y"}"#
                    .utf8
            ),
            contentType: "application/json",
            secrets: ["cl13nt-s3cr3t", "acc3ss-t0k3n", "r3fr3sh-t0k3n", "l0w3r-k3y"],
            kept: ["clientId"]
        ),
        SecretLocation(
            testDescription: "the bracketed form field user[password]",
            body: Data("user%5Bname%5D=ada&user%5Bpassword%5D=br4ck3t-pw".utf8),
            contentType: "application/x-www-form-urlencoded",
            secrets: ["br4ck3t-pw"],
            kept: ["user%5Bname%5D=ada"]
        ),
        SecretLocation(
            testDescription: "a form body with a byte that is not UTF-8",
            body: Data("note=caf".utf8) + Data([0xE9]) + Data("&password=n0n-utf8-pw".utf8),
            contentType: "application/x-www-form-urlencoded",
            secrets: ["n0n-utf8-pw"],
            kept: ["password=REDACTED"]
        ),
        SecretLocation(
            testDescription: "newline-delimited JSON",
            body: Data(
                "{\"event\": \"login\", \"password\": \"nd-js0n-pw\"}\n{\"event\": \"refresh\", \"refresh_token\": \"nd-r3fr3sh\"}\n"
                    .utf8
            ),
            contentType: "application/x-ndjson",
            secrets: ["nd-js0n-pw", "nd-r3fr3sh"],
            kept: ["login", "refresh"]
        ),
        SecretLocation(
            testDescription: "JSON behind the )]}' prefix",
            body: Data(")]}'\n{\"user\": \"ada\", \"password\": \"xss1-pw\"}".utf8),
            contentType: "application/json",
            secrets: ["xss1-pw"],
            kept: ["ada"]
        ),
        SecretLocation(
            testDescription: "the response headers X-Session-Token and X-Amz-Security-Token",
            replyHeaders: ["X-Session-Token": "s3ss10n-t0k3n", "X-Amz-Security-Token": "amz-s3c-t0k3n"],
            secrets: ["s3ss10n-t0k3n", "amz-s3c-t0k3n"],
            kept: ["X-Session-Token"]
        ),
        SecretLocation(
            testDescription: "the query parameters X-Amz-Signature, sig, auth and code",
            path: "/echo?X-Amz-Signature=amz-s1g&sig=s4s-s1g&auth=qu3ry-4uth&code=qu3ry-c0de&page=2",
            secrets: ["amz-s1g", "s4s-s1g", "qu3ry-4uth", "qu3ry-c0de"],
            kept: ["page"]
        ),
        SecretLocation(
            testDescription: "a multipart password field",
            body: Data(
                ("--XyZ\r\nContent-Disposition: form-data; name=\"username\"\r\n\r\nada\r\n"
                    + "--XyZ\r\nContent-Disposition: form-data; name=\"password\"\r\n\r\nmult1p4rt-pw\r\n--XyZ--\r\n")
                    .utf8
            ),
            contentType: "multipart/form-data; boundary=XyZ",
            secrets: ["mult1p4rt-pw"],
            kept: ["ada"]
        ),
        SecretLocation(
            testDescription: "XML password elements and attributes",
            body: Data(
                #"<?xml version="1.0"?><login><user>ada</user><wsse:Password>xm1-p4ss</wsse:Password><key password="xm1-4ttr"/></login>"#
                    .utf8
            ),
            contentType: "application/xml",
            secrets: ["xm1-p4ss", "xm1-4ttr"],
            kept: ["<user>ada</user>"]
        ),
        SecretLocation(
            testDescription: "the request headers X-Custom-JWT and X-Client-Secret (HAR export)",
            headers: ["X-Custom-JWT": "h34d3r-jwt", "X-Client-Secret": "h34d3r-s3cr3t"],
            secrets: ["h34d3r-jwt", "h34d3r-s3cr3t"]
        ),
        SecretLocation(
            testDescription: "values shaped like credentials under harmless names (a JWT, a Bearer token)",
            headers: ["X-Upstream": "Bearer up5tr34mT0ken"],
            body: Data(#"{"note":"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl"}"#.utf8),
            contentType: "application/json",
            replyHeaders: ["X-Forwarded-Identity": "eyJhbGciOiJub25lIn0.eyJ1c2VyIjoiYWRhIn0."],
            secrets: [
                "up5tr34mT0ken", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl",
                "eyJhbGciOiJub25lIn0.eyJ1c2VyIjoiYWRhIn0.",
            ]
        ),
    ]
}

extension RecordingTests {
    @Test(
        "a secret is written neither by recording, nor by journalAsHAR(), nor by import-har, and the recording replays for other secrets",
        arguments: SecretLocation.all
    )
    func secretLocation(_ location: SecretLocation) async throws {
        try await withRecordingFixture { root, server in
            let issues = DiagnosticLog()
            let recorder = try root.recorder(.once, reporting: issues)
            let live = await complete(recorder.makeSession(), location.request(to: server))
            try #require(live.status == 201, "\(live)")

            // Recording.
            let written = root.allText()
            for secret in location.secrets {
                #expect(!written.contains(secret), "\(secret) reached the recording:\n\(written)")
            }
            for text in location.kept where location.headers.isEmpty {
                #expect(written.contains(text), "\(text) is missing from the recording:\n\(written)")
            }

            // The HAR export.
            let har = String(decoding: recorder.journalAsHAR(), as: UTF8.self)
            for secret in location.secrets {
                #expect(!har.contains(secret), "\(secret) reached the HAR export:\n\(har)")
            }

            // import-har of a capture with every secret in it.
            let capture = root.folder.appendingPathComponent("capture.har")
            try recorder.journalAsHAR(redaction: .none).write(to: capture)
            let imported = StubFiles.importHAR(capture.path)
            #expect(imported.diagnostics.isEmpty, "\(imported.diagnostics)")
            let importedText = imported.files.map {
                $0.relativePath + "\n" + String(decoding: $0.contents, as: UTF8.self)
            }.joined(separator: "\n")
            for secret in location.secrets {
                #expect(!importedText.contains(secret), "\(secret) reached import-har's files:\n\(importedText)")
            }
            server.stop()

            // The recording answers the request whatever secrets it carries.
            let replayer = try root.replayer()
            let replayed = await complete(replayer.makeSession(), location.request(to: server) { "0ther-\($0)" })
            #expect(replayed.status == 201, "\(replayed)")
            #expect(issues.all.isEmpty, "\(issues.all)")
        }
    }
}

extension RecordingTests {
    @Test(
        "names that only look secret are kept: author, token_type, error.code, zip_code, state, Access-Control-Allow-Credentials"
    )
    func harmlessNamesAreKept() async throws {
        try await withRecordingFixture { root, server in
            let recorder = try root.recorder(.once)
            let body =
                #"{"author":"ada","token_type":"bearer","expires_in":3600,"error":{"code":"E42"},"keyword":"swift"}"#
            let request = server.request(
                "POST",
                "/echo?zip_code=12345&state=st4te",
                body: Data(body.utf8),
                contentType: "application/json",
                headers: [
                    "X-Reply-Access-Control-Allow-Credentials": "true", "X-Reply-Cache-Control": "max-age=60",
                ]
            )
            #expect(await complete(recorder.makeSession(), request).status == 201)
            let written = root.allText()
            for kept in [
                #""author": "ada""#, #""token_type": "bearer""#, #""code": "E42""#, #""keyword": "swift""#, "12345",
                "st4te", "max-age=60",
            ] {
                #expect(written.contains(kept), "\(kept) was redacted:\n\(written)")
            }
            let headers = try root.mapping(prefix: "post-echo-").objectValue?["response"]?.objectValue?["headers"]?
                .objectValue
            #expect(headers?["Access-Control-Allow-Credentials"] == "true")
            #expect(!written.contains("REDACTED"), "\(written)")
        }
    }

    @Test("journalAsHAR(): the password of a request URL's user info is redacted, the user name kept")
    func harExportRedactsRequestUserInfo() async throws {
        let stubs = StubRegistry()
        stubs.stub(.get("https://api.example.com/files"), .status(204))
        _ = await complete(stubs.makeSession(), "https://ada:r3qu3st-pw@api.example.com/files?page=1")
        let har = String(decoding: stubs.journalAsHAR(), as: UTF8.self)
        #expect(!har.contains("r3qu3st-pw"), "\(har)")
        #expect(har.contains("https://ada:REDACTED@api.example.com/files?page=1"), "\(har)")
    }
}
