import Foundation
import HTTPStubs
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The differential harness: WireMock stub roots copied from public repositories
/// (`Tests/Fixtures/Wild`, listed in its `SOURCES.md`), each loaded with `StubRegistry.load` and
/// asked, through a real URLSession, the requests real WireMock 2.35.1 answered in the root's
/// `wiremock-answers.jsonl` (made by `generate-answers.py`, not by CI).
///
/// The comparison fails on every difference not listed in `known-differences.md`; the summary prints
/// what the replay found and checks the size of the corpus.
@Suite("Stub files from the wild")
struct WildCorpusTests {
    @Test("summary: files, repositories, requests and differences (checks the corpus's size only)")
    func summary() async throws {
        let report = try await WildReplay.shared.value.get()
        print(report.summary)
        #expect(
            report.mappingFiles >= 150,
            "the wild corpus has \(report.mappingFiles) mapping files; the harness needs at least 150"
        )
        #expect(
            report.repositories >= 25,
            "the wild corpus comes from \(report.repositories) repositories; the harness needs at least 25"
        )
        #expect(report.requests >= 1_000, "the golden files hold \(report.requests) requests")
        #expect(
            report.roots.count == report.goldenFiles,
            "every root needs a wiremock-answers.jsonl (run generate-answers.py)"
        )
        #expect(
            report.staleKnownDifferences.isEmpty,
            "known-differences.md lists requests that are not in the golden files: \(report.staleKnownDifferences)"
        )
    }

    @Test("every request answers as WireMock 2.35.1 answered it, but for the documented differences")
    func sameAnswersAsWireMock() async throws {
        let report = try await WildReplay.shared.value.get()
        for difference in report.differences {
            Issue.record(Comment(rawValue: difference.description))
        }
    }
}

// MARK: - Replay

/// What replaying the wild corpus found.
struct WildReport: Sendable {
    var roots: [String] = []
    var repositories = 0
    var mappingFiles = 0
    var goldenFiles = 0
    var requests = 0
    var sent = 0
    var unsendable = 0
    /// Requests of roots the toolkit refuses to load.
    var notSent = 0
    var skippedAsKnown = 0
    var differences: [WildDifference] = []
    var staleKnownDifferences: [String] = []
    var refusedRoots: [String] = []
    /// Roots both WireMock and the toolkit refuse, with the toolkit's error.
    var agreedRefusals: [String] = []

    var summary: String {
        var lines = [
            "Stub files from the wild: \(mappingFiles) mapping files from \(repositories) repositories in \(roots.count) roots;",
            "\(requests) requests (\(sent) sent, \(unsendable) unsendable, \(notSent) in roots the toolkit refuses), \(skippedAsKnown) known differences skipped,",
            "\(differences.count) differences.",
        ]
        if !refusedRoots.isEmpty {
            lines.append("Roots the toolkit refuses and WireMock loads (\(refusedRoots.count)):")
            lines += refusedRoots.map { "  - \($0)" }
        }
        if !agreedRefusals.isEmpty {
            lines.append("Roots WireMock refuses and the toolkit refuses too (\(agreedRefusals.count)):")
            lines += agreedRefusals.map { "  - \($0)" }
        }
        var byKind: [String: Int] = [:]
        for difference in differences { byKind[difference.kind, default: 0] += 1 }
        for (kind, count) in byKind.sorted(by: { $0.key < $1.key }) { lines.append("  \(kind): \(count)") }
        return lines.joined(separator: "\n")
    }
}

/// One request the toolkit answered differently from WireMock.
struct WildDifference: Sendable, CustomStringConvertible {
    var root: String
    var mapping: String
    var request: String
    var kind: String
    var wiremock: String
    var toolkit: String

    var description: String {
        "\(root): \(mapping): \(request): \(kind)\n  WireMock 2.35.1: \(wiremock)\n  toolkit:         \(toolkit)"
    }
}

enum WildReplay {
    /// The replay, done once for the whole suite.
    static let shared = Task<Result<WildReport, any Error>, Never> {
        do { return .success(try await run()) } catch { return .failure(error) }
    }

    static func wildURL() throws -> URL {
        let url = repositoryRoot.appendingPathComponent("Tests/Fixtures/Wild")
        guard FileManager.default.fileExists(atPath: url.path) else { throw CorpusMissing(url: url) }
        return url
    }

