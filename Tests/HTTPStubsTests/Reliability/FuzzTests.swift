import Foundation
import Testing

@testable import HTTPStubs
@testable import HTTPStubsFiles
@testable import HTTPStubsLanguages
@testable import HTTPStubsTemplates

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A seeded mutation fuzzer over every stub file users are likely to point the toolkit at: the
/// WireMock mappings and HAR captures of the corpus (`Tests/Fixtures/Corpus`) and the repository's `Stubs/` mappings.
///
/// Each case mutates one file (truncation, byte flips, JSON type swaps, deep nesting, huge
/// numbers, invalid UTF-8, duplicate keys, 1 MB strings, or several of these), writes it into a
/// scratch stub root beside a copy of the original `__files/`, and loads the root with
/// `StubFiles.load`. Every case must load, or fail with diagnostics that say where (file, line and
/// column). Every fourth case that loads stubs is also asked requests derived from the original
/// file through `StubRegistry.answer(_:)`. Nothing may crash or hang.
///
/// The seed is fixed (`HTTPSTUBS_FUZZ_SEED` runs another one). After a crash, the case that caused
/// it is still in the scratch root printed at the start of the run.
@Suite(
    "Stub file fuzzing",
    .serialized,
    .enabled(
        if: reliabilitySuitesEnabled,
        "heavy: run with HTTPSTUBS_RELIABILITY=1 (.ci/run does, after the main suite)"
    )
)
struct FuzzTests {
    /// How many mutated files are loaded.
    static let caseCount = 10_000
    /// The fixed seed, unless `HTTPSTUBS_FUZZ_SEED` gives another.
    static let seed = ProcessInfo.processInfo.environment["HTTPSTUBS_FUZZ_SEED"].flatMap { UInt64($0) } ?? 0x5EED_F022
    /// A case slower than this counts as a hang.
    static let hangThreshold = Duration.seconds(5)

