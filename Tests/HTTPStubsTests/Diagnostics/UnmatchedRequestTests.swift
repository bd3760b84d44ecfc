import Foundation
import HTTPStubs
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What happens to a request no stub answers: a fast failure carrying a near-miss report, or the
/// real network when the pass-through policy allows it.
@Suite struct UnmatchedRequestTests {
    private static let file = "HTTPStubsTests/UnmatchedRequestTests.swift"

    @Test func failsFastWithTheRequestLineAndRankedNearMisses() async throws {
        let stubs = StubRegistry()
        let teamsLine = #line + 1
        stubs.add(Stub(.get("https://api.example.com/teams/1"), .text("team")).named("team"))
        stubs.add(Stub(.get("https://other.example.org/x"), .text("other")).named("other host"))
        let userLine = #line + 1
        let user = stubs.add(Stub(.get("https://api.example.com/users/42"), .text("user")).named("user 42"))
        let createLine = #line + 1
        stubs.add(Stub(.post("https://api.example.com/users/43"), .status(201)).named("create"))
        let session = stubs.makeSession()

        let completion = await complete(
            session,
            request("GET", "https://api.example.com/users/43", headers: ["X-Trace": "t-7"])
        )
        let error = try #require(completion.urlError)
        #expect(error.code == .resourceUnavailable)
        #expect(error.failingURL?.absoluteString == "https://api.example.com/users/43")
        #expect(completion.response == nil)
        let lines = error.localizedDescription.components(separatedBy: "\n")

        #expect(lines.first == "Unmatched request: GET https://api.example.com/users/43")
        #expect(lines.contains("  X-Trace: t-7"))
        #expect(lines.contains("Closest stubs (3 of 4):"))
        // Closest first: one path character off, then the wrong method, then the other path.
        let ranked = lines.filter { $0.first?.isNumber == true }
        try #require(ranked.count == 3)
        #expect(ranked[0].hasPrefix(#"1. "user 42" (\#(Self.file):\#(userLine):"#), "\(ranked[0])")
        #expect(ranked[0].hasSuffix(", distance 0.03"), "\(ranked[0])")
        #expect(ranked[1].hasPrefix(#"2. "create" (\#(Self.file):\#(createLine):"#), "\(ranked[1])")
        #expect(ranked[2].hasPrefix(#"3. "team" (\#(Self.file):\#(teamsLine):"#), "\(ranked[2])")
        #expect(!lines.contains { $0.contains(#""other host""#) })

        // Per-part rows of the closest stub, in the pattern's order.
        let closest = try #require(lines.firstIndex(of: ranked[0]))
        #expect(
            Array(lines[(closest + 1)...(closest + 5)]) == [
                "   ✓ method GET",
                #"   ✓ scheme = "https""#,
                #"   ✓ host = "api.example.com""#,
                "   ✓ port 443",
                #"   ✗ path: expected "/users/42", got "/users/43""#,
            ]
        )
        let second = try #require(lines.firstIndex(of: ranked[1]))
        #expect(lines[second + 1] == "   ✗ method: expected POST, got GET")
        #expect(lines[second + 5] == #"   ✓ path = "/users/43""#)

