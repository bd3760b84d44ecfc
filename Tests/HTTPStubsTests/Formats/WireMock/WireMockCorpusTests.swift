import Foundation
import Testing

@testable import HTTPStubs
@testable import HTTPStubsFiles
@testable import HTTPStubsLanguages
@testable import HTTPStubsTemplates

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Every WireMock stub root of the corpus (`Tests/Fixtures/Corpus/wiremock`), loaded as it is and
/// answered through real URLSession calls, with the behaviours `SOURCES.md` lists for each file.
@Suite("WireMock corpus")
struct WireMockCorpusTests {
    /// Every stub root of the corpus except go-wiremock (one of whose files must fail; see below).
    static let groups = [
        "wiremock/sample-war",
        "wiremock/remoteloader",
        "wiremock/classpath-filesource",
        "wiremock/test-file-root",
        "wiremock/multi-stub",
        "wiremock-docker/random",
        "wiremock-spring-boot/custom-location",
        "hub4j-github-api/GHWorkflowTest-testDisableEnable",
        "hub4j-github-api/Github2faTest-test2faToken",
        "hub4j-github-api/GHAppTest-listInstallationsSince",
        "hub4j-github-api/GHReleaseTest-testCreateReleaseWithNotes",
        "spring-cloud-contract",
    ]

    // MARK: Every group

    @Test("every corpus group loads through StubRegistry.load, with no warnings")
    func everyGroupLoads() throws {
        let corpus = try corpusURL("wiremock")
        let listed = try FileManager.default.contentsOfDirectory(atPath: corpus.path).filter {
            !$0.hasPrefix("_") && !$0.hasSuffix(".md")
        }
        let covered = Set(Self.groups.map { String($0.split(separator: "/")[0]) } + ["go-wiremock"])
        #expect(Set(listed) == covered, "a corpus folder is not covered by these tests")

        var mappingFiles = 0
        for group in Self.groups {
            let issues = DiagnosticLog()
            let registry = StubRegistry()
            registry.onDiagnostic { issues.append($0) }
            let ids = try registry.load(try corpusURL("wiremock/\(group)").path)
            #expect(!ids.isEmpty, "\(group) made no stubs")
            #expect(registry.stubs.count == ids.count)
            let load = StubFiles.load([try corpusURL("wiremock/\(group)").path])
            mappingFiles += load.files.count
            #expect(load.errors.isEmpty, "\(group): \(load.errors)")
            #expect(issues.all.isEmpty, "\(group): \(issues.all.map(\.description))")
        }
        #expect(mappingFiles == 20, "the corpus has 23 mapping files, 3 of them in go-wiremock")
    }

    @Test("recorder fields (uuid, name, persistent, insertionIndex) are accepted silently")
    func recorderFieldsAreSilent() throws {
        let load = StubFiles.load([try corpusURL("wiremock/hub4j-github-api").path])
        #expect(load.files.count == 10)
        #expect(load.stubs.count == 10)
        #expect(load.diagnostics.isEmpty, "\(load.diagnostics.map(\.description))")
        let named = load.stubs.first { $0.name == "repos_hub4j-test-org_ghworkflowtest" }
        #expect(named != nil, "the recorder's 'name' becomes the stub's name")
    }