    @Test(
        "10,000 mutated stub files each load or fail with located diagnostics, never crash or hang",
        .timeLimit(.minutes(5))
    )
    func mutatedStubFiles() throws {
        let seeds = try SeedFile.all()
        #expect(seeds.count >= 40, "only \(seeds.count) seed files found")
        let scratch = try Scratch()
        defer { scratch.remove() }
        print(
            "Fuzz: seed \(Self.seed), \(seeds.count) seed files; each case is written into \(scratch.url.path)/<seed>/mappings/"
        )

        var random = SeededGenerator(seed: Self.seed)
        var report = FuzzReport()
        let clock = ContinuousClock()
        let start = clock.now
        var roots: [Int: URL] = [:]
        for index in 0..<Self.caseCount {
            let seedIndex = index % seeds.count
            let seed = seeds[seedIndex]
            let root = try roots[seedIndex] ?? scratch.root(for: seed, number: seedIndex)
            roots[seedIndex] = root
            var mutator = Mutator(seed: seed, random: random)
            let (bytes, mutations) = mutator.mutate()
            random = mutator.random
            let file = root.appendingPathComponent("mappings").appendingPathComponent(seed.caseFileName)
            try Data(bytes).write(to: file)
            let label = "case \(index) (\(mutations.joined(separator: " + "))) of \(seed.displayName)"

            report.count(mutations)
            let caseStart = clock.now
            let result = StubFiles.load([root.path])
            report.check(result, file: file.path, bytes: bytes, label: label)
            if index.isMultiple(of: 4), !result.stubs.isEmpty {
                report.answer(seed.probes, with: result.stubs, seed: Self.seed &+ UInt64(index))
            }
            let took = clock.now - caseStart
            if took > report.slowest.time { report.slowest = (took, label) }
            if took > Self.hangThreshold { report.hangs.append("\(label) took \(took)") }
        }
        let elapsed = clock.now - start

        #expect(report.cases == Self.caseCount)
        #expect(
            report.unlocated.isEmpty,
            "\(report.unlocated.count) diagnostics without a location, first: \(report.unlocated.prefix(5))"
        )
        #expect(report.hangs.isEmpty, "\(report.hangs.prefix(5))")
        #expect(
            report.loaded > 0 && report.failed > 0,
            "the mutations should both keep some files loadable and break others"
        )
        for kind in Mutation.allCases {
            #expect(report.byMutation[kind.rawValue, default: 0] > 0, "no case used \(kind.rawValue)")
        }
        print(
            "Fuzz: \(report.cases) cases in \(elapsed) (\(report.byMutation.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))); "
                + "\(report.loaded) loaded stubs, \(report.failed) had errors, \(report.empty) loaded nothing without an error; "
                + "\(report.diagnostics) diagnostics checked; \(report.answers) requests answered through registry.answer (\(report.answerKinds.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))); "
                + "slowest case \(report.slowest.time): \(report.slowest.label)"
        )
    }

    @Test("an unreadable mapping file (a folder or a dangling link named *.json) is a diagnostic with its path")
    func unreadableFiles() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let root = scratch.url.appendingPathComponent("unreadable")
        let mappings = root.appendingPathComponent("mappings")
        try FileManager.default.createDirectory(
            at: mappings.appendingPathComponent("folder.json"),
            withIntermediateDirectories: true
        )
        try FileManager.default.createSymbolicLink(
            atPath: mappings.appendingPathComponent("dangling.json").path,
            withDestinationPath: "/nonexistent/target.json"
        )
        let result = StubFiles.load([root.path])
        #expect(result.stubs.isEmpty)
        for name in ["folder.json", "dangling.json"] {
            #expect(
                result.errors.contains { $0.source.file.hasSuffix(name) && !$0.message.isEmpty },
                "\(name): \(result.diagnostics)"
            )
        }
        for diagnostic in result.diagnostics {
            #expect(diagnostic.source.file.hasPrefix(root.path) && !diagnostic.message.isEmpty, "\(diagnostic)")
        }
    }

    // Child processes (`Process`) can only be started on macOS and Linux.
    #if os(macOS) || os(Linux)
    @Test(
        "delays too long for Duration are refused, not a crash (checked in a child process)",
        arguments: HugeDelay.mappings
    )
    func hugeDelays(mapping: HugeDelay.Mapping) throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let root = scratch.url.appendingPathComponent("delays")
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("mappings"),
            withIntermediateDirectories: true
        )
        try Data(mapping.json.utf8).write(to: root.appendingPathComponent("mappings/delay.json"))
        // A log-normal sample with this sigma left Duration's range about every other draw: 40 requests make a
        // regression all but certain to show.
        let requests = root.appendingPathComponent("requests.jsonl")
        try Data(
            String(repeating: #"{"method": "GET", "url": "https://api.example.com/delay"}"# + "\n", count: 40).utf8
        ).write(to: requests)
        let arguments =
            mapping.answered
            ? ["match", "--stubs", root.path, "--requests", requests.path]
            : ["lint", root.path]
        let outcome = try ChildProcess.runStubs(arguments)
        let crashed = outcome.crashed
        let reason = outcome.stderr.split(separator: "\n").first.map(String.init) ?? "no message"
        #expect(!crashed, "stubs \(arguments.first ?? "") crashed: \(reason)")
        if !crashed {
            // lint exits 1 for a refused file; match exits 2 when its stubs cannot be loaded.
            #expect([0, 1, 2].contains(outcome.status), "stubs \(arguments.first ?? "") exited with \(outcome.status)")
        }
    }
    #endif
}

extension FuzzTests {
    // MARK: - Seeds

    /// A stub file the fuzzer mutates, with where its body files are and requests that reach its stubs.
    struct SeedFile: Sendable {
        /// The original file.
        let url: URL
        /// Its bytes.
        let bytes: [UInt8]
        /// The `__files` folder of its stub root, when it has one.
        let filesFolder: URL?
        /// Requests built from the original file's request patterns, for `registry.answer`.
        let probes: [InterceptedRequest]
        /// Its parsed tree and every path in it, when it is JSON the library parses.
        let tree: JSONValue?
        let paths: [[JSONStep]]

        /// The name the mutated copy is written under: `.har` stays `.har`, anything else `.json`.
        var caseFileName: String { url.pathExtension == "har" ? "case.har" : "case.json" }

        /// `corpus/wiremock/…/file.json`.
        var displayName: String {
            let parts = url.pathComponents
            return parts.suffix(4).joined(separator: "/")
        }

        /// Every mapping file and HAR capture of the corpus and of the repository's `Stubs/`, in path order.
        static func all() throws -> [SeedFile] {
            let corpus = try corpusURL()
            let stubs = repositoryRoot.appendingPathComponent("Stubs")
            var files: [URL] = []
            for folder in [corpus, stubs] {
                guard let enumerator = FileManager.default.enumerator(atPath: folder.path) else { continue }
                for case let relative as String in enumerator {
                    let components = relative.split(separator: "/")
                    guard !components.contains("__files"), !components.contains("_schema") else { continue }
                    let isHAR = relative.hasSuffix(".har") || relative.hasSuffix(".har.json")
                    let isMapping = relative.hasSuffix(".json") && components.contains("mappings")
                    if isHAR || isMapping { files.append(folder.appendingPathComponent(relative)) }
                }
            }
            return try files.sorted { $0.path < $1.path }.map(SeedFile.init)
        }

