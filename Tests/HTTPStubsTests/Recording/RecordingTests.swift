import Foundation
import HTTPStubs
import HTTPStubsFiles
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Record and replay against a real HTTP server on 127.0.0.1 (``RecordingServer``, in the test process,
/// started by each test on a free port and always stopped): recording writes a WireMock stub root
/// that gives the client the same answers once the server is gone, secrets never reach disk, and
/// the record modes and their `HTTPSTUBS_RECORD` override behave as the README says.
///
/// The suite is skipped when `HTTPSTUBS_RECORD` is set, because it overrides the modes these tests choose.
@Suite(
    "Record and replay",
    .serialized,
    .enabled(
        if: ProcessInfo.processInfo.environment[RecordMode.environmentVariable] == nil,
        "HTTPSTUBS_RECORD is set; it would override the record modes these tests choose"
    ),
    .timeLimit(.minutes(1))
)
struct RecordingTests {
    // MARK: Modes

    @Test("once, with a missing root, records everything; none replays it with the server stopped")
    func onceRecordsThenNoneReplays() async throws {
        try await withRecordingFixture { root, server in

            let recorder = StubRegistry()
            let issues = DiagnosticLog(recorder)
            #expect(try recorder.replay(root.path, mode: .once) == .once)
            let session = recorder.makeSession()
            let requests = [
                server.request("GET", "/users/1"),
                server.request("GET", "/status/404"),
                server.request("GET", "/redirect"),
                server.request("POST", "/echo", json: #"{"name":"Ada","tags":["a","b"]}"#),
                server.request("GET", "/image"),
                server.request("GET", "/search?q=swift%20testing"),
            ]
            var live: [Answer] = []
            for request in requests {
                live.append(try Answer(await complete(session, request)))
            }
            #expect(live.map(\.status) == [200, 404, 200, 201, 200, 200])
            #expect(
                live[0].body == .json(["id": 1, "name": "Ada", "token": "s3cr3t-token"]),
                "the client gets the real answer, unredacted"
            )
            #expect(live[0].headers["set-cookie"] == "session=abc123; Path=/")
            #expect(live[2].body == live[0].body, "the redirect was followed")
            #expect(live[5].body == .json(["q": "swift testing"]))
            // The redirect is recorded hop by hop: the 302, then the answer it leads to.
            #expect(recorder.journal.count == requests.count + 1)
            #expect(recorder.journal.allSatisfy { $0.recordedFile != nil })

            // The files: one pretty-printed mapping per request, bodies beside them.
            let names = root.mappingNames()
            #expect(names.count == requests.count, "\(names)")  // /users/1 and the redirect's hop share a mapping
            for name in names {
                #expect(name.wholeMatch(of: #/(get|post)-[a-z0-9]+(-[a-z0-9]+)*-[0-9a-f]{8}\.json/#) != nil, "\(name)")
                let text = try root.text("mappings/\(name)")
                #expect(text.hasPrefix("{\n  \""), "\(name) is not pretty-printed:\n\(text)")
                #expect(text.hasSuffix("}\n"))
                #expect(throws: Never.self) { try JSONValue(parsing: text) }
            }
            for prefix in [
                "get-users-1-", "get-status-404-", "get-redirect-", "post-echo-", "get-image-", "get-search-",
            ] {
                #expect(names.filter { $0.hasPrefix(prefix) }.count == 1, "no single \(prefix)… in \(names)")
            }
            let bodyFiles = root.bodyFileNames()
            #expect(bodyFiles.filter { $0.hasSuffix(".json") }.count == 5, "\(bodyFiles)")
            #expect(bodyFiles.filter { $0.hasSuffix(".png") }.count == 1, "\(bodyFiles)")
            for name in bodyFiles where name.hasSuffix(".json") {
                #expect(try root.text("__files/\(name)").hasPrefix("{\n  \""), "\(name) is not pretty-printed")
            }
            #expect(try root.unreferencedBodyFiles() == [])

            server.stop()
            #expect(await RecordingServer.refusesConnections(server.base), "the server still answers")

            let replayer = StubRegistry()
            let replayIssues = DiagnosticLog(replayer)
            #expect(try replayer.replay(root.path, mode: .none) == .none)
            let replaySession = replayer.makeSession()
            for (request, recorded) in zip(requests, live) {
                let handler = try Answer(await complete(replaySession, request))
                let (data, response) = try await replaySession.data(for: request)
                let asynchronous = try Answer(data: data, response: response)
                if request.url?.path == "/redirect" {
                    // Replayed through the recorded 302 to the second recording of /users/1.
                    #expect(
                        handler.status == recorded.status && handler.body == recorded.redacted.body,
                        "completion handler, \(request.url!)"
                    )
                    #expect(
                        asynchronous.status == recorded.status && asynchronous.body == recorded.redacted.body,
                        "async, \(request.url!)"
                    )
                } else {
                    #expect(handler == recorded.redacted, "completion handler, \(request.url!)")
                    #expect(asynchronous == recorded.redacted, "async, \(request.url!)")
                }
            }
            #expect(replayer.journal.count == 2 * requests.count + 2)
            #expect(replayer.journal.allSatisfy { $0.stub != nil }, "\(replayer.journal)")
            #expect(issues.all.isEmpty && replayIssues.all.isEmpty, "\(issues.all + replayIssues.all)")
        }
    }

    @Test("none, and once with an existing root, fail an unrecorded request naming HTTPSTUBS_RECORD=new_episodes")
    func unrecordedRequestFailsWithTheVariableToSet() async throws {
        try await withRecordingFixture { root, server in
            let first = try root.recorder(.once)
            #expect(await complete(first.makeSession(), server.request("GET", "/users/1")).status == 200)
            let recorded = root.snapshot()

            for mode in [RecordMode.none, .once] {
                let stubs = StubRegistry()
                let issues = DiagnosticLog(stubs)
                #expect(try stubs.replay(root.path, mode: mode) == mode)
                let session = stubs.makeSession()
                #expect(
                    await complete(session, server.request("GET", "/users/1")).status == 200,
                    "\(mode): the recording replays"
                )

                let completion = await complete(session, server.request("GET", "/search?q=unrecorded"))
                let error = try #require(completion.urlError, "\(mode)")
                #expect(error.code == .resourceUnavailable)
                #expect(completion.response == nil)
                #expect(
                    error.localizedDescription.contains("HTTPSTUBS_RECORD=new_episodes"),
                    "\(mode): \(error.localizedDescription)"
                )
                #expect(error.localizedDescription.contains(root.path), "\(mode): the report names the stub root")
                do {
                    _ = try await session.data(for: server.request("GET", "/search?q=unrecorded"))
                    Issue.record("\(mode): the async call succeeded")
                } catch let error as URLError {
                    #expect(error.code == .resourceUnavailable)
                    #expect(error.localizedDescription.contains("HTTPSTUBS_RECORD=new_episodes"))
                }
                #expect(stubs.journal.map(\.isUnmatched) == [false, true, true], "\(mode)")
                #expect(issues.all.isEmpty, "\(issues.all)")
            }
            #expect(root.snapshot() == recorded, "nothing was recorded")
            #expect(try await server.servedCount() == 1, "the unrecorded requests reached the server")
        }
    }

    @Test("newEpisodes replays what exists and records only the new request, never touching existing files")
    func newEpisodesRecordsOnlyWhatIsNew() async throws {
        try await withRecordingFixture { root, server in
            let first = try root.recorder(.once)
            #expect(await complete(first.makeSession(), server.request("GET", "/users/1")).status == 200)

            // A developer edits the recorded body.
            let usersBody = try #require(root.bodyFileNames().first)
            try root.write(
                root.text("__files/\(usersBody)").replacingOccurrences(of: "Ada", with: "Grace"),
                to: "__files/\(usersBody)"
            )
            let before = root.snapshot()

            let stubs = StubRegistry()
            let issues = DiagnosticLog(stubs)
            #expect(try stubs.replay(root.path, mode: .newEpisodes) == .newEpisodes)
            let session = stubs.makeSession()
            let users = try Answer(await complete(session, server.request("GET", "/users/1")))
            #expect(
                users.body == .json(["id": 1, "name": "Grace", "token": "REDACTED"]),
                "the edited recording replays"
            )
            let search = try Answer(await complete(session, server.request("GET", "/search?q=new")))
            #expect(search.body == .json(["q": "new"]))
            #expect(stubs.journal.map { $0.stub != nil } == [true, false])
            #expect(stubs.journal.map { $0.recordedFile != nil } == [false, true])

            let after = root.snapshot()
            for (path, data) in before {
                #expect(after[path] == data, "\(path) changed")
            }
            let added = Set(after.keys).subtracting(before.keys)
            #expect(added.filter { $0.hasPrefix("mappings/") }.count == 1, "\(added.sorted())")
            #expect(added.allSatisfy { $0.contains("get-search-") }, "\(added.sorted())")
            #expect(try await server.servedCount() == 2, "only the new request reached the server")
            #expect(issues.all.isEmpty, "\(issues.all)")
        }
    }

    @Test("all ignores the existing recording, sends every request to the server and overwrites the files")
    func allReRecords() async throws {
        try await withRecordingFixture { root, server in
            let first = try root.recorder(.once)
            let firstSession = first.makeSession()
            let old = try Answer(await complete(firstSession, server.request("GET", "/users/1")))
            let oldInstance = try #require(old.headers["x-server-instance"])
            for _ in 1...2 {
                #expect(await complete(firstSession, server.request("GET", "/counter")).status == 200)
            }
            let names = root.mappingNames()
            try #require(names.count == 2, "\(names)")
            let usersMapping = try #require(names.first { $0.hasPrefix("get-users-1-") })
            try root.write(root.text("mappings/\(usersMapping)") + " ", to: "mappings/\(usersMapping)")  // an edit

            // The same origin: a new server on the same port.
            server.restart()
            let stubs = StubRegistry()
            let issues = DiagnosticLog(stubs)
            #expect(try stubs.replay(root.path, mode: .all) == .all)
            #expect(stubs.stubs.isEmpty, "all loaded the existing recording")
            let session = stubs.makeSession()
            let fresh = try Answer(await complete(session, server.request("GET", "/users/1")))
            let newInstance = try #require(fresh.headers["x-server-instance"])
            #expect(newInstance != oldInstance)
            let counter = try Answer(await complete(session, server.request("GET", "/counter")))
            #expect(counter.body == .json(["count": 1]))
            #expect(stubs.journal.allSatisfy { $0.recordedFile != nil })

            #expect(root.mappingNames() == names, "the same requests keep their file names")
            let mapping = try root.text("mappings/\(usersMapping)")
            #expect(mapping.contains(newInstance) && !mapping.contains(oldInstance), "not overwritten:\n\(mapping)")
            #expect(!mapping.hasSuffix(" "), "the edit survived")
            let counterMapping = try root.mapping(prefix: "get-counter-")
            #expect(counterMapping.objectValue?["mappings"] == nil, "the old two-answer scenario survived")
            let unreferenced = try root.unreferencedBodyFiles()
            #expect(unreferenced == [])
            server.stop()

            let replayer = try root.replayer()
            let replaySession = replayer.makeSession()
            let replayed = try Answer(await complete(replaySession, server.request("GET", "/users/1")))
            #expect(replayed.headers["x-server-instance"] == newInstance)
            #expect(try Answer(await complete(replaySession, server.request("GET", "/counter"))) == counter)
            #expect(issues.all.isEmpty, "\(issues.all)")
        }
    }

    @Test("all, re-recording the same requests from a server on another port, replaces the recording")
    func allReRecordsFromAnotherPort() async throws {
        try await withRecordingFixture { root, oldServer in
            let first = try root.recorder(.once)
            #expect(await complete(first.makeSession(), oldServer.request("GET", "/users/1")).status == 200)
            oldServer.stop()

            let server = try RecordingServer.start()
            defer { server.stop() }
            let stubs = try root.recorder(.all)
            let fresh = try Answer(await complete(stubs.makeSession(), server.request("GET", "/users/1")))
            server.stop()
            // The mapping matches the path only, whatever the port, but its file name hashes the whole
            // URL, port included: the old mapping stays beside the new one, and both answer the request.
            let names = root.mappingNames()
            #expect(names.count == 1, "\(names)")
            let replayer = try root.replayer()
            #expect(replayer.stubs.count == names.count)
            let replayed = try Answer(await complete(replayer.makeSession(), server.request("GET", "/users/1")))
            #expect(replayed.status == fresh.status)
        }
    }

    @Test("HTTPSTUBS_RECORD overrides the mode chosen in code; any other value is an error naming the choices")
    func environmentOverride() throws {
        let variable = RecordMode.environmentVariable
        #expect(variable == "HTTPSTUBS_RECORD")
        #expect(try RecordMode.none.resolved(environment: [:]) == .none)
        #expect(try RecordMode.once.resolved(environment: [variable: ""]) == .once)
        #expect(try RecordMode.once.resolved(environment: ["OTHER": "all"]) == .once)
        #expect(try RecordMode.none.resolved(environment: [variable: "none"]) == .none)
        #expect(try RecordMode.none.resolved(environment: [variable: "once"]) == .once)
        #expect(try RecordMode.none.resolved(environment: [variable: "new_episodes"]) == .newEpisodes)
        #expect(try RecordMode.once.resolved(environment: [variable: "all"]) == .all)
        #expect(try RecordMode.all.resolved(environment: [variable: "none"]) == .none)
        #expect(try RecordMode.none.resolved(environment: [variable: "NEW_EPISODES"]) == .newEpisodes)
        #expect(RecordMode.allCases.map(\.rawValue) == ["none", "once", "new_episodes", "all"])

        for bad in ["sometimes", "newEpisodes", "true", " all"] {
            do {
                let mode = try RecordMode.once.resolved(environment: [variable: bad])
                Issue.record("\(bad) resolved to \(mode)")
            } catch {
                #expect(error.value == bad)
                #expect(
                    error.description
                        == "HTTPSTUBS_RECORD=\(bad) is not a record mode; use one of none, once, new_episodes, all"
                )
            }
        }
    }

    // MARK: What is written

    @Test("identical requests with different answers become a scenario that replays them in order")
    func repeatedRequestsBecomeAScenario() async throws {
        try await withRecordingFixture { root, server in
            let issues = DiagnosticLog()
            let recorder = try root.recorder(.once, reporting: issues)
            let session = recorder.makeSession()
            var live: [Answer] = []
            for _ in 1...3 {
                live.append(try Answer(await complete(session, server.request("GET", "/counter"))))
            }
            #expect(live.map(\.body) == [.json(["count": 1]), .json(["count": 2]), .json(["count": 3])])

            let names = root.mappingNames()
            try #require(names.count == 1, "\(names)")
            let document = try JSONValue(parsing: root.text("mappings/\(names[0])"))
            let mappings = try #require(document.objectValue?["mappings"]?.arrayValue, "not a list of mappings")
            #expect(mappings.count == 3)
            let scenario = mappings.compactMap { $0.objectValue?["scenarioName"]?.stringValue }
            #expect(scenario.count == 3 && Set(scenario).count == 1, "\(scenario)")
            #expect(mappings.first?.objectValue?["requiredScenarioState"]?.stringValue == "Started")
            #expect(Set(recorder.journal.compactMap(\.recordedFile)).count == 1)
            #expect(try root.unreferencedBodyFiles() == [], "the first answer's body file was left behind")
            #expect(root.bodyFileNames().count == 3, "\(root.bodyFileNames())")
            server.stop()

            let replayer = try root.replayer()
            let replaySession = replayer.makeSession()
            var replayed: [Answer] = []
            for _ in 1...4 {
                replayed.append(try Answer(await complete(replaySession, server.request("GET", "/counter"))))
            }
            #expect(replayed == (live + [live[2]]).map(\.redacted), "the last answer keeps answering")
            #expect(issues.all.isEmpty, "\(issues.all)")
        }
    }

    @Test("secrets never reach disk by default, and recordings still match requests carrying other secrets")
    func redactionByDefault() async throws {
        try await withRecordingFixture { root, server in
            let issues = DiagnosticLog()
            let recorder = try root.recorder(.once, reporting: issues)
            let session = recorder.makeSession()
            let users = try Answer(
                await complete(
                    session,
                    server.request(
                        "GET",
                        "/users/1",
                        headers: [
                            "Authorization": "Bearer s3cr3t-token", "Cookie": "session=abc123",
                        ]
                    )
                )
            )
            let search = try Answer(await complete(session, server.request("GET", "/search?q=swift&token=xyz")))
            let login = try Answer(
                await complete(session, server.request("POST", "/echo", json: #"{"user":"ada","password":"hunter2"}"#))
            )
            #expect(users.body == .json(["id": 1, "name": "Ada", "token": "s3cr3t-token"]))
            #expect(users.headers["set-cookie"] == "session=abc123; Path=/")
            #expect(search.body == .json(["q": "swift"]))
            #expect(login.status == 201 && login.body == .json(["user": "ada", "password": "hunter2"]))

            // Read every byte written.
            let written = root.allText()
            for secret in ["s3cr3t-token", "abc123", "xyz", "hunter2", "Bearer"] {
                #expect(!written.contains(secret), "\(secret) reached disk")
            }
            #expect(written.contains("REDACTED"))
            let usersMapping = try root.mapping(prefix: "get-users-1-")
            #expect(
                usersMapping.objectValue?["response"]?.objectValue?["headers"]?.objectValue?["Set-Cookie"] == "REDACTED"
            )
            let usersBody = try JSONValue(parsing: root.text("__files/\(try #require(usersMapping.bodyFileName))"))
            #expect(usersBody == ["id": 1, "name": "Ada", "token": "REDACTED"])
            let searchRequest = try root.mapping(prefix: "get-search-").objectValue?["request"]?.objectValue
            #expect(searchRequest?["queryParameters"] == ["q": ["equalTo": "swift"], "token": ["matches": ".*"]])
            let loginRequest = try root.mapping(prefix: "post-echo-").objectValue?["request"]?.objectValue
            #expect(loginRequest?["bodyPatterns"] == [["equalToJson": ["user": "ada"], "ignoreExtraElements": true]])
            server.stop()

            let replayer = try root.replayer()
            let replaySession = replayer.makeSession()
            let replayedUsers = try Answer(
                await complete(
                    replaySession,
                    server.request("GET", "/users/1", headers: ["Authorization": "Bearer other"])
                )
            )
            #expect(replayedUsers == users.redacted)
            #expect(replayedUsers.headers["set-cookie"] == "REDACTED")
            let otherToken = try Answer(
                await complete(replaySession, server.request("GET", "/search?q=swift&token=another-secret"))
            )
            #expect(otherToken == search, "a redacted query parameter matches any value")
            let otherPassword = try Answer(
                await complete(
                    replaySession,
                    server.request("POST", "/echo", json: #"{"password":"correct horse","user":"ada"}"#)
                )
            )
            #expect(
                otherPassword.status == 201 && otherPassword.body == .json(["user": "ada", "password": "REDACTED"])
            )
            // What is not secret still has to match.
            #expect(
                await complete(replaySession, server.request("GET", "/search?q=other&token=xyz")).urlError?.code
                    == .resourceUnavailable
            )
            #expect(
                await complete(
                    replaySession,
                    server.request("POST", "/echo", json: #"{"user":"bob","password":"hunter2"}"#)
                ).urlError?.code == .resourceUnavailable
            )
            #expect(issues.all.isEmpty, "\(issues.all)")
        }
    }

    @Test("Redaction.none keeps every secret, and recordings then match only the recorded values")
    func redactionNone() async throws {
        try await withRecordingFixture { root, server in
            let recorder = try root.recorder(.once, redaction: .none)
            let session = recorder.makeSession()
            let users = try Answer(await complete(session, server.request("GET", "/users/1")))
            let search = try Answer(await complete(session, server.request("GET", "/search?q=swift&token=xyz")))
            let login = try Answer(
                await complete(session, server.request("POST", "/echo", json: #"{"user":"ada","password":"hunter2"}"#))
            )

            let written = root.allText()
            for secret in ["s3cr3t-token", "session=abc123", "xyz", "hunter2"] {
                #expect(written.contains(secret), "\(secret) was redacted")
            }
            #expect(!written.contains("REDACTED"))
            server.stop()

            let replayer = try root.replayer()
            let replaySession = replayer.makeSession()
            #expect(try Answer(await complete(replaySession, server.request("GET", "/users/1"))) == users)
            #expect(
                try Answer(await complete(replaySession, server.request("GET", "/search?q=swift&token=xyz"))) == search
            )
            #expect(
                try Answer(
                    await complete(
                        replaySession,
                        server.request("POST", "/echo", json: #"{"user":"ada","password":"hunter2"}"#)
                    )
                ) == login
            )
            #expect(
                await complete(replaySession, server.request("GET", "/search?q=swift&token=another")).urlError?.code
                    == .resourceUnavailable
            )
            #expect(
                await complete(
                    replaySession,
                    server.request("POST", "/echo", json: #"{"user":"ada","password":"other"}"#)
                ).urlError?.code == .resourceUnavailable
            )
        }
    }

    @Test("Redaction.default.adding(…) redacts more headers, query parameters and JSON members")
    func redactionAddingNames() async throws {
        try await withRecordingFixture { root, server in
            let recorder = StubRegistry()
            let redaction = Redaction.default.adding(
                headers: ["X-Server-Instance"],
                queryParameters: ["Q"],
                jsonMembers: ["NAME"]
            )
            try recorder.replay(root.path, mode: .once, redaction: redaction)
            let session = recorder.makeSession()
            let users = try Answer(await complete(session, server.request("GET", "/users/1")))
            let search = try Answer(await complete(session, server.request("GET", "/search?q=private-query")))
            let instance = try #require(users.headers["x-server-instance"])

            let written = root.allText()
            for secret in [instance, "Ada", "s3cr3t-token", "abc123"] {
                #expect(!written.contains(secret), "\(secret) reached disk")
            }
            // The query parameter is redacted in the request; the response body echoes it as a JSON
            // member `q`, which was not named.
            let searchMapping = try root.mapping(prefix: "get-search-")
            #expect(!searchMapping.serialized().contains("private-query"))
            #expect(searchMapping.objectValue?["request"]?.objectValue?["queryParameters"] == ["q": ["matches": ".*"]])
            server.stop()
            let replayer = try root.replayer()
            let replaySession = replayer.makeSession()
            let replayedUsers = try Answer(await complete(replaySession, server.request("GET", "/users/1")))
            #expect(replayedUsers.headers["x-server-instance"] == "REDACTED")
            #expect(replayedUsers.body == .json(["id": 1, "name": "REDACTED", "token": "REDACTED"]))
            let replayedSearch = try Answer(await complete(replaySession, server.request("GET", "/search?q=anything")))
            #expect(replayedSearch.status == search.status)
            #expect(replayedSearch.body == .json(["q": "private-query"]), "the response body names no redacted member")
        }
    }

    @Test("a redirect the server answered replays with the final answer, as the client saw it")
    func redirectReplays() async throws {
        try await withRecordingFixture { root, server in
            let recorder = try root.recorder(.once)
            let live = await complete(recorder.makeSession(), server.request("GET", "/redirect"))
            #expect(live.status == 200)
            #expect(live.http?.url?.path == "/users/1", "the live session followed the redirect")
            server.stop()

            let replayer = try root.replayer()
            let replayed = await complete(replayer.makeSession(), server.request("GET", "/redirect"))
            #expect(try Answer(replayed) == Answer(live).redacted)
            #expect(replayed.http?.url?.path == live.http?.url?.path, "the replayed response has another URL")
        }
    }

    @Test("a binary body is written as a file and replayed byte for byte")
    func binaryBody() async throws {
        try await withRecordingFixture { root, server in
            let recorder = try root.recorder(.once)
            let session = recorder.makeSession()
            let image = await complete(session, server.request("GET", "/image"))
            let bytes = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0xFF, 0xFE, 0x01, 0x80, 0x7F])
            #expect(image.data == bytes)
            #expect(image.http?.value(forHTTPHeaderField: "Content-Type") == "image/png")

            let mapping = try root.mapping(prefix: "get-image-")
            let bodyFile = try #require(mapping.bodyFileName)
            #expect(bodyFile.hasSuffix(".png"))
            #expect(
                try Data(contentsOf: URL(fileURLWithPath: root.path).appendingPathComponent("__files/\(bodyFile)"))
                    == bytes
            )
            server.stop()

            let replayer = try root.replayer()
            let replaySession = replayer.makeSession()
            let replayed = await complete(replaySession, server.request("GET", "/image"))
            #expect(replayed.data == bytes)
            #expect(replayed.http?.value(forHTTPHeaderField: "Content-Type") == "image/png")
            let (data, response) = try await replaySession.data(for: server.request("GET", "/image"))
            #expect(data == bytes)
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
        }
    }

    @Test("a POST with a JSON body is recorded with equalToJson and replays for the same JSON, however written")
    func jsonBodyRecordedWithEqualToJson() async throws {
        try await withRecordingFixture { root, server in
            let recorder = try root.recorder(.once)
            let session = recorder.makeSession()
            let json = #"{"b":2,"a":[1,2],"nested":{"x":true}}"#
            let live = try Answer(await complete(session, server.request("POST", "/echo", json: json)))
            #expect(live.status == 201)

            let request = try root.mapping(prefix: "post-echo-").objectValue?["request"]?.objectValue
            #expect(request?["method"] == "POST")
            #expect(request?["urlPath"] == "/echo")
            #expect(request?["bodyPatterns"] == [["equalToJson": ["b": 2, "a": [1, 2], "nested": ["x": true]]]])
            server.stop()

            let replayer = try root.replayer()
            let replaySession = replayer.makeSession()
            let rewritten = "{\n  \"nested\" : { \"x\" : true },\n  \"a\" : [1, 2],\n  \"b\" : 2.0\n}"
            #expect(try Answer(await complete(replaySession, server.request("POST", "/echo", json: rewritten))) == live)
            #expect(
                await complete(
                    replaySession,
                    server.request("POST", "/echo", json: #"{"b":3,"a":[1,2],"nested":{"x":true}}"#)
                ).urlError?.code == .resourceUnavailable
            )
            #expect(
                await complete(
                    replaySession,
                    server.request("POST", "/echo", json: #"{"b":2,"a":[2,1],"nested":{"x":true}}"#)
                ).urlError?.code == .resourceUnavailable
            )
            #expect(
                await complete(
                    replaySession,
                    server.request("POST", "/echo", json: #"{"b":2,"a":[1,2],"nested":{"x":true},"c":0}"#)
                ).urlError?.code == .resourceUnavailable
            )
        }
    }

    @Test("a network error reaches the client unchanged and is recorded as swiftHTTPStubs.urlError")
    func networkErrorIsRecorded() async throws {
        try await withRecordingFixture { root, server in
            server.stop()  // nothing listens on its port any more

            let issues = DiagnosticLog()
            let recorder = try root.recorder(.once, reporting: issues)
            let session = recorder.makeSession()
            let completion = await complete(session, server.request("GET", "/users/1"))
            #expect(completion.urlError?.code == .cannotConnectToHost, "\(String(describing: completion.error))")
            #expect(completion.response == nil && completion.data == nil)
            do {
                _ = try await session.data(for: server.request("GET", "/counter"))
                Issue.record("the async call succeeded")
            } catch let error as URLError {
                #expect(error.code == .cannotConnectToHost)
            }
            #expect(recorder.journal.count == 2)
            #expect(recorder.journal.allSatisfy { $0.recordedFile != nil && $0.response == nil })

            let mapping = try root.mapping(prefix: "get-users-1-")
            #expect(mapping.objectValue?["response"] == ["swiftHTTPStubs": ["urlError": "cannotConnectToHost"]])
            #expect(root.bodyFileNames().isEmpty)

            let replayer = try root.replayer()
            let replaySession = replayer.makeSession()
            #expect(
                await complete(replaySession, server.request("GET", "/users/1")).urlError?.code == .cannotConnectToHost
            )
            do {
                _ = try await replaySession.data(for: server.request("GET", "/counter"))
                Issue.record("the replayed async call succeeded")
            } catch let error as URLError {
                #expect(error.code == .cannotConnectToHost)
            }
            #expect(replayer.journal.allSatisfy { $0.stub != nil })
            #expect(issues.all.isEmpty, "\(issues.all)")
        }
    }

    @Test("while recording, the request's timeout still applies, as it would without stubs")
    func recordingHonoursTheTimeout() async throws {
        try await withRecordingFixture { root, server in
            let recorder = try root.recorder(.once)
            var request = server.request("GET", "/slow")
            request.timeoutInterval = 0.5
            let direct = await complete(URLSession(configuration: .ephemeral), request)
            #expect(direct.urlError?.code == .timedOut, "without stubs the request times out")
            // The server answers 200 after 2 s: a timeout not honoured would show as that 200.
            let completion = await complete(recorder.makeSession(), request)
            #expect(completion.urlError?.code == .timedOut, "\(completion.status.map(String.init) ?? "no status")")
        }
    }

    @Test("20 requests recorded concurrently all land in distinct files; none is clobbered")
    func concurrentRecordings() async throws {
        try await withRecordingFixture { root, server in
            let issues = DiagnosticLog()
            let recorder = try root.recorder(.once, reporting: issues)
            let values = (0..<20).map { "parallel-\($0)" }
            let live = try await Self.search(values, through: recorder.makeSession(), server)
            #expect(live == Dictionary(uniqueKeysWithValues: values.map { ($0, JSONValue.object(["q": .string($0)])) }))

            let names = root.mappingNames()
            #expect(names.count == 20, "\(names)")
            var recordedQueries: Set<String> = []
            for name in names {
                let mapping = try JSONValue(parsing: root.text("mappings/\(name)"))
                let query = mapping.objectValue?["request"]?.objectValue?["queryParameters"]?.objectValue?["q"]?
                    .objectValue?["equalTo"]?.stringValue
                let body = try JSONValue(parsing: root.text("__files/\(try #require(mapping.bodyFileName))"))
                #expect(body == .object(["q": .string(query ?? "?")]), "\(name) answers another request")
                recordedQueries.insert(query ?? "?")
            }
            #expect(recordedQueries == Set(values))
            let files = recorder.journal.compactMap(\.recordedFile)
            #expect(files.count == 20 && Set(files).count == 20)
            #expect(files.allSatisfy { FileManager.default.fileExists(atPath: $0) })
            #expect(try root.unreferencedBodyFiles() == [])
            server.stop()

            let replayer = try root.replayer()
            let replayed = try await Self.search(values, through: replayer.makeSession(), server)
            #expect(replayed == live)
            #expect(issues.all.isEmpty, "\(issues.all)")
        }
    }

    // MARK: Journal and HAR

    @Test("the journal shows each recorded request with its mapping file and the real response")
    func journalShowsRecordedEntries() async throws {
        try await withRecordingFixture { root, server in
            let recorder = try root.recorder(.once)
            let session = recorder.makeSession()
            let users = await complete(session, server.request("GET", "/users/1"))
            let missing = await complete(session, server.request("GET", "/status/404"))
            let echo = await complete(session, server.request("POST", "/echo", json: #"{"a":1}"#))

            let journal = recorder.journal
            try #require(journal.count == 3)
            #expect(journal.map(\.request.url.path) == ["/users/1", "/status/404", "/echo"])
            #expect(journal[2].request.bodyText == #"{"a":1}"#)
            let mappings = URL(fileURLWithPath: root.path).appendingPathComponent("mappings").path
            for (entry, prefix) in zip(journal, ["get-users-1-", "get-status-404-", "post-echo-"]) {
                let file = try #require(entry.recordedFile, "\(entry)")
                #expect(file.hasPrefix(mappings + "/" + prefix), "\(file)")
                #expect(FileManager.default.fileExists(atPath: file))
                #expect(entry.description.hasSuffix("→ recorded into \(file)"), "\(entry.description)")
                #expect(entry.stub == nil && !entry.isUnmatched)
            }
            #expect(journal.map { $0.response?.status } == [200, 404, 201])
            #expect(journal[0].response?.body == users.data, "the journal keeps the answer as received")
            #expect(journal[0].response?.headers["Set-Cookie"] == "session=abc123; Path=/")
            #expect(journal[1].response?.body == missing.data)
            #expect(journal[2].response?.body == echo.data)
        }
    }

    @Test("journalAsHAR() of a recording session loads with StubFiles.load and replays the same answers, redacted")
    func journalAsHARReplays() async throws {
        try await withRecordingFixture { root, server in
            let recorder = try root.recorder(.once)
            let session = recorder.makeSession()
            let requests = [
                server.request("GET", "/users/1"),
                server.request("GET", "/counter"),
                server.request("GET", "/counter"),
                server.request("POST", "/echo", json: #"{"a":[1,2]}"#),
                server.request("GET", "/image"),
                server.request("GET", "/status/404"),
                server.request("GET", "/search?q=har"),
            ]
            var live: [Answer] = []
            for request in requests {
                live.append(try Answer(await complete(session, request)))
            }
            let harFile = root.folder.appendingPathComponent("journal.har")
            try recorder.journalAsHAR().write(to: harFile)
            server.stop()

            let loaded = StubFiles.load([harFile.path])
            #expect(loaded.errors.isEmpty, "\(loaded.errors)")
            #expect(loaded.warnings.isEmpty, "\(loaded.warnings)")
            #expect(!loaded.stubs.isEmpty)
            let replayer = StubRegistry()
            for stub in loaded.stubs { replayer.add(stub) }
            let replaySession = replayer.makeSession()
            for (request, recorded) in zip(requests, live) {
                // Exported with the default redaction: secret headers and JSON members are REDACTED.
                #expect(
                    try Answer(await complete(replaySession, request)) == recorded.redacted,
                    "\(request.httpMethod!) \(request.url!)"
                )
            }
            #expect(replayer.journal.allSatisfy { $0.stub != nil })
        }
    }

    // MARK: Helpers

    /// Sends `GET /search?q=<value>` for every value at once; returns each value's JSON answer.
    private static func search(
        _ values: [String],
        through session: URLSession,
        _ server: RecordingServer
    ) async throws -> [String: JSONValue] {
        try await withThrowingTaskGroup(of: (String, JSONValue).self) { group in
            for value in values {
                let request = server.request("GET", "/search?q=\(value)")
                group.addTask {
                    let (data, _) = try await session.data(for: request)
                    return (value, try JSONValue(parsing: data))
                }
            }
            var answers: [String: JSONValue] = [:]
            for try await (value, answer) in group { answers[value] = answer }
            return answers
        }
    }
}