    @Test("an unknown key is a warning located at its line and column, and the stub still loads")
    func unknownKeyWarning() throws {
        let original = try String(
            contentsOf: try corpusURL("wiremock/wiremock/remoteloader/mappings/two.json"),
            encoding: .utf8
        )
        let text = original.replacingOccurrences(of: #""priority": 4"#, with: #""priority": 4,\#n  "prority": 1"#)
        #expect(text != original)
        let root = try TemporaryStubRoot(mappings: ["two.json": text])
        let load = root.load()
        #expect(load.stubs.count == 1)
        #expect(load.errors.isEmpty)
        let warning = try #require(load.warnings.first)
        #expect(load.warnings.count == 1)
        let (line, column) = sourcePosition(of: #""prority""#, in: text)
        #expect(warning.source.line == line && warning.source.column == column, "\(warning)")
        #expect(warning.jsonPath == "$.prority")
        #expect(
            warning.description.hasPrefix(
                "\(root.path("mappings/two.json")):\(line):\(column): warning: $.prority: unknown key 'prority'"
            )
        )
    }

    // MARK: wiremock/wiremock

    @Test("sample-war: urlPattern is a regex on path and query; the body file and headers are served")
    func sampleWar() async throws {
        let served = try Served("wiremock/sample-war")
        let (data, http) = try await served.send("GET", "/api/mytest")
        #expect(http.statusCode == 200)
        #expect(data == (try served.file("mytest.json")))
        #expect(http.value(forHTTPHeaderField: "Content-Type") == "application/json")
        #expect(http.value(forHTTPHeaderField: "Cache-Control") == "max-age=86400")
        for miss in ["/api/mytest?x=1", "/api/mytestX", "/api/mytest/"] {
            #expect(await served.isUnmatched("GET", miss), "\(miss)")
        }
        #expect(await served.isUnmatched("POST", "/api/mytest"))
    }

    @Test("remoteloader: urlPath + header contains, and the explicit priority 4")
    func remoteLoaderTwo() async throws {
        let served = try Served("wiremock/remoteloader")
        #expect(served.registry.stubs.first?.priority == 4, "priority 4 is tried before the default 5")
        let (data, http) = try await served.send(
            "GET",
            "/remote-load/2?ignored=1",
            headers: ["Accept": "text/plain, */*"]
        )
        #expect(http.statusCode == 200)
        #expect(String(decoding: data, as: UTF8.self) == "Remote load 2")
        #expect(http.value(forHTTPHeaderField: "Content-Type") == "text/plain")
        #expect(await served.isUnmatched("GET", "/remote-load/2", headers: ["Accept": "application/json"]))
    }

    @Test("remoteloader: the 3-step 'To do list' scenario of a multi-mapping file")
    func remoteLoaderScenario() async throws {
        let served = try Served("wiremock/remoteloader")
        #expect(served.registry.scenario("To do list").state == "Started")
        #expect(try await served.text("GET", "/todo/items") == "<items><item>Buy milk</item></items>")
        #expect(await served.isUnmatched("POST", "/todo/items", body: "Buy bread"), "the body must contain the item")
        #expect(try await served.text("GET", "/todo/items") == "<items><item>Buy milk</item></items>")

        let completion = await complete(
            served.session,
            request("POST", "http://localhost:8080/todo/items", body: "Cancel newspaper subscription")
        )
        #expect(completion.status == 201)
        #expect(completion.data?.isEmpty != false)
        #expect(served.registry.scenario("To do list").state == "Cancel newspaper item added")

        let expected = try served.file("body.xml")
        #expect(try await served.send("GET", "/todo/items").data == expected)
        #expect(try await served.send("GET", "/todo/items").data == expected, "the last state repeats")
        #expect(
            await served.isUnmatched("POST", "/todo/items", body: "Cancel newspaper subscription"),
            "the POST needs state Started"
        )
    }

    @Test("remoteloader: the PNG body file is served byte for byte, with no Content-Type")
    func remoteLoaderPNG() async throws {
        let served = try Served("wiremock/remoteloader")
        let png = try served.file("favicon3.png")
        #expect(png.count == 3849)
        let (data, http) = try await served.send("GET", "/image-file")
        #expect(http.statusCode == 200)
        #expect(data == png)
        #expect(http.value(forHTTPHeaderField: "Content-Type") == nil)

        let completion = await complete(served.session, request("DELETE", "http://localhost:8080/image-file"))
        #expect(completion.data == png, "the mapping has no method: any method matches")

        guard
            case let .response(answer, _) = served.registry.answer(
                InterceptedRequest(url: URL(string: "http://localhost/image-file")!)
            )
        else {
            Issue.record("/image-file was not answered")
            return
        }
        #expect(answer.headers.isEmpty)
        #expect(answer.body == png)
    }