        init(_ url: URL) throws {
            self.url = url
            bytes = Array(try Data(contentsOf: url))
            var folder = url.deletingLastPathComponent()
            var files: URL?
            while folder.pathComponents.count > 1 {
                if folder.lastPathComponent == "mappings" {
                    let candidate = folder.deletingLastPathComponent().appendingPathComponent("__files")
                    if FileManager.default.fileExists(atPath: candidate.path) { files = candidate }
                    break
                }
                folder = folder.deletingLastPathComponent()
            }
            filesFolder = files
            tree = try? JSONValue(parsing: Data(bytes))
            paths = tree.map { JSONStep.paths(in: $0) } ?? []
            probes = tree.map(Probe.requests(from:)) ?? []
        }
    }

    // MARK: - Mutations

    /// The kinds of mutation.
    enum Mutation: String, CaseIterable {
        case truncation, byteFlips, typeSwap, deepNesting, hugeNumber, invalidUTF8, duplicateKey, hugeString,
            combination
    }

    /// Mutates a seed's bytes with a seeded generator.
    struct Mutator {
        let seed: SeedFile
        var random: SeededGenerator

        /// How often each mutation is chosen, in per mille. 1 MB strings are rare because each such
        /// case costs about 0.15 s to parse in a debug build.
        static let weights: [(Mutation, Int)] = [
            (.truncation, 180), (.byteFlips, 180), (.typeSwap, 200), (.deepNesting, 60), (.hugeNumber, 110),
            (.invalidUTF8, 100), (.duplicateKey, 80), (.hugeString, 10), (.combination, 80),
        ]

        /// The mutated bytes and the names of the mutations applied.
        mutating func mutate() -> ([UInt8], [String]) {
            let kind = pick()
            if kind == .combination {
                var bytes = seed.bytes
                var names: [String] = []
                for _ in 0..<Int.random(in: 2...3, using: &random) {
                    var inner = pick()
                    while inner == .combination || inner == .hugeString { inner = pick() }
                    bytes = apply(inner, to: bytes, original: names.isEmpty)
                    names.append(inner.rawValue)
                }
                return (bytes, [Mutation.combination.rawValue + "(" + names.joined(separator: ", ") + ")"])
            }
            return (apply(kind, to: seed.bytes, original: true), [kind.rawValue])
        }

        private mutating func pick() -> Mutation {
            var roll = Int.random(in: 0..<Self.weights.reduce(0) { $0 + $1.1 }, using: &random)
            for (kind, weight) in Self.weights {
                if roll < weight { return kind }
                roll -= weight
            }
            return .truncation
        }

        /// Applies one mutation to `bytes` (the seed's own when `original`); a tree mutation of
        /// bytes that no longer parse falls back to byte flips.
        mutating func apply(_ kind: Mutation, to bytes: [UInt8], original: Bool) -> [UInt8] {
            switch kind {
            case .truncation:
                return Array(bytes.prefix(Int.random(in: 0..<max(bytes.count, 1), using: &random)))
            case .byteFlips:
                return flipBytes(bytes)
            case .invalidUTF8:
                return insertInvalidUTF8(bytes)
            case .deepNesting:
                return deepNesting(bytes, original: original)
            case .typeSwap, .hugeNumber, .duplicateKey, .hugeString:
                guard let (tree, paths) = parsed(bytes, original: original), !paths.isEmpty else {
                    return flipBytes(bytes)
                }
                let mutated: JSONValue
                switch kind {
                case .typeSwap: mutated = swapType(in: tree, paths: paths)
                case .hugeNumber: mutated = hugeNumber(in: tree, paths: paths)
                case .duplicateKey: mutated = duplicateKey(in: tree, paths: paths)
                default: mutated = hugeString(in: tree, paths: paths)
                }
                return Array(mutated.serialized(pretty: Bool.random(using: &random)).utf8)
            case .combination:
                return bytes
            }
        }

        /// The tree and its paths: the seed's own, computed once, when the bytes are the seed's.
        private func parsed(_ bytes: [UInt8], original: Bool) -> (JSONValue, [[JSONStep]])? {
            if original, let tree = seed.tree { return (tree, seed.paths) }
            guard let tree = try? JSONValue(parsing: Data(bytes)) else { return nil }
            return (tree, JSONStep.paths(in: tree))
        }