    /// Every folder below `wild` that holds a `mappings/` folder, as a path relative to `wild`.
    static func roots(in wild: URL) throws -> [String] {
        var roots: [String] = []
        func visit(_ relative: String) throws {
            let url = relative.isEmpty ? wild : wild.appendingPathComponent(relative)
            let names = try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
            if names.contains("mappings") {
                roots.append(relative)
                return
            }
            for name in names where !name.hasPrefix(".") {
                var isDirectory: ObjCBool = false
                let child = relative.isEmpty ? name : relative + "/" + name
                if FileManager.default.fileExists(
                    atPath: wild.appendingPathComponent(child).path,
                    isDirectory: &isDirectory
                ), isDirectory.boolValue {
                    try visit(child)
                }
            }
        }
        try visit("")
        return roots
    }

    static func run() async throws -> WildReport {
        let wild = try wildURL()
        var report = WildReport()
        report.roots = try roots(in: wild)
        report.repositories = Set(report.roots.map { String($0.split(separator: "/")[0]) }).count
        let known = try WildKnownDifferences(url: wild.appendingPathComponent("known-differences.md"))
        var seenKnown: Set<String> = []
        for root in report.roots {
            let rootURL = wild.appendingPathComponent(root)
            report.mappingFiles += mappingFiles(in: rootURL.appendingPathComponent("mappings"))
            let goldenURL = rootURL.appendingPathComponent("wiremock-answers.jsonl")
            guard let golden = try? WildGolden(url: goldenURL) else { continue }
            report.goldenFiles += 1
            report.requests += golden.requests.count
            try await replay(
                root: root,
                at: rootURL,
                golden: golden,
                known: known,
                seenKnown: &seenKnown,
                into: &report
            )
        }
        report.staleKnownDifferences = known.keys.filter { !seenKnown.contains($0) }.sorted()
        return report
    }

    /// The diagnostics of a refused root, for the summary: each with its place and severity, but not
    /// in the compiler's `path:line:column: error:` form, which would read as a failure of the run.
    static func listed(_ error: StubFileError) -> String {
        error.diagnostics.map { diagnostic in
            "\(diagnostic.source) (\(diagnostic.severity.rawValue)) \(diagnostic.jsonPath.map { "\($0): " } ?? "")\(diagnostic.message)"
        }.joined(separator: "; ")
    }

    static func mappingFiles(in folder: URL) -> Int {
        guard let walker = FileManager.default.enumerator(atPath: folder.path) else { return 0 }
        return walker.compactMap { $0 as? String }.filter { $0.lowercased().hasSuffix(".json") }.count
    }

