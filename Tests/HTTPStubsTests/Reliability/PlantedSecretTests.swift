import Foundation
import Testing

@testable import HTTPStubs
@testable import HTTPStubsFiles
@testable import HTTPStubsLanguages
@testable import HTTPStubsTemplates
@testable import HTTPStubsTesting

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Secrets planted in every place of a request, a response and a stub that recording and reporting
/// touch, then looked for (by ``SecretScanner``: decoded from percent-encoding, JSON escapes,
/// base64, JWT segments and gzip too) in everything the toolkit writes or prints: a recording
/// root, the HAR export, `stubs import-har`'s files, `stubs list`, the near-miss report (a
/// `URLError`, a test failure), and `stubs match`'s text and JSON lines. Each failure names the
/// place and the sink where a marker leaked. Requests go through real `URLSession` calls to a
/// real server on 127.0.0.1, and the `stubs` tool runs as a child process.
@Suite(
    "Planted secrets",
    .serialized,
    .enabled(
        if: reliabilitySuitesEnabled && ProcessInfo.processInfo.environment[RecordMode.environmentVariable] == nil,
        "heavy: a recording, two imports and three runs of the stubs tool per place; run with HTTPSTUBS_RELIABILITY=1 and without HTTPSTUBS_RECORD (.ci/run does)"
    )
)
struct PlantedSecretTests {
    /// What a request to the recording server's `POST /echo` carries (it answers with the body,
    /// its `Content-Type`, and each `X-Reply-<Name>` header as a response header).
    struct Planting: Sendable {
        /// The path, query and fragment.
        var path = "/echo"
        /// The user info of the URL (`user:password`), if any.
        var userInfo: String?
        /// Request headers.
        var headers: [String: String] = [:]
        /// The body, echoed as the response body.
        var body: Data?
        /// The body's `Content-Type`.
        var contentType: String?
        /// Response headers the server is asked to send.
        var replyHeaders: [String: String] = [:]
    }

    /// One place secrets are planted in: the secrets' names, and the request that carries them.
    struct Place: Sendable, CustomTestStringConvertible {
        let testDescription: String
        /// One label per secret (`query PHPSESSID`).
        let labels: [String]
        /// The request carrying `secrets` (one per label, in order).
        let plant: @Sendable (_ secrets: [PlantedSecret]) -> Planting

        init(_ name: String, _ labels: [String]? = nil, plant: @escaping @Sendable ([PlantedSecret]) -> Planting) {
            self.testDescription = name
            self.labels = labels ?? [name]
            self.plant = plant
        }

        /// New secrets for this place.
        func secrets() -> [PlantedSecret] {
            labels.map { PlantedSecret("\(testDescription): \($0)") }
        }
    }

    /// JSON text of `object`.
    private static func json(_ object: JSONValue) -> Data {
        Data(object.serialized().utf8)
    }