        private mutating func flipBytes(_ bytes: [UInt8]) -> [UInt8] {
            guard !bytes.isEmpty else { return [UInt8(ascii: "{")] }
            var bytes = bytes
            let structural = Array("{}[]:,\"\\0-eE.".utf8)
            for _ in 0..<Int.random(in: 1...8, using: &random) {
                let index = Int.random(in: bytes.indices, using: &random)
                if Int.random(in: 0..<10, using: &random) < 3 {
                    bytes[index] = structural.randomElement(using: &random)!
                } else {
                    bytes[index] ^= UInt8.random(in: 1...255, using: &random)
                }
            }
            return bytes
        }

        /// Bytes that are not UTF-8: stray continuation bytes, overlong forms, surrogates, code points
        /// past U+10FFFF, truncated sequences; mostly inside strings, where they survive tokenising.
        private mutating func insertInvalidUTF8(_ bytes: [UInt8]) -> [UInt8] {
            let sequences: [[UInt8]] = [
                [0xFF], [0xFE], [0x80], [0xBF], [0xC0, 0x80], [0xC1, 0xBF], [0xE0, 0x80, 0x80],
                [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xF8, 0x88, 0x80, 0x80, 0x80], [0xE2, 0x82], [0xC3],
                [0xF0, 0x9F, 0x98],
            ]
            var bytes = bytes
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                var position = Int.random(in: 0...bytes.count, using: &random)
                if Int.random(in: 0..<10, using: &random) < 7,
                    let quote = bytes[position...].firstIndex(of: UInt8(ascii: "\""))
                        ?? bytes[..<position].lastIndex(of: UInt8(ascii: "\""))
                {
                    position = quote + 1
                }
                bytes.insert(contentsOf: sequences.randomElement(using: &random)!, at: position)
            }
            return bytes
        }