    static func replay(
        root: String,
        at rootURL: URL,
        golden: WildGolden,
        known: WildKnownDifferences,
        seenKnown: inout Set<String>,
        into report: inout WildReport
    ) async throws {
        let stubs = StubRegistry(clock: ImmediateStubClock())
        stubs.followsRedirects = false  // WireMock's client did not follow them either
        // What the files hold that the toolkit warns about (webhooks, Java extensions) is the wild's
        // own: the comparison is on the answers. Kept out of the run's output, which a passing run
        // keeps free of compiler-style `error:` and `warning:` lines.
        stubs.onDiagnostic { _ in }
        let loadError: StubFileError?
        do {
            _ = try stubs.load(rootURL.path)
            loadError = nil
        } catch {
            loadError = error
        }
        switch (golden.loaded, loadError) {
        case (false, nil):
            let key = WildKnownDifferences.key(root: root, method: "(loading)", url: "", variant: "-")
            if known.keys.contains(key) {
                seenKnown.insert(key)
                report.skippedAsKnown += 1
                return
            }
            report.differences.append(
                WildDifference(
                    root: root,
                    mapping: "(root)",
                    request: "(loading)",
                    kind: "loads a root WireMock refuses",
                    wiremock: golden.error ?? "refused",
                    toolkit: "loaded \(stubs.stubs.count) stubs"
                )
            )
            return
        case (false, .some(let error)):
            // Both refuse. Agreed when the toolkit's error names the file WireMock names.
            if let file = golden.refusedFile, !error.description.contains("/\(file):") {
                let key = WildKnownDifferences.key(root: root, method: "(loading)", url: "", variant: "-")
                if known.keys.contains(key) {
                    seenKnown.insert(key)
                    report.skippedAsKnown += 1
                } else {
                    report.differences.append(
                        WildDifference(
                            root: root,
                            mapping: file,
                            request: "(loading)",
                            kind: "accepts the file WireMock refuses (the root fails for another file)",
                            wiremock: golden.error ?? "refused",
                            toolkit: error.description
                        )
                    )
                }
            }
            report.agreedRefusals.append("\(root): \(listed(error))")
            return
        case let (true, .some(error)):
            report.refusedRoots.append("\(root): \(listed(error))")
            let key = WildKnownDifferences.key(root: root, method: "(loading)", url: "", variant: "-")
            if known.keys.contains(key) {
                seenKnown.insert(key)
                report.skippedAsKnown += 1
                report.notSent += golden.requests.count
                return
            }
            report.differences.append(
                WildDifference(
                    root: root,
                    mapping: "(root)",
                    request: "(loading)",
                    kind: "refuses a root WireMock loads",
                    wiremock: "loaded; answered \(golden.requests.count) requests",
                    toolkit: error.description
                )
            )
            report.notSent += golden.requests.count
            return
        case (true, nil):
            break
        }

        let session = stubs.makeSession()
        defer { session.invalidateAndCancel() }
        for request in golden.requests {
            guard request.sendable, let expected = request.expected,
                let urlRequest = request.urlRequest(base: golden.base)
            else {
                report.unsendable += 1
                continue
            }
            report.sent += 1
            let unmatchedBefore = stubs.unmatchedRequests.count
            let answer: Answer
            do {
                let (data, response) = try await session.data(for: urlRequest)
                let http = response as! HTTPURLResponse
                answer = .response(status: http.statusCode, headers: http, body: data)
            } catch {
                answer = stubs.unmatchedRequests.count > unmatchedBefore ? .unmatched : .failed("\(error)")
            }
            guard let difference = compare(expected: expected, answer: answer) else { continue }
            let key = WildKnownDifferences.key(
                root: root,
                method: request.method,
                url: request.url,
                variant: request.variant
            )
            if known.keys.contains(key) {
                seenKnown.insert(key)
                report.skippedAsKnown += 1
                continue
            }
            report.differences.append(
                WildDifference(
                    root: root,
                    mapping: request.mapping + " (stub \(request.stub))",
                    request:
                        "#\(request.n) \(request.variant): \(request.method) \(request.url)\(request.headersText)\(request.bodyText)",
                    kind: difference.kind,
                    wiremock: difference.wiremock,
                    toolkit: difference.toolkit
                )
            )
        }
    }

    enum Answer {
        case unmatched
        case failed(String)
        case response(status: Int, headers: HTTPURLResponse, body: Data)
    }

    static func compare(expected: WildExpected, answer: Answer) -> (kind: String, wiremock: String, toolkit: String)? {
        switch answer {
        case .unmatched:
            if !expected.matched && !expected.failed { return nil }
            return ("unmatched by the toolkit, matched by WireMock", expected.text, "unmatched")
        case let .failed(error):
            return ("the request failed", expected.text, error)
        case let .response(status, response, body):
            if expected.failed {
                return (
                    "WireMock failed to answer (status \(expected.status)), the toolkit answered", expected.text,
                    "\(status) \(bodyPreview(body))"
                )
            }
            guard expected.matched else {
                return (
                    "matched by the toolkit, unmatched by WireMock", expected.text, "\(status) \(bodyPreview(body))"
                )
            }
            if status != expected.status {
                return ("status", expected.text, "\(status) \(bodyPreview(body))")
            }
            for (name, values) in expected.headers.sorted(by: { $0.key < $1.key }) {
                let actual = response.value(forHTTPHeaderField: name)
                let wanted = values.isEmpty ? nil : values.joined(separator: ", ")
                if actual != wanted {
                    return ("header \(name)", "\(name): \(wanted ?? "(absent)")", "\(name): \(actual ?? "(absent)")")
                }
            }
            if !expected.bodyMatches(body) {
                let kind = expected.templated ? "templated body" : "body"
                if let wanted = expected.body, let actual = String(data: body, encoding: .utf8) {
                    let (left, right) = firstDifference(wanted, actual)
                    return (
                        kind, "\(expected.bodyLength) bytes, first difference: …\(left)…",
                        "\(body.count) bytes, first difference: …\(right)…"
                    )
                }
                return (kind, expected.text, "\(body.count) bytes: \(bodyPreview(body))")
            }
            return nil
        }
    }