    /// Every place of a request and its echoed response.
    static let places: [Place] = [
        Place("a JWT as a path segment") { s in Planting(path: "/echo/\(s[0].jwt)/details") },
        Place("a matrix parameter api_key") { s in Planting(path: "/echo;api_key=\(s[0].marker)") },
        Place(
            "query parameters with secret names",
            ["access_token", "PHPSESSID", "jsessionid", "access_key", "appid", "subscription-key", "api_key", "sig"]
        ) { s in
            let names = [
                "access_token", "PHPSESSID", "jsessionid", "access_key", "appid", "subscription-key", "api_key", "sig",
            ]
            return Planting(
                path: "/echo?" + zip(names, s).map { "\($0)=\($1.marker)" }.joined(separator: "&") + "&page=2"
            )
        },
        Place("a code in a percent-encoded redirect_uri") { s in
            Planting(
                path: "/echo?redirect_uri="
                    + Redaction.percentEncoded("https://app.example.com/cb?code=\(s[0].marker)&x=1")
            )
        },
        Place("a JWT as the value of a harmless query parameter") { s in Planting(path: "/echo?state=\(s[0].jwt)") },
        Place("an access token in the fragment") { s in Planting(path: "/echo#access_token=\(s[0].marker)&x=1") },
        Place("the password of the URL's user info") { s in Planting(userInfo: "ada:\(s[0].marker)") },
        Place(
            "request headers",
            [
                "Authorization", "Cookie", "X-API-Key", "Ocp-Apim-Subscription-Key", "X-Trace (a JWT)",
                "X-Upstream (Bearer)",
            ]
        ) { s in
            Planting(
                headers: [
                    "Authorization": "Bearer \(s[0].marker)", "Cookie": "theme=dark; session=\(s[1].marker)",
                    "X-API-Key": s[2].marker, "Ocp-Apim-Subscription-Key": s[3].marker, "X-Trace": s[4].jwt,
                    "X-Upstream": "Bearer \(s[5].marker)",
                ]
            )
        },
        Place(
            "response headers",
            ["Set-Cookie", "Location", "Link", "Refresh", "X-Session-Token", "Content-Location", "X-Identity (a JWT)"]
        ) { s in
            Planting(
                replyHeaders: [
                    "Set-Cookie": "sid=\(s[0].marker); Path=/; HttpOnly",
                    "Location": "https://app.example.com/callback?code=\(s[1].marker)&state=xyz",
                    "Link": "<https://api.example.com/items?page=2&access_token=\(s[2].marker)>; rel=\"next\"",
                    "Refresh": "0; url=https://app.example.com/next?token=\(s[3].marker)",
                    "X-Session-Token": s[4].marker,
                    "Content-Location": "https://ada:\(s[5].marker)@files.example.com/report",
                    "X-Identity": s[6].jwt,
                ]
            )
        },
        Place("a JSON password member") { s in
            Planting(body: json(["user": "ada", "password": .string(s[0].marker)]), contentType: "application/json")
        },
        Place("a JSON secret object (credentials)") { s in
            Planting(
                body: json(["user": "ada", "credentials": ["kind": "basic", "value": .string(s[0].marker)]]),
                contentType: "application/json"
            )
        },
        Place("JSON inside a JSON string") { s in
            Planting(
                body: json(["payload": .string(JSONValue.object(["password": .string(s[0].marker)]).serialized())]),
                contentType: "application/json"
            )
        },
        Place("base64 of JSON inside a JSON string") { s in
            let blob = Data(JSONValue.object(["password": .string(s[0].marker)]).serialized().utf8)
            return Planting(body: json(["blob": .string(blob.base64EncodedString())]), contentType: "application/json")
        },
        Place("a URL with a token in a JSON string") { s in
            Planting(
                body: json(["next": .string("https://api.example.com/items?page=2&access_token=\(s[0].marker)")]),
                contentType: "application/json"
            )
        },
        Place("a JWT as a top-level JSON string") { s in
            Planting(body: Data("\"\(s[0].jwt)\"".utf8), contentType: "application/json")
        },
        Place("a JWT as a text/plain body") { s in Planting(body: Data(s[0].jwt.utf8), contentType: "text/plain") },
        Place("secret names in a text/plain body", ["password:", "token="]) { s in
            Planting(
                body: Data("user: ada\npassword: \(s[0].marker)\nsee token=\(s[1].marker) for more\n".utf8),
                contentType: "text/plain"
            )
        },
        Place("JSON with one byte that is not UTF-8") { s in
            Planting(
                body: Data(#"{"note":"caf"#.utf8) + Data([0xE9]) + Data(#"","password":"\#(s[0].marker)"}"#.utf8),
                contentType: "application/json"
            )
        },
        Place("JSON nested deeper than the parser's limit") { s in
            let depth = JSONParser.maximumDepth + 20
            let text =
                String(repeating: "[", count: depth) + #"{"password":"\#(s[0].marker)"}"#
                + String(repeating: "]", count: depth)
            return Planting(body: Data(text.utf8), contentType: "application/json")
        },
        Place("newline-delimited JSON with a line that is not JSON") { s in
            Planting(
                body: Data(
                    "{\"event\":\"login\"}\n{\"password\": \"\(s[0].marker)\", oops}\n{\"event\":\"done\"}\n".utf8
                ),
                contentType: "application/x-ndjson"
            )
        },
        Place("JSON with a trailing comma") { s in
            Planting(body: Data(#"{"user":"ada","password":"\#(s[0].marker)",}"#.utf8), contentType: "application/json")
        },
        Place("a long JSON body with the password past 200 characters") { s in
            let padding = String(repeating: "x", count: 190)
            return Planting(
                body: json(["note": .string(padding), "password": .string(s[0].marker), "more": .string(padding)]),
                contentType: "application/json"
            )
        },
        Place("form fields password[0] and a token in a redirect URL", ["password[0]", "redirect"]) { s in
            Planting(
                body: Data(
                    ("user=ada&password%5B0%5D=\(s[0].marker)&next="
                        + Redaction.percentEncoded("https://app.example.com/?token=\(s[1].marker)")).utf8
                ),
                contentType: "application/x-www-form-urlencoded"
            )
        },
        Place("a multipart password field") { s in
            Planting(
                body: Data(
                    ("--XyZ\r\nContent-Disposition: form-data; name=\"username\"\r\n\r\nada\r\n"
                        + "--XyZ\r\nContent-Disposition: form-data; name=\"password\"\r\n\r\n\(s[0].marker)\r\n--XyZ--\r\n")
                        .utf8
                ),
                contentType: "multipart/form-data; boundary=XyZ"
            )
        },
        Place("XML password element and attribute", ["element", "attribute"]) { s in
            Planting(
                body: Data(
                    #"<?xml version="1.0"?><login><user>ada</user><wsse:Password>\#(s[0].marker)</wsse:Password><key secret="\#(s[1].marker)"/></login>"#
                        .utf8
                ),
                contentType: "application/xml"
            )
        },
        Place("a gzip-encoded JSON request body (Content-Encoding: gzip), answered gzip-encoded") { s in
            let json = Array(JSONValue.object(["user": "ada", "password": .string(s[0].marker)]).serialized().utf8)
            return Planting(
                headers: ["Content-Encoding": "gzip"],
                body: GzipBodies.literals(json),
                contentType: "application/json",
                replyHeaders: ["Content-Encoding": "gzip"]
            )
        },
        Place("a gzip upload (application/gzip)") { s in
            Planting(
                body: GzipBodies.literals(Array("password=\(s[0].marker)\n".utf8)),
                contentType: "application/gzip"
            )
        },
        Place("binary bytes around a password") { s in
            Planting(
                body: Data([0x00, 0xFF, 0xFE]) + Data("password=\(s[0].marker)".utf8) + Data([0x80, 0x81]),
                contentType: "application/octet-stream"
            )
        },
    ]

    /// The `URLRequest` of `planting`, to `server`.
    static func request(_ planting: Planting, to server: RecordingServer) -> URLRequest {
        var base = server.base
        if let userInfo = planting.userInfo { base = base.replacingOccurrences(of: "://", with: "://\(userInfo)@") }
        var headers = planting.headers
        for (name, value) in planting.replyHeaders { headers["X-Reply-\(name)"] = value }
        var request = URLRequest(url: URL(string: base + planting.path)!, timeoutInterval: 10)
        request.httpMethod = "POST"
        request.httpBody = planting.body
        if let contentType = planting.contentType { request.setValue(contentType, forHTTPHeaderField: "Content-Type") }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        return request
    }

    /// One JSON line of `stubs match --requests` for `request`.
    static func requestLine(_ request: URLRequest) -> String {
        var object: JSONObject = [
            "method": .string(request.httpMethod ?? "GET"), "url": .string(request.url!.absoluteString),
        ]
        var headers = JSONObject()
        for (name, value) in request.allHTTPHeaderFields ?? [:] { headers[name] = .string(value) }
        object["headers"] = .object(headers)
        if let body = request.httpBody { object["bodyBase64"] = .string(body.base64EncodedString()) }
        return JSONValue.object(object).serialized()
    }

    /// Every file under `folder`, by path relative to it, with its bytes; the paths count too.
    static func files(under folder: URL) -> Data {
        var all = Data()
        guard let enumerator = FileManager.default.enumerator(atPath: folder.path) else { return all }
        while let relativePath = enumerator.nextObject() as? String {
            all += Data((relativePath + "\n").utf8)
            all += FileManager.default.contents(atPath: folder.appendingPathComponent(relativePath).path) ?? Data()
            all += Data("\n".utf8)
        }
        return all
    }

    /// Records that none of `secrets` leaked into `output`, naming the sink.
    static func expectNoLeak(
        of secrets: [PlantedSecret],
        in output: Data,
        sink: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let leaked = SecretScanner.leaks(of: secrets, in: output)
        #expect(
            leaked.isEmpty,
            "leaked into \(sink): \(leaked.map(\.place).joined(separator: ", ")); the output:\n\(String(decoding: output.prefix(6_000), as: UTF8.self))",
            sourceLocation: sourceLocation
        )
    }

    #if os(macOS) || os(Linux)
    @Test("no planted secret is written or printed", arguments: places)
    func plantedSecret(_ place: Place) async throws {
        let stubs = try builtExecutable(named: "stubs")
        try await withRecordingFixture { root, server in
            let secrets = place.secrets()
            let others = place.secrets()
            let planting = place.plant(secrets)

            // Recording.
            let recorder = try root.recorder(.once)
            let live = await complete(recorder.makeSession(), Self.request(planting, to: server))
            let status = try #require(live.status, "the recording request failed: \(live)")
            Self.expectNoLeak(of: secrets, in: Self.files(under: root.folder), sink: "the recording")

            // The HAR export.
            Self.expectNoLeak(of: secrets, in: recorder.journalAsHAR(), sink: "journalAsHAR()")

            // import-har, of a capture with every secret in it.
            let capture = root.folder.appendingPathComponent("capture.har")
            try recorder.journalAsHAR(redaction: .none).write(to: capture)
            let imported = root.folder.appendingPathComponent("imported")
            let importRun = try await run(stubs, ["import-har", capture.path, "--into", imported.path], within: 60)
            #expect(importRun.status == 0, "\(importRun.output)")
            Self.expectNoLeak(
                of: secrets,
                in: Self.files(under: imported) + Data(importRun.output.utf8),
                sink: "stubs import-har"
            )

            // The secrets kept on purpose (--keep-secrets): what stubs list and reports must mask.
            let kept = root.folder.appendingPathComponent("kept")
            let keepRun = try await run(
                stubs,
                ["import-har", capture.path, "--into", kept.path, "--keep-secrets"],
                within: 60
            )
            #expect(keepRun.status == 0, "\(keepRun.output)")
            let list = try await run(stubs, ["list", kept.path], within: 60)
            Self.expectNoLeak(of: secrets, in: Data(list.output.utf8), sink: "stubs list")

            // The near-miss report for the request carrying other secrets, against the stubs
            // expecting the planted ones.
            let otherRequest = Self.request(place.plant(others), to: server)
            let both = secrets + others
            let loaded = StubFiles.load([kept.path])
            let registry = StubRegistry()
            registry.add(contentsOf: loaded.stubs)
            let unmatched = await complete(registry.makeSession(), otherRequest)
            if let error = unmatched.urlError {
                Self.expectNoLeak(of: both, in: Data(error.localizedDescription.utf8), sink: "the near-miss report")
            }
            let issues = Collected<Issue>()
            await withKnownIssue(isIntermittent: true) {
                await withHTTPStubs { scope in
                    scope.add(contentsOf: loaded.stubs)
                    _ = await complete(scope.makeSession(), otherRequest)
                }
            } matching: { issue in
                issues.append(issue)
                return true
            }
            Self.expectNoLeak(
                of: both,
                in: Data(issues.all.map(\.description).joined(separator: "\n").utf8),
                sink: "the test failure"
            )

            // stubs match: JSON lines, and text.
            let requests = root.folder.appendingPathComponent("requests.jsonl")
            try Data((Self.requestLine(otherRequest) + "\n").utf8).write(to: requests)
            let lines = try await run(stubs, ["match", "--stubs", kept.path, "--requests", requests.path], within: 60)
            Self.expectNoLeak(of: both, in: Data(lines.output.utf8), sink: "stubs match --requests")
            if otherRequest.httpBody.map({ String(data: $0, encoding: .utf8) != nil }) ?? true {
                var arguments = ["match", "--stubs", kept.path, "POST", otherRequest.url!.absoluteString]
                for (name, value) in otherRequest.allHTTPHeaderFields ?? [:] {
                    arguments += ["-H", "\(name): \(value)"]
                }
                if let body = otherRequest.httpBody { arguments += ["--data", String(decoding: body, as: UTF8.self)] }
                let text = try await run(stubs, arguments, within: 60)
                Self.expectNoLeak(of: both, in: Data(text.output.utf8), sink: "stubs match (text)")
            }

            // The recording still answers the request whatever secrets it carries.
            server.stop()
            let replayer = try root.replayer()
            let replayed = await complete(replayer.makeSession(), otherRequest)
            #expect(replayed.status == status, "the recording does not replay for other secrets: \(replayed)")
        }
    }
    #endif
}

extension PlantedSecretTests {
    /// A stub that expects secrets (or answers with them), and a request that carries others.
    struct StubPlace: Sendable, CustomTestStringConvertible {
        let testDescription: String
        /// One label per secret.
        let labels: [String]
        /// The mapping file expecting `secrets`.
        let mapping: @Sendable (_ secrets: [PlantedSecret]) -> JSONValue
        /// A request carrying `secrets` in the same places.
        let request: @Sendable (_ secrets: [PlantedSecret]) -> URLRequest

        /// New secrets for this place.
        func secrets() -> [PlantedSecret] {
            labels.map { PlantedSecret("\(testDescription): \($0)") }
        }
    }

    /// A `POST https://api.example.com/login` with these headers and body.
    static func login(
        query: String = "",
        headers: [String: String] = [:],
        body: String? = nil,
        contentType: String = "application/json"
    ) -> URLRequest {
        var request = URLRequest(url: URL(string: "https://api.example.com/login" + query)!)
        request.httpMethod = "POST"
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let body {
            request.httpBody = Data(body.utf8)
            request.setValue(contentType, forHTTPHeaderField: "Content-Type")
        }
        return request
    }

    /// Bytes that are not UTF-8 around `password=<marker>`.
    static func binary(_ secret: PlantedSecret) -> Data {
        Data([0x00, 0xFF]) + Data("password=\(secret.marker)".utf8) + Data([0xFE])
    }

    /// Every kind of matcher that prints what it expects and what it got, on a secret name.
    static let stubPlaces: [StubPlace] = [
        StubPlace(
            testDescription: "headers, cookies and query parameters",
            labels: ["Authorization", "X-API-Key", "cookie session", "query access_key", "query jsessionid"],
            mapping: { s in
                [
                    "request": [
                        "method": "POST", "urlPath": "/login",
                        "headers": [
                            "Authorization": ["equalTo": .string("Bearer \(s[0].marker)")],
                            "X-API-Key": ["equalTo": .string(s[1].marker)],
                        ],
                        "cookies": ["session": ["equalTo": .string(s[2].marker)]],
                        "queryParameters": [
                            "access_key": ["equalTo": .string(s[3].marker)],
                            "jsessionid": ["contains": .string(s[4].marker)],
                        ],
                    ],
                    "response": ["status": 204],
                ]
            },
            request: { s in
                login(
                    query: "?access_key=\(s[3].marker)&jsessionid=\(s[4].marker)",
                    headers: [
                        "Authorization": "Bearer \(s[0].marker)", "X-API-Key": s[1].marker,
                        "Cookie": "session=\(s[2].marker)",
                    ]
                )
            }
        ),
        StubPlace(
            testDescription: "JSON paths on a password and a token filter",
            labels: ["$.password", "filter @.token", "$..secret"],
            mapping: { s in
                [
                    "request": [
                        "method": "POST", "urlPath": "/login",
                        "bodyPatterns": [
                            ["matchesJsonPath": ["expression": "$.password", "equalTo": .string(s[0].marker)]],
                            ["matchesJsonPath": .string("$[?(@.token == '\(s[1].marker)')]")],
                            ["matchesJsonPath": ["expression": "$..secret", "contains": .string(s[2].marker)]],
                        ],
                    ],
                    "response": ["status": 204],
                ]
            },
            request: { s in
                login(
                    body:
                        #"{"user":"ada","password":"\#(s[0].marker)","token":"\#(s[1].marker)","nested":{"secret":"\#(s[2].marker)"}}"#
                )
            }
        ),
        StubPlace(
            testDescription: "equalToJson differences below a secret member, and a long body cut in messages",
            labels: ["credentials.value", "password past 200 characters"],
            mapping: { s in
                [
                    "request": [
                        "method": "POST", "urlPath": "/login",
                        "bodyPatterns": [
                            [
                                "equalToJson": [
                                    "user": "ada", "credentials": ["kind": "basic", "value": .string(s[0].marker)],
                                    "password": .string(s[1].marker),
                                ]
                            ],
                            ["equalTo": .string("x")],
                        ],
                    ],
                    "response": ["status": 204],
                ]
            },
            request: { s in
                let padding = String(repeating: "y", count: 180)
                return login(
                    body:
                        #"{"note":"\#(padding)","user":"ada","credentials":{"kind":"basic","value":"\#(s[0].marker)"},"password":"\#(s[1].marker)"}"#
                )
            }
        ),
        StubPlace(
            testDescription: "matchesJsonSchema on secret members",
            labels: ["const password", "enum token", "pattern secret"],
            mapping: { s in
                [
                    "request": [
                        "method": "POST", "urlPath": "/login",
                        "bodyPatterns": [
                            [
                                "matchesJsonSchema": [
                                    "type": "object",
                                    "properties": [
                                        "password": ["const": .string(s[0].marker)],
                                        "token": ["enum": [.string(s[1].marker), "other"]],
                                        "secret": ["type": "string", "pattern": .string("^\(s[2].marker)$")],
                                    ],
                                ]
                            ]
                        ],
                    ],
                    "response": ["status": 204],
                ]
            },
            request: { s in
                login(body: #"{"password":"\#(s[0].marker)","token":"\#(s[1].marker)","secret":"\#(s[2].marker)"}"#)
            }
        ),
        StubPlace(
            testDescription: "XML: equalToXml and matchesXPath on a password",
            labels: ["element password", "attribute secret", "XPath //password"],
            mapping: { s in
                [
                    "request": [
                        "method": "POST", "urlPath": "/login",
                        "bodyPatterns": [
                            [
                                "equalToXml": .string(
                                    #"<login><user>ada</user><password>\#(s[0].marker)</password><key secret="\#(s[1].marker)"/></login>"#
                                )
                            ],
                            ["matchesXPath": ["expression": "//password/text()", "equalTo": .string(s[2].marker)]],
                        ],
                    ],
                    "response": ["status": 204],
                ]
            },
            request: { s in
                login(
                    body:
                        #"<login><user>ada</user><password>\#(s[0].marker)</password><key secret="\#(s[1].marker)"/></login>"#,
                    contentType: "application/xml"
                )
            }
        ),
        StubPlace(
            testDescription: "form parameters and basic auth",
            labels: ["form password", "basic auth password"],
            mapping: { s in
                [
                    "request": [
                        "method": "POST", "urlPath": "/login",
                        "formParameters": ["password": ["equalTo": .string(s[0].marker)]],
                        "basicAuthCredentials": ["username": "ada", "password": .string(s[1].marker)],
                    ],
                    "response": ["status": 204],
                ]
            },
            request: { s in
                login(
                    headers: ["Authorization": "Basic " + Data("ada:\(s[1].marker)".utf8).base64EncodedString()],
                    body: "user=ada&password=\(s[0].marker)",
                    contentType: "application/x-www-form-urlencoded"
                )
            }
        ),
        StubPlace(
            testDescription: "binaryEqualTo on bytes holding a password",
            labels: ["password in bytes"],
            mapping: { s in
                [
                    "request": [
                        "method": "POST", "urlPath": "/login",
                        "bodyPatterns": [["binaryEqualTo": .string(binary(s[0]).base64EncodedString())]],
                    ],
                    "response": ["status": 204],
                ]
            },
            request: { s in
                var request = login()
                request.httpBody = binary(s[0])
                request.setValue("application/octet-stream", forHTTPHeaderField: "Content-Type")
                return request
            }
        ),
        StubPlace(
            testDescription: "response bodies (stubs list)",
            labels: ["jsonBody access_token", "body JWT", "body token="],
            mapping: { s in
                [
                    "mappings": .array([
                        [
                            "request": ["method": "POST", "urlPath": "/token"],
                            "response": [
                                "status": 200,
                                "jsonBody": ["access_token": .string(s[0].marker), "token_type": "bearer"],
                            ],
                        ],
                        [
                            "request": ["method": "GET", "urlPath": "/jwt"],
                            "response": ["status": 200, "body": .string(s[1].jwt)],
                        ],
                        [
                            "request": ["method": "GET", "urlPath": "/text"],
                            "response": ["status": 200, "body": .string("ok; token=\(s[2].marker)")],
                        ],
                    ])
                ]
            },
            request: { _ in login() }
        ),
    ]

    #if os(macOS) || os(Linux)
    @Test("no secret a stub expects or a request carries is printed", arguments: stubPlaces)
    func stubSecret(_ place: StubPlace) async throws {
        let stubs = try builtExecutable(named: "stubs")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("planted-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("mappings"),
            withIntermediateDirectories: true
        )
        defer { try? FileManager.default.removeItem(at: folder) }
        let secrets = place.secrets()
        let others = place.secrets()
        let both = secrets + others
        try Data(place.mapping(secrets).serialized(pretty: true).utf8).write(
            to: folder.appendingPathComponent("mappings/stub.json")
        )
        let request = place.request(others)

        let loaded = StubFiles.load([folder.path])
        #expect(loaded.diagnostics.isEmpty, "\(loaded.diagnostics)")
        let registry = StubRegistry()
        registry.add(contentsOf: loaded.stubs)
        let answer = await complete(registry.makeSession(), request)
        let report = try #require(answer.urlError, "the request was answered: \(answer)").localizedDescription
        Self.expectNoLeak(of: both, in: Data(report.utf8), sink: "the near-miss report")

        let list = try await run(stubs, ["list", folder.path], within: 60)
        Self.expectNoLeak(of: both, in: Data(list.output.utf8), sink: "stubs list")

        let requests = folder.appendingPathComponent("requests.jsonl")
        try Data((Self.requestLine(request) + "\n").utf8).write(to: requests)
        let lines = try await run(stubs, ["match", "--stubs", folder.path, "--requests", requests.path], within: 60)
        Self.expectNoLeak(of: both, in: Data(lines.output.utf8), sink: "stubs match --requests")
        var arguments = ["match", "--stubs", folder.path, "POST", request.url!.absoluteString]
        for (name, value) in request.allHTTPHeaderFields ?? [:] { arguments += ["-H", "\(name): \(value)"] }
        if let body = request.httpBody { arguments += ["--data", String(decoding: body, as: UTF8.self)] }
        let text = try await run(stubs, arguments, within: 60)
        Self.expectNoLeak(of: both, in: Data(text.output.utf8), sink: "stubs match (text)")
    }
    #endif
}

/// The scanner the planted-secret suite relies on finds a marker however it is encoded, so that
/// suite can fail.
@Suite("Secret scanner")
struct SecretScannerTests {
    @Test("a marker is found as written, percent-encoded, JSON-escaped, in base64, in a JWT, gzipped, and cut short")
    func findsEncodedMarkers() {
        let secret = PlantedSecret("test")
        let json = #"{"password":"\#(secret.marker)"}"#
        let encodings: [(String, Data)] = [
            ("as written", Data("x \(secret.marker) y".utf8)),
            ("percent-encoded", Data(Redaction.percentEncoded("a=\(json)").utf8)),
            ("JSON-escaped", Data(JSONValue.string(json).serialized().utf8)),
            ("base64", Data("blob: \(Data(json.utf8).base64EncodedString())".utf8)),
            ("a JWT", Data("Bearer \(secret.jwt)".utf8)),
            ("base64 of gzip", Data(GzipBodies.literals(Array(json.utf8)).base64EncodedString().utf8)),
            ("gzip", Data("head".utf8) + GzipBodies.literals(Array(json.utf8))),
            ("cut short", Data(String(secret.marker.prefix(18)).utf8)),
        ]
        for (name, data) in encodings {
            #expect(SecretScanner.leaks(of: [secret], in: data) == [secret], "not found \(name)")
        }
        #expect(!String(decoding: GzipBodies.literals(Array(json.utf8)), as: UTF8.self).contains(secret.traces[0]))
        #expect(SecretScanner.leaks(of: [secret], in: Data("<redacted:1a2b3c> REDACTED".utf8)).isEmpty)
    }
}