        /// The whole file wrapped in 10,000 arrays or objects (closed or not), or 10,000 open
        /// brackets at a random place, or a value nested just under the parser's depth limit.
        private mutating func deepNesting(_ bytes: [UInt8], original: Bool) -> [UInt8] {
            let depth = 10_000
            let open = [UInt8](repeating: UInt8(ascii: "["), count: depth)
            switch Int.random(in: 0..<5, using: &random) {
            case 0:
                return open + bytes + [UInt8](repeating: UInt8(ascii: "]"), count: depth)
            case 1:
                return Array(String(repeating: #"{"a":"#, count: depth).utf8) + bytes
                    + [UInt8](repeating: UInt8(ascii: "}"), count: depth)
            case 2:
                return open + bytes
            case 3:
                var copy = bytes
                copy.insert(contentsOf: open, at: Int.random(in: 0...bytes.count, using: &random))
                return copy
            default:
                guard let (tree, paths) = parsed(bytes, original: original), !paths.isEmpty else { return bytes }
                let path = paths.randomElement(using: &random)!
                let levels = max(1, JSONParser.maximumDepth - path.count - Int.random(in: 1...3, using: &random))
                var nested: JSONValue = .string("deep")
                let useObjects = Bool.random(using: &random)
                for _ in 0..<levels {
                    nested =
                        useObjects
                        ? .object(JSONObject(members: [JSONMember(key: "equalTo", value: nested)])) : .array([nested])
                }
                let replacement = nested
                return Array(JSONStep.replacing(in: tree, at: path[...]) { _ in replacement }.serialized().utf8)
            }
        }

        /// Values of every JSON type, some of them shaped like the matchers and bodies stub files hold.
        private static let replacements: [JSONValue] = [
            .null, .bool(true), .bool(false), .number(JSONNumber(0)), .number(JSONNumber(-1)),
            .number(JSONNumber(2_147_483_648)),
            .number(JSONNumber(1.5)!), .string(""), .string("0"), .string("true"), .string("GET"), .string("(a+)+"),
            .string("{{request.path}}"),
            .array([]), .object(JSONObject()), .array([.string("x"), .number(JSONNumber(1))]),
            .object(JSONObject(members: [JSONMember(key: "equalTo", value: .string("x"))])),
            .object(JSONObject(members: [JSONMember(key: "matches", value: .string("["))])),
        ]

        private mutating func swapType(in tree: JSONValue, paths: [[JSONStep]]) -> JSONValue {
            let path = paths.randomElement(using: &random)!
            var choice = Self.replacements.randomElement(using: &random)!
            return JSONStep.replacing(in: tree, at: path[...]) { current in
                if choice.typeName == current.typeName {
                    choice = Self.replacements.first { $0.typeName != current.typeName }!
                }
                return choice
            }
        }

        /// Numbers past every range: ±1e999999, 1e-999999, 400-digit integers, values just past
        /// Int64 and Int32, and `-0`.
        private static let hugeNumbers = [
            "1e999999", "-1e999999", "1e-999999", String(repeating: "9", count: 400),
            "-" + String(repeating: "1", count: 400),
            "9223372036854775808", "-9223372036854775809", "18446744073709551616", "2147483648", "1E+400",
            "0." + String(repeating: "0", count: 400) + "1", "-0",
        ]

        private mutating func hugeNumber(in tree: JSONValue, paths: [[JSONStep]]) -> JSONValue {
            let numbers = paths.filter { JSONStep.value(in: tree, at: $0[...])?.numberValue != nil }
            let path = (numbers.isEmpty || Int.random(in: 0..<4, using: &random) == 0 ? paths : numbers).randomElement(
                using: &random
            )!
            let number = JSONNumber(text: Self.hugeNumbers.randomElement(using: &random)!)!
            return JSONStep.replacing(in: tree, at: path[...]) { _ in .number(number) }
        }

        private mutating func duplicateKey(in tree: JSONValue, paths: [[JSONStep]]) -> JSONValue {
            let objects = ([[]] + paths).filter {
                (JSONStep.value(in: tree, at: $0[...])?.objectValue?.members.isEmpty == false)
            }
            guard let path = objects.randomElement(using: &random),
                let count = JSONStep.value(in: tree, at: path[...])?.objectValue?.members.count
            else { return tree }
            let index = Int.random(in: 0..<count, using: &random)
            let mode = Int.random(in: 0..<3, using: &random)
            let value = Self.replacements.randomElement(using: &random)!
            return JSONStep.replacing(in: tree, at: path[...]) { current in
                guard var object = current.objectValue, object.members.indices.contains(index) else { return current }
                let member = object.members[index]
                switch mode {
                case 0: object.members.append(member)  // the same member twice
                case 1: object.members.append(JSONMember(key: member.key, value: value))  // a later, different value
                default: object.members.insert(JSONMember(key: member.key, value: value), at: 0)
                }
                return .object(object)
            }
        }

        /// 1 MB strings: ASCII, two-byte characters, and a path full of template variables.
        private static let hugeStrings = [
            String(repeating: "a", count: 1 << 20), String(repeating: "é", count: 1 << 19),
            "/" + String(repeating: "{x}/", count: 1 << 18),
        ]

        /// A 1 MB string in place of a string value, of any value, or of a key.
        private mutating func hugeString(in tree: JSONValue, paths: [[JSONStep]]) -> JSONValue {
            let strings = paths.filter { JSONStep.value(in: tree, at: $0[...])?.stringValue != nil }
            let path = (strings.isEmpty ? paths : strings).randomElement(using: &random)!
            let huge = Self.hugeStrings.randomElement(using: &random)!
            if Bool.random(using: &random), case let .key(name)? = path.last, path.count >= 1 {
                // Rename the member instead: a 1 MB key.
                return JSONStep.replacing(in: tree, at: path.dropLast()[...]) { current in
                    guard var object = current.objectValue,
                        let index = object.members.firstIndex(where: { $0.key == name })
                    else { return current }
                    object.members[index].key = huge
                    return .object(object)
                }
            }
            return JSONStep.replacing(in: tree, at: path[...]) { _ in .string(huge) }
        }
    }

    /// One step of a path into a JSON value.
    enum JSONStep: Hashable {
        case key(String)
        case index(Int)

        /// Every path in `value` (the root excluded).
        static func paths(in value: JSONValue) -> [[JSONStep]] {
            var paths: [[JSONStep]] = []
            var stack: [(JSONValue, [JSONStep])] = [(value, [])]
            while let (current, path) = stack.popLast() {
                switch current {
                case let .object(object):
                    for member in object.members {
                        let child = path + [.key(member.key)]
                        paths.append(child)
                        stack.append((member.value, child))
                    }
                case let .array(elements):
                    for (index, element) in elements.enumerated() {
                        let child = path + [.index(index)]
                        paths.append(child)
                        stack.append((element, child))
                    }
                default:
                    break
                }
            }
            return paths
        }

        /// The value at `path`, if there is one.
        static func value(in value: JSONValue, at path: ArraySlice<JSONStep>) -> JSONValue? {
            guard let step = path.first else { return value }
            switch (step, value) {
            case let (.key(key), .object(object)):
                return object[key].flatMap { Self.value(in: $0, at: path.dropFirst()) }
            case let (.index(index), .array(elements)) where elements.indices.contains(index):
                return Self.value(in: elements[index], at: path.dropFirst())
            default:
                return nil
            }
        }

        /// `value` with the value at `path` replaced by `transform` of it.
        static func replacing(
            in value: JSONValue,
            at path: ArraySlice<JSONStep>,
            _ transform: (JSONValue) -> JSONValue
        ) -> JSONValue {
            guard let step = path.first else { return transform(value) }
            switch (step, value) {
            case let (.key(key), .object(object)):
                var object = object
                guard let index = object.members.lastIndex(where: { $0.key == key }) else { return value }
                object.members[index].value = replacing(
                    in: object.members[index].value,
                    at: path.dropFirst(),
                    transform
                )
                return .object(object)
            case let (.index(index), .array(elements)) where elements.indices.contains(index):
                var elements = elements
                elements[index] = replacing(in: elements[index], at: path.dropFirst(), transform)
                return .array(elements)
            default:
                return value
            }
        }
    }

    // MARK: - Probes

    /// Requests that reach a stub file's stubs, built from its request patterns.
    enum Probe {
        /// At most eight requests: one per WireMock mapping (method, URL, headers, query, body) or HAR entry.
        static func requests(from tree: JSONValue) -> [InterceptedRequest] {
            var requests: [InterceptedRequest] = []
            if let entries = tree.objectValue?["log"]?.objectValue?["entries"]?.arrayValue {
                for entry in entries.prefix(8) {
                    guard let request = entry.objectValue?["request"]?.objectValue,
                        let url = request["url"]?.stringValue.flatMap(URL.init(string:))
                    else { continue }
                    var headers = HeaderFields()
                    for header in request["headers"]?.arrayValue ?? [] {
                        if let name = header.objectValue?["name"]?.stringValue,
                            let value = header.objectValue?["value"]?.stringValue
                        {
                            headers.add(name, value)
                        }
                    }
                    let body = request["postData"]?.objectValue?["text"]?.stringValue.map { Data($0.utf8) }
                    requests.append(
                        InterceptedRequest(
                            method: InterceptedRequest.Method(rawValue: request["method"]?.stringValue ?? "GET"),
                            url: url,
                            headers: headers,
                            body: body
                        )
                    )
                }
            } else {
                let mappings = tree.objectValue?["mappings"]?.arrayValue ?? [tree]
                for mapping in mappings.prefix(8) {
                    if let request = mapping.objectValue?["request"]?.objectValue, let probe = wireMock(request) {
                        requests.append(probe)
                    }
                }
            }
            // And two requests no stub file expects: a bare GET, and a binary body.
            requests.append(InterceptedRequest(url: URL(string: "https://fuzz.example.com/")!))
            requests.append(
                InterceptedRequest(
                    method: .post,
                    url: requests.first?.url ?? URL(string: "https://fuzz.example.com/upload")!,
                    headers: ["Content-Type": "application/octet-stream"],
                    body: Data([0xFF, 0x00, 0xFE, 0x7B, 0x22])
                )
            )
            return requests
        }

        /// A request a WireMock request pattern accepts, as far as its `equalTo`s tell.
        private static func wireMock(_ request: JSONObject) -> InterceptedRequest? {
            var path =
                request["url"]?.stringValue ?? request["urlPath"]?.stringValue ?? request["urlPathTemplate"]?
                .stringValue ?? "/"
            path = path.replacingOccurrences(of: #"\{[^}]*\}"#, with: "1", options: .regularExpression)
            var query: [String] = []
            for member in request["queryParameters"]?.objectValue?.members ?? [] {
                let value = member.value.objectValue?["equalTo"]?.stringValue ?? "1"
                query.append(
                    "\(member.key)=\(value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "1")"
                )
            }
            if !query.isEmpty { path += (path.contains("?") ? "&" : "?") + query.joined(separator: "&") }
            guard let url = URL(string: "http://localhost:8080" + (path.hasPrefix("/") ? path : "/" + path)) else {
                return nil
            }
            var headers = HeaderFields()
            for member in request["headers"]?.objectValue?.members ?? [] {
                if let value = member.value.objectValue?["equalTo"]?.stringValue
                    ?? member.value.objectValue?["contains"]?.stringValue
                {
                    headers.add(member.key, value)
                }
            }
            var body: Data?
            if let pattern = request["bodyPatterns"]?.arrayValue?.first?.objectValue {
                if let json = pattern["equalToJson"] {
                    body = Data((json.stringValue ?? json.serialized()).utf8)
                } else if let text = pattern["equalTo"]?.stringValue ?? pattern["contains"]?.stringValue {
                    body = Data(text.utf8)
                }
            }
            var method = request["method"]?.stringValue ?? "GET"
            if method == "ANY" { method = "GET" }
            return InterceptedRequest(
                method: InterceptedRequest.Method(rawValue: method),
                url: url,
                headers: headers,
                body: body
            )
        }
    }

    // MARK: - Checking

    /// What the fuzz run saw.
    struct FuzzReport {
        var cases = 0
        var byMutation: [String: Int] = [:]
        var loaded = 0
        var failed = 0
        var empty = 0
        var diagnostics = 0
        var unlocated: [String] = []
        var answers = 0
        var answerKinds: [String: Int] = [:]
        var hangs: [String] = []
        var slowest: (time: Duration, label: String) = (.zero, "")

        mutating func count(_ mutations: [String]) {
            cases += 1
            let kind =
                mutations.first.map { $0.hasPrefix(Mutation.combination.rawValue) ? Mutation.combination.rawValue : $0 }
                ?? "?"
            byMutation[kind, default: 0] += 1
        }

        /// Checks that every diagnostic names the case's file (or the root) and a message, and, unless
        /// the file could not be read, a line and column inside the file.
        mutating func check(_ result: StubFileLoad, file: String, bytes: [UInt8], label: String) {
            if !result.errors.isEmpty { failed += 1 } else if !result.stubs.isEmpty { loaded += 1 } else { empty += 1 }
            let lines = Self.lineCount(bytes)
            let root = URL(fileURLWithPath: file).deletingLastPathComponent().deletingLastPathComponent().path
            for diagnostic in result.diagnostics {
                diagnostics += 1
                var problems: [String] = []
                if !diagnostic.source.file.hasPrefix(root) { problems.append("another path") }
                if diagnostic.message.isEmpty { problems.append("no message") }
                if !diagnostic.message.hasPrefix("cannot be read") {
                    if let line = diagnostic.source.line, let column = diagnostic.source.column {
                        if line < 1 || line > lines || column < 1 {
                            problems.append("line \(line), column \(column) outside the file (\(lines) lines)")
                        }
                    } else if diagnostic.source.file == file {
                        problems.append("no line and column")
                    }
                }
                if !problems.isEmpty {
                    unlocated.append(
                        "\(label): \(problems.joined(separator: ", ")): \(diagnostic.description.prefix(300))"
                    )
                }
            }
        }

        /// How many lines `bytes` has (line breaks + 1), counted with `memchr`.
        static func lineCount(_ bytes: [UInt8]) -> Int {
            bytes.withUnsafeBytes { buffer in
                guard var cursor = buffer.baseAddress else { return 1 }
                var remaining = buffer.count
                var lines = 1
                while remaining > 0, let found = memchr(cursor, Int32(UInt8(ascii: "\n")), remaining) {
                    lines += 1
                    let next = UnsafeRawPointer(found) + 1
                    remaining -= next - cursor
                    cursor = next
                }
                return lines
            }
        }

        /// Asks a registry holding `stubs` (at most 40) each probe, and tallies the kinds of answer.
        mutating func answer(_ probes: [InterceptedRequest], with stubs: [Stub], seed: UInt64) {
            let registry = StubRegistry(clock: ImmediateStubClock(), randomSeed: seed)
            registry.onDiagnostic { _ in }
            for stub in stubs.prefix(40) { registry.add(stub) }
            for probe in probes {
                answers += 1
                switch registry.answer(probe) {
                case .response: answerKinds["response", default: 0] += 1
                case .failure: answerKinds["failure", default: 0] += 1
                case .unmatched: answerKinds["unmatched", default: 0] += 1
                }
            }
        }
    }

    // MARK: - Huge delays

    /// Delays whose milliseconds do not fit `Duration` (they become attoseconds in an `Int128`, about
    /// 1.7e23 ms), or log-normal delays whose samples can leave its range: these once crashed the
    /// process, when loading or when answering. They are now refused at load time or clamped when
    /// drawn; ``FuzzTests/hugeDelays(mapping:)`` keeps checking that in a child process, so that a
    /// regression shows as a failed test rather than ending the run.
    enum HugeDelay {
        /// A mapping whose delay cannot be represented, and whether it crashed when answering
        /// (`stubs match`) rather than when loading (`stubs lint`).
        struct Mapping: Sendable, CustomTestStringConvertible {
            let name: String
            let json: String
            let answered: Bool
            var testDescription: String { name }
        }

        /// The delays that once crashed.
        static let mappings: [Mapping] = [
            Mapping(
                name: "fixed 1e999999 ms",
                json: delay(#"{"type": "fixed", "milliseconds": 1e999999}"#),
                answered: false
            ),
            Mapping(name: "fixed 1e30 ms", json: delay(#"{"type": "fixed", "milliseconds": 1e30}"#), answered: false),
            Mapping(
                name: "uniform up to 1e999999 ms",
                json: delay(#"{"type": "uniform", "lower": 1, "upper": 1e999999}"#),
                answered: false
            ),
            Mapping(
                name: "log-normal median 1e30 ms",
                json: delay(#"{"type": "lognormal", "median": 1e30, "sigma": 0.1}"#),
                answered: false
            ),
            Mapping(
                name: "log-normal maxValue -1e999999 ms",
                json: delay(#"{"type": "lognormal", "median": 10, "sigma": 0.1, "maxValue": -1e999999}"#),
                answered: false
            ),
            Mapping(
                name: "log-normal sigma 1e6",
                json: delay(#"{"type": "lognormal", "median": 10, "sigma": 1e6}"#),
                answered: true
            ),
        ]

        private static func delay(_ distribution: String) -> String {
            #"{"request": {"method": "GET", "url": "/delay"}, "response": {"status": 200, "body": "late", "delayDistribution": \#(distribution)}}"#
        }
    }

    // MARK: - Helpers

    /// A scratch folder on tmpfs when there is one (`/dev/shm`), removed at the end.
    struct Scratch {
        let url: URL

        init() throws {
            let shm = URL(fileURLWithPath: "/dev/shm")
            let base =
                FileManager.default.isWritableFile(atPath: shm.path) ? shm : FileManager.default.temporaryDirectory
            url = base.appendingPathComponent("httpstubs-fuzz-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        }

        /// A stub root for `seed`'s cases: an empty `mappings/` and a copy of its `__files/`.
        func root(for seed: SeedFile, number: Int) throws -> URL {
            let root = url.appendingPathComponent("\(number)")
            try FileManager.default.createDirectory(
                at: root.appendingPathComponent("mappings"),
                withIntermediateDirectories: true
            )
            if let files = seed.filesFolder {
                try FileManager.default.copyItem(at: files, to: root.appendingPathComponent("__files"))
            }
            return root
        }

        func remove() {
            try? FileManager.default.removeItem(at: url)
        }
    }

    #if os(macOS) || os(Linux)
    /// Runs the package's `stubs` executable in a child process, so that a crash is observed instead
    /// of ending the test run.
    enum ChildProcess {
        /// How a child process ended.
        struct Outcome {
            let status: Int32
            let crashed: Bool
            let stderr: String
        }

        /// Runs `stubs` with `arguments`; its standard output is discarded.
        static func runStubs(_ arguments: [String]) throws -> Outcome {
            let executable = try builtExecutable(named: "stubs")
            let scratch = try Scratch()
            defer { scratch.remove() }
            let errorFile = scratch.url.appendingPathComponent("stderr")
            try Data().write(to: errorFile)
            let errorHandle = try FileHandle(forWritingTo: errorFile)
            defer { try? errorHandle.close() }
            let nothing = try FileHandle(forUpdating: URL(fileURLWithPath: "/dev/null"))
            defer { try? nothing.close() }
            let process = try SpawnedChild(
                executable,
                arguments,
                // No backtrace: symbolicating a crash of the child (a regression) is slow, and its status is what counts.
                environment: ProcessInfo.processInfo.environment.merging(["SWIFT_BACKTRACE": "enable=no"]) { $1 },
                input: nothing.fileDescriptor,
                output: nothing.fileDescriptor,
                error: errorHandle.fileDescriptor
            )
            var (status, crashed): (Int32, Bool) = (-1, false)
            switch process.waitUntilExit() {
            case .exited(let code): status = code
            case .signalled(let signal): (status, crashed) = (signal, true)
            case .unknown: break
            }
            return Outcome(
                status: status,
                crashed: crashed,
                stderr: String(decoding: (try? Data(contentsOf: errorFile)) ?? Data(), as: UTF8.self)
            )
        }
    }
    #endif
}
