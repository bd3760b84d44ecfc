import Foundation
import Testing

@testable import HTTPStubs
@testable import HTTPStubsFiles
@testable import HTTPStubsLanguages
@testable import HTTPStubsTemplates

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// HAR captures from real tools (the corpus in `Tests/Fixtures/Corpus`) replayed through URLSession, the loader's
/// matching and sequencing rules on small inline captures, its diagnostics, and the importer
/// that writes a HAR out as a WireMock stub root.
@Suite("HAR")
struct HARTests {
    // MARK: Every corpus file

    @Test("every corpus HAR loads without errors and replays every entry as recorded")
    func everyCorpusFileReplays() async throws {
        let folder = try corpusURL("har")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".har") || $0.hasSuffix(".har.json") }
            .sorted()
        #expect(names.count >= 11, "the HAR corpus lost files: \(names)")
        for name in names where name != "har-validator-invalid.har.json" {
            let loaded = try loadCorpusHAR(name)
            #expect(loaded.errors.isEmpty, "\(name): \(loaded.errors)")
            #expect(!loaded.stubs.isEmpty, "\(name) made no stubs")
            let session = loaded.session
            let entries = try #require(loaded.document.root.objectValue?["log"]?.objectValue?["entries"]?.arrayValue)
            for (index, entryValue) in entries.enumerated() {
                let entry = try #require(entryValue.objectValue)
                let request = try #require(entry["request"]?.objectValue)
                let response = try #require(entry["response"]?.objectValue)
                let method = try #require(request["method"]?.stringValue)
                let url = try #require(request["url"]?.stringValue)
                let body = request["postData"]?.objectValue?["text"]?.stringValue
                let status = try #require(response["status"]?.numberValue?.int64Value)
                let place = "\(name) entry \(index): \(method) \(url)"
                if status == 0 {
                    await #expect(throws: URLError.self, "\(place)") {
                        _ = try await send(session, method, url, body: body)
                    }
                    continue
                }
                let (data, http) = try await send(session, method, url, body: body)
                #expect(http.statusCode == Int(status), "\(place)")
                if let recorded = recordedBody(response, method: method) {
                    #expect(data == recorded, "\(place): \(data.count) bytes")
                } else {
                    #expect(!data.isEmpty, "\(place): compressed chunks gave no body")
                }
                for dropped in ["Content-Length", "Content-Encoding", "Transfer-Encoding"] {
                    #expect(http.value(forHTTPHeaderField: dropped) == nil, "\(place): \(dropped) was replayed")
                }
            }
        }
    }

    @Test(
        "every corpus HAR loads through StubRegistry.load and answers through URLSession; invalid documents fail with located errors"
    )
    func everyCorpusFileThroughTheRegistry() async throws {
        let folder = try corpusURL("har")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".har") || $0.hasSuffix(".har.json") }
            .sorted()
        #expect(names.count >= 11, "the HAR corpus lost files: \(names)")
        var answered = 0
        for name in names {
            let path = folder.appendingPathComponent(name).path
            let registry = StubRegistry()
            if name == "har-validator-invalid.har.json" {
                // Three documents under names, not a HAR itself: refused, located at its root.
                let thrown = #expect(throws: StubFileError.self) { try registry.load(path) }
                let error = try #require(thrown?.diagnostics.first { $0.severity == .error })
                #expect(
                    error.source.file == path && error.source.line == 1 && error.source.column == 1
                        && error.jsonPath == "$",
                    "\(error)"
                )
                #expect(error.description.hasPrefix("\(path):1:1: error: $: "), "\(error)")
                #expect(registry.stubs.isEmpty)
                continue
            }
            // `.har.json` is recognised by its `log` member, `.har` by its extension.
            let identities = try registry.load(path)
            #expect(!identities.isEmpty, "\(name) made no stubs")
            let document = try JSONValue(parsing: Data(contentsOf: URL(fileURLWithPath: path)))
            let entries = try #require(document.objectValue?["log"]?.objectValue?["entries"]?.arrayValue, "\(name)")
            for entryValue in entries {
                let request = try #require(entryValue.objectValue?["request"]?.objectValue)
                let response = try #require(entryValue.objectValue?["response"]?.objectValue)
                let method = try #require(request["method"]?.stringValue)
                let url = try #require(request["url"]?.stringValue)
                let status = try #require(response["status"]?.numberValue?.int64Value)
                guard status != 0 else { continue }
                let (data, http) = try await send(
                    registry.makeSession(),
                    method,
                    url,
                    body: request["postData"]?.objectValue?["text"]?.stringValue
                )
                #expect(http.statusCode == Int(status), "\(name): \(method) \(url)")
                if let recorded = recordedBody(response, method: method) {
                    #expect(data == recorded, "\(name): \(method) \(url): \(data.count) bytes")
                } else {
                    #expect(!data.isEmpty, "\(name): \(method) \(url): compressed chunks gave no body")
                }
                answered += 1
                break
            }
        }
        #expect(answered == names.count - 1, "every valid corpus HAR should answer one recorded request")

        // Each of har-validator's invalid documents, as a file of its own, fails with a located error.
        let invalid = try #require(
            try JSONValue(parsing: Data(contentsOf: folder.appendingPathComponent("har-validator-invalid.har.json")))
                .objectValue
        )
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("har-invalid-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        for (key, jsonPath, message) in [
            ("creator", "$.log.creator.version", "'version' must be a string"),
            ("date", "$.log.pages[0].startedDateTime", "no time zone"),
            ("version", "$.log.version", "'version' must be a string"),
        ] {
            let file = scratch.appendingPathComponent("\(key).har.json")
            try Data(try #require(invalid[key]).serialized(pretty: true).utf8).write(to: file)
            let registry = StubRegistry()
            let thrown = #expect(throws: StubFileError.self, "\(key)") { try registry.load(file.path) }
            let errors = thrown?.diagnostics.filter { $0.severity == .error } ?? []
            #expect(errors.count == 1, "\(key): \(errors)")
            let error = try #require(errors.first)
            let line = try #require(error.source.line, "\(key): \(error)")
            let column = try #require(error.source.column, "\(key): \(error)")
            #expect(error.jsonPath == jsonPath, "\(key): \(error)")
            #expect(error.message.contains(message), "\(key): \(error)")
            #expect(error.description.hasPrefix("\(file.path):\(line):\(column): error: \(jsonPath): "), "\(error)")
            #expect(registry.stubs.isEmpty)
        }
    }

    @Test("the har-validator fixture of invalid documents, read as one file, is not a HAR")
    func invalidFixtureAsAWholeIsNotAHAR() throws {
        let loaded = try loadCorpusHAR("har-validator-invalid.har.json")
        #expect(loaded.stubs.isEmpty)
        let error = try #require(loaded.errors.first)
        #expect(error.jsonPath == "$")
        #expect(error.message.contains("'log'"))
        #expect(error.source.line == 1 && error.source.column == 1)
    }

    // MARK: Corpus specifics

    @Test("Charles: the HTML page of https://mitmproxy.org/?= comes back with its status and type")
    func charles() async throws {
        let loaded = try loadCorpusHAR("mitmproxy-charles.har")
        let (data, http) = try await send(loaded.session, "GET", "https://mitmproxy.org/?=")
        #expect(http.statusCode == 200)
        #expect(http.value(forHTTPHeaderField: "Content-Type") == "text/html")
        let html = String(decoding: data, as: UTF8.self)
        #expect(html.hasPrefix("<!DOCTYPE html>") || html.contains("<html"))
        #expect(html.contains("mitmproxy"))
        let stub = try #require(loaded.stubs.first)
        #expect(stub.source.file == loaded.path)
        #expect(stub.source.index == 0)
        #expect(stub.source.line != nil && stub.source.column != nil)
        #expect(stub.responses.first?.summary.hasPrefix("200 OK") == true)
    }

    @Test("Chrome: a 304 with a base64 body, a failed request and an HTTP/3 PNG")
    func chrome() async throws {
        let loaded = try loadCorpusHAR("mitmproxy-chrome.har")
        #expect(loaded.stubs.count == 3)

        let (page, notModified) = try await send(loaded.session, "GET", "https://mitmproxy.org/")
        #expect(notModified.statusCode == 304)
        #expect(String(decoding: page, as: UTF8.self).contains("<html"))
        #expect(page.count == 23_866)

        let (png, ok) = try await send(
            loaded.session,
            "GET",
            "https://www.google.com/images/branding/googlelogo/2x/googlelogo_light_color_272x92dp.png"
        )
        #expect(ok.statusCode == 200)
        #expect(png.count == 7_108)
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        #expect(ok.value(forHTTPHeaderField: "Content-Type") == "image/png")

        do {
            _ = try await send(loaded.session, "GET", "https://www.google.com/")
            Issue.record("the failed entry answered")
        } catch let error as URLError {
            #expect(error.code == .notConnectedToInternet)
        }
    }

    @Test("postdata: the recorded POST matches with its JSON body, and with the members reordered")
    func postData() async throws {
        let loaded = try loadCorpusHAR("mitmproxy-postdata.har")
        let entry = try #require(
            loaded.document.root.objectValue?["log"]?.objectValue?["entries"]?.arrayValue?.first?.objectValue
        )
        let text = try #require(entry["request"]?.objectValue?["postData"]?.objectValue?["text"]?.stringValue)
        let url = "https://signal-metrics-collector-beta.s-onetag.com/metrics"

        let (_, http) = try await send(loaded.session, "POST", url, body: text)
        #expect(http.statusCode == 200)
        #expect(http.value(forHTTPHeaderField: "access-control-allow-origin") == "*")
        #expect(http.value(forHTTPHeaderField: ":status") == nil)

        let json = try #require(try JSONValue(parsing: text).objectValue)
        let reordered = JSONValue.object(JSONObject(members: json.members.reversed()))
        #expect(reordered.serialized() != JSONValue.object(json).serialized())
        let (_, again) = try await send(loaded.session, "POST", url, body: reordered.serialized())
        #expect(again.statusCode == 200)

        await #expect(throws: URLError.self) {
            _ = try await send(loaded.session, "GET", url)
        }
    }

    @Test("a file starting with a UTF-8 byte order mark loads and replays")
    func byteOrderMark() async throws {
        let data = try Data(contentsOf: try corpusURL("har/mitmproxy-with-bom.har"))
        #expect(Array(data.prefix(3)) == [0xEF, 0xBB, 0xBF])
        let loaded = try loadCorpusHAR("mitmproxy-with-bom.har")
        #expect(loaded.diagnostics.isEmpty, "\(loaded.diagnostics)")
        #expect(loaded.stubs.count == 1)
        let stub = try #require(loaded.stubs.first)
        #expect(stub.source.line == 10)
        let (_, http) = try await send(
            loaded.session,
            "POST",
            "https://signal-metrics-collector-beta.s-onetag.com/metrics",
            body: "{}"
        )
        #expect(http.statusCode == 200)
    }

    @Test("HEAD whose response declares a length: an empty body and no Content-Length")
    func headContentLength() async throws {
        let loaded = try loadCorpusHAR("mitmproxy-head-content-length.har")
        let entry = try #require(
            loaded.document.root.objectValue?["log"]?.objectValue?["entries"]?.arrayValue?.first?.objectValue
        )
        let url = try #require(entry["request"]?.objectValue?["url"]?.stringValue)
        let (data, http) = try await send(loaded.session, "HEAD", url)
        #expect(http.statusCode == 200)
        #expect(data.isEmpty)
        #expect(http.value(forHTTPHeaderField: "Content-Length") == nil)
        #expect(http.value(forHTTPHeaderField: "x-pypi-file-project") == "tqdm")
        await #expect(throws: URLError.self) {
            _ = try await send(loaded.session, "GET", url)
        }
    }

    @Test("Insomnia: tab-indented, settingEncodeUrl and a GET with empty postData load without a warning")
    func insomnia() async throws {
        let loaded = try loadCorpusHAR("mitmproxy-insomnia.har")
        #expect(loaded.diagnostics.isEmpty, "\(loaded.diagnostics)")
        let (data, http) = try await send(loaded.session, "GET", "http://mitm.it/")
        #expect(http.statusCode == 200)
        #expect(String(decoding: data, as: UTF8.self).contains("traffic is not passing through mitmproxy"))
    }

    @Test("Polly.JS: array-valued header values expand to several fields; postData without text is no body")
    func pollyHeaders() async throws {
        let loaded = try loadCorpusHAR("pollyjs-jest-node-fetch-should-return-post.har")
        #expect(loaded.diagnostics.isEmpty, "\(loaded.diagnostics)")
        let stub = try #require(loaded.stubs.first)
        guard case let .http(_, reason, headers, _) = try #require(stub.responses.first).content else {
            Issue.record("not an HTTP response")
            return
        }
        #expect(reason == "OK")
        #expect(headers.values(for: "set-cookie").count == 1)
        #expect(headers.values(for: "set-cookie").first?.hasPrefix("__cfduid=") == true)
        #expect(!headers.contains("content-encoding") && !headers.contains("transfer-encoding"))

        let (data, http) = try await send(loaded.session, "GET", "https://jsonplaceholder.typicode.com/posts/1")
        #expect(http.statusCode == 200)
        #expect(http.value(forHTTPHeaderField: "Set-Cookie")?.hasPrefix("__cfduid=") == true)
        let post = try JSONValue(parsing: data)
        #expect(post.objectValue?["id"] == 1)
    }

    @Test("Polly.JS: the %7C-encoded URL matches the decoded queryString; the query is a multiset")
    func pollyQuery() async throws {
        let loaded = try loadCorpusHAR("pollyjs-puppeteer.har")
        let entries = try #require(loaded.document.root.objectValue?["log"]?.objectValue?["entries"]?.arrayValue)
        let recorded = try #require(
            entries[1].objectValue?["request"]?.objectValue?["queryString"]?.arrayValue?.first?.objectValue
        )
        #expect(recorded["value"] == "3|9|2|7|10|5")

        let (users, usersResponse) = try await send(
            loaded.session,
            "GET",
            "https://jsonplaceholder.typicode.com/users?id_like=3%7C9%7C2%7C7%7C10%7C5"
        )
        #expect(usersResponse.statusCode == 200)
        #expect(try JSONValue(parsing: users).arrayValue?.count == 6)
        let (_, sameDecoded) = try await send(
            loaded.session,
            "GET",
            "https://jsonplaceholder.typicode.com/users?id_like=3%7c9%7c2%7c7%7c10%7c5"
        )
        #expect(sameDecoded.statusCode == 200)

        let posts = "https://jsonplaceholder.typicode.com/posts"
        let (_, inOrder) = try await send(loaded.session, "GET", "\(posts)?_end=10&_order=ASC&_sort=title&_start=0")
        #expect(inOrder.statusCode == 200)
        let (_, shuffled) = try await send(loaded.session, "GET", "\(posts)?_start=0&_sort=title&_end=10&_order=ASC")
        #expect(shuffled.statusCode == 200)
        for unmatched in [
            "\(posts)?_end=10&_order=ASC&_sort=title&_start=0&extra=1",
            "\(posts)?_end=10&_order=ASC&_sort=title",
            "\(posts)?_end=10&_order=ASC&_sort=title&_start=0&_start=0",
            "\(posts)?_end=10&_order=DESC&_sort=title&_start=0",
        ] {
            await #expect(throws: URLError.self, "\(unmatched)") {
                _ = try await send(loaded.session, "GET", unmatched)
            }
        }
        #expect(loaded.registry.unmatchedRequests.count == 4)
    }

    // MARK: har-validator

    @Test(
        "har-validator's invalid documents each give a located error",
        arguments: [
            ("creator", "$.creator.log.creator.version", 7, 20, "'version' must be a string"),
            ("date", "$.date.log.pages[0].startedDateTime", 23, 30, "no time zone"),
            ("version", "$.version.log.version", 38, 18, "'version' must be a string"),
        ]
    )
    func harValidatorInvalid(key: String, jsonPath: String, line: Int, column: Int, message: String) throws {
        let data = try Data(contentsOf: try corpusURL("har/har-validator-invalid.har.json"))
        let decoder = StubFileReader(path: "invalid.json", document: try JSONValue.parseDocument(data))
        let stubs = HARReader(file: decoder).stubs(at: JSONPath([.key(key)]))
        #expect(stubs.isEmpty)
        let errors = decoder.diagnostics.filter { $0.severity == .error }
        #expect(errors.count == 1, "\(errors)")
        let error = try #require(errors.first)
        #expect(error.jsonPath == jsonPath)
        #expect(error.source.line == line)
        #expect(error.source.column == column)
        #expect(error.message.contains(message), "\(error.message)")
        #expect(error.description.hasPrefix("invalid.json:\(line):\(column): error: \(jsonPath): "))
    }

    @Test("har-validator's valid document loads and replays")
    func harValidatorValid() async throws {
        let loaded = try loadCorpusHAR("har-validator-valid.har.json")
        #expect(loaded.diagnostics.isEmpty, "\(loaded.diagnostics)")
        let (data, http) = try await send(loaded.session, "GET", "http://mockbin.com/")
        #expect(http.statusCode == 200)
        #expect(String(decoding: data, as: UTF8.self) == "ALL YOUR BASE ARE BELONG TO US")
        #expect(http.value(forHTTPHeaderField: "Content-Encoding") == nil)
        #expect(http.value(forHTTPHeaderField: "X-Powered-By") == "mockbin.com")
    }

    // MARK: Semantics on inline captures

    @Test("identical requests are answered in startedDateTime order, then the last repeats")
    func sequenceByStartTime() async throws {
        let har = document([
            entry(url: "https://api.example.com/poll", text: "second", started: "2024-01-01T10:00:01.000+00:00"),
            entry(url: "https://api.example.com/poll", text: "third", started: "2024-01-01T12:00:02+02:00"),
            entry(url: "https://api.example.com/poll", text: "first", started: "2024-01-01T09:59:59.5Z"),
            entry(url: "https://api.example.com/other", text: "other", started: "2024-01-01T09:00:00Z"),
        ])
        let loaded = try loadHAR(har)
        #expect(loaded.diagnostics.isEmpty, "\(loaded.diagnostics)")
        #expect(loaded.stubs.count == 2)
        let poll = try #require(loaded.stubs.first { $0.source.index == 2 })
        #expect(poll.responses.count == 3)
        #expect(poll.afterLastResponse == .repeatLast)
        var answers: [String] = []
        for _ in 0..<5 {
            answers.append(try await text(loaded.session, "GET", "https://api.example.com/poll"))
        }
        #expect(answers == ["first", "second", "third", "third", "third"])
    }

    @Test("without a startedDateTime on every entry, file order; Polly.JS's _order comes first")
    func sequenceByFileOrderAndPollyOrder() async throws {
        let byFile = try loadHAR(
            document([
                entry(url: "https://api.example.com/a", text: "one", started: "2024-01-01T10:00:05Z"),
                entry(url: "https://api.example.com/a", text: "two"),
            ])
        )
        #expect(try await text(byFile.session, "GET", "https://api.example.com/a") == "one")
        #expect(try await text(byFile.session, "GET", "https://api.example.com/a") == "two")

        let byOrder = try loadHAR(
            document([
                entry(url: "https://api.example.com/b", text: "later", started: "2024-01-01T10:00:00Z", order: 1),
                entry(url: "https://api.example.com/b", text: "earlier", started: "2024-01-01T10:00:01Z", order: 0),
            ])
        )
        #expect(try await text(byOrder.session, "GET", "https://api.example.com/b") == "earlier")
        #expect(try await text(byOrder.session, "GET", "https://api.example.com/b") == "later")
    }

    @Test("tied entries with different bodies each get a stub keyed by the body; JSON compares semantically")
    func bodySelectsAmongTiedEntries() async throws {
        let url = "https://api.example.com/search"
        let loaded = try loadHAR(
            document([
                entry(method: "POST", url: url, requestBody: #"{"q":"cats","page":1}"#, text: "cats 1"),
                entry(method: "POST", url: url, requestBody: #"{"q":"dogs","page":1}"#, text: "dogs"),
                entry(method: "POST", url: url, requestBody: #"{"page": 1.0, "q": "cats"}"#, text: "cats 2"),
                entry(method: "POST", url: url, requestBody: "plain text", text: "plain"),
                entry(method: "POST", url: url, text: "empty"),
            ])
        )
        #expect(loaded.diagnostics.isEmpty, "\(loaded.diagnostics)")
        #expect(loaded.stubs.count == 4)
        #expect(loaded.stubs.allSatisfy { stub in stub.pattern.matchers.contains { $0.part == .body } })
        #expect(try await text(loaded.session, "POST", url, body: #"{"page":1,"q":"cats"}"#) == "cats 1")
        #expect(try await text(loaded.session, "POST", url, body: #"{ "q": "dogs", "page": 1 }"#) == "dogs")
        #expect(try await text(loaded.session, "POST", url, body: #"{"q":"cats","page":1}"#) == "cats 2")
        #expect(try await text(loaded.session, "POST", url, body: "plain text") == "plain")
        #expect(try await text(loaded.session, "POST", url) == "empty")
        await #expect(throws: URLError.self) {
            _ = try await send(loaded.session, "POST", url, body: #"{"q":"birds","page":1}"#)
        }
        await #expect(throws: URLError.self) {
            _ = try await send(loaded.session, "POST", url, body: "plain text ")
        }
    }

    @Test("tied entries with the same body, or none, do not look at the body")
    func sameBodyIsNotMatched() async throws {
        let url = "https://api.example.com/track"
        let loaded = try loadHAR(
            document([
                entry(method: "POST", url: url, requestBody: #"{"event":"open"}"#, text: "1"),
                entry(method: "POST", url: url, requestBody: #"{ "event": "open" }"#, text: "2"),
            ])
        )
        #expect(loaded.stubs.count == 1)
        #expect(loaded.stubs.first?.pattern.matchers.contains { $0.part == .body } == false)
        #expect(try await text(loaded.session, "POST", url, body: "anything") == "1")
        #expect(try await text(loaded.session, "POST", url) == "2")
    }

    @Test("a repeated query pair must come as often as recorded; the scheme, host and port must agree")
    func queryMultisetAndOrigin() async throws {
        let loaded = try loadHAR(
            document([
                entry(url: "https://api.example.com/tags?t=a&t=b&t=a&q=x%20y", text: "tags"),
                entry(url: "http://api.example.com:8080/tags", text: "plain http"),
            ])
        )
        #expect(try await text(loaded.session, "GET", "https://api.example.com:443/tags?t=b&q=x+y&t=a&t=a") == "tags")
        #expect(try await text(loaded.session, "GET", "http://API.example.com:8080/tags") == "plain http")
        for unmatched in [
            "https://api.example.com/tags?t=a&t=b&q=x%20y",
            "https://api.example.com/tags?t=a&t=b&t=b&q=x%20y",
            "https://api.example.com/tags?t=a&t=b&t=a&q=x%20y&t=a",
            "https://api.example.com:8443/tags?t=a&t=b&t=a&q=x%20y",
            "http://api.example.com/tags",
            "https://api.example.com:8080/tags",
        ] {
            await #expect(throws: URLError.self, "\(unmatched)") {
                _ = try await send(loaded.session, "GET", unmatched)
            }
        }
        let verdict = RequestMatcher.queryPairs(exactly: [("t", "a"), ("t", "a")])
            .evaluate(InterceptedRequest(url: URL(string: "https://x.test/?t=a&u=1")!))
        #expect(!verdict.isMatch)
        #expect(verdict.detail == "missing t=a; unexpected u=1")
    }

    @Test("postData without text: params rebuild a form body")
    func formParams() async throws {
        let url = "https://api.example.com/login"
        func form(_ user: String) -> JSONValue {
            [
                "mimeType": "application/x-www-form-urlencoded",
                "params": [["name": "user", "value": .string(user)], ["name": "remember", "value": "yes & no"]],
            ]
        }
        let loaded = try loadHAR(
            document([
                entry(method: "POST", url: url, postData: form("ann"), text: "ann"),
                entry(method: "POST", url: url, postData: form("bob"), text: "bob"),
            ])
        )
        #expect(loaded.diagnostics.isEmpty, "\(loaded.diagnostics)")
        #expect(try await text(loaded.session, "POST", url, body: "user=bob&remember=yes+%26+no") == "bob")
        #expect(try await text(loaded.session, "POST", url, body: "user=ann&remember=yes+%26+no") == "ann")
    }

    @Test("response headers: repeats kept, pseudo-headers and wire-encoding headers dropped, reason kept")
    func responseHeaders() throws {
        let loaded = try loadHAR(
            document([
                entry(
                    url: "https://api.example.com/h",
                    status: 201,
                    statusText: "Created",
                    headers: [
                        ["name": ":status", "value": "201"],
                        ["name": "Link", "value": "<a>"],
                        ["name": "link", "value": ["<b>", "<c>"]],
                        ["name": "Content-Length", "value": "99"],
                        ["name": "content-encoding", "value": "br"],
                        ["name": "Transfer-Encoding", "value": "chunked"],
                        ["name": "X-Custom", "value": ""],
                    ],
                    text: "body"
                )
            ])
        )
        guard case let .http(status, reason, headers, _) = try #require(loaded.stubs.first?.responses.first).content
        else {
            Issue.record("not an HTTP response")
            return
        }
        #expect(status == 201)
        #expect(reason == "Created")
        #expect(headers.fields.map(\.name) == ["Link", "link", "link", "X-Custom"])
        #expect(headers.values(for: "link") == ["<a>", "<b>", "<c>"])
    }

    @Test(
        "a failed entry replays as a URLError chosen from the browser's error name",
        arguments: [
            ("net::ERR_CONNECTION_REFUSED", URLError.Code.cannotConnectToHost),
            ("net::ERR_NAME_NOT_RESOLVED", .cannotFindHost),
            ("net::ERR_INTERNET_DISCONNECTED", .notConnectedToInternet),
            ("net::ERR_TIMED_OUT", .timedOut),
            ("net::ERR_CONNECTION_TIMED_OUT", .timedOut),
            ("net::ERR_ABORTED", .cancelled),
            ("ERR_BLOCKED_BY_CLIENT", .cancelled),
            ("net::ERR_CERT_AUTHORITY_INVALID", .serverCertificateUntrusted),
            ("net::ERR_SSL_PROTOCOL_ERROR", .secureConnectionFailed),
            ("net::ERR_EMPTY_RESPONSE", .networkConnectionLost),
        ]
    )
    func failedEntry(name: String, code: URLError.Code) async throws {
        #expect(HARReader.urlErrorCode(forBrowserError: name) == code)
        let loaded = try loadHAR(
            document([
                entry(url: "https://api.example.com/down", status: 0, statusText: "", error: name)
            ])
        )
        #expect(loaded.diagnostics.isEmpty, "\(loaded.diagnostics)")
        do {
            _ = try await send(loaded.session, "GET", "https://api.example.com/down")
            Issue.record("the failed entry answered")
        } catch let error as URLError {
            #expect(error.code == code)
        }
    }

    @Test("a failed entry without an error name replays as a lost connection")
    func failedEntryWithoutName() {
        #expect(HARReader.urlErrorCode(forBrowserError: nil) == .networkConnectionLost)
    }

    // MARK: Diagnostics

    @Test("structural problems are located errors, and the broken entries are left out")
    func structuralErrors() throws {
        let text = """
            {"log": {"version": "1.2", "creator": {"name": "t", "version": "1"}, "entries": [
              {"request": {"url": "https://a.test/"}, "response": {"status": 200}},
              {"request": {"method": "GET"}, "response": {"status": 200}},
              {"request": {"method": "GET", "url": "/relative"}, "response": {"status": 200}},
              {"request": {"method": "GET", "url": "https://a.test/ok"}, "response": {"status": 200}},
              {"request": {"method": "GET", "url": "https://a.test/b64"}, "response": {"status": 200, "content": {"text": "A", "encoding": "base64"}}},
              {"request": {"method": "GET", "url": "https://a.test/t"}, "startedDateTime": "2024-01-01T00:00:00", "response": {"status": "200"}},
              {"request": {"method": "GET", "url": "https://a.test/h"}, "response": {"status": 200, "headers": [{"name": "A", "value": 1}]}}
            ]}}
            """
        let loaded = try loadHAR(text)
        #expect(loaded.stubs.count == 1)
        #expect(loaded.stubs.first?.source.index == 3)
        #expect(loaded.stubs.first?.source.line == 5)
        #expect(loaded.stubs.first?.source.column == 3)
        let located = loaded.errors.map { "\($0.source.line ?? 0):\($0.jsonPath ?? "") \($0.message)" }
        let expected: [(String, String)] = [
            ("2:$.log.entries[0].request", "no 'method'"),
            ("3:$.log.entries[1].request", "no 'url'"),
            ("4:$.log.entries[2].request.url", "not an absolute URL"),
            ("6:$.log.entries[4].response.content.text", "not valid base64"),
            ("7:$.log.entries[5].startedDateTime", "no time zone"),
            ("7:$.log.entries[5].response.status", "must be an integer"),
            ("8:$.log.entries[6].request", ""),
        ]
        #expect(located.count == expected.count, "\(located)")
        for (prefix, fragment) in expected.dropLast() {
            #expect(
                located.contains { $0.hasPrefix(prefix + " ") && $0.contains(fragment) },
                "\(prefix) \(fragment) in \(located)"
            )
        }
        #expect(
            located.contains {
                $0.hasPrefix("8:$.log.entries[6].response.headers[0].value") && $0.contains("must be a string")
            },
            "\(located)"
        )
    }

    @Test(
        "a document without log or entries is a located error",
        arguments: [
            (#"{"logs": {}}"#, "$", "'log'"),
            (#"{"log": {"version": "1.2", "creator": {"name": "t", "version": "1"}}}"#, "$.log", "'entries'"),
            (
                #"{"log": {"version": "1.2", "creator": {"name": "t", "version": "1"}, "entries": {}}}"#,
                "$.log.entries", "must be an array"
            ),
            (#"[1]"#, "$", "must be a JSON object"),
        ]
    )
    func missingLog(text: String, jsonPath: String, fragment: String) throws {
        let loaded = try loadHAR(text)
        #expect(loaded.stubs.isEmpty)
        #expect(loaded.errors.count == 1)
        #expect(loaded.errors.first?.jsonPath == jsonPath)
        #expect(loaded.errors.first?.message.contains(fragment) == true, "\(loaded.errors)")
        #expect(loaded.errors.first?.source.line == 1)
    }

    @Test(
        "startedDateTime: ISO 8601 with a zone",
        arguments: [
            ("1970-01-01T00:00:00Z", HARTimestamp.instant(0)),
            ("1970-01-01T01:00:00+01:00", .instant(0)),
            ("1970-01-01T00:00:01.5-0000", .instant(1_500_000_000)),
            ("2023-12-12T16:23:16.067544+00:00", .instant(1_702_398_196_067_544_000)),
            ("2023-03-29T17:37:42.482-07:00", .instant(1_680_136_662_482_000_000)),
            ("1969-12-31T23:59:59Z", .instant(-1_000_000_000)),
            ("2000-02-29T12:00Z", .instant(951_825_600_000_000_000)),
            ("2015-02-10T07:33:17.146", .missingTimeZone),
            ("2015-02-10", .invalid),
            ("2015-02-10T07:33:17.Z", .invalid),
            ("2015-13-10T07:33:17Z", .invalid),
            ("2015-02-10T07:33:17+01:00x", .invalid),
            ("yesterday", .invalid),
        ]
    )
    func timestamps(text: String, expected: HARTimestamp) {
        #expect(HARTimestamp(text) == expected)
    }

    @Test("custom fields and an unknown encoding: custom fields are silent, the encoding is warned about")
    func tolerance() async throws {
        let loaded = try loadHAR(
            #"""
            {"log": {"version": "1.2", "creator": {"name": "t", "version": "1"}, "_custom": 1, "entries": [
              {"_id": "x", "request": {"method": "get", "url": "https://a.test/#frag", "httpVersion": "", "settingEncodeUrl": true},
               "response": {"status": 200, "httpVersion": "h3", "_transferSize": 5, "content": {"text": "hi", "encoding": "quoted-printable"}}}
            ]}}
            """#
        )
        #expect(loaded.errors.isEmpty)
        #expect(loaded.warnings.count == 1)
        #expect(loaded.warnings.first?.jsonPath == "$.log.entries[0].response.content.encoding")
        #expect(try await text(loaded.session, "GET", "https://a.test/") == "hi")
    }

    @Test("log problems: a numeric version, a missing creator, a non-1.x version")
    func logProblems() throws {
        let numeric = try loadHAR(
            #"{"log": {"version": 1.2, "creator": {"name": "t", "version": "1"}, "entries": []}}"#
        )
        #expect(numeric.errors.map(\.jsonPath) == ["$.log.version"])
        let noCreator = try loadHAR(#"{"log": {"version": "1.2", "entries": []}}"#)
        #expect(noCreator.errors.isEmpty)
        #expect(noCreator.warnings.contains { $0.message.contains("'creator'") })
        let future = try loadHAR(
            #"{"log": {"version": "2.0", "creator": {"name": "t", "version": "1"}, "entries": []}}"#
        )
        #expect(future.errors.isEmpty)
        #expect(future.warnings.contains { $0.jsonPath == "$.log.version" })
    }

    @Test("Polly.JS's hex chunks of a gzip body are decompressed and served without Content-Encoding")
    func pollyCompressedChunks() throws {
        let loaded = try loadCorpusHAR("pollyjs-jest-node-fetch-should-return-post.har")
        guard case let .http(_, _, headers, body) = try #require(loaded.stubs.first?.responses.first).content,
            case let .data(data) = body.source
        else {
            Issue.record("not an HTTP response with a body in memory")
            return
        }
        #expect(!headers.contains("Content-Encoding"))
        let post = try #require(try JSONValue(parsing: data).objectValue)
        #expect(post["userId"] == 1)
        #expect(post["title"]?.stringValue?.hasPrefix("sunt aut facere") == true)
        #expect(HARReader.pollyChunks(#"["1f8b", "08"]"#) == Data([0x1F, 0x8B, 0x08]))
        #expect(HARReader.pollyChunks(#"["1f8"]"#) == nil)
        #expect(HARReader.pollyChunks(#"["xyz0"]"#) == nil)
        #expect(HARReader.pollyChunks(#"{"a": 1}"#) == nil)
    }

    @Test(
        "inflate: gzip, zlib and stored deflate; other encodings and truncated data are refused",
        arguments: [
            ("gzip", "1f8b0800000000000203cb48cdc9c957c840903a0a1e8e418a00aa57102017000000"),
            ("deflate", "789ccb48cdc9c957c840903a0a1e8e418a00656c07c5"),
            ("deflate", "011700e8ff68656c6c6f2068656c6c6f2068656c6c6f2c2048415221"),
        ]
    )
    func inflate(encoding: String, hex: String) throws {
        let compressed = try #require(HARReader.pollyChunks("[\"\(hex)\"]"))
        let data = try Inflate.decompress(compressed, contentEncoding: encoding).get()
        #expect(String(decoding: data, as: UTF8.self) == "hello hello hello, HAR!")
        #expect(Inflate.decompress(compressed.dropLast(10), contentEncoding: encoding) == .failure(.malformed))
        #expect(Inflate.decompress(compressed, contentEncoding: "br") == .failure(.unsupportedEncoding))
    }

    @Test("inflate: the output stops at the limit; the default limit is 64 MiB, or 100 times the input past 1 MiB")
    func inflateLimit() throws {
        let zeros = [UInt8](repeating: 0, count: 1 + 258 * 100)
        let body = GzipBodies.zeros(copies: 100, crc: CRC32.checksum(zeros))
        #expect(try Inflate.decompress(body, contentEncoding: "gzip", limit: zeros.count).get() == Data(zeros))
        #expect(
            Inflate.decompress(body, contentEncoding: "gzip", limit: zeros.count - 1)
                == .failure(.tooLarge(limit: zeros.count - 1))
        )
        #expect(Inflate.outputLimit(forCompressedSize: 100) == 1 << 20)
        #expect(Inflate.outputLimit(forCompressedSize: 100_000) == 10_000_000)
        #expect(Inflate.outputLimit(forCompressedSize: 10_000_000) == 64 << 20)
    }

    @Test("inflate: gzip CRC-32 and length, and zlib Adler-32, are verified")
    func inflateChecksums() throws {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        let payload = (0..<1_000).map { UInt8(truncatingIfNeeded: $0 * 7) }
        let body = GzipBodies.stored(payload)
        #expect(try Inflate.decompress(body, contentEncoding: "gzip").get() == Data(payload))
        var flipped = body
        flipped[flipped.count - 400] ^= 0x01
        #expect(
            Inflate.decompress(flipped, contentEncoding: "gzip")
                == .failure(.checksumMismatch(what: "the gzip CRC-32 does not match the data"))
        )
        var wrongLength = body
        wrongLength[wrongLength.count - 4] ^= 0x01
        #expect(
            Inflate.decompress(wrongLength, contentEncoding: "gzip")
                == .failure(.checksumMismatch(what: "the gzip length does not match the data"))
        )
        #expect(
            Inflate.decompress(body.dropLast(8), contentEncoding: "gzip")
                == .failure(.checksumMismatch(what: "the gzip trailer (CRC-32 and length) is missing"))
        )
        let zlib = try #require(HARReader.pollyChunks(#"["789ccb48cdc9c957c840903a0a1e8e418a00656c07c5"]"#))
        var wrongAdler = zlib
        wrongAdler[wrongAdler.count - 1] ^= 0x01
        #expect(
            Inflate.decompress(wrongAdler, contentEncoding: "deflate")
                == .failure(.checksumMismatch(what: "the zlib Adler-32 does not match the data"))
        )
    }

    @Test("a Polly.JS gzip body that is corrupted is a located error, not a body served damaged")
    func pollyCorruptedChunks() throws {
        var body = GzipBodies.stored(Array(repeating: UInt8(ascii: "a"), count: 60_000))
        body[30_000] = UInt8(ascii: "b")
        let loaded = try loadHAR(
            document([
                entry(
                    url: "https://api.example.com/a",
                    headers: [["name": "content-encoding", "value": ["gzip"]]],
                    text: "[\"\(GzipBodies.hex(body))\"]"
                )
            ])
        )
        #expect(loaded.stubs.isEmpty)
        let error = try #require(loaded.errors.first, "\(loaded.diagnostics)")
        #expect(error.jsonPath == "$.log.entries[0].response.content.text")
        #expect(error.source.line != nil && error.source.column != nil)
        #expect(
            error.message == #"the body compressed as "gzip" is corrupted: the gzip CRC-32 does not match the data; "#
                + "record the response again (it would otherwise be served damaged)"
        )
    }

    @Test("a Polly.JS gzip bomb is a located error once it inflates past 100 times its size, and no stub serves it")
    func pollyGzipBomb() throws {
        let bomb = GzipBodies.zeros(copies: 20_000)  // 5,160,001 zero bytes from about 32 KB
        let loaded = try loadHAR(
            document([
                entry(
                    url: "https://api.example.com/bomb",
                    headers: [["name": "content-encoding", "value": ["gzip"]]],
                    text: "[\"\(GzipBodies.hex(bomb))\"]"
                ),
                entry(url: "https://api.example.com/fine", text: "fine"),
            ])
        )
        #expect(loaded.stubs.count == 1)
        let error = try #require(loaded.errors.first, "\(loaded.diagnostics)")
        #expect(error.jsonPath == "$.log.entries[0].response.content.text")
        #expect(
            error.message.hasPrefix(
                "the \(bomb.count)-byte body compressed as \"gzip\" inflates to more than \(100 * bomb.count) bytes"
            ),
            "\(error.message)"
        )
        #expect(
            error.message.hasSuffix(
                "which is how a decompression bomb looks; if the body is genuine, record it uncompressed"
            )
        )
    }

    @Test("a Polly.JS brotli body cannot be decompressed: a warning, and it is served with its Content-Encoding")
    func pollyBrotliChunks() throws {
        let loaded = try loadHAR(
            document([
                entry(
                    url: "https://api.example.com/br",
                    headers: [
                        ["name": "content-encoding", "value": ["br"]], ["name": "content-length", "value": "3"],
                    ],
                    text: #"["0b0180"]"#
                )
            ])
        )
        #expect(loaded.warnings.map(\.jsonPath) == ["$.log.entries[0].response.content.text"])
        guard case let .http(_, _, headers, body) = try #require(loaded.stubs.first?.responses.first).content else {
            Issue.record("not an HTTP response")
            return
        }
        #expect(headers.fields.map(\.name) == ["content-encoding"])
        #expect(body == .data(Data([0x0B, 0x01, 0x80])))
    }

    // MARK: Importer

    @Test("the importer names files readably and deterministically")
    func importerNames() throws {
        let first = try importFiles(corpusHAR: "mitmproxy-firefox.har")
        let second = try importFiles(corpusHAR: "mitmproxy-firefox.har")
        #expect(first.map(\.relativePath) == second.map(\.relativePath))
        #expect(first.map(\.contents) == second.map(\.contents))
        let mappings = first.map(\.relativePath).filter { $0.hasPrefix("mappings/") }
        #expect(mappings.count == 14)
        let pattern = /mappings\/[a-z]+-[a-z0-9-]{1,40}-[0-9a-f]{8}\.json/
        #expect(mappings.allSatisfy { $0.wholeMatch(of: pattern) != nil }, "\(mappings)")
        #expect(mappings.contains { $0.hasPrefix("mappings/get-root-") })
        #expect(mappings.contains { $0.hasPrefix("mappings/get-data-github-stats-json-") })
        let bodies = first.map(\.relativePath).filter { $0.hasPrefix("__files/") }
        #expect(bodies.contains { $0.hasPrefix("__files/get-data-github-stats-json-") && $0.hasSuffix(".json") })
        #expect(bodies.contains { $0.hasPrefix("__files/get-favicon-ico-") && $0.hasSuffix(".bin") })
        #expect(bodies.contains { $0.hasPrefix("__files/get-polyfills-js-") && $0.hasSuffix(".txt") })
        #expect(bodies.contains { $0.hasPrefix("__files/get-snapshots-mitmproxy-org-") && $0.hasSuffix(".xml") })
        #expect(HARImporter.slug("/") == "root")
        #expect(HARImporter.slug("/API/v2/Users%20List/") == "api-v2-users-list")
        #expect(HARImporter.slug("/" + String(repeating: "abcdefghi/", count: 6)).count <= 40)
        #expect(HARImporter.hexHash("") == "811c9dc5")
        #expect(HARImporter.hexHash("a") == "e40c292c")
    }

    @Test("the importer writes WireMock mappings: query, body patterns, headers, faults")
    func importerShapes() throws {
        let files = try importFiles(corpusHAR: "pollyjs-puppeteer.har")
        let users = try mapping(files, prefix: "mappings/get-users-")
        #expect(
            users["request"] == [
                "method": "GET",
                "urlPath": "/users",
                "queryParameters": ["id_like": ["equalTo": "3|9|2|7|10|5"]],
            ]
        )
        let response = try #require(users["response"]?.objectValue)
        #expect(response["status"] == 200)
        #expect(response["statusMessage"] == "OK")
        let bodyFile = try #require(response["bodyFileName"]?.stringValue)
        #expect(bodyFile.hasSuffix(".json"))
        let body = try #require(files.first { $0.relativePath == "__files/\(bodyFile)" }?.contents)
        #expect(String(decoding: body, as: UTF8.self).hasPrefix("[\n  {\n    \"id\": "))
        let headers = try #require(response["headers"]?.objectValue)
        #expect(headers["content-type"] == "application/json; charset=utf-8")
        #expect(headers["content-encoding"] == nil)

        let chrome = try importFiles(corpusHAR: "mitmproxy-chrome.har")
        let failed = try mapping(chrome, prefix: "mappings/get-root-", containing: "fault")
        #expect(
            failed["response"] == [
                "fault": "CONNECTION_RESET_BY_PEER",
                "swiftHTTPStubs": ["urlError": "notConnectedToInternet"],
            ],
            "the fault for WireMock, and the URLError the capture replays (net::ERR_INTERNET_DISCONNECTED)"
        )
        #expect(failed["request"] == ["method": "GET", "host": "www.google.com", "urlPath": "/"])
        #expect(users["request"]?.objectValue?["host"] == nil)

        let url = "https://api.example.com/search?tag=a&tag=b"
        let inline = try importFiles(
            document([
                entry(method: "POST", url: url, requestBody: #"{"q":1}"#, text: "one"),
                entry(method: "POST", url: url, requestBody: "two", text: "two"),
            ])
        )
        let json = try mapping(inline, prefix: "mappings/post-search-", containing: "equalToJson")
        #expect(
            json["request"]?.objectValue?["queryParameters"] == [
                "tag": ["hasExactly": [["equalTo": "a"], ["equalTo": "b"]]]
            ]
        )
        #expect(json["request"]?.objectValue?["bodyPatterns"] == [["equalToJson": ["q": 1]]])
        let plain = try mapping(inline, prefix: "mappings/post-search-", containing: "\"equalTo\": \"two\"")
        #expect(plain["request"]?.objectValue?["bodyPatterns"] == [["equalTo": "two"]])
        #expect(plain["response"]?.objectValue?["headers"] == ["Content-Type": "text/plain"])
    }

    @Test("repeated identical requests become a WireMock scenario named after its mapping file")
    func importerScenario() throws {
        let files = try importFiles(
            document([
                entry(url: "https://api.example.com/jobs/7", text: "queued"),
                entry(url: "https://api.example.com/jobs/7", text: "running"),
                entry(url: "https://api.example.com/jobs/7", text: "done"),
                entry(url: "https://api.example.com/other", text: "x"),
                entry(url: "https://api.example.com/other", text: "y"),
            ])
        )
        let job = try #require(files.first { $0.relativePath.hasPrefix("mappings/get-jobs-7-") })
        let list = try #require(try JSONValue(parsing: job.contents).objectValue?["mappings"]?.arrayValue)
        let stem = String(job.relativePath.dropFirst("mappings/".count).dropLast(".json".count))
        #expect(list.count == 3)
        let states = list.map { mapping in
            ["scenarioName", "requiredScenarioState", "newScenarioState"].map {
                mapping.objectValue?[$0]?.stringValue ?? "-"
            }
        }
        let scenario = "scenario-\(stem)"
        #expect(
            states == [
                [scenario, "Started", "\(scenario)-2"],
                [scenario, "\(scenario)-2", "\(scenario)-3"],
                [scenario, "\(scenario)-3", "-"],
            ]
        )
        #expect(
            list.map { $0.objectValue?["response"]?.objectValue?["bodyFileName"]?.stringValue } == [
                "\(stem)-1.txt", "\(stem)-2.txt", "\(stem)-3.txt",
            ]
        )
        let other = try #require(files.first { $0.relativePath.hasPrefix("mappings/get-other-") })
        let otherStem = String(other.relativePath.dropFirst("mappings/".count).dropLast(".json".count))
        #expect(String(decoding: other.contents, as: UTF8.self).contains("\"scenario-\(otherStem)\""))
    }

    @Test(
        "the importer's stub root loads back through StubFiles and answers as the HAR does",
        arguments: [
            "har-validator-valid.har.json", "mitmproxy-charles.har", "mitmproxy-chrome.har", "mitmproxy-firefox.har",
            "mitmproxy-head-content-length.har", "mitmproxy-insomnia.har", "mitmproxy-postdata.har",
            "mitmproxy-with-bom.har", "pollyjs-jest-node-fetch-should-return-post.har", "pollyjs-puppeteer.har",
        ]
    )
    func importerRoundTrip(name: String) async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("har-import-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try write(try importFiles(corpusHAR: name), to: root)
        let load = StubFiles.load([root.path])
        #expect(load.diagnostics.isEmpty, "\(load.diagnostics)")
        let original = try loadCorpusHAR(name)
        #expect(load.stubs.count == original.stubs.count)
        let registry = StubRegistry()
        for stub in load.stubs { registry.add(stub) }
        let session = registry.makeSession()
        let entries = try #require(original.document.root.objectValue?["log"]?.objectValue?["entries"]?.arrayValue)
        for entryValue in entries {
            let request = try #require(entryValue.objectValue?["request"]?.objectValue)
            let method = try #require(request["method"]?.stringValue)
            let url = try #require(request["url"]?.stringValue)
            let body = request["postData"]?.objectValue?["text"]?.stringValue
            let expected = await outcome(original.session, method, url, body: body)
            let actual = await outcome(session, method, url, body: body)
            #expect(actual.status == expected.status, "\(method) \(url)")
            #expect((actual.error == nil) == (expected.error == nil), "\(method) \(url)")
            #expect(
                (actual.error as? URLError)?.code == (expected.error as? URLError)?.code,
                "\(method) \(url): the imported root must fail with the capture's URLError"
            )
            if let json = try? JSONValue(parsing: expected.body), json.objectValue != nil || json.arrayValue != nil {
                #expect(try JSONValue(parsing: actual.body) == json, "\(url)")
            } else {
                #expect(actual.body == expected.body, "\(url)")
            }
        }
    }

    @Test("an imported scenario replays in order through StubFiles, then repeats the last")
    func importedScenarioReplays() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("har-import-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try write(
            try importFiles(
                document([
                    entry(url: "https://api.example.com/jobs/7", text: "queued"),
                    entry(url: "https://api.example.com/jobs/7", text: "running"),
                    entry(url: "https://api.example.com/jobs/7", status: 0, statusText: "", error: "net::ERR_ABORTED"),
                    entry(url: "https://api.example.com/jobs/7", text: "done"),
                ])
            ),
            to: root
        )
        let load = StubFiles.load([root.path])
        #expect(load.diagnostics.isEmpty, "\(load.diagnostics)")
        let registry = StubRegistry()
        for stub in load.stubs { registry.add(stub) }
        let session = registry.makeSession()
        let url = "https://api.example.com/jobs/7"
        #expect(try await text(session, "GET", url) == "queued")
        #expect(try await text(session, "GET", url) == "running")
        await #expect(throws: URLError.self) { _ = try await send(session, "GET", url) }
        #expect(try await text(session, "GET", url) == "done")
        #expect(try await text(session, "GET", url) == "done")
    }
}

// MARK: - Helpers

/// A HAR read through a ``HARReader``, its stubs in a registry, and a session it serves.
private struct LoadedHAR {
    let path: String
    let document: JSONDocument
    let stubs: [Stub]
    let diagnostics: [StubDiagnostic]
    let registry: StubRegistry
    let session: URLSession

    var errors: [StubDiagnostic] { diagnostics.filter { $0.severity == .error } }
    var warnings: [StubDiagnostic] { diagnostics.filter { $0.severity == .warning } }

    init(path: String, data: Data) throws {
        let document = try JSONValue.parseDocument(data)
        let decoder = StubFileReader(path: path, document: document)
        self.path = path
        self.document = document
        self.stubs = HARReader(file: decoder).stubs()
        self.diagnostics = decoder.diagnostics
        self.registry = StubRegistry()
        for stub in stubs { registry.add(stub) }
        self.session = registry.makeSession()
    }
}

/// Loads a HAR file of the corpus as it is.
private func loadCorpusHAR(_ name: String) throws -> LoadedHAR {
    let url = try corpusURL("har/\(name)")
    return try LoadedHAR(path: url.path, data: Data(contentsOf: url))
}

/// Loads HAR text.
private func loadHAR(_ text: String) throws -> LoadedHAR {
    try LoadedHAR(path: "inline.har", data: Data(text.utf8))
}

/// The importer's files for HAR text.
private func importFiles(_ text: String) throws -> [(relativePath: String, contents: Data)] {
    let decoder = StubFileReader(path: "inline.har", document: try JSONValue.parseDocument(Data(text.utf8)))
    let files = HARImporter(file: decoder).mappingFiles()
    #expect(decoder.diagnostics.isEmpty, "\(decoder.diagnostics)")
    return files
}

/// The importer's files for a corpus HAR.
private func importFiles(corpusHAR name: String) throws -> [(relativePath: String, contents: Data)] {
    let url = try corpusURL("har/\(name)")
    let decoder = StubFileReader(path: url.path, document: try JSONValue.parseDocument(Data(contentsOf: url)))
    let files = HARImporter(file: decoder).mappingFiles()
    #expect(decoder.diagnostics.isEmpty, "\(decoder.diagnostics)")
    return files
}

/// The mapping object of the one mapping file whose path starts with `prefix` and whose text
/// contains `fragment`.
private func mapping(
    _ files: [(relativePath: String, contents: Data)],
    prefix: String,
    containing fragment: String = ""
) throws -> JSONObject {
    let matching = files.filter {
        $0.relativePath.hasPrefix(prefix)
            && (fragment.isEmpty || String(decoding: $0.contents, as: UTF8.self).contains(fragment))
    }
    #expect(matching.count == 1, "\(prefix) \(fragment): \(files.map(\.relativePath))")
    let file = try #require(matching.first)
    return try #require(try JSONValue(parsing: file.contents).objectValue)
}

/// The body a corpus entry recorded, decoded as the loader must serve it; `nil` for Polly.JS's
/// compressed hex chunks, which the test cannot decompress independently.
private func recordedBody(_ response: JSONObject, method: String) -> Data? {
    guard method != "HEAD", let content = response["content"]?.objectValue, let text = content["text"]?.stringValue
    else {
        return Data()
    }
    if content["encoding"]?.stringValue == "base64" {
        return Data(base64Encoded: text, options: .ignoreUnknownCharacters) ?? Data()
    }
    let isCompressed =
        response["headers"]?.arrayValue?.contains {
            $0.objectValue?["name"]?.stringValue?.lowercased() == "content-encoding"
        } == true
    return isCompressed && text.hasPrefix("[\"") ? nil : Data(text.utf8)
}

/// Writes importer output under `root`.
private func write(_ files: [(relativePath: String, contents: Data)], to root: URL) throws {
    for file in files {
        let url = root.appendingPathComponent(file.relativePath)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try file.contents.write(to: url)
    }
}

/// What a session answered: status and body, or the error.
private func outcome(
    _ session: URLSession,
    _ method: String,
    _ url: String,
    body: String?
) async -> (status: Int?, body: Data, error: (any Error)?) {
    do {
        let (data, http) = try await send(session, method, url, body: body)
        return (http.statusCode, data, nil)
    } catch {
        return (nil, Data(), error)
    }
}

/// Sends a request and returns the body as text.
private func text(_ session: URLSession, _ method: String, _ url: String, body: String? = nil) async throws -> String {
    String(decoding: try await send(session, method, url, body: body).0, as: UTF8.self)
}

/// A HAR 1.2 document with these entries.
private func document(_ entries: [JSONValue]) -> String {
    let log: JSONValue = [
        "log": [
            "version": "1.2",
            "creator": ["name": "HARTests", "version": "1"],
            "entries": .array(entries),
        ]
    ]
    return log.serialized(pretty: true)
}

/// One HAR entry.
private func entry(
    method: String = "GET",
    url: String,
    requestBody: String? = nil,
    postData: JSONValue? = nil,
    status: Int = 200,
    statusText: String = "OK",
    headers: [JSONValue] = [["name": "Content-Type", "value": "text/plain"]],
    text: String = "",
    started: String? = nil,
    order: Int? = nil,
    error: String? = nil
) -> JSONValue {
    var request: JSONObject = [
        "method": .string(method), "url": .string(url), "httpVersion": "HTTP/1.1", "headers": [], "queryString": [],
    ]
    if let requestBody {
        request["postData"] = ["mimeType": "application/json", "text": .string(requestBody)]
    } else if let postData {
        request["postData"] = postData
    }
    var response: JSONObject = [
        "status": .number(JSONNumber(status)),
        "statusText": .string(statusText),
        "headers": .array(headers),
        "content": ["size": .number(JSONNumber(text.utf8.count)), "mimeType": "text/plain", "text": .string(text)],
    ]
    if let error { response["_error"] = .string(error) }
    var entry: JSONObject = ["request": .object(request), "response": .object(response)]
    if let started { entry["startedDateTime"] = .string(started) }
    if let order { entry["_order"] = .number(JSONNumber(order)) }
    return .object(entry)
}
