import Foundation
import Testing

@testable import HTTPStubs
@testable import HTTPStubsFiles
@testable import HTTPStubsLanguages
@testable import HTTPStubsTemplates

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Input meant to break out or to break things: `bodyFileName`s that try to leave the stub root,
/// and requests that are themselves odd (huge headers, binary bodies, strange URLs and schemes,
/// 10 MB bodies either way), sent through real URLSession calls. Each is answered or cleanly
/// refused; nothing crashes.
@Suite(
    "Hostile input",
    .enabled(
        if: reliabilitySuitesEnabled,
        "heavy: 10 MB bodies; run with HTTPSTUBS_RELIABILITY=1 (.ci/run does, after the main suite)"
    )
)
struct HostileInputTests {
    // MARK: bodyFileName escaping the stub root

    /// `bodyFileName`s that would read a file outside `__files/`, and why each must be refused.
    static let escapes: [(name: String, reason: String)] = [
        ("..", "'..'"),
        ("../..", "'..'"),
        ("../outside.txt", "'..'"),
        ("a/../../outside.txt", "'..'"),
        ("sub/../../outside.txt", "'..'"),
        ("./../outside.txt", "'..'"),
        ("sub/./../../../etc/passwd", "'..'"),
        ("~/x", "'~' is refused"),
        ("~root/.profile", "'~' is refused"),
        (#"..\outside.txt"#, "not a path separator"),
        ("link-out.txt", "symbolic link"),
        ("dir-out/secret.txt", "symbolic link"),
        ("sub/link-up/outside.txt", "symbolic link"),
    ]

    @Test("a bodyFileName leaving the stub root is refused with a located error", arguments: escapes.map(\.name))
    func bodyFileNameEscape(name: String) throws {
        let root = try HostileRoot()
        defer { root.remove() }
        let file = try root.mapping(bodyFileName: name)
        let result = StubFiles.load([root.url.path])
        #expect(result.stubs.isEmpty, "the stub was loaded: \(result.stubs)")
        let error = try #require(
            result.errors.first { $0.source.file == file },
            "no error for \(name): \(result.diagnostics)"
        )
        #expect(error.source.line == 1 && error.source.column != nil, "\(error)")
        #expect(error.jsonPath == "$.response.bodyFileName")
        #expect(error.message.contains(quoted(name)), "\(error.message)")
        #expect(error.message.contains("refused"), "\(error.message)")
        let reason = Self.escapes.first { $0.name == name }!.reason
        #expect(error.message.contains(reason), "expected the message to say \(reason): \(error.message)")
        #expect(!error.message.contains("SECRET"), "the message leaks the outside file")

        // The registry's loader refuses the whole load, and says where.
        let stubs = StubRegistry()
        let thrown = #expect(throws: StubFileError.self) { try stubs.load(root.url.path) }
        #expect(thrown?.description.contains("\(file):1:") == true, "\(thrown?.description ?? "")")
        #expect(stubs.stubs.isEmpty)
    }

    @Test(
        "names that stay inside __files load and serve the file, links within the root included",
        arguments: ["inside.txt", "sub/inside.txt", "./inside.txt", "sub/./inside.txt", "link-in.txt", "..data.txt"]
    )
    func bodyFileNameInside(name: String) async throws {
        let root = try HostileRoot()
        defer { root.remove() }
        _ = try root.mapping(bodyFileName: name)
        let stubs = StubRegistry()
        try stubs.load(root.url.path)
        let expected = name == "..data.txt" ? "dots" : "INSIDE"
        #expect(await complete(stubs.makeSession(), "https://api.example.com/body").text == expected)
    }