    @Test("classpath-filesource: fixedDelayMilliseconds 500 is waited for before the text body file")
    func slowResponse() async throws {
        let served = try Served("wiremock/classpath-filesource")
        let clock = ContinuousClock()
        let start = clock.now
        let completion = await complete(served.session, "http://localhost:8080/slow-response")
        #expect(clock.now - start >= .milliseconds(500) - .milliseconds(2))
        #expect(completion.status == 200)
        #expect(completion.text == "THINGS!")
        #expect(completion.data == (try served.file("stuff.txt")))
    }

    @Test("test-file-root: jsonBody keeps its numbers as written (the big number, and 2.0)")
    func jsonNumberFidelity() async throws {
        let served = try Served("wiremock/test-file-root")
        let (data, http) = try await served.send("GET", "/testjsonmapping")
        #expect(http.statusCode == 200)
        #expect(http.value(forHTTPHeaderField: "Content-Type") == "application/json")
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains(#""bignumber":1234567890.12"#), "\(text)")
        #expect(text.contains(#""integer_as_float":2.0"#), "\(text)")
        #expect(text.contains(#""integer":2,"#), "\(text)")
        let expected = try JSONValue(
            parsing:
                #"{"bignumber": 1234567890.12, "integer_as_float": 2.0, "array": [1, 2, 3], "integer": 2, "key": "value"}"#
        )
        #expect(try JSONValue(parsing: data).matches(expected, options: JSONComparisonOptions()))
        #expect(await served.isUnmatched("GET", "/testjsonmapping?x=1"), "urlPattern sees the query")
    }

    @Test("multi-stub: three status-only stubs in one file, with empty bodies")
    func multiStub() async throws {
        let served = try Served("wiremock/multi-stub")
        #expect(served.registry.stubs.count == 3)
        for index in 1...3 {
            let (data, http) = try await served.send("GET", "/multi/\(index)")
            #expect(http.statusCode == 200)
            #expect(data.isEmpty)
        }
        #expect(await served.isUnmatched("GET", "/multi/4"))
        let sources = served.registry.stubs.compactMap(\.source.index).sorted()
        #expect(sources == [0, 1, 2])
    }

    // MARK: Other projects

    @Test("wiremock-docker: queryParameters absent vs equalTo share one urlPath; Handlebars text is served literally")
    func wiremockDocker() async throws {
        let served = try Served("wiremock-docker/random")
        let plain = try await served.send("GET", "/user")
        #expect(plain.http.statusCode == 200)
        let json = try #require(try JSONValue(parsing: plain.data).objectValue)
        #expect(json["name"]?.stringValue == "{{ random 'Name.first_name' }}")
        #expect(json["favorite_tool"]?.stringValue == "WireMock")

        let pretty = try await served.send("GET", "/user?pretty=true")
        #expect(pretty.data == (try served.file("user.json")))
        #expect(pretty.http.value(forHTTPHeaderField: "Content-Type") == "application/json")

        #expect(await served.isUnmatched("GET", "/user?pretty=false"), "neither absent nor equal to true")
    }

    @Test("wiremock-spring-boot: a jsonBody that is a top-level array")
    func topLevelArray() async throws {
        struct Todo: Decodable, Equatable {
            let id: Int
            let title: String
            let userId: Int
        }
        let served = try Served("wiremock-spring-boot/custom-location")
        let (data, http) = try await served.send("GET", "/classpathmappings")
        #expect(http.statusCode == 200)
        let todos = try JSONDecoder().decode([Todo].self, from: data)
        #expect(
            todos == [
                Todo(id: 1, title: "custom location todo 1", userId: 1),
                Todo(id: 2, title: "custom location todo 2", userId: 1),
            ]
        )
    }