    /// The two texts around the first character where they differ.
    static func firstDifference(_ a: String, _ b: String) -> (String, String) {
        let a = Array(a)
        let b = Array(b)
        var i = 0
        while i < a.count, i < b.count, a[i] == b[i] { i += 1 }
        let start = max(0, i - 40)
        return (String(a[start..<min(a.count, i + 40)]), String(b[start..<min(b.count, i + 40)]))
    }

    static func bodyPreview(_ data: Data) -> String {
        guard let text = String(data: data, encoding: .utf8) else { return "(\(data.count) bytes, not UTF-8)" }
        return text.count > 300 ? String(text.prefix(300)) + "…" : text
    }
}

// MARK: - WildGolden files

struct WildExpected: Sendable {
    var matched: Bool
    /// WireMock answered with an error of its own (a failing template, a proxy target that is down).
    var failed: Bool
    var status: Int
    var headers: [String: [String]]
    var body: String?
    var bodyBase64: String?
    var bodySHA256: String
    var bodyLength: Int
    var templated: Bool

    init?(_ object: [String: Any]) {
        guard let matched = object["matched"] as? Bool, let status = object["status"] as? Int else { return nil }
        self.matched = matched
        failed = object["failed"] as? Bool ?? false
        self.status = status
        headers = object["headers"] as? [String: [String]] ?? [:]
        body = object["body"] as? String
        bodyBase64 = object["bodyBase64"] as? String
        bodySHA256 = object["bodySHA256"] as? String ?? ""
        bodyLength = object["bodyLength"] as? Int ?? 0
        templated = object["templated"] as? Bool ?? false
    }

    func bodyMatches(_ data: Data) -> Bool {
        if data.count != bodyLength { return false }
        if let body { return data == Data(body.utf8) }
        if let bodyBase64, let bytes = Data(base64Encoded: bodyBase64) { return data == bytes }
        return WildSHA256.hex(data) == bodySHA256
    }

    var text: String {
        guard matched || failed else { return "unmatched (404 Request was not matched)" }
        let shown =
            body.map { $0.count > 300 ? String($0.prefix(300)) + "…" : $0 }
            ?? "(\(bodyLength) bytes, sha256 \(bodySHA256.prefix(12)))"
        let headerText =
            headers.isEmpty
            ? ""
            : " "
                + headers.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value.joined(separator: ", "))" }.joined(
                    separator: "; "
                )
        return "\(status)\(headerText) \(shown)"
    }
}

struct WildGoldenRequest: Sendable {
    var n: Int
    var mapping: String
    var stub: Int
    var variant: String
    var method: String
    var url: String
    var headers: [[String]]
    var body: String?
    var sendable: Bool
    var expected: WildExpected?

    func urlRequest(base: String) -> URLRequest? {
        var base = base
        if let host = headers.first(where: { $0[0].lowercased() == "host" }) { base = "http://" + host[1] }
        guard let url = URL(string: base + self.url) else { return nil }
        var request = URLRequest(url: url)
        request.httpMethod = method
        for header in headers where header[0].lowercased() != "host" {
            request.addValue(header[1], forHTTPHeaderField: header[0])
        }
        if let body { request.httpBody = Data(body.utf8) }
        return request
    }

    var headersText: String {
        headers.isEmpty ? "" : " [" + headers.map { "\($0[0]): \($0[1])" }.joined(separator: "; ") + "]"
    }

    var bodyText: String {
        guard let body else { return "" }
        return " body " + (body.count > 200 ? String(body.prefix(200)) + "…" : body)
    }
}