        #expect(
            lines.suffix(2) == [
                #"To answer it, correct the closest stub, "user 42" (\#(Self.file):\#(userLine):34), "#
                    + "to:",
                #"    stubs.stub(.get("https://api.example.com/users/43"), <#its response#>)"#,
            ]
        )
        #expect(stubs.useCount(of: user) == 0)
    }

    /// A stub that misses on one part, a request, and the report's ✗ line for that part.
    struct MissedPart: Sendable, CustomTestStringConvertible {
        let pattern: RequestPattern
        let method: String
        let url: String
        var headers: [String: String] = [:]
        var body: String?
        let line: String

        var testDescription: String { line }
    }

    @Test(
        "a failed verdict names its part once, through both kinds of URLSession call",
        arguments: [
            MissedPart(
                pattern: .get("https://api.example.com:8080/users"),
                method: "GET",
                url: "https://api.example.com/users",
                line: "   ✗ port: expected 8080, got 443"
            ),
            MissedPart(
                pattern: .get("https://api.example.com/users/{id}"),
                method: "GET",
                url: "https://api.example.com/orders/1",
                line: #"   ✗ path: expected template "/users/{id}", got "/orders/1""#
            ),
            MissedPart(
                pattern: .post("https://api.example.com/orders").body(.form(["item": "pen"])),
                method: "POST",
                url: "https://api.example.com/orders",
                body: "item=book",
                line: #"   ✗ body: expected field item "pen", got "book""#
            ),
            MissedPart(
                pattern: .get("https://api.example.com/users").headerAbsent("X-Debug"),
                method: "GET",
                url: "https://api.example.com/users",
                headers: ["X-Debug": "1"],
                line: #"   ✗ header X-Debug: expected it absent, got "1""#
            ),
            MissedPart(
                pattern: .get("https://api.example.com/users").matching("the user is signed in") { _ in false },
                method: "GET",
                url: "https://api.example.com/users",
                line: "   ✗ the user is signed in: not satisfied"
            ),
            MissedPart(
                pattern: .get("https://api.example.com/users").matching(.not(.header("Accept", .equal("text/html")))),
                method: "GET",
                url: "https://api.example.com/users",
                headers: ["Accept": "text/html"],
                line: #"   ✗ not (header Accept = "text/html"): it matched"#
            ),
        ]
    )
    func failedVerdictNamesItsPartOnce(_ missed: MissedPart) async throws {
        let stubs = StubRegistry()
        stubs.stub(missed.pattern, .status(204))
        let session = stubs.makeSession()
        let sent = request(missed.method, missed.url, body: missed.body, headers: missed.headers)

        let completion = await complete(session, sent)
        let handlerReport = try #require(completion.urlError?.localizedDescription)
        let asyncError = await #expect(throws: URLError.self) { _ = try await session.data(for: sent) }
        let asyncReport = try #require(asyncError?.localizedDescription)

        for report in [handlerReport, asyncReport] {
            let failed = report.split(separator: "\n").filter { $0.hasPrefix("   ✗ ") }
            #expect(failed == [Substring(missed.line)], "\(report)")
        }
    }

    @Test func asyncCallersGetTheSameReport() async throws {
        let stubs = StubRegistry()
        stubs.stub(.get("https://api.example.com/users/42"), .text("user"))
        let session = stubs.makeSession()
        let error = await #expect(throws: URLError.self) {
            _ = try await session.data(for: URLRequest(url: URL(string: "https://api.example.com/users/43")!))
        }
        #expect(error?.code == .resourceUnavailable)
        let text = try #require(error?.localizedDescription)
        #expect(text.hasPrefix("Unmatched request: GET https://api.example.com/users/43\n"))
        #expect(text.contains("Closest stubs (1 of 1):"))
        #expect(text.contains(#"   ✗ path: expected "/users/42", got "/users/43""#))
        #expect(text.hasSuffix(#"    stubs.stub(.get("https://api.example.com/users/43"), <#its response#>)"#))
    }

    @Test func reportShowsTheBodyAndSuggestsABodyMatcher() async throws {
        let stubs = StubRegistry()
        stubs.stub(.post("https://api.example.com/orders").body(.contains("pen")), .status(201))
        let session = stubs.makeSession()
        let completion = await complete(
            session,
            request("POST", "https://api.example.com/orders", body: #"{"item":"book"}"#)
        )
        let text = try #require(completion.urlError?.localizedDescription)
        #expect(text.hasPrefix("Unmatched request: POST https://api.example.com/orders\n"))
        #expect(text.contains(#"  Body: "{\"item\":\"book\"}""#))
        #expect(text.contains(#"   ✗ body: expected contains "pen", got "{\"item\":\"book\"}""#))
        #expect(
            text.hasSuffix(
                """
                    stubs.stub(.post("https://api.example.com/orders")
                        .body(.equal("{\\"item\\":\\"book\\"}")), <#its response#>)
                """
            )
        )
    }

    @Test func suggestedStubAnswersTheRequest() async throws {
        let stubs = StubRegistry()
        let session = stubs.makeSession()
        let url = "https://api.example.com/search/caf%C3%A9?q=swift+testing&page=2"
        let completion = await complete(session, url)
        let journal = stubs.journal
        guard case let .unmatched(report)? = journal.last?.outcome else {
            Issue.record("expected an unmatched journal entry, got \(journal)")
            return
        }
        #expect(completion.urlError?.localizedDescription.hasSuffix(report.suggestedStub) == true)
        // Paste what the suggestion quotes: it must answer the same request.
        let quotedURL = try #require(rawStringArgument(in: report.suggestedStub, after: ".get("))
        stubs.stub(.get(URLPattern(quotedURL)), .text("pasted"))
        #expect(await complete(session, url).text == "pasted")
    }

    @Test(arguments: [
        ##"{"color":"#ff0000"}"##,
        "{\n  \"pretty\" : true\n}",
    ])
    func suggestedStubQuotesAnyBody(_ body: String) async throws {
        let stubs = StubRegistry()
        let session = stubs.makeSession()
        _ = await complete(session, request("POST", "https://api.example.com/themes", body: body))
        guard case let .unmatched(report)? = stubs.journal.last?.outcome else {
            Issue.record("expected an unmatched journal entry")
            return
        }
        #expect(rawStringArgument(in: report.suggestedStub, after: ".body(.equal(") == body, "\(report.suggestedStub)")
    }

    @Test(
        "a stub that tests a JSON body is corrected with a JSON test of the body sent, its options kept, and the pasted test answers",
        arguments: [
            #"{"item": "book", "note": "say \"hi\""}"#,
            ##"{"item": "book", "color": "#ff0000"}"##,
            ##"{"item": "book", "path": "a\\#b"}"##,
        ]
    )
    func jsonBodyNearMissSuggestsJSON(body: String) async throws {
        let stubs = StubRegistry()
        stubs.stub(.post("https://api.example.com/orders").body(.json(["item": "pen"], ignoreExtraMembers: true)), .ok)
        let session = stubs.makeSession()
        let sent = request(
            "POST",
            "https://api.example.com/orders",
            body: body,
            headers: ["Content-Type": "application/json"]
        )
        let completion = await complete(session, sent)
        let suggestion = try #require(completion.urlError?.localizedDescription.components(separatedBy: "\n").suffix(2))
        let code = suggestion.joined(separator: "\n")
        #expect(code.contains(".body(.json(text: "), "\(code)")
        #expect(code.contains(", ignoreExtraMembers: true))"), "\(code)")
        #expect(!code.contains(".body(.equal("), "\(code)")
        let pasted = try #require(rawStringArgument(in: code, after: ".body(.json(text: "), "\(code)")
        stubs.stub(
            .post("https://api.example.com/orders").body(.json(text: pasted, ignoreExtraMembers: true)),
            .text("pasted")
        )
        #expect(await complete(session, sent).text == "pasted")
    }

    @Test("a fresh stub for a request sent as JSON tests its body as JSON; one sent as text keeps its exact bytes")
    func freshStubForAJSONBody() async throws {
        let stubs = StubRegistry()
        let session = stubs.makeSession()
        let body = #"{"city":"Paris"}"#
        let json = await complete(
            session,
            request(
                "POST",
                "https://api.example.com/search",
                body: body,
                headers: ["Content-Type": "application/json; charset=utf-8"]
            )
        )
        let jsonCode = try #require(json.urlError?.localizedDescription)
        #expect(rawStringArgument(in: jsonCode, after: ".body(.json(text: ") == body, "\(jsonCode)")
        let text = await complete(session, request("POST", "https://api.example.com/search", body: body))
        let textCode = try #require(text.urlError?.localizedDescription)
        #expect(rawStringArgument(in: textCode, after: ".body(.equal(") == body, "\(textCode)")
    }

    /// The literal reader above accepts every correct way of quoting those bodies, so the known
    /// issue disappears whichever fix is chosen.
    @Test func literalReaderAcceptsCorrectQuoting() {
        let hash = ##"{"color":"#ff0000"}"##
        let pretty = "{\n  \"pretty\" : true\n}"
        #expect(rawStringArgument(in: ###".body(.equal(##"{"color":"#ff0000"}"##))"###, after: ".body(.equal(") == hash)
        #expect(rawStringArgument(in: ##".body(.equal("{\"color\":\"#ff0000\"}"))"##, after: ".body(.equal(") == hash)
        #expect(rawStringArgument(in: #".body(.equal("{\n  \"pretty\" : true\n}"))"#, after: ".body(.equal(") == pretty)
        #expect(
            rawStringArgument(
                in: ".body(.equal(#\"\"\"\n        {\n          \"pretty\" : true\n        }\n        \"\"\"#))",
                after: ".body(.equal("
            ) == pretty
        )
        #expect(rawStringArgument(in: ##".body(.equal(#"{"color":"#ff0000"}"#))"##, after: ".body(.equal(") != hash)
    }

    @Test func noStubsRegistered() async throws {
        let stubs = StubRegistry()
        let sessionLine = #line + 1
        let session = stubs.makeSession()
        let completion = await complete(session, request("DELETE", "https://api.example.com/users/1"))
        let error = try #require(completion.urlError)
        #expect(error.code == .resourceUnavailable)
        #expect(
            error.localizedDescription == """
                Unmatched request: DELETE https://api.example.com/users/1
                Sent through the session made at \(Self.file):\(sessionLine):40.

                No stubs are registered.

                To answer it, add a stub such as:
                    stubs.stub(.delete("https://api.example.com/users/1"), .status(200))
                """
        )
    }

    @Test func customMethodSuggestion() async throws {
        let stubs = StubRegistry()
        let session = stubs.makeSession()
        let completion = await complete(session, request("PROPFIND", "https://dav.example.com/files/"))
        let text = try #require(completion.urlError?.localizedDescription)
        #expect(text.hasSuffix(#"    stubs.stub(.method("PROPFIND", "https://dav.example.com/files/"), .status(200))"#))
    }

    @Test func scenarioAndUsedUpNotes() async throws {
        let stubs = StubRegistry()
        stubs.add(
            Stub(.get("https://shop.example.com/receipt"), .text("receipt")).inScenario("checkout", whenIn: "paid")
                .named("receipt")
        )
        stubs.add(Stub(.get("https://shop.example.com/receipt"), .text("once")).times(1).named("once"))
        stubs.add(
            Stub(.get("https://shop.example.com/receipt"), responses: [.text("only")], afterLast: .stopMatching).named(
                "sequence"
            )
        )
        stubs.add(Stub(.get("https://shop.example.com/elsewhere"), .text("far")).named("far"))
        let session = stubs.makeSession()
        #expect(await complete(session, "https://shop.example.com/receipt").text == "only")
        #expect(await complete(session, "https://shop.example.com/receipt").text == "once")

        let completion = await complete(session, "https://shop.example.com/receipt")
        let text = try #require(completion.urlError?.localizedDescription)
        #expect(text.contains("Closest stubs (3 of 4):"))
        #expect(text.contains(#"   ✗ scenario "checkout" is in state "Started", the stub needs "paid""#))
        #expect(text.contains("   ✗ used up: answered 1 of 1 allowed times"))
        #expect(text.contains("   ✗ sequence finished: served all 1 responses"))
        // Stubs whose pattern matches rank before the one with another path.
        #expect(!text.contains(#""far""#))

        guard case let .unmatched(report)? = stubs.journal.last?.outcome else {
            Issue.record("expected an unmatched journal entry")
            return
        }
        #expect(report.nearMisses.map(\.distance) == [0, 0, 0])
        #expect(Set(report.nearMisses.compactMap(\.stub.name)) == ["receipt", "once", "sequence"])
        #expect(report.nearMisses.allSatisfy { $0.rows.allSatisfy(\.verdict.isMatch) })
        #expect(
            report.nearMisses.first { $0.stub.name == "receipt" }?.notes
                == [#"scenario "checkout" is in state "Started", the stub needs "paid""#]
        )
    }

    @Test func journalKeepsTheReportWithNearMisses() async throws {
        let stubs = StubRegistry()
        let ids = [
            stubs.stub(.get("https://api.example.com/users/42"), .text("42")),
            stubs.stub(.get("https://api.example.com/users/4000"), .text("4000")),
            stubs.stub(.post("https://api.example.com/users/43"), .text("post")),
            stubs.stub(.get("https://elsewhere.example.org/"), .text("far")),
            stubs.stub(.get("https://api.example.com/admin/settings/advanced"), .text("admin")),
        ]
        let session = stubs.makeSession()
        await #expect(throws: URLError.self) {
            _ = try await session.data(for: URLRequest(url: URL(string: "https://api.example.com/users/43")!))
        }
        let entry = try #require(stubs.journal.last)
        #expect(entry.isUnmatched)
        #expect(entry.stub == nil)
        guard case let .unmatched(report) = entry.outcome else {
            Issue.record("expected .unmatched, got \(entry.outcome)")
            return
        }
        #expect(report.stubCount == 5)
        #expect(report.request.url.absoluteString == "https://api.example.com/users/43")
        #expect(report.nearMisses.count == 3)
        #expect(report.nearMisses.map(\.stub.id) == [ids[0], ids[1], ids[2]])
        let distances = report.nearMisses.map(\.distance)
        #expect(distances == distances.sorted())
        #expect(distances.allSatisfy { $0 > 0 && $0 < 1 })
        let closest = try #require(report.nearMisses.first)
        #expect(
            closest.pattern
                == #"method GET and scheme = "https" and host = "api.example.com" and port 443 and path = "/users/42""#
        )
        #expect(closest.rows.map(\.verdict.isMatch) == [true, true, true, true, false])
        #expect(closest.rows.last?.verdict.detail == #"expected "/users/42", got "/users/43""#)
        #expect(closest.rows.last?.matcher.part == .url)
        #expect(closest.notes.isEmpty)
        #expect(report.description == report.text)
        #expect(report.text.hasPrefix("Unmatched request: GET https://api.example.com/users/43"))
    }

    // MARK: Pass-through

    @Test func passThroughSendsUnmatchedRequestsToTheNetwork() async throws {
        let stubs = StubRegistry()
        #expect(stubs.passThrough == .never)
        stubs.passThrough = .hosts(["127.0.0.1"])
        stubs.stub(.get("http://127.0.0.1:1/stubbed"), .text("still stubbed"))
        let session = stubs.makeSession()

        // Nothing listens on port 1, so the real network fails to connect.
        let real = await complete(session, "http://127.0.0.1:1/x")
        let error = try #require(real.urlError, "expected a network error, got \(String(describing: real.error))")
        #expect(error.code != .resourceUnavailable)
        #expect(error.code == .cannotConnectToHost)
        #expect(!error.localizedDescription.contains("Unmatched request"))

        // A matched request to the same host is still stubbed.
        #expect(await complete(session, "http://127.0.0.1:1/stubbed").text == "still stubbed")
        let (data, _) = try await session.data(for: URLRequest(url: URL(string: "http://127.0.0.1:1/stubbed")!))
        #expect(String(decoding: data, as: UTF8.self) == "still stubbed")

        // Another host is not passed through.
        let other = await complete(session, "http://localhost:1/x")
        #expect(other.urlError?.code == .resourceUnavailable)
        #expect(other.urlError?.localizedDescription.hasPrefix("Unmatched request: GET http://localhost:1/x") == true)

        let journal = stubs.journal
        #expect(
            journal.map(\.request.url.absoluteString) == [
                "http://127.0.0.1:1/x", "http://127.0.0.1:1/stubbed", "http://127.0.0.1:1/stubbed",
                "http://localhost:1/x",
            ]
        )
        #expect(journal.map(outcomeName) == ["passedThrough", "answered", "answered", "unmatched"])
        #expect(journal.first?.description == "#1 GET http://127.0.0.1:1/x → passed through to the network")
        #expect(stubs.unmatchedRequests.map(\.request.url.host) == ["localhost"])
    }

    @Test func passThroughAsyncAndHostsAreCaseInsensitive() async throws {
        let stubs = StubRegistry()
        stubs.passThrough = .hosts(["LOCALHOST"])
        let session = stubs.makeSession()
        do {
            _ = try await session.data(for: URLRequest(url: URL(string: "http://localhost:1/async")!))
            Issue.record("expected a connection failure")
        } catch let error as URLError {
            #expect(error.code != .resourceUnavailable)
            #expect(error.code == .cannotConnectToHost)
        }
        #expect(stubs.journal.map(outcomeName) == ["passedThrough"])
        #expect(stubs.unmatchedRequests.isEmpty)
    }

    @Test func passThroughDecisionLooksAtTheBody() async throws {
        let stubs = StubRegistry()
        stubs.passThrough = .hosts(["127.0.0.1"])
        stubs.stub(.post("http://127.0.0.1:1/orders").body(.equal("stub me")), .text("stubbed order"))
        let session = stubs.makeSession()
        #expect(
            await complete(session, request("POST", "http://127.0.0.1:1/orders", body: "stub me")).text
                == "stubbed order"
        )
        #expect(
            await complete(session, request("POST", "http://127.0.0.1:1/orders", body: "other")).urlError?.code
                == .cannotConnectToHost
        )
        #expect(stubs.journal.map(outcomeName) == ["answered", "passedThrough"])
    }

    @Test func uploadMatchingAStubIsNotPassedThrough() async throws {
        let stubs = StubRegistry()
        stubs.passThrough = .hosts(["127.0.0.1"])
        stubs.stub(.post("http://127.0.0.1:1/upload").body(.equal("stub me")), .text("stubbed upload"))
        let session = stubs.makeSession()
        var post = URLRequest(url: URL(string: "http://127.0.0.1:1/upload")!)
        post.httpMethod = "POST"
        let completion = await withCheckedContinuation { (continuation: CheckedContinuation<Completion, Never>) in
            session.uploadTask(with: post, from: Data("stub me".utf8)) { data, response, error in
                continuation.resume(returning: Completion(data: data, response: response, error: error))
            }.resume()
        }
        // Without pass-through the same upload is answered by the stub (see JournalTests); with it,
        // the decision in canInit must not take the hidden upload body for "no body".
        #expect(completion.text == "stubbed upload")
        #expect(stubs.journal.map(outcomeName) == ["answered"])
    }

    @Test func passThroughNeverIsTheDefaultAndAllPassesEverything() async throws {
        let stubs = StubRegistry()
        let session = stubs.makeSession()
        #expect(await complete(session, "http://127.0.0.1:1/x").urlError?.code == .resourceUnavailable)
        stubs.passThrough = .all
        #expect(stubs.passThrough == .all)
        #expect(await complete(session, "http://127.0.0.1:1/x").urlError?.code == .cannotConnectToHost)
        stubs.passThrough = .never
        #expect(await complete(session, "http://127.0.0.1:1/x").urlError?.code == .resourceUnavailable)
        #expect(stubs.journal.map(outcomeName) == ["unmatched", "passedThrough", "unmatched"])
    }
}