    @Test("hub4j GHWorkflowTest: replaying the six recorded requests in order yields the three GET bodies in sequence")
    func recordedScenario() async throws {
        let served = try Served("hub4j-github-api/GHWorkflowTest-testDisableEnable")
        let accept = ["Accept": "application/vnd.github+json"]
        let workflow = "/repos/hub4j-test-org/GHWorkflowTest/actions/workflows/test-workflow.yml"

        let repository = try await served.send("GET", "/repos/hub4j-test-org/GHWorkflowTest", headers: accept)
        #expect(repository.data == (try served.file("1-r_h_ghworkflowtest.json")))

        let first = try await served.send("GET", workflow, headers: accept)
        #expect(first.data == (try served.file("2-r_h_g_actions_workflows_test-workflowyml.json")))
        #expect(String(decoding: first.data, as: UTF8.self).contains(#""state": "active""#))

        let disable = try await served.send(
            "PUT",
            "/repos/hub4j-test-org/GHWorkflowTest/actions/workflows/6817859/disable",
            body: "{}",
            headers: accept
        )
        #expect(disable.http.statusCode == 204)
        #expect(disable.data.isEmpty)

        let second = await complete(served.session, request("GET", "http://localhost:8080\(workflow)", headers: accept))
        #expect(second.data == (try served.file("4-r_h_g_actions_workflows_test-workflowyml.json")))
        #expect(second.text?.contains(#""state": "disabled_manually""#) == true)

        let enable = try await served.send(
            "PUT",
            "/repos/hub4j-test-org/GHWorkflowTest/actions/workflows/6817859/enable",
            body: "{}",
            headers: accept
        )
        #expect(enable.http.statusCode == 204)

        let third = try await served.send("GET", workflow, headers: accept)
        #expect(third.data == (try served.file("6-r_h_g_actions_workflows_test-workflowyml.json")))
        #expect(try await served.send("GET", workflow, headers: accept).data == third.data, "the last state repeats")

        #expect(
            await served.isUnmatched(
                "PUT",
                "/repos/hub4j-test-org/GHWorkflowTest/actions/workflows/6817859/enable",
                body: #"{"a":1}"#,
                headers: accept
            ),
            "equalToJson {} has no extra elements"
        )
        #expect(await served.isUnmatched("GET", workflow), "the Accept header is required")
    }

    @Test("hub4j GHWorkflowTest: array-valued response headers (Vary) are repeated fields")
    func arrayHeaders() async throws {
        let served = try Served("hub4j-github-api/GHWorkflowTest-testDisableEnable")
        let accept = ["Accept": "application/vnd.github+json"]
        let (_, http) = try await served.send("GET", "/repos/hub4j-test-org/GHWorkflowTest", headers: accept)
        #expect(
            http.value(forHTTPHeaderField: "Vary")
                == "Accept, Authorization, Cookie, X-GitHub-OTP, Accept-Encoding, Accept, X-Requested-With"
        )
        #expect(http.value(forHTTPHeaderField: "X-RateLimit-Remaining") == "4946")

        let request = InterceptedRequest(
            url: URL(string: "http://localhost/repos/hub4j-test-org/GHWorkflowTest")!,
            headers: ["Accept": "application/vnd.github+json"]
        )
        guard case let .response(answer, _) = served.registry.answer(request) else {
            Issue.record("not answered")
            return
        }
        #expect(
            answer.headers.values(for: "Vary") == [
                "Accept, Authorization, Cookie, X-GitHub-OTP", "Accept-Encoding, Accept, X-Requested-With",
            ]
        )

        let (_, noContent) = try await served.send(
            "PUT",
            "/repos/hub4j-test-org/GHWorkflowTest/actions/workflows/6817859/disable",
            body: "{}",
            headers: accept
        )
        #expect(noContent.value(forHTTPHeaderField: "Vary") == "Accept-Encoding, Accept, X-Requested-With")
    }

    @Test("hub4j Github2faTest: the first POST answers 401 with its inline body, the second 201 from the body file")
    func twoFactorScenario() async throws {
        let served = try Served("hub4j-github-api/Github2faTest-test2faToken")
        let headers = ["Accept": "application/vnd.github+json", "Content-Type": "application/json"]
        // The scopes reordered and an extra member: ignoreArrayOrder and ignoreExtraElements.
        let body =
            #"{"scopes":["user","delete_repo","repo","gist","write:packages","read:packages","delete:packages"],"note_url":"https://localhost/this/is/a/test/token","note":"Test2faTokenCreate","fingerprint":null}"#

        let missingScope =
            #"{"note":"Test2faTokenCreate","note_url":"https://localhost/this/is/a/test/token","scopes":["repo"]}"#
        #expect(await served.isUnmatched("POST", "/authorizations", body: missingScope, headers: headers))

        let first = try await served.send("POST", "/authorizations", body: body, headers: headers)
        #expect(first.http.statusCode == 401)
        #expect(
            String(decoding: first.data, as: UTF8.self)
                == #"{"message":"Must specify two-factor authentication OTP code.","documentation_url":"https://developer.github.com/v3/auth#working-with-two-factor-authentication"}"#
        )
        #expect(first.http.value(forHTTPHeaderField: "X-GitHub-OTP") == "required; sms")

        let second = await complete(
            served.session,
            request("POST", "http://localhost:8080/authorizations", body: body, headers: headers)
        )
        #expect(second.status == 201)
        #expect(second.data == (try served.file("2-authorizations.json")))
        #expect(second.http?.value(forHTTPHeaderField: "Location") == "https://api.github.com/authorizations/350917110")

        #expect(
            try await served.send("POST", "/authorizations", body: body, headers: headers).http.statusCode == 201,
            "the last state repeats"
        )
    }

    @Test("hub4j GHAppTest: urlPathPattern + query equalTo (decoded) + header equalTo")
    func listInstallationsSince() async throws {
        let served = try Served("hub4j-github-api/GHAppTest-listInstallationsSince")
        let accept = ["Accept": "application/vnd.github+json"]
        for query in [
            "since=2023-11-01T00:00:00Z", "since=2023-11-01T00%3A00%3A00Z", "page=2&since=2023-11-01T00:00:00Z",
        ] {
            let (data, http) = try await served.send("GET", "/app/installations?\(query)", headers: accept)
            #expect(http.statusCode == 200, "\(query)")
            #expect(data == (try served.file("body-mapping-githubapp-installations.json")))
            #expect(http.value(forHTTPHeaderField: "Vary") == "Accept, Accept-Encoding")
        }
        #expect(await served.isUnmatched("GET", "/app/installations", headers: accept))
        #expect(await served.isUnmatched("GET", "/app/installations?since=2023-11-02T00:00:00Z", headers: accept))
        #expect(
            await served.isUnmatched(
                "GET",
                "/app/installations?since=2023-11-01T00:00:00Z",
                headers: ["Accept": "application/json"]
            )
        )
    }

    @Test("hub4j GHReleaseTest: matchesJsonPath filter $.[?(@.generate_release_notes == true)]")
    func releaseNotesFilter() async throws {
        let served = try Served("hub4j-github-api/GHReleaseTest-testCreateReleaseWithNotes")
        let accept = ["Accept": "application/vnd.github+json"]
        let url = "/repos/hub4j-test-org/testCreateRelease/releases"
        let (data, http) = try await served.send(
            "POST",
            url,
            body: #"{"tag_name":"v1","generate_release_notes":true,"draft":false}"#,
            headers: accept
        )
        #expect(http.statusCode == 201)
        #expect(data == (try served.file("2-r_h_t_releases.json")))
        #expect(
            http.value(forHTTPHeaderField: "Location")
                == "https://api.github.com/repos/hub4j-test-org/testCreateRelease/releases/44460162"
        )
        for body in [
            #"{"tag_name":"v1","generate_release_notes":false}"#, #"{"tag_name":"v1"}"#,
            #"{"generate_release_notes":"true"}"#, "not json",
        ] {
            #expect(await served.isUnmatched("POST", url, body: body, headers: accept), "\(body)")
        }
    }

    @Test(
        "spring-cloud-contract: matchesJsonPath with a =~ regex filter; the response template renders, without warnings"
    )
    func springCloudContract() async throws {
        let issues = DiagnosticLog()
        let served = try Served("spring-cloud-contract", issues: issues)
        let json = ["Content-Type": "application/json"]
        let (data, http) = try await served.send("POST", "/check", body: #"{"age":17,"name":"marcin"}"#, headers: json)
        #expect(http.statusCode == 200)
        #expect(String(decoding: data, as: UTF8.self) == #"{"status":"NOT_OK"}"#)
        #expect(http.value(forHTTPHeaderField: "Content-Type") == "application/json")
        for body in [#"{"age":25}"#, #"{"age":117}"#, #"{"age":9}"#, #"{"name":"x"}"#] {
            #expect(await served.isUnmatched("POST", "/check", body: body, headers: json), "\(body)")
        }
        #expect(try await served.send("POST", "/check", body: #"{"age":"07"}"#, headers: json).http.statusCode == 200)
        #expect(
            await served.isUnmatched("POST", "/check", body: #"{"age":17}"#, headers: ["Content-Type": "text/plain"])
        )

        #expect(issues.all.isEmpty, "\(issues.all)")
        let stub = try #require(served.registry.stubs.first)
        #expect(stub.responses.first?.summary == "200 templated response")
    }

    // MARK: go-wiremock

    @Test("go-wiremock: url-path-templating and not-logical-expression load (ids \"%s\" accepted) and behave")
    func goWireMock() async throws {
        let mappings = try corpusURL("wiremock/go-wiremock/mappings")
        let registry = StubRegistry()
        let issues = DiagnosticLog()
        registry.onDiagnostic { issues.append($0) }
        try registry.load(
            mappings.appendingPathComponent("url-path-templating.json").path,
            mappings.appendingPathComponent("not-logical-expression.json").path
        )
        #expect(issues.all.isEmpty, "\(issues.all.map(\.description))")
        #expect(registry.stubs.count == 2)
        let session = registry.makeSession()

        #expect(try await status(session, "GET", "/contacts/12345/addresses/99876") == 200)
        #expect(try await status(session, "GET", "/contacts/12345/addresses/99876?x=1") == 200)
        #expect(try await status(session, "GET", "/contacts/12345/addresses/1") == nil)
        #expect(try await status(session, "GET", "/contacts/1/addresses/99876") == nil)
        #expect(try await status(session, "POST", "/contacts/12345/addresses/99876") == nil)

        #expect(try await status(session, "POST", "/example?firstName=Bob") == 200)
        #expect(try await status(session, "POST", "/example?firstName=John") == nil)
        #expect(try await status(session, "POST", "/example?firstName=Jack") == nil)
        #expect(try await status(session, "GET", "/example?firstName=Bob") == nil)
        withExtendedLifetime(registry) {}
    }

    @Test(
        "go-wiremock: expected-template-scenario.json fails at $.request.cookies.session.equalToXml (\"<xml>\" is not well-formed), as in WireMock"
    )
    func goWireMockKitchenSinkFails() throws {
        let root = try corpusURL("wiremock/go-wiremock")
        let file = root.appendingPathComponent("mappings/expected-template-scenario.json")
        let load = StubFiles.load([root.path])
        #expect(load.files.count == 3)
        #expect(load.stubs.count == 2, "the two other files still load")
        let error = try #require(load.errors.first)
        #expect(load.errors.count == 1, "\(load.errors)")
        #expect(error.source.file == file.path)
        #expect(error.jsonPath == "$.request.cookies.session.equalToXml")
        let text = try String(contentsOf: file, encoding: .utf8)
        let (line, column) = sourcePosition(of: #""\u003cxml\u003e""#, in: text)
        #expect(error.source.line == line && error.source.column == column)
        #expect(
            error.description.hasPrefix("\(file.path):\(line):\(column): error: $.request.cookies.session.equalToXml: ")
        )
        #expect(error.message.contains("equalToXml") && error.message.contains("XML"))

        let registry = StubRegistry()
        let thrown = #expect(throws: StubFileError.self) { try registry.load(root.path) }
        #expect(thrown?.diagnostics.contains(error) == true)
        #expect(thrown?.description.contains("\(file.path):\(line):\(column): error: ") == true)
        #expect(registry.stubs.isEmpty, "nothing is added when a file has an error")
    }
}