    @Test(
        "a bodyFileName naming the folder itself, nothing, or a NUL byte is refused without crashing",
        arguments: ["", ".", "sub", "sub/", "a\u{0}b", "inside.txt\u{0}.png"]
    )
    func bodyFileNameDegenerate(name: String) throws {
        let root = try HostileRoot()
        defer { root.remove() }
        let file = try root.mapping(bodyFileName: name)
        let result = StubFiles.load([root.url.path])
        #expect(result.stubs.isEmpty, "the stub was loaded: \(result.stubs)")
        let error = try #require(
            result.errors.first { $0.source.file == file },
            "no error for \(quoted(name)): \(result.diagnostics)"
        )
        #expect(
            error.source.line != nil && error.source.column != nil && error.jsonPath == "$.response.bodyFileName",
            "\(error)"
        )
        if name.isEmpty || name == "." {
            #expect(!error.message.contains("symbolic link"), "\(error.message)")
        }
    }

    // MARK: Odd requests

    @Test("a 64 KB header value and 200 headers are matched and journaled whole")
    func hugeHeaders() async throws {
        let stubs = StubRegistry()
        stubs.stub(.get("https://api.example.com/big").header("X-Big", .hasPrefix("xxxx")), .text("big header"))
        stubs.stub(
            .get("https://api.example.com/many").header("X-Header-199", .equal("value 199")),
            .text("many headers")
        )
        let session = stubs.makeSession()

        let big = String(repeating: "x", count: 64 * 1024)
        let first = await complete(session, request("GET", "https://api.example.com/big", headers: ["X-Big": big]))
        #expect(first.text == "big header")
        var many = URLRequest(url: URL(string: "https://api.example.com/many")!)
        for index in 0..<200 { many.setValue("value \(index)", forHTTPHeaderField: "X-Header-\(index)") }
        let second = await complete(session, many)
        #expect(second.text == "many headers")

        let journal = stubs.journal
        #expect(journal.count == 2)
        #expect(journal.first?.request.header("X-Big")?.count == big.count)
        #expect(journal.last?.request.headers.fields.count ?? 0 >= 200)
    }

    @Test("a binary (invalid UTF-8) body reaches byte, text, JSON, form and regex matchers without harm")
    func binaryBodies() async throws {
        let stubs = StubRegistry()
        let binary = Data(
            [0xFF, 0xFE, 0x00, 0xC0, 0x80, 0xED, 0xA0, 0x80, 0x7B, 0x22, 0x0A] + (0...255).map(UInt8.init)
        )
        stubs.stub(.post("https://api.example.com/bytes").body(.equal(binary)), .text("bytes matched"))
        stubs.stub(.post("https://api.example.com/text").body(.contains("x")), .text("text"))
        stubs.stub(.post("https://api.example.com/json").body(.json(["a": 1])), .text("json"))
        stubs.stub(.post("https://api.example.com/form").body(.form(["a": .equal("1")])), .text("form"))
        stubs.stub(.post("https://api.example.com/regex").body(.matches(".*")), .text("regex"))
        let session = stubs.makeSession()

        var bytes = URLRequest(url: URL(string: "https://api.example.com/bytes")!)
        bytes.httpMethod = "POST"
        bytes.httpBody = binary
        #expect(await complete(session, bytes).text == "bytes matched")
        for path in ["text", "json", "form", "regex"] {
            var odd = URLRequest(url: URL(string: "https://api.example.com/\(path)")!)
            odd.httpMethod = "POST"
            odd.httpBody = binary
            odd.setValue(
                path == "form" ? "application/x-www-form-urlencoded" : "application/json",
                forHTTPHeaderField: "Content-Type"
            )
            let completion = await complete(session, odd)
            // Binary is not text, JSON or a form: no match, reported as a URLError.
            #expect(completion.urlError != nil || completion.status == 200, "\(path): \(completion)")
            #expect(completion.text != path, "\(path) matched a binary body")
        }
        // The same body as a stream.
        var streamed = URLRequest(url: URL(string: "https://api.example.com/bytes")!)
        streamed.httpMethod = "POST"
        streamed.httpBodyStream = InputStream(data: binary)
        #expect(await complete(session, streamed).text == "bytes matched")
        #expect(stubs.journal.first?.request.body == binary)
    }

    @Test("a request without any header, and one with CR/LF and non-ASCII header values, are answered")
    func unusualHeaders() async throws {
        let stubs = StubRegistry()
        stubs.stub(.anyMethod(.pathPrefix("/")), .text("answered"))
        let session = stubs.makeSession()
        var bare = URLRequest(url: URL(string: "https://api.example.com/bare")!)
        bare.allHTTPHeaderFields = [:]
        #expect(await complete(session, bare).text == "answered")
        var bareAsync = URLRequest(url: URL(string: "https://api.example.com/bare-async")!)
        bareAsync.httpMethod = "DELETE"
        let (data, _) = try await session.data(for: bareAsync)
        #expect(String(decoding: data, as: UTF8.self) == "answered")

        let odd = request(
            "GET",
            "https://api.example.com/odd",
            headers: [
                "X-Injected": "a\r\nX-Evil: 1", "X-Unicode": "café ☕ 😀", "X-Empty": "", "X-Control": "\u{1}\u{7F}",
            ]
        )
        let completion = await complete(session, odd)
        #expect(completion.text == "answered" || completion.urlError != nil, "\(completion)")
    }

    @Test("methods that are odd (custom, lowercase, empty) are answered or cleanly refused")
    func unusualMethods() async throws {
        let stubs = StubRegistry()
        stubs.stub(.anyMethod(.pathPrefix("/")), .text("any"))
        stubs.stub(.method("BREW", .pathPrefix("/")), .text("teapot", status: 418))  // newer: tried first
        let session = stubs.makeSession()
        let brew = await complete(session, request("BREW", "https://api.example.com/pot"))
        #expect(brew.status == 418 && brew.text == "teapot")
        for method in ["get", "", "M-SEARCH", String(repeating: "X", count: 4_096)] {
            let completion = await complete(session, request(method, "https://api.example.com/\(method.count)"))
            #expect(
                completion.text == "any" || completion.text == "teapot" || completion.urlError != nil,
                "\(method.prefix(10)): \(completion)"
            )
        }
    }

    /// URLs with unusual but valid spellings: percent-encoded UTF-8 and invalid UTF-8, encoded
    /// slashes and dots, IDN, user info, IPv6, ports, fragments, matrix parameters, long paths.
    static let oddURLs: [Sample] = [
        "https://api.example.com/caf%C3%A9/%F0%9F%98%80?q=%E2%9C%93",
        "https://api.example.com/a%2Fb/%2e%2e/c?x=%FF%FE&y=%00&z",
        "https://api.example.com/%00%0A%0D",
        "https://xn--caf-dma.example/path",
        "https://user:p%40ss@api.example.com:65535/x?#frag",
        "http://[::1]:8080/ipv6",
        "http://[fe80::1%25eth0]/zone",
        "https://api.example.com/a;b=c/d;e",
        "HTTPS://API.EXAMPLE.COM/UPPER",
        "https://api.example.com/?",
        "https://api.example.com/search?q=a+b&q=%2B&&=&x==",
        "https://api.example.com//double//slashes/",
        "https://api.example.com/" + String(repeating: "segment/", count: 4_000),
        "https://api.example.com/long?" + String(repeating: "k=v&", count: 10_000),
    ].map(Sample.init)

    @Test("URLs with odd spellings are intercepted and answered", arguments: oddURLs)
    func oddURL(sample: Sample) async throws {
        let url = sample.text
        let parsed = try #require(URL(string: url), "Foundation refuses \(sample)")
        let stubs = StubRegistry()
        stubs.stub(.anyRequest) { request in .text("path \(request.path.prefix(40))") }
        let session = stubs.makeSession()
        let completion = await complete(session, URLRequest(url: parsed))
        #expect(completion.status == 200, "\(url.prefix(80)): \(completion)")
        #expect(completion.text?.hasPrefix("path /") == true, "\(url.prefix(80)): \(completion.text ?? "nil")")
        let (data, _) = try await session.data(from: parsed)
        #expect(String(decoding: data, as: UTF8.self).hasPrefix("path /"))
        #expect(stubs.journal.count == 2)
    }

    @Test(
        "URLs without a path, host or scheme are answered or cleanly refused",
        arguments: [
            "https://api.example.com", "https://api.example.com?x=1", "https://api.example.com#top", "http:", "http://",
            "https:///no-host",
            "http://:80/", "relative/path", "//host.example/scheme-relative", "mailto:someone@example.com",
            "urn:isbn:0451450523", "x:",
        ]
    )
    func incompleteURL(url: String) async throws {
        guard let parsed = URL(string: url) else { return }  // Foundation refuses it: nothing to send
        let stubs = StubRegistry()
        stubs.stub(.anyRequest, .text("anything"))
        let session = stubs.makeSession()
        let completion = await complete(session, URLRequest(url: parsed))
        #expect(completion.text == "anything" || completion.urlError != nil, "\(url): \(completion)")
        do {
            let (data, _) = try await session.data(from: parsed)
            #expect(String(decoding: data, as: UTF8.self) == "anything")
        } catch {
            #expect(error is URLError, "\(url): \(error)")
        }
    }

    @Test("a URL without a path is answered by a stub written without one")
    func emptyPath() async throws {
        let stubs = StubRegistry()
        stubs.stub(.get("https://api.example.com"), .text("root"))
        let session = stubs.makeSession()
        #expect(await complete(session, "https://api.example.com").text == "root")
        #expect(await complete(session, "https://api.example.com/").text == "root")
        #expect(await complete(session, "https://api.example.com?x=1").text == "root")
        #expect(stubs.journal.allSatisfy { $0.request.path == "/" })
    }

    @Test("about:, data: and file: URLs are left to URLSession and never crash")
    func localSchemes() async throws {
        let stubs = StubRegistry()
        stubs.stub(.anyRequest, .text("stubbed"))
        let session = stubs.makeSession()
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-\(UUID().uuidString).txt")
        try Data("local file".utf8).write(to: scratch)
        defer { try? FileManager.default.removeItem(at: scratch) }

        for url in ["about:blank", "data:text/plain,hello", scratch.absoluteString] {
            let completion = await complete(session, url)
            // Served by a built-in protocol, or refused (unsupported URL); never by the stubs.
            #expect(completion.text != "stubbed", "\(url) was intercepted")
            #expect(completion.error == nil || completion.urlError != nil, "\(url): \(completion)")
        }
        #expect(stubs.journal.isEmpty)
    }

    @Test("a custom scheme is stubbed and answered; an unstubbed one is refused as unmatched")
    func customScheme() async throws {
        let stubs = StubRegistry()
        stubs.stub(.get("myapp://host/path"), .json(text: #"{"deep": "link"}"#))
        let session = stubs.makeSession()
        let completion = await complete(session, "myapp://host/path")
        #expect(completion.status == 200 && completion.text == #"{"deep": "link"}"#, "\(completion)")
        let (data, response) = try await session.data(from: URL(string: "myapp://host/path")!)
        #expect(String(decoding: data, as: UTF8.self) == #"{"deep": "link"}"#)
        #expect(response.url?.scheme == "myapp")
        let other = await complete(session, "myapp://host/other")
        #expect(other.urlError != nil, "\(other)")
        #expect(stubs.unmatchedRequests.count == 1)
    }

    @Test("a 10 MB request body is read whole, from httpBody and from a stream")
    func hugeRequestBody() async throws {
        let stubs = StubRegistry()
        stubs.stub(.post("https://api.example.com/upload").body(.contains("END-OF-BODY"))) { request in
            .text("received \(request.body?.count ?? -1)")
        }
        let session = stubs.makeSession()
        var body = Data(repeating: UInt8(ascii: "a"), count: 10 * 1024 * 1024 - 11)
        body.append(contentsOf: Array("END-OF-BODY".utf8))

        var upload = URLRequest(url: URL(string: "https://api.example.com/upload")!)
        upload.httpMethod = "POST"
        upload.httpBody = body
        #expect(await complete(session, upload).text == "received \(body.count)")
        let (data, _) = try await session.data(for: upload)
        #expect(String(decoding: data, as: UTF8.self) == "received \(body.count)")
        var streamed = URLRequest(url: URL(string: "https://api.example.com/upload")!)
        streamed.httpMethod = "POST"
        streamed.httpBodyStream = InputStream(data: body)
        #expect(await complete(session, streamed).text == "received \(body.count)")
        #expect(stubs.journal.count == 3)
        #expect(stubs.journal.allSatisfy { $0.request.body?.count == body.count })
    }

    @Test("a 10 MB response body arrives whole, through both APIs and dribbled")
    func hugeResponseBody() async throws {
        let stubs = StubRegistry()
        var random = SeededGenerator(seed: 10)
        var body = Data(count: 10 * 1024 * 1024)
        body.withUnsafeMutableBytes { buffer in
            for index in stride(from: 0, to: buffer.count, by: 8) {
                buffer.storeBytes(of: random.next(), toByteOffset: index, as: UInt64.self)
            }
        }
        stubs.stub(
            .get("https://api.example.com/download"),
            .data(body, headers: ["Content-Type": "application/octet-stream"])
        )
        stubs.stub(
            .get("https://api.example.com/slow-download"),
            .data(body).dribbled(chunks: 5, over: .milliseconds(50))
        )
        let session = stubs.makeSession()
        let completion = await complete(session, "https://api.example.com/download")
        #expect(completion.data == body)
        let (data, _) = try await session.data(from: URL(string: "https://api.example.com/download")!)
        #expect(data == body)
        let (dribbled, _) = try await session.data(from: URL(string: "https://api.example.com/slow-download")!)
        #expect(dribbled == body)
    }

    @Test(
        "an unmatched request with a 10 MB body and a 64 KB header is refused with its near-miss report",
        .timeLimit(.minutes(1))
    )
    func hugeUnmatchedRequest() async throws {
        let stubs = StubRegistry()
        let candidates = 20
        for index in 0..<candidates {
            stubs.stub(
                .post("https://api.example.com/items/\(index)").header("X-Big", .equal("x")).body(
                    .contains("needle \(index)")
                ),
                .text("\(index)")
            )
        }
        let session = stubs.makeSession()
        var odd = URLRequest(url: URL(string: "https://api.example.com/items/none")!)
        odd.httpMethod = "POST"
        odd.httpBody = Data(repeating: UInt8(ascii: "h"), count: 10 * 1024 * 1024)
        odd.setValue(String(repeating: "y", count: 64 * 1024), forHTTPHeaderField: "X-Big")
        let completion = await complete(session, odd)
        let error = try #require(completion.urlError)
        #expect(stubs.unmatchedRequests.count == 1)
        // The report names the closest stubs and quotes the huge values cut short, so that it stays
        // readable (and cheap to build: it runs on URLSession's one queue, shared by every session).
        let report = error.localizedDescription
        #expect(report.contains("Closest stubs (3 of \(candidates))"))
        #expect(report.contains("(65536 bytes)"), "the 64 KB header is quoted cut short, with its size")
        #expect(report.contains("(10485760 bytes)"), "the 10 MB body is quoted cut short, with its size")
        #expect(report.utf8.count < 20_000, "the report is \(report.utf8.count) bytes")
    }
}

// MARK: - Helpers

extension HostileInputTests {
    /// A test argument shown shortened when it is long.
    struct Sample: Sendable, CustomTestStringConvertible {
        let text: String

        var testDescription: String {
            text.count <= 80 ? text : "\(text.prefix(60))… (\(text.count) characters)"
        }
    }

    /// A stub root laid out to tempt escapes:
    ///
    /// ```
    /// <scratch>/outside.txt            "SECRET outside"
    /// <scratch>/elsewhere/secret.txt   "SECRET elsewhere"
    /// <scratch>/root/__files/inside.txt, sub/inside.txt, ..data.txt
    /// <scratch>/root/__files/link-in.txt  -> inside.txt
    /// <scratch>/root/__files/link-out.txt -> ../../outside.txt
    /// <scratch>/root/__files/dir-out      -> <scratch>/elsewhere
    /// <scratch>/root/__files/sub/link-up  -> ../../..   (the stub root's parent, <scratch>)
    /// <scratch>/root/mappings/
    /// ```
    struct HostileRoot {
        let scratch: URL
        /// The stub root.
        let url: URL

        init() throws {
            let manager = FileManager.default
            scratch = manager.temporaryDirectory.appendingPathComponent("hostile-\(UUID().uuidString)")
                .resolvingSymlinksInPath()
            url = scratch.appendingPathComponent("root")
            let files = url.appendingPathComponent("__files")
            try manager.createDirectory(at: files.appendingPathComponent("sub"), withIntermediateDirectories: true)
            try manager.createDirectory(at: url.appendingPathComponent("mappings"), withIntermediateDirectories: true)
            try manager.createDirectory(
                at: scratch.appendingPathComponent("elsewhere"),
                withIntermediateDirectories: true
            )
            try Data("SECRET outside".utf8).write(to: scratch.appendingPathComponent("outside.txt"))
            try Data("SECRET elsewhere".utf8).write(to: scratch.appendingPathComponent("elsewhere/secret.txt"))
            try Data("INSIDE".utf8).write(to: files.appendingPathComponent("inside.txt"))
            try Data("INSIDE".utf8).write(to: files.appendingPathComponent("sub/inside.txt"))
            try Data("dots".utf8).write(to: files.appendingPathComponent("..data.txt"))
            try manager.createSymbolicLink(
                atPath: files.appendingPathComponent("link-in.txt").path,
                withDestinationPath: "inside.txt"
            )
            try manager.createSymbolicLink(
                atPath: files.appendingPathComponent("link-out.txt").path,
                withDestinationPath: "../../outside.txt"
            )
            try manager.createSymbolicLink(
                atPath: files.appendingPathComponent("dir-out").path,
                withDestinationPath: scratch.appendingPathComponent("elsewhere").path
            )
            try manager.createSymbolicLink(
                atPath: files.appendingPathComponent("sub/link-up").path,
                withDestinationPath: "../../.."
            )
        }

        /// Writes `mappings/body.json`, one line, answering `GET /body` from `bodyFileName`; returns its path.
        func mapping(bodyFileName: String) throws -> String {
            let name = JSONValue.string(bodyFileName).serialized()
            let file = url.appendingPathComponent("mappings/body.json")
            try Data(
                #"{"request": {"method": "GET", "url": "/body"}, "response": {"status": 200, "bodyFileName": \#(name)}}"#
                    .utf8
            ).write(to: file)
            return (url.path as NSString).appendingPathComponent("mappings/body.json")
        }

        func remove() {
            try? FileManager.default.removeItem(at: scratch)
        }
    }
}