// MARK: - Helpers

/// The name of a journal entry's outcome.
private func outcomeName(_ entry: JournalEntry) -> String {
    switch entry.outcome {
    case .answered: return "answered"
    case .unmatched: return "unmatched"
    case .recorded: return "recorded"
    case .passedThrough: return "passedThrough"
    case .refused: return "refused"
    }
}

/// The value of the Swift string literal that follows `marker` in `code`, read as the compiler would,
/// or `nil` when the compiler would reject it. Handles `"…"`, `#"…"#` (any number of `#`) and the
/// multi-line `"""` forms, with the escapes a suggestion may use.
private func rawStringArgument(in code: String, after marker: String) -> String? {
    guard let start = code.range(of: marker)?.upperBound else { return nil }
    var rest = code[start...]
    var hashes = 0
    while rest.first == "#" {
        hashes += 1
        rest = rest.dropFirst()
    }
    let pounds = String(repeating: "#", count: hashes)
    let content: String
    if rest.hasPrefix("\"\"\"\n") {
        rest = rest.dropFirst(4)
        // The closing delimiter sits on its own line; its indentation is removed from every line.
        guard let end = rest.range(of: "\"\"\"" + pounds) else { return nil }
        var lines = rest[..<end.lowerBound].components(separatedBy: "\n")
        guard let indentation = lines.popLast(), indentation.allSatisfy({ $0 == " " }) else { return nil }
        var stripped: [String] = []
        for line in lines {
            guard line.isEmpty || line.hasPrefix(indentation) else { return nil }
            stripped.append(String(line.dropFirst(line.isEmpty ? 0 : indentation.count)))
        }
        content = stripped.joined(separator: "\n")
    } else {
        guard rest.first == "\"" else { return nil }
        rest = rest.dropFirst()
        let escape = "\\" + pounds
        var raw = ""
        while !rest.hasPrefix("\"" + pounds) {
            // A single-line literal cannot hold a line break, and must be closed.
            guard let character = rest.first, character != "\n" else { return nil }
            if rest.hasPrefix(escape), rest.count > escape.count {
                raw += rest.prefix(escape.count + 1)
                rest = rest.dropFirst(escape.count + 1)
            } else {
                raw.append(character)
                rest = rest.dropFirst()
            }
        }
        content = raw
    }
    return unescape(content, escape: "\\" + pounds)
}

/// Resolves the escapes a string literal whose escape introducer is `escape` (`\`, `\#`, …) may hold.
private func unescape(_ text: String, escape: String) -> String? {
    var result = ""
    var rest = Substring(text)
    while let range = rest.range(of: escape) {
        result += rest[..<range.lowerBound]
        rest = rest[range.upperBound...]
        guard let next = rest.first else { return nil }
        rest = rest.dropFirst()
        switch next {
        case "n": result += "\n"
        case "t": result += "\t"
        case "r": result += "\r"
        case "0": result += "\0"
        case "\"", "'", "\\": result.append(next)
        case "u":
            guard rest.first == "{", let close = rest.firstIndex(of: "}"),
                let value = UInt32(rest[rest.index(after: rest.startIndex)..<close], radix: 16),
                let scalar = Unicode.Scalar(value)
            else { return nil }
            result.unicodeScalars.append(scalar)
            rest = rest[rest.index(after: close)...]
        default: return nil  // includes interpolation
        }
    }
    return result + rest
}