// MARK: - Helpers

/// A corpus stub root loaded into a registry, and a session that registry answers.
private struct Served {
    let root: URL
    let registry: StubRegistry
    let session: URLSession

    /// Loads `<corpus>/wiremock/<group>` through ``StubRegistry/load(_:)-(String...)``.
    init(_ group: String, issues: DiagnosticLog? = nil) throws {
        root = try corpusURL("wiremock/\(group)")
        registry = StubRegistry()
        if let issues { registry.onDiagnostic { issues.append($0) } }
        try registry.load(root.path)
        session = registry.makeSession()
    }

    /// The bytes of a body file in the group's `__files`.
    func file(_ name: String) throws -> Data {
        try Data(contentsOf: root.appendingPathComponent("__files/\(name)"))
    }

    /// Sends a request to `http://localhost:8080<path>` through `data(for:)`.
    func send(
        _ method: String,
        _ path: String,
        body: String? = nil,
        headers: [String: String] = [:]
    ) async throws -> (data: Data, http: HTTPURLResponse) {
        let (data, response) = try await session.data(
            for: request(method, "http://localhost:8080\(path)", body: body, headers: headers)
        )
        return (data, try #require(response as? HTTPURLResponse))
    }

    /// Whether no stub answers the request: the registry fails it with `URLError(.resourceUnavailable)`.
    func isUnmatched(
        _ method: String,
        _ path: String,
        body: String? = nil,
        headers: [String: String] = [:]
    ) async -> Bool {
        do {
            _ = try await session.data(
                for: request(method, "http://localhost:8080\(path)", body: body, headers: headers)
            )
            return false
        } catch let error as URLError {
            return error.code == .resourceUnavailable
        } catch {
            return false
        }
    }

    /// The body of the answer, as UTF-8 text.
    func text(
        _ method: String,
        _ path: String,
        body: String? = nil,
        headers: [String: String] = [:]
    ) async throws -> String {
        String(decoding: try await send(method, path, body: body, headers: headers).data, as: UTF8.self)
    }
}

/// The status a request to `http://localhost:8080<path>` gets, or `nil` when no stub answers it
/// (the registry fails it with `URLError(.resourceUnavailable)`).
private func status(_ session: URLSession, _ method: String, _ path: String) async throws -> Int? {
    do {
        let (_, response) = try await session.data(for: request(method, "http://localhost:8080\(path)"))
        return (response as? HTTPURLResponse)?.statusCode
    } catch let error as URLError where error.code == .resourceUnavailable {
        return nil
    }
}

/// The 1-based line and column (in characters) where `needle` first occurs in `text`.
func sourcePosition(of needle: String, in text: String) -> (line: Int, column: Int) {
    guard let range = text.range(of: needle) else { return (0, 0) }
    let before = text[..<range.lowerBound]
    let line = before.filter { $0 == "\n" }.count + 1
    let column =
        before.count - (before.lastIndex(of: "\n").map { before.distance(from: before.startIndex, to: $0) + 1 } ?? 0)
        + 1
    return (line, column)
}
