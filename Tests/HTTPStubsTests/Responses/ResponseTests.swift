import Foundation
import HTTPStubs
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a stubbed response delivers through real URLSession calls: status, headers, bodies of
/// every kind, computed responses and errors. Each test asks through both the completion-handler
/// API and `async` `data(for:)`.
@Suite("Responses")
struct ResponseTests {
    // MARK: Status

    @Test("the status code reaches both APIs", arguments: [200, 201, 204, 304, 404, 418, 500, 503])
    func status(_ code: Int) async throws {
        let stubs = StubRegistry()
        stubs.stub(.get("https://api.example.com/status"), .status(code))
        let session = stubs.makeSession()

        let completion = await complete(session, "https://api.example.com/status")
        #expect(completion.error == nil)
        #expect(completion.status == code)

        let (_, response) = try await session.data(for: URLRequest(url: URL(string: "https://api.example.com/status")!))
        #expect((response as? HTTPURLResponse)?.statusCode == code)
        #expect(response.url == URL(string: "https://api.example.com/status"))
    }

    @Test("a body can come with any status")
    func bodyWithErrorStatus() async throws {
        let stubs = StubRegistry()
        stubs.stub(.get("https://api.example.com/teapot"), .text("short and stout", status: 418))
        let session = stubs.makeSession()

        let completion = await complete(session, "https://api.example.com/teapot")
        #expect(completion.status == 418)
        #expect(completion.text == "short and stout")

        let (data, response) = try await session.data(from: URL(string: "https://api.example.com/teapot")!)
        #expect((response as? HTTPURLResponse)?.statusCode == 418)
        #expect(String(decoding: data, as: UTF8.self) == "short and stout")
    }

    // MARK: Headers

    @Test("headers arrive; a repeated name is folded with \", \" in order")
    func repeatedHeaders() async throws {
        let stubs = StubRegistry()
        stubs.stub(
            .get("https://api.example.com/headers"),
            .text("h")
                .header("X-Trace", "one")
                .header("Cache-Control", "no-cache")
                .header("x-trace", "two")
                .header("cache-control", "no-store")
                .header("X-Trace", "three")
                .header("X-Single", "alone")
        )
        let session = stubs.makeSession()

        let completion = await complete(session, "https://api.example.com/headers")
        let http = try #require(completion.http)
        #expect(http.value(forHTTPHeaderField: "X-Trace") == "one, two, three")
        #expect(http.value(forHTTPHeaderField: "Cache-Control") == "no-cache, no-store")
        #expect(http.value(forHTTPHeaderField: "X-Single") == "alone")
        // One entry per name, not one per field.
        let traceKeys = http.allHeaderFields.keys.compactMap { $0 as? String }.filter { $0.lowercased() == "x-trace" }
        #expect(traceKeys.count == 1)

        let (_, response) = try await session.data(
            for: URLRequest(url: URL(string: "https://api.example.com/headers")!)
        )
        let asyncHTTP = try #require(response as? HTTPURLResponse)
        #expect(asyncHTTP.value(forHTTPHeaderField: "x-trace") == "one, two, three")
        #expect(asyncHTTP.value(forHTTPHeaderField: "cache-control") == "no-cache, no-store")
    }

