import Foundation
import HTTPStubs
import HTTPStubsTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The near-miss report goes into CI logs: it masks the secrets of the request and of the stubs
/// as `<redacted:1a2b3c>`, and different secrets keep different masks.
extension UnmatchedRequestTests {
    /// The secrets the request of ``secretRequest()`` carries, and those its stub expects.
    static let requestSecrets = ["b34r3r-s3cr3t", "c00k13-s3cr3t", "qu3ry-s3cr3t", "js0n-s3cr3t", "us3r-pw"]
    static let stubSecrets = ["3xp3ct3d-b34r3r", "3xp3ct3d-qu3ry", "3xp3ct3d-pw"]

    /// A registry with one stub expecting other secrets, and a request carrying them in a header,
    /// a cookie, the query, the URL's user info and a JSON body.
    static func secretRequest() -> (StubRegistry, URLRequest) {
        let stubs = StubRegistry()
        stubs.stub(
            .post("https://api.example.com/login")
                .header("Authorization", "Bearer 3xp3ct3d-b34r3r")
                .query("token", "3xp3ct3d-qu3ry")
                .body(.json(text: #"{"user":"ada","password":"3xp3ct3d-pw"}"#)),
            .status(204)
        )
        var request = URLRequest(
            url: URL(string: "https://ada:us3r-pw@api.example.com/login?token=qu3ry-s3cr3t&page=2")!
        )
        request.httpMethod = "POST"
        request.httpBody = Data(#"{"user":"ada","password":"js0n-s3cr3t"}"#.utf8)
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("Bearer b34r3r-s3cr3t", forHTTPHeaderField: "Authorization")
        request.setValue("session=c00k13-s3cr3t", forHTTPHeaderField: "Cookie")
        return (stubs, request)
    }

    @Test(
        "the report masks Authorization, cookies, secret query values, URL passwords and JSON passwords, in the request and the verdicts"
    )
    func reportMasksSecrets() async throws {
        let (stubs, request) = Self.secretRequest()
        let error = try #require(await complete(stubs.makeSession(), request).urlError)
        let text = error.localizedDescription
        for secret in Self.requestSecrets + Self.stubSecrets {
            #expect(!text.contains(secret), "\(secret) is in the report:\n\(text)")
        }
        let lines = text.components(separatedBy: "\n")
        #expect(lines.contains { $0.hasPrefix("  Authorization: Bearer <redacted:") }, "\(text)")
        #expect(lines.contains { $0.hasPrefix("  Cookie: <redacted:") }, "\(text)")
        #expect(
            lines[0].contains("https://ada:<redacted:") && lines[0].contains("?token=<redacted:")
                && lines[0].hasSuffix("&page=2"),
            "\(lines[0])"
        )
        #expect(text.contains(#""user":"ada""#), "what is not secret stays readable:\n\(text)")
        // The verdict on the header: expected and actual are both masked, and differ.
        let header = try #require(lines.first { $0.contains("header Authorization") }, "\(text)")
        let masks = Set(header.matches(of: #/<redacted:[0-9a-f]{6}>/#).map { String($0.output) })
        #expect(masks.count == 2, "the two tokens are told apart: \(header)")
        let password = try #require(lines.first { $0.contains("$.password") }, "\(text)")
        #expect(
            Set(password.matches(of: #/<redacted:[0-9a-f]{6}>/#).map { String($0.output) }).count == 2,
            "\(password)"
        )
    }

    @Test("a test failure for an unmatched request masks the secrets the report would print")
    func testFailureMasksSecrets() async {
        let issues = Collected<Issue>()
        await withKnownIssue {
            await withHTTPStubs { stubs in
                let (expecting, request) = Self.secretRequest()
                for stub in expecting.stubs { stubs.add(stub) }
                _ = await complete(stubs.makeSession(), request)
            }
        } matching: { issue in
            issues.append(issue)
            return issue.description.contains("Unmatched request")
        }
        let text = issues.all.map(\.description).joined(separator: "\n")
        #expect(text.contains("Authorization: Bearer <redacted:"), "\(text)")
        for secret in Self.requestSecrets + Self.stubSecrets {
            #expect(!text.contains(secret), "\(secret) is in the test failure:\n\(text)")
        }
    }
}

extension UnmatchedRequestTests {
    /// Stubs whose verdicts print what they expected and what they got at secret names: a JSON
    /// path, `equalToJson` below a secret member, a JSON schema, XML differences.
    static let verdictStubs = """
        {"mappings": [
          {"request": {"method": "POST", "urlPath": "/login", "bodyPatterns": [
             {"matchesJsonPath": {"expression": "$.password", "equalTo": "3xp-p4th-pw"}},
             {"equalToJson": {"user": "ada", "credentials": {"kind": "basic", "value": "3xp-cr3d-v4l"}}, "ignoreExtraElements": true},
             {"matchesJsonSchema": {"type": "object", "properties": {"token": {"const": "3xp-sch3m4-t0k"}}}}]},
           "response": {"status": 204}},
          {"request": {"method": "POST", "urlPath": "/xml", "bodyPatterns": [
             {"equalToXml": "<login><user>ada</user><password>3xp-xml-pw</password><key secret=\\"3xp-xml-4ttr\\"/></login>"}]},
           "response": {"status": 204}}
        ]}
        """

    @Test(
        "verdicts mask secrets: a JSON path, equalToJson below a secret member, a schema, XML differences, a body cut at 200 characters"
    )
    func verdictsMaskSecrets() async throws {
        let root = try TemporaryStubRoot(mappings: ["login.json": Self.verdictStubs])
        let stubs = try root.registry()
        let padding = String(repeating: "x", count: 180)
        var json = URLRequest(url: URL(string: "https://api.example.com/login")!)
        json.httpMethod = "POST"
        json.setValue("application/json", forHTTPHeaderField: "Content-Type")
        json.httpBody = Data(
            #"{"note":"\#(padding)","user":"ada","password":"4ct-p4th-pw","token":"4ct-sch3m4-t0k","credentials":{"kind":"basic","value":"4ct-cr3d-v4l"}}"#
                .utf8
        )
        var xml = URLRequest(url: URL(string: "https://api.example.com/xml")!)
        xml.httpMethod = "POST"
        xml.setValue("application/xml", forHTTPHeaderField: "Content-Type")
        xml.httpBody = Data(
            #"<login><user>ada</user><password>4ct-xml-pw</password><key secret="4ct-xml-4ttr"/></login>"#.utf8
        )
        let secrets = [
            "3xp-p4th-pw", "4ct-p4th-pw", "3xp-cr3d-v4l", "4ct-cr3d-v4l", "3xp-sch3m4-t0k", "4ct-sch3m4-t0k",
            "3xp-xml-pw",
            "4ct-xml-pw", "3xp-xml-4ttr", "4ct-xml-4ttr",
        ]
        for request in [json, xml] {
            let text = try #require(await complete(stubs.makeSession(), request).urlError).localizedDescription
            for secret in secrets {
                #expect(!text.contains(secret), "\(secret) is in the report:\n\(text)")
                // Nor its start, as a message cut short would leave it.
                #expect(!text.contains(secret.prefix(7)), "the start of \(secret) is in the report:\n\(text)")
            }
            #expect(text.contains(#""user":"ada""#) || text.contains("<user>ada</user>"), "\(text)")
        }
        let text = try #require(await complete(stubs.makeSession(), json).urlError).localizedDescription
        // What the stub expected and what the request carried stay told apart.
        let verdict = try #require(text.components(separatedBy: "\n").first { $0.contains("$.password") }, "\(text)")
        #expect(Set(verdict.matches(of: #/<redacted:[0-9a-f]{6}>/#).map { String($0.output) }).count == 2, "\(verdict)")
    }
}