struct WildGolden: Sendable {
    var loaded: Bool
    var error: String?
    /// The mapping file WireMock's startup error names (`mappings/…`), if any.
    var refusedFile: String? {
        guard let error, let range = error.range(of: "Error loading file ") else { return nil }
        let rest = error[range.upperBound...]
        guard let end = rest.range(of: ".json") else { return nil }
        return String(rest[..<end.upperBound])
    }
    var base: String
    var requests: [WildGoldenRequest]

    init(url: URL) throws {
        let text = try String(contentsOf: url, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: true)
        guard let first = lines.first,
            let head = try JSONSerialization.jsonObject(with: Data(first.utf8)) as? [String: Any]
        else {
            throw CorpusMissing(url: url)
        }
        loaded = head["loaded"] as? Bool ?? false
        error = head["error"] as? String
        base = head["base"] as? String ?? "http://127.0.0.1:18181"
        requests = try lines.dropFirst().map { line in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] ?? [:]
            return WildGoldenRequest(
                n: object["n"] as? Int ?? -1,
                mapping: object["mapping"] as? String ?? "?",
                stub: object["stub"] as? Int ?? -1,
                variant: object["variant"] as? String ?? "?",
                method: object["method"] as? String ?? "GET",
                url: object["url"] as? String ?? "/",
                headers: object["headers"] as? [[String]] ?? [],
                body: object["body"] as? String,
                sendable: object["sendable"] as? Bool ?? false,
                expected: (object["expected"] as? [String: Any]).flatMap(WildExpected.init)
            )
        }
    }
}

/// `known-differences.md`: a table whose rows name a root, a request (`METHOD url`), the variant and
/// the design decision that explains the difference.
struct WildKnownDifferences: Sendable {
    var keys: Set<String> = []

    static func key(root: String, method: String, url: String, variant: String) -> String {
        "\(root) | \(method) \(url) | \(variant)"
    }

    init(url: URL) throws {
        guard FileManager.default.fileExists(atPath: url.path) else { return }
        let text = try String(contentsOf: url, encoding: .utf8)
        for line in text.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            }
            // "", root, request, variant, reason, ""
            guard cells.count >= 5 else { continue }
            if cells[2] == "(loading)" {  // the root as a whole: the toolkit refuses it by design
                keys.insert(Self.key(root: cells[1], method: "(loading)", url: "", variant: "-"))
                continue
            }
            let request = cells[2].split(separator: " ", maxSplits: 1).map(String.init)
            guard request.count == 2 else { continue }
            keys.insert(Self.key(root: cells[1], method: request[0], url: request[1], variant: cells[3]))
        }
    }
}

// MARK: - SHA-256 (for bodies the golden files keep only as a digest)

enum WildSHA256 {
    static let k: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    static func hex(_ data: Data) -> String {
        var h: [UInt32] = [
            0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19,
        ]
        var message = [UInt8](data)
        let bitLength = UInt64(message.count) * 8
        message.append(0x80)
        while message.count % 64 != 56 { message.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) {
            message.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift)))
        }
        var w = [UInt32](repeating: 0, count: 64)
        func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { (x >> n) | (x << (32 - n)) }
        for chunk in stride(from: 0, to: message.count, by: 64) {
            for i in 0..<16 {
                let j = chunk + i * 4
                w[i] =
                    UInt32(message[j]) << 24 | UInt32(message[j + 1]) << 16 | UInt32(message[j + 2]) << 8
                    | UInt32(message[j + 3])
            }
            for i in 16..<64 {
                let s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3)
                let s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10)
                w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
            }
            var (a, b, c, d, e, f, g, hh) = (h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7])
            for i in 0..<64 {
                let s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)
                let ch = (e & f) ^ (~e & g)
                let t1 = hh &+ s1 &+ ch &+ k[i] &+ w[i]
                let s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)
                let maj = (a & b) ^ (a & c) ^ (b & c)
                let t2 = s0 &+ maj
                (hh, g, f, e, d, c, b, a) = (g, f, e, d &+ t1, c, b, a, t1 &+ t2)
            }
            h[0] = h[0] &+ a
            h[1] = h[1] &+ b
            h[2] = h[2] &+ c
            h[3] = h[3] &+ d
            h[4] = h[4] &+ e
            h[5] = h[5] &+ f
            h[6] = h[6] &+ g
            h[7] = h[7] &+ hh
        }
        return h.map { String(format: "%08x", $0) }.joined()
    }
}