    @Test("header lookups are case-insensitive")
    func caseInsensitiveHeaders() async throws {
        let stubs = StubRegistry()
        stubs.stub(
            .get("https://api.example.com/etag"),
            .status(200, headers: ["etag": "\"abc\"", "X-RateLimit-Remaining": "41", "content-language": "fr"])
        )
        let session = stubs.makeSession()

        let completion = await complete(session, "https://api.example.com/etag")
        let asyncResponse = try await session.data(for: URLRequest(url: URL(string: "https://api.example.com/etag")!)).1
        for response in [completion.http, asyncResponse as? HTTPURLResponse] {
            let http = try #require(response)
            for spelling in ["ETag", "etag", "ETAG", "Etag"] {
                #expect(http.value(forHTTPHeaderField: spelling) == "\"abc\"", "value(forHTTPHeaderField: \(spelling))")
            }
            for spelling in ["x-ratelimit-remaining", "X-RATELIMIT-REMAINING", "X-RateLimit-Remaining"] {
                #expect(http.value(forHTTPHeaderField: spelling) == "41", "value(forHTTPHeaderField: \(spelling))")
            }
            #expect(http.value(forHTTPHeaderField: "Content-Language") == "fr")
            // allHeaderFields holds each field once, whatever spelling the platform chooses for its name.
            let fields = Dictionary(
                uniqueKeysWithValues: http.allHeaderFields.compactMap { key, value in
                    (key as? String).map { ($0.lowercased(), value as? String) }
                }
            )
            #expect(fields["etag"] == "\"abc\"")
            #expect(fields["x-ratelimit-remaining"] == "41")
            #expect(fields["content-language"] == "fr")
            // Names starting with X- keep their spelling in allHeaderFields.
            #expect(http.allHeaderFields["X-RateLimit-Remaining"] as? String == "41")
        }
    }

    // MARK: Response objects

    @Test(
        "a response object is reused only for the same URL, status and headers; each request gets its own URL and headers"
    )
    func responseObjectsFollowTheirRequest() async throws {
        let stubs = StubRegistry()
        let counter = Counter()
        stubs.stub(
            .get(.pathMatching("/items/[0-9]+")),
            .computed { request in
                counter.increment()
                return .text("item").header("X-Parity", counter.value % 2 == 0 ? "even" : "odd").header(
                    "X-Path",
                    request.path
                )
            }
        )
        let session = stubs.makeSession()
        // More distinct URLs than the registry keeps response objects for, each asked twice in a
        // row (X-Parity differs between the two) and again in a second round.
        var count = 0
        for _ in 0..<2 {
            for item in 0..<100 {
                let url = URL(string: "https://api.example.com/items/\(item)")!
                var pair: [HTTPURLResponse] = []
                for _ in 0..<2 {
                    let (_, response) = try await session.data(from: url)
                    let http = try #require(response as? HTTPURLResponse)
                    count += 1
                    #expect(http.url == url)
                    #expect(http.statusCode == 200)
                    #expect(http.value(forHTTPHeaderField: "X-Path") == "/items/\(item)")
                    #expect(http.value(forHTTPHeaderField: "X-Parity") == (count % 2 == 0 ? "even" : "odd"))
                    pair.append(http)
                }
                // The same URL with other headers is another response object, as it must be.
                #expect(pair[0] !== pair[1])
            }
        }

        let completion = await complete(session, "https://api.example.com/items/7")
        #expect(completion.status == 200)
        #expect(completion.response?.url?.absoluteString == "https://api.example.com/items/7")
    }

    @Test("a constant stub answering several URLs gives each response its own URL")
    func reusedResponsesKeepTheirURL() async throws {
        let stubs = StubRegistry()
        stubs.stub(.get(.pathMatching("/items/[0-9]+")), .json(text: "{}"))
        let session = stubs.makeSession()
        for round in 0..<2 {
            for item in 0..<3 {
                let url = URL(string: "https://api.example.com/items/\(item)")!
                let (_, response) = try await session.data(from: url)
                #expect(response.url == url, "round \(round)")
            }
        }
    }

    @Test("the same URL and headers with another status is another response")
    func reusedResponsesKeepTheirStatus() async throws {
        let stubs = StubRegistry()
        stubs.stub(
            .get("https://api.example.com/flip"),
            responses: [.status(200), .status(201), .status(200), .status(201)]
        )
        let session = stubs.makeSession()
        for expected in [200, 201, 200, 201] {
            let (_, response) = try await session.data(from: URL(string: "https://api.example.com/flip")!)
            #expect((response as? HTTPURLResponse)?.statusCode == expected)
        }
    }

    @Test("header values are delivered as spelled, even when another answer spelled them canonically equal")
    func reusedResponsesKeepTheirSpelling() async throws {
        let stubs = StubRegistry()
        let counter = Counter()
        let spellings = ["caf\u{E9}", "cafe\u{301}"]  // precomposed and decomposed é
        stubs.stub(
            .get("https://api.example.com/cafe"),
            .computed { _ in
                counter.increment()
                return .text("menu").header("X-Name", spellings[counter.value % 2])
            }
        )
        let session = stubs.makeSession()
        for index in 1...4 {
            let (_, response) = try await session.data(from: URL(string: "https://api.example.com/cafe")!)
            let value = try #require((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "X-Name"))
            #expect(Array(value.unicodeScalars) == Array(spellings[index % 2].unicodeScalars))
        }
    }

    @Test("repeated identical answers share one immutable response object")
    func identicalAnswersShareAResponse() async throws {
        let stubs = StubRegistry()
        stubs.stub(.get("https://api.example.com/same"), .json(text: #"{"a":1}"#))
        let session = stubs.makeSession()
        let url = URL(string: "https://api.example.com/same")!
        let (_, first) = try await session.data(from: url)
        let (_, second) = try await session.data(from: url)
        #expect(first === second)
        #expect((second as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type") == "application/json")
    }

    @Test(
        "a constant answer given again, after other answers in between, delivers its own response and body, each journaled"
    )
    func constantAnswersGivenAgainStayTheirOwn() async throws {
        let stubs = StubRegistry()
        stubs.stub(.get("https://api.example.com/a"), .text("alpha").header("X-Name", "a"))
        stubs.stub(.get("https://api.example.com/b"), .text("beta", status: 201))
        stubs.stub(.get(.pathMatching("/items/[0-9]+")), .text("item"))
        let session = stubs.makeSession()
        let expected: [String: (body: String, status: Int)] = [
            "a": ("alpha", 200), "b": ("beta", 201), "items/1": ("item", 200), "items/2": ("item", 200),
        ]
        let order = ["a", "a", "b", "a", "items/1", "items/1", "items/2", "items/1", "b", "b", "a"]
        for (index, path) in order.enumerated() {
            let url = URL(string: "https://api.example.com/\(path)")!
            let (body, response): (String?, URLResponse?)
            if index % 2 == 0 {
                let completion = await complete(session, url.absoluteString)
                (body, response) = (completion.text, completion.response)
            } else {
                let (data, answer) = try await session.data(from: url)
                (body, response) = (String(decoding: data, as: UTF8.self), answer)
            }
            let http = try #require(response as? HTTPURLResponse, "request \(index)")
            #expect(body == expected[path]?.body, "request \(index)")
            #expect(http.statusCode == expected[path]?.status, "request \(index)")
            #expect(http.url == url, "request \(index)")
            #expect(http.value(forHTTPHeaderField: "X-Name") == (path == "a" ? "a" : nil), "request \(index)")
        }
        let journal = stubs.journal
        try #require(journal.count == order.count)
        for (entry, path) in zip(journal, order) {
            #expect(entry.request.url.absoluteString == "https://api.example.com/\(path)")
            #expect(entry.response?.status == expected[path]?.status)
            #expect(entry.response.map { String(decoding: $0.body, as: UTF8.self) } == expected[path]?.body)
        }
    }

    @Test("a constant redirect is followed or delivered as the registry says at each request")
    func constantRedirectFollowsTheCurrentSetting() async throws {
        let stubs = StubRegistry()
        stubs.stub(.get("https://api.example.com/old"), .redirect(to: "https://api.example.com/new", status: 302))
        stubs.stub(.get("https://api.example.com/new"), .text("new"))
        let session = stubs.makeSession()
        for follows in [false, true, false, true] {
            stubs.followsRedirects = follows
            let completion = await complete(session, "https://api.example.com/old")
            #expect(completion.status == (follows ? 200 : 302), "followsRedirects = \(follows)")
            #expect(completion.text == (follows ? "new" : ""), "followsRedirects = \(follows)")
        }
    }

    // MARK: Bodies

    @Test("a Data body arrives byte for byte, with no Content-Type added")
    func dataBody() async throws {
        let bytes = Data([0x00, 0x01, 0x7F, 0x80, 0xFE, 0xFF, 0x0D, 0x0A])
        let stubs = StubRegistry()
        stubs.stub(.get("https://api.example.com/blob"), .data(bytes, status: 206, headers: ["X-Kind": "raw"]))
        let session = stubs.makeSession()

        let completion = await complete(session, "https://api.example.com/blob")
        #expect(completion.data == bytes)
        #expect(completion.status == 206)
        #expect(completion.http?.value(forHTTPHeaderField: "Content-Type") == nil)
        #expect(completion.http?.value(forHTTPHeaderField: "X-Kind") == "raw")

        let (data, response) = try await session.data(
            for: URLRequest(url: URL(string: "https://api.example.com/blob")!)
        )
        #expect(data == bytes)
        #expect((response as? HTTPURLResponse)?.statusCode == 206)
    }

    @Test("a large Data body arrives whole")
    func largeBody() async throws {
        let bytes = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let stubs = StubRegistry()
        stubs.stub(.get("https://api.example.com/large"), .data(bytes))
        let session = stubs.makeSession()

        #expect(await complete(session, "https://api.example.com/large").data == bytes)
        #expect(try await session.data(from: URL(string: "https://api.example.com/large")!).0 == bytes)
    }

    @Test(".text sends UTF-8 with a default text/plain Content-Type")
    func textBody() async throws {
        let text = "Grüße, 世界 🌍"
        let stubs = StubRegistry()
        stubs.stub(.get("https://api.example.com/text"), .text(text))
        let session = stubs.makeSession()

        let completion = await complete(session, "https://api.example.com/text")
        #expect(completion.data == Data(text.utf8))
        #expect(completion.http?.value(forHTTPHeaderField: "Content-Type") == "text/plain; charset=utf-8")
        #expect(completion.http?.mimeType == "text/plain")
        #expect(completion.http?.textEncodingName == "utf-8")

        let (data, response) = try await session.data(
            for: URLRequest(url: URL(string: "https://api.example.com/text")!)
        )
        #expect(String(data: data, encoding: .utf8) == text)
        #expect(
            (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "content-type") == "text/plain; charset=utf-8"
        )
    }

    @Test(".text keeps a Content-Type given in any case, without adding the default")
    func textBodyWithOwnContentType() async throws {
        let stubs = StubRegistry()
        stubs.stub(.get("https://api.example.com/page"), .text("<p>hi</p>", headers: ["content-type": "text/html"]))
        let session = stubs.makeSession()

        let completion = await complete(session, "https://api.example.com/page")
        #expect(completion.http?.value(forHTTPHeaderField: "Content-Type") == "text/html")
        #expect(completion.text == "<p>hi</p>")
        let (_, response) = try await session.data(for: URLRequest(url: URL(string: "https://api.example.com/page")!))
        #expect((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type") == "text/html")
    }

    @Test(".json encodes an Encodable value with Content-Type application/json")
    func encodableBody() async throws {
        let stubs = StubRegistry()
        stubs.stub(.get("https://api.example.com/users/1"), .json(User(id: 1, name: "Ada"), status: 201))
        let session = stubs.makeSession()

        let completion = await complete(session, "https://api.example.com/users/1")
        #expect(completion.status == 201)
        #expect(try JSONDecoder().decode(User.self, from: #require(completion.data)) == User(id: 1, name: "Ada"))
        #expect(completion.http?.value(forHTTPHeaderField: "Content-Type") == "application/json")
        #expect(completion.http?.mimeType == "application/json")

        let (data, response) = try await session.data(
            for: URLRequest(url: URL(string: "https://api.example.com/users/1")!)
        )
        #expect(try JSONDecoder().decode(User.self, from: data) == User(id: 1, name: "Ada"))
        #expect((response as? HTTPURLResponse)?.statusCode == 201)
    }

    @Test(".json uses the given encoder and keeps a given Content-Type")
    func encodableBodyWithEncoder() async throws {
        struct Event: Encodable { let startDate: Date }
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.dateEncodingStrategy = .secondsSince1970
        let stubs = StubRegistry()
        stubs.stub(
            .get("https://api.example.com/event"),
            .json(
                Event(startDate: Date(timeIntervalSince1970: 86_400)),
                headers: ["Content-Type": "application/vnd.api+json"],
                encoder: encoder
            )
        )
        let session = stubs.makeSession()

        let (data, response) = try await session.data(
            for: URLRequest(url: URL(string: "https://api.example.com/event")!)
        )
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        #expect(object?["start_date"] as? Double == 86_400)
        #expect((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type") == "application/vnd.api+json")
        let completion = await complete(session, "https://api.example.com/event")
        #expect(completion.data == data)
    }

    @Test("a value JSONEncoder cannot encode fails the request and is reported with its line")
    func unencodableBody() async throws {
        let stubs = StubRegistry()
        let issues = DiagnosticLog()
        stubs.onDiagnostic { issues.append($0) }
        stubs.stub(.get("https://api.example.com/nan"), .json(["value": Double.nan]))
        let reported = issues.all
        #expect(reported.count == 1)
        #expect(reported.first?.message.contains("ResponseTests.swift") == true)
        let session = stubs.makeSession()

        let completion = await complete(session, "https://api.example.com/nan")
        #expect(completion.urlError?.code == .cannotParseResponse)
        #expect(completion.urlError?.failingURL == URL(string: "https://api.example.com/nan"))
        let error = await asyncError(session, "https://api.example.com/nan")
        #expect((error as? URLError)?.code == .cannotParseResponse)
    }

    @Test(".json(text:) sends the text as is, with Content-Type application/json")
    func jsonTextBody() async throws {
        let text = #"{"b":[1,2,3],"a":null}"#
        let stubs = StubRegistry()
        stubs.stub(.get("https://api.example.com/raw-json"), .json(text: text, status: 202))
        let session = stubs.makeSession()

        let completion = await complete(session, "https://api.example.com/raw-json")
        #expect(completion.text == text)
        #expect(completion.status == 202)
        #expect(completion.http?.value(forHTTPHeaderField: "Content-Type") == "application/json")

        let (data, _) = try await session.data(for: URLRequest(url: URL(string: "https://api.example.com/raw-json")!))
        #expect(data == Data(text.utf8))
    }

    @Test(".file serves the file's bytes, read at each answer")
    func fileBody() async throws {
        let file = FileManager.default.temporaryDirectory
            .appendingPathComponent("http-stubs-response-\(UUID().uuidString).json")
        try Data(#"{"id":5,"name":"Grace"}"#.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let stubs = StubRegistry()
        stubs.stub(.get("https://api.example.com/file"), .file(file, headers: ["Content-Type": "application/json"]))
        let session = stubs.makeSession()

        let completion = await complete(session, "https://api.example.com/file")
        #expect(try JSONDecoder().decode(User.self, from: #require(completion.data)) == User(id: 5, name: "Grace"))
        #expect(completion.http?.value(forHTTPHeaderField: "Content-Type") == "application/json")

        // An edit shows up at the next answer.
        try Data(#"{"id":6,"name":"Hopper"}"#.utf8).write(to: file)
        let (data, _) = try await session.data(for: URLRequest(url: URL(string: "https://api.example.com/file")!))
        #expect(try JSONDecoder().decode(User.self, from: data) == User(id: 6, name: "Hopper"))
    }

    @Test("a missing body file fails with URLError(.fileDoesNotExist) naming the path")
    func missingFile() async throws {
        let file = FileManager.default.temporaryDirectory
            .appendingPathComponent("http-stubs-missing-\(UUID().uuidString).json")
        let stubs = StubRegistry()
        stubs.stub(.get("https://api.example.com/missing-file"), .file(file))
        let session = stubs.makeSession()

        let completion = await complete(session, "https://api.example.com/missing-file")
        let error = try #require(completion.urlError)
        #expect(error.code == .fileDoesNotExist)
        #expect(error.localizedDescription.contains(file.path))
        #expect(error.failingURL == URL(string: "https://api.example.com/missing-file"))
        #expect(completion.response == nil)

        let asyncFailure = try #require(await asyncError(session, "https://api.example.com/missing-file") as? URLError)
        #expect(asyncFailure.code == .fileDoesNotExist)
        #expect(asyncFailure.localizedDescription.contains(file.path))
    }

    // MARK: Computed responses

    @Test(".computed reads the request body")
    func computedFromBody() async throws {
        let stubs = StubRegistry()
        stubs.stub(
            .post("https://api.example.com/echo"),
            .computed { request in
                .text((request.bodyText ?? "<none>").uppercased(), headers: ["X-Method": request.method.rawValue])
            }
        )
        let session = stubs.makeSession()

        let completion = await complete(session, request("POST", "https://api.example.com/echo", body: "whisper"))
        #expect(completion.text == "WHISPER")
        #expect(completion.http?.value(forHTTPHeaderField: "X-Method") == "POST")

        let (data, _) = try await session.data(
            for: request("POST", "https://api.example.com/echo", body: "quiet please")
        )
        #expect(String(decoding: data, as: UTF8.self) == "QUIET PLEASE")
    }

    @Test(".computed reads a streamed request body")
    func computedFromBodyStream() async throws {
        let stubs = StubRegistry()
        stubs.stub(
            .put("https://api.example.com/stream"),
            .computed { request in
                .text("got \(request.body?.count ?? -1) bytes: \(request.bodyText ?? "")")
            }
        )
        let session = stubs.makeSession()
        func streamed() -> URLRequest {
            var streamed = URLRequest(url: URL(string: "https://api.example.com/stream")!)
            streamed.httpMethod = "PUT"
            streamed.httpBodyStream = InputStream(data: Data("from a stream".utf8))
            return streamed
        }
        #expect(await complete(session, streamed()).text == "got 13 bytes: from a stream")
        #expect(try await session.data(for: streamed()).0 == Data("got 13 bytes: from a stream".utf8))
    }

    @Test(".computed reads query parameters and headers")
    func computedFromQuery() async throws {
        let stubs = StubRegistry()
        stubs.stub(
            .get("https://api.example.com/search"),
            .computed { request in
                let terms = request.queryValues("q").joined(separator: "+")
                let page = request.queryValues("page").first ?? "1"
                return .json(["terms": terms, "page": page, "lang": request.header("accept-language") ?? "-"])
            }
        )
        let session = stubs.makeSession()

        let completion = await complete(
            session,
            request("GET", "https://api.example.com/search?q=swift&q=linux&page=3", headers: ["Accept-Language": "de"])
        )
        let decoded = try JSONDecoder().decode([String: String].self, from: #require(completion.data))
        #expect(decoded == ["terms": "swift+linux", "page": "3", "lang": "de"])

        let (data, _) = try await session.data(from: URL(string: "https://api.example.com/search?q=a%20b")!)
        #expect(
            try JSONDecoder().decode([String: String].self, from: data) == ["terms": "a b", "page": "1", "lang": "-"]
        )
    }

    @Test(".computed reads the URI template's path parameters")
    func computedFromPathParameters() async throws {
        let stubs = StubRegistry()
        stubs.stub(
            .get("https://api.example.com/users/{user}/posts/{post}"),
            .computed { request in
                .text("user=\(request.pathParameters["user"] ?? "?") post=\(request.pathParameters["post"] ?? "?")")
            }
        )
        let session = stubs.makeSession()

        #expect(await complete(session, "https://api.example.com/users/ada/posts/17").text == "user=ada post=17")
        let (data, _) = try await session.data(from: URL(string: "https://api.example.com/users/grace/posts/3")!)
        #expect(String(decoding: data, as: UTF8.self) == "user=grace post=3")
    }

    @Test("answer(_:) gives a computed response the path parameters of the stub that answers, not the caller's")
    func answerReplacesPathParameters() throws {
        let stubs = StubRegistry()
        stubs.stub(
            .get("https://api.example.com/plain"),
            .computed { request in
                .text(request.pathParameters.keys.sorted().joined(separator: ","))
            }
        )
        stubs.stub(
            .get("https://api.example.com/users/{id}"),
            .computed { request in
                .text(request.pathParameters.keys.sorted().joined(separator: ","))
            }
        )
        for (url, expected) in [("https://api.example.com/plain", ""), ("https://api.example.com/users/7", "id")] {
            let answer = stubs.answer(InterceptedRequest(url: URL(string: url)!, pathParameters: ["stale": "1"]))
            guard case let .response(response, _) = answer else {
                Issue.record("\(url): no response: \(answer)")
                continue
            }
            #expect(String(decoding: response.body, as: UTF8.self) == expected, "\(url)")
        }
    }

    @Test("a computed response may be an error, and may delay")
    func computedErrorAndDelay() async throws {
        let stubs = StubRegistry()
        stubs.stub(
            .get("https://api.example.com/flaky/{n}"),
            .computed { request in
                request.pathParameters["n"] == "1"
                    ? .error(.networkConnectionLost)
                    : .text("fine").delayed(by: .milliseconds(50))
            }
        )
        let session = stubs.makeSession()

        let failed = await complete(session, "https://api.example.com/flaky/1")
        #expect(failed.urlError?.code == .networkConnectionLost)
        #expect(failed.urlError?.failingURL == URL(string: "https://api.example.com/flaky/1"))
        let clock = ContinuousClock()
        let start = clock.now
        let (data, _) = try await session.data(from: URL(string: "https://api.example.com/flaky/2")!)
        #expect(String(decoding: data, as: UTF8.self) == "fine")
        #expect(clock.now - start >= .milliseconds(50))
    }

    @Test("a URLError thrown by a computed response is delivered unchanged")
    func computedThrowsURLError() async throws {
        let stubs = StubRegistry()
        stubs.stub(
            .get("https://api.example.com/throws-url-error"),
            .computed { _ in
                throw URLError(
                    .dataNotAllowed,
                    userInfo: ["X-Marker": "kept", NSLocalizedDescriptionKey: "cellular data is off"]
                )
            }
        )
        let session = stubs.makeSession()

        let completion = await complete(session, "https://api.example.com/throws-url-error")
        let error = try #require(completion.urlError)
        #expect(error.code == .dataNotAllowed)
        #expect(error.userInfo["X-Marker"] as? String == "kept")
        #expect(error.localizedDescription == "cellular data is off")
        #expect(completion.response == nil)

        let asyncFailure = try #require(
            await asyncError(session, "https://api.example.com/throws-url-error") as? URLError
        )
        #expect(asyncFailure.code == .dataNotAllowed)
        #expect(asyncFailure.userInfo["X-Marker"] as? String == "kept")
    }

    @Test("another error thrown by a computed response becomes URLError(.cannotParseResponse) naming it")
    func computedThrowsOtherError() async throws {
        let stubs = StubRegistry()
        stubs.stub(
            .get("https://api.example.com/throws"),
            .computed { _ in
                throw TeapotError(detail: "no tea left")
            }
        )
        let session = stubs.makeSession()

        let completion = await complete(session, "https://api.example.com/throws")
        let error = try #require(completion.urlError)
        #expect(error.code == .cannotParseResponse)
        #expect(error.localizedDescription.contains("TeapotError"))
        #expect(error.localizedDescription.contains("no tea left"))
        #expect(error.localizedDescription.contains("ResponseTests.swift"))
        #expect(error.failingURL == URL(string: "https://api.example.com/throws"))

        let asyncFailure = try #require(await asyncError(session, "https://api.example.com/throws") as? URLError)
        #expect(asyncFailure.code == .cannotParseResponse)
        #expect(asyncFailure.localizedDescription.contains("no tea left"))
    }

    @Test("the trailing-closure stub(_:respond:) form computes responses too")
    func respondClosure() async throws {
        let stubs = StubRegistry()
        stubs.stub(.get("https://api.example.com/square/{n}")) { request in
            let n = Int(request.pathParameters["n"] ?? "") ?? 0
            return .text("\(n * n)")
        }
        let session = stubs.makeSession()
        #expect(await complete(session, "https://api.example.com/square/12").text == "144")
        #expect(try await session.data(from: URL(string: "https://api.example.com/square/9")!).0 == Data("81".utf8))
    }

    // MARK: Errors

    static let commonCodes: [URLError.Code] = [
        .notConnectedToInternet, .timedOut, .cannotConnectToHost, .cannotFindHost,
        .networkConnectionLost, .badServerResponse, .cancelled, .secureConnectionFailed,
        .dnsLookupFailed, .resourceUnavailable, .userAuthenticationRequired, .badURL,
    ]

    @Test(".error(code) fails with that URLError and fills in failingURL", arguments: commonCodes)
    func urlErrors(_ code: URLError.Code) async throws {
        let url = "https://api.example.com/fail/\(code.rawValue)"
        let stubs = StubRegistry()
        stubs.stub(.get(URLPattern(url)), .error(code))
        let session = stubs.makeSession()

        let completion = await complete(session, url)
        let error = try #require(completion.urlError, "got \(String(describing: completion.error))")
        #expect(error.code == code)
        #expect(error.failingURL == URL(string: url))
        #expect(completion.response == nil)
        #expect(completion.data == nil || completion.data?.isEmpty == true)

        let asyncFailure = try #require(await asyncError(session, url) as? URLError)
        #expect(asyncFailure.code == code)
        #expect(asyncFailure.failingURL == URL(string: url))
        #expect(stubs.journal.count == 2)
    }

    @Test(".error(code) works on every method")
    func urlErrorOnPost() async throws {
        let stubs = StubRegistry()
        stubs.stub(.post("https://api.example.com/orders"), .error(.notConnectedToInternet))
        let session = stubs.makeSession()
        let completion = await complete(session, request("POST", "https://api.example.com/orders", body: "{}"))
        #expect(completion.urlError?.code == .notConnectedToInternet)
        let error = try #require(
            await asyncError(session, request("DELETE", "https://api.example.com/orders")) as? URLError
        )
        #expect(error.code == .resourceUnavailable, "DELETE is not stubbed")
    }

    @Test(".failure delivers a custom error unchanged")
    func customError() async throws {
        let stubs = StubRegistry()
        stubs.stub(.get("https://api.example.com/custom"), .failure(TeapotError(detail: "kettle broke")))
        let session = stubs.makeSession()

        let completion = await complete(session, "https://api.example.com/custom")
        #expect(completion.error as? TeapotError == TeapotError(detail: "kettle broke"))
        #expect(completion.response == nil)

        let error = await asyncError(session, "https://api.example.com/custom")
        #expect(error as? TeapotError == TeapotError(detail: "kettle broke"))
    }

    @Test(".failure with a URLError fills in failingURL but keeps everything else")
    func failureWithURLError() async throws {
        let stubs = StubRegistry()
        stubs.stub(
            .get("https://api.example.com/offline"),
            .failure(URLError(.notConnectedToInternet, userInfo: ["X-Marker": "kept"]))
        )
        let session = stubs.makeSession()
        let error = try #require(await complete(session, "https://api.example.com/offline").urlError)
        #expect(error.code == .notConnectedToInternet)
        #expect(error.userInfo["X-Marker"] as? String == "kept")
        #expect(error.failingURL == URL(string: "https://api.example.com/offline"))
    }

    @Test("a delayed error arrives after the delay")
    func delayedError() async throws {
        let stubs = StubRegistry()
        stubs.stub(
            .get("https://api.example.com/slow-fail"),
            .error(.cannotConnectToHost).delayed(by: .milliseconds(80))
        )
        let session = stubs.makeSession()
        let clock = ContinuousClock()
        let start = clock.now
        let completion = await complete(session, "https://api.example.com/slow-fail")
        #expect(completion.urlError?.code == .cannotConnectToHost)
        #expect(clock.now - start >= .milliseconds(80))
    }
}

// MARK: - Helpers

/// A custom error type, to check it is delivered unchanged.
private struct TeapotError: Error, Equatable, Sendable {
    let detail: String
}
