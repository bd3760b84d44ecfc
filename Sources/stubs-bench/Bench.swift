import Foundation
import HTTPStubs
import HTTPStubsFiles
import LoopbackHTTP

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `stubs-bench`: how fast the toolkit answers through URLSession, next to the floor URLSession
/// imposes and to a real loopback HTTP server. See BENCHMARKS.md, "What each number means".
@main
struct Bench {
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == LargeBody.childFlag, arguments.count == 3 {
            exit(await LargeBody.runChild(root: arguments[1], mode: arguments[2]))
        }
        let options: Options
        do {
            options = try Options(arguments)
        } catch {
            FileHandle.standardError.write(Data("stubs-bench: \(error)\n\n\(Options.usage)\n".utf8))
            exit(2)
        }
        if options.help {
            print(Options.usage)
            return
        }
        if let solo = options.solo {
            do {
                try await Solo.run(solo, completion: options.soloCompletion, requests: options.requests)
            } catch {
                FileHandle.standardError.write(Data("stubs-bench: \(error)\n".utf8))
                exit(1)
            }
            return
        }
        do {
            let results = try await Runner(options: options).run()
            if options.json {
                print(Report.json(results))
            } else {
                print(Report.table(results, options: options))
            }
        } catch {
            FileHandle.standardError.write(Data("stubs-bench: \(error)\n".utf8))
            exit(1)
        }
    }
}

/// Command-line options.
struct Options {
    static let workloads = [
        "floor", "stub", "stub_10k", "loopback", "wiremock", "concurrent", "protocol", "files", "large_body",
        "virtual_time", "template", "streams",
    ]

    var json = false
    var quick = false
    var help = false
    var only: Set<String> = Set(Options.workloads)
    var rounds = 5
    /// Requests per sequential batch (one batch = one workload, one API style, one round).
    var requests = 2_000
    /// Wall-time cap of one batch (each of its slices gets `batchBudget / slices`): a slice stops
    /// early when its share is over, and its rate is computed from the requests it made.
    var batchBudget: Duration = .seconds(2)
    var concurrentTasks = 64
    var concurrentRequests = 6_400
    var fileCount = 10_000
    var fileRounds = 3
    var largeBodyRuns = 3
    var virtualRequests = 1_000
    var virtualRounds = 3
    /// The streams workload: rounds, and 1,000-event streams read per batch of each protocol; runs
    /// of the 1,000 concurrent streams.
    var streamRounds = 9
    var streamsPerBatch = 40
    var concurrentStreamRuns = 3
    /// The protocols-alone workload: batches per protocol, and requests per batch.
    var protocolBatches = 9
    var protocolBatchSize = 20_000
    /// Requests per batch of the protocols alone from cold caches: each costs the eviction's tens of
    /// microseconds more (see ``ProtocolCost``), so an eighth as many.
    var coldProtocolBatchSize: Int { max(1, protocolBatchSize / 8) }
    var warmup = 200
    /// Slices each batch is cut into within a round (see `measureRequests`).
    var slices = 8
    /// Wall-time cap of each warm-up batch.
    var warmupBudget: Duration = .seconds(1)
    /// The WireMock standalone jar (`--wiremock-jar`); the `wiremock` workload runs only with one.
    var wiremockJar: String?
    /// WireMock's warm-up, for the JVM's JIT (which takes about 20,000 requests to settle): at
    /// most this many requests in all (half with each API), capped at `wiremockWarmupBudget` of
    /// wall time in all.
    var wiremockWarmup = 20_000
    var wiremockWarmupBudget: Duration = .seconds(15)
    /// Hidden, for profilers: `--solo floor|stub|template|template_literal [--api completion]` runs only that workload (see ``Solo``).
    var solo: String?
    var soloCompletion = false

    static let usage = """
        usage: swift run -c release stubs-bench [--json] [--quick] \
        [--only w1,w2,...] [--rounds N] [--requests N] [--wiremock-jar PATH]

          --json               print one JSON object instead of the table
          --quick              a reduced run (fewer rounds and requests) that finishes in well under a minute
          --only LIST          run only these workloads: \(workloads.joined(separator: ","))
                               (wiremock needs --wiremock-jar; without --only it runs whenever the jar is given)
          --rounds N           rounds of the interleaved request workloads (default 5, quick 3)
          --requests N         requests per sequential batch (default 2000, quick 400)
          --wiremock-jar PATH  also measure WireMock on 127.0.0.1: `java -jar PATH` (the standalone jar, java from PATH)
        """

    init(_ arguments: [String]) throws {
        var iterator = arguments.makeIterator()
        var rounds: Int?
        var requests: Int?
        var only: Set<String>?
        while let argument = iterator.next() {
            switch argument {
            case "--json": json = true
            case "--quick": quick = true
            case "--help", "-h": help = true
            case "--only":
                guard let list = iterator.next() else { throw BenchFailure("--only needs a list of workloads") }
                let names = Set(list.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) })
                let unknown = names.subtracting(Options.workloads)
                guard unknown.isEmpty else {
                    throw BenchFailure("unknown workloads: \(unknown.sorted().joined(separator: ", "))")
                }
                only = names
            case "--rounds":
                guard let value = iterator.next().flatMap(Int.init), value > 0 else {
                    throw BenchFailure("--rounds needs a positive number")
                }
                rounds = value
            case "--requests":
                guard let value = iterator.next().flatMap(Int.init), value > 0 else {
                    throw BenchFailure("--requests needs a positive number")
                }
                requests = value
            case "--solo":
                guard let name = iterator.next(), Solo.workloads.contains(name) else {
                    throw BenchFailure("--solo needs one of \(Solo.workloads.joined(separator: ", "))")
                }
                solo = name
            case "--api":
                guard let api = iterator.next(), ["async", "completion"].contains(api) else {
                    throw BenchFailure("--api needs async or completion")
                }
                soloCompletion = api == "completion"
            case "--wiremock-jar":
                guard let path = iterator.next() else {
                    throw BenchFailure("--wiremock-jar needs the path of the WireMock standalone jar")
                }
                guard FileManager.default.fileExists(atPath: path) else {
                    throw BenchFailure("--wiremock-jar: no such file: \(path)")
                }
                wiremockJar = path
            default:
                throw BenchFailure("unknown argument \(argument)")
            }
        }
        if quick {
            self.rounds = 3
            self.requests = 400
            batchBudget = .milliseconds(400)
            concurrentRequests = 1_280
            fileRounds = 1
            largeBodyRuns = 1
            virtualRounds = 1
            streamRounds = 3
            streamsPerBatch = 5
            concurrentStreamRuns = 1
            protocolBatches = 3
            protocolBatchSize = 5_000
            warmup = 50
            slices = 4
            warmupBudget = .milliseconds(250)
            wiremockWarmup = 3_000
            wiremockWarmupBudget = .seconds(3)
        }
        if let rounds { self.rounds = rounds }
        if let requests { self.requests = requests }
        if let only {
            guard !only.contains("wiremock") || wiremockJar != nil else {
                throw BenchFailure("--only wiremock needs --wiremock-jar PATH (the WireMock standalone jar to run)")
            }
            self.only = only
        } else if wiremockJar == nil {
            self.only.remove("wiremock")
        }
    }

    func runs(_ workload: String) -> Bool { only.contains(workload) }
}

/// Every number the benchmark measured: the samples of each metric, one per round.
struct Results {
    var samples: [String: [Double]] = [:]
    var notes: [String: String] = [:]
    var machine = Machine.current()
    var wallSeconds = 0.0

    mutating func add(_ key: String, _ value: Double) {
        samples[key, default: []].append(value)
    }

    /// Records a request batch: its rate under `key`, its CPU µs per request under `key` + `_cpu_us`,
    /// its voluntary and involuntary context switches per request under `key` + `_vcsw`, `_ivcsw`.
    mutating func add(_ key: String, _ sample: Sample) {
        add(key, sample.perSecond)
        add(key + "_cpu_us", sample.cpuMicroseconds)
        add(key + "_vcsw", sample.switchesPerRequest.voluntary)
        add(key + "_ivcsw", sample.switchesPerRequest.involuntary)
    }

    func median(_ key: String) -> Double? {
        guard let values = samples[key], !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// The smallest sample: for CPU time per request, the batch least disturbed. On a shared or
    /// virtual machine, disturbances (another process's cache traffic, a vCPU the host preempted
    /// while the thread's CPU clock ran) only ever add time, so the lowest of several batches
    /// moves less from run to run than their median.
    func minimum(_ key: String) -> Double? {
        samples[key]?.min()
    }

    /// The interquartile range (25th to 75th percentile, nearest rank).
    func quartiles(_ key: String) -> (low: Double, high: Double)? {
        guard let values = samples[key], !values.isEmpty else { return nil }
        let sorted = values.sorted()
        func rank(_ fraction: Double) -> Double {
            sorted[min(sorted.count - 1, max(0, Int((fraction * Double(sorted.count)).rounded(.up)) - 1))]
        }
        return (rank(0.25), rank(0.75))
    }

    func ratio(_ numerator: String, _ denominator: String) -> Double? {
        guard let top = median(numerator), let bottom = median(denominator), bottom > 0 else { return nil }
        return top / bottom
    }

    var overheadRatio: Double? { ratio("floor_rps", "stub_rps") }
    var scaleRatio: Double? { ratio("stub_rps", "stub_10k_rps") }
    var loopbackSpeedup: Double? { ratio("stub_rps", "loopback_rps") }
    var wiremockSpeedup: Double? { ratio("stub_rps", "wiremock_rps") }
    var loadRatio: Double? { ratio("load_10k_files_s", "json_parse_10k_files_s") }

    /// The thread hand-offs the toolkit adds per request: its voluntary context switches per request
    /// minus the floor's, the larger of the two APIs' differences (those measured).
    var switchesOverFloor: Double? {
        let differences = ["", "_completion"].compactMap { api -> Double? in
            guard let stub = median("stub_rps" + api + "_vcsw"), let floor = median("floor_rps" + api + "_vcsw") else {
                return nil
            }
            return stub - floor
        }
        return differences.max()
    }
}

/// Runs the workloads.
struct Runner {
    let options: Options

    /// When the run started, for the progress lines.
    let started = ContinuousClock.now

    func progress(_ text: String) {
        let elapsed = String(format: "%6.1fs", seconds(ContinuousClock.now - started))
        FileHandle.standardError.write(Data("[stubs-bench \(elapsed)] \(text)\n".utf8))
    }

    func run() async throws -> Results {
        let clock = ContinuousClock()
        let started = clock.now
        var results = Results()
        // The large body goes first, in a child process: its peak memory is its own.
        if options.runs("large_body") {
            try measureLargeBody(&results)
        }
        if options.runs("protocol") {
            try measureProtocolCost(&results)
        }
        if options.runs("template") {
            try measureTemplateProtocolCost(&results)
        }
        try await measureRequests(&results)
        if options.runs("virtual_time") {
            try await measureVirtualTime(&results)
        }
        if options.runs("streams") {
            try await measureStreams(&results)
        }
        if options.runs("files") {
            try measureFiles(&results)
        }
        results.wallSeconds = seconds(clock.now - started)
        progress(String(format: "done in %.1f s", results.wallSeconds))
        return results
    }

    // MARK: Request workloads

    /// A sequential workload: a session and the request it repeats.
    struct Sequential {
        let key: String
        let session: URLSession
        let request: URLRequest
        let registry: StubRegistry?
        /// This workload's own warm-up per API (requests, wall-time cap), instead of the usual one.
        var warmup: (requests: Int, budget: Duration)? = nil
        /// Whether its slices run with the process pinned to one CPU (see ``CPUPinning``), after
        /// the other workloads' slices.
        var pinned = false
    }

    private func measureRequests(_ results: inout Results) async throws {
        let clock = ContinuousClock()
        var sequential: [Sequential] = []
        var server: LoopbackHTTPServer?
        defer { server?.stop() }
        var wiremock: WireMockServer?
        defer { wiremock?.stop() }

        if options.runs("floor") {
            sequential.append(
                Sequential(
                    key: "floor_rps",
                    session: FloorProtocol.makeSession(),
                    request: targetRequest(),
                    registry: nil
                )
            )
        }
        if options.runs("stub") {
            let registry = Registries.single()
            sequential.append(
                Sequential(
                    key: "stub_rps",
                    session: registry.makeSession(),
                    request: targetRequest(),
                    registry: registry
                )
            )
        }
        if options.runs("template") {
            // The same POST answered by a response template and by the literal body it renders,
            // through one session (see ``Registries/templatedAndLiteral()``): pinned to one CPU for
            // `template_ratio`, and as the other workloads run, for `template_ratio_unpinned`.
            let registry = Registries.templatedAndLiteral()
            let session = registry.makeSession()
            for (key, path, pinned) in [
                ("template_rps", TemplatePath.templated, true), ("template_literal_rps", .literal, true),
                ("template_unpinned_rps", .templated, false), ("template_literal_unpinned_rps", .literal, false),
            ] {
                sequential.append(
                    Sequential(
                        key: key,
                        session: session,
                        request: templateRequest(path),
                        registry: registry,
                        pinned: pinned
                    )
                )
            }
        }
        if options.runs("stub_10k") {
            let start = clock.now
            let registry = Registries.mixed(count: 10_000)
            let built = seconds(clock.now - start)
            results.notes["stub_10k_build_s"] = String(format: "%.2f", built)
            progress(String(format: "built the 10,000-stub registry in %.2f s", built))
            sequential.append(
                Sequential(
                    key: "stub_10k_rps",
                    session: registry.makeSession(),
                    request: targetRequest(),
                    registry: registry
                )
            )
        }
        if options.runs("loopback") {
            let bound = (options.rounds * 2 + 2) * options.requests + 4 * options.warmup
            // What teams run instead of stubs: the same constant answer, over a kept-alive connection.
            let answer = LoopbackHTTPResponse(
                status: 200,
                headers: [("Content-Type", "application/json")],
                body: Payload.body
            )
            let loopback = try LoopbackHTTPServer(maxRequests: bound) { _ in answer }
            server = loopback
            progress("loopback server on 127.0.0.1:\(loopback.port), bounded to \(bound) requests")
            sequential.append(
                Sequential(
                    key: "loopback_rps",
                    session: localServerSession(),
                    request: targetRequest(host: "127.0.0.1", port: loopback.port),
                    registry: nil
                )
            )
        }
        if options.runs("wiremock"), let jar = options.wiremockJar {
            let start = clock.now
            let server = try await WireMockServer.start(
                jar: jar,
                path: Payload.targetPath,
                body: Payload.body,
                contentType: "application/json"
            )
            wiremock = server
            // The request count stays bounded: the warm-up's and the measured slices'.
            let warmup = options.wiremockWarmup
            progress(
                String(
                    format: "WireMock (pid %d) ready on 127.0.0.1:%d after %.1f s; warm-up of at most %d requests",
                    server.processIdentifier,
                    server.port,
                    seconds(clock.now - start),
                    warmup
                )
            )
            sequential.append(
                Sequential(
                    key: "wiremock_rps",
                    session: localServerSession(),
                    request: targetRequest(host: "127.0.0.1", port: server.port),
                    registry: nil,
                    warmup: (warmup / 2, options.wiremockWarmupBudget / 2)
                )
            )
        }
        var concurrentRegistry: StubRegistry?
        var concurrentSession: URLSession?
        if options.runs("concurrent") {
            let registry = Registries.mixed(count: 1_000)
            concurrentRegistry = registry
            concurrentSession = registry.makeSession()
        }
        guard !sequential.isEmpty || concurrentSession != nil else { return }

        // Warm-up: connections, lazy initialisation, caches. Not recorded.
        for workload in sequential {
            let warmup = workload.warmup ?? (options.warmup, options.warmupBudget)
            _ = try await sequentialAsync(
                workload.session,
                workload.request,
                count: warmup.requests,
                budget: warmup.budget
            )
            _ = try await sequentialCompletion(
                workload.session,
                workload.request,
                count: warmup.requests,
                budget: warmup.budget
            )
            workload.registry?.clearJournal()
        }
        if let concurrentSession {
            _ = try await concurrentAsync(
                concurrentSession,
                targetRequest(),
                tasks: options.concurrentTasks,
                total: options.warmup * 4,
                budget: options.warmupBudget
            )
            concurrentRegistry?.clearJournal()
        }

        progress("warmed up")

        // The batches of one round; each slice starts one batch later, so that no workload always
        // runs first. Within a slice each batch runs after the same neighbour (the floor's async
        // batch after the last batch, `concurrent` when it runs; the toolkit's after the floor's
        // completion batch). Orders in which every batch follows every other equally often were
        // tried: they spread the runs' switch counts without lowering the headline in full runs
        // (BENCHMARKS.md, "A balanced order of slices, tried and reverted").
        enum Batch {
            case async(Sequential)
            case completion(Sequential)
            case concurrent
        }
        var batches: [Batch] = sequential.filter { !$0.pinned }.flatMap { [Batch.async($0), Batch.completion($0)] }
        if concurrentSession != nil { batches.append(.concurrent) }
        let pinnedBatches = sequential.filter(\.pinned).flatMap { [Batch.async($0), Batch.completion($0)] }

        // Each round cuts every batch into `slices` short slices and runs the slices of all
        // workloads in turn (floor, stub, ..., floor, stub, ...), so that a burst of other work on
        // the machine hits every workload alike; each slice is one sample of its workload. The
        // pinned workloads' slices follow, in turn too, with the process pinned once for them all.
        let slices = max(1, options.slices)
        let sliceRequests = max(1, options.requests / slices)
        let sliceBudget = options.batchBudget / slices
        for round in 0..<options.rounds {
            var totals: [String: Sample] = [:]
            func accumulate(_ key: String, _ sample: Sample) {
                // Every slice is one sample: the median over all slices of all rounds shrugs off
                // the slices a burst of other work slowed down.
                results.add(key, sample)
                let previous = totals[key] ?? Sample(requests: 0, seconds: 0)
                totals[key] = Sample(
                    requests: previous.requests + sample.requests,
                    seconds: previous.seconds + sample.seconds,
                    cpuSeconds: previous.cpuSeconds + sample.cpuSeconds,
                    switches: previous.switches + sample.switches
                )
            }
            func run(_ batch: Batch) async throws {
                switch batch {
                case let .async(workload):
                    workload.registry?.clearJournal()
                    accumulate(
                        workload.key,
                        try await measuringCPU {
                            try await sequentialAsync(
                                workload.session,
                                workload.request,
                                count: sliceRequests,
                                budget: sliceBudget
                            )
                        }
                    )
                case let .completion(workload):
                    workload.registry?.clearJournal()
                    accumulate(
                        workload.key + "_completion",
                        try await measuringCPU {
                            try await sequentialCompletion(
                                workload.session,
                                workload.request,
                                count: sliceRequests,
                                budget: sliceBudget
                            )
                        }
                    )
                case .concurrent:
                    concurrentRegistry?.clearJournal()
                    accumulate(
                        "concurrent_rps",
                        try await measuringCPU {
                            try await concurrentAsync(
                                concurrentSession!,
                                targetRequest(),
                                tasks: options.concurrentTasks,
                                total: max(options.concurrentTasks, options.concurrentRequests / slices),
                                budget: sliceBudget
                            )
                        }
                    )
                }
            }
            /// `batches` from the `offset`-th on, then the ones before it.
            func rotated(_ batches: [Batch], by offset: Int) -> [Batch] {
                guard !batches.isEmpty else { return [] }
                let offset = offset % batches.count
                return Array(batches[offset...] + batches[..<offset])
            }
            for slice in 0..<slices {
                for batch in rotated(batches, by: round + slice) { try await run(batch) }
                guard !pinnedBatches.isEmpty else { continue }
                try await CPUPinning.onOneCPU {
                    for batch in rotated(pinnedBatches, by: round + slice) { try await run(batch) }
                }
            }
            var line: [String] = []
            for (key, sample) in totals.sorted(by: { $0.key < $1.key }) {
                line.append("\(key)=\(Int(sample.perSecond))")
            }
            progress("round \(round + 1)/\(options.rounds): " + line.joined(separator: " "))
        }
        var invalidated: Set<ObjectIdentifier> = []  // the template workload's halves share one session
        for workload in sequential where invalidated.insert(ObjectIdentifier(workload.session)).inserted {
            workload.session.finishTasksAndInvalidate()
        }
        concurrentSession?.finishTasksAndInvalidate()
        if let server {
            progress("loopback server answered \(server.served) requests; stopping it")
        }
        if wiremock != nil {
            progress("stopping WireMock")
        }
    }

    // MARK: Other workloads

    /// The `template` workload's two registries through their protocols alone: what rendering
    /// costs per request with nothing else around it.
    private func measureTemplateProtocolCost(_ results: inout Results) throws {
        let templated = Registries.templated()
        let literal = Registries.literalPost()
        let medians = try measureProtocols(
            [
                ("template_protocol_ns", templated.protocolClass),
                ("template_literal_protocol_ns", literal.protocolClass),
            ],
            request: templateRequest(),
            between: {
                templated.clearJournal()
                literal.clearJournal()
            },
            &results
        )
        progress(
            String(
                format: "protocols alone, template workload: templated %.0f ns, literal %.0f ns per request",
                medians[0],
                medians[1]
            )
        )
    }

    private func measureProtocolCost(_ results: inout Results) throws {
        let registry = Registries.single()
        let medians = try measureProtocols(
            [("floor_protocol_ns", FloorProtocol.self), ("stub_protocol_ns", registry.protocolClass)],
            between: { registry.clearJournal() },
            &results
        )
        progress(
            String(
                format: "protocols alone: floor %.0f ns, toolkit %.0f ns per request (medians of %d batches)",
                medians[0],
                medians[1],
                options.protocolBatches
            )
        )
        let cold = try measureProtocols(
            [("floor_cold_protocol_ns", FloorProtocol.self), ("stub_cold_protocol_ns", registry.protocolClass)],
            batchSize: options.coldProtocolBatchSize,
            evictingCaches: true,
            between: { registry.clearJournal() },
            &results
        )
        progress(
            String(
                format: "protocols alone from cold caches: the toolkit's own work %.0f ns per request (medians)",
                cold[1] - cold[0]
            )
        )
    }

    /// Drives `classes` through their protocols alone with `request` (see ``ProtocolCost``), adds
    /// every batch's figure to `results` under each class's key (CPU ns per request; with
    /// `evictingCaches`, the median request's wall ns), and returns the classes' medians in their order.
    private func measureProtocols(
        _ classes: [(key: String, type: URLProtocol.Type)],
        request: URLRequest = targetRequest(),
        batchSize: Int? = nil,
        evictingCaches: Bool = false,
        between: () -> Void,
        _ results: inout Results
    ) throws -> [Double] {
        let samples = try ProtocolCost.measure(
            classes,
            request: request,
            batches: options.protocolBatches,
            batchSize: batchSize ?? options.protocolBatchSize,
            evictingCaches: evictingCaches,
            between: between
        )
        for (key, values) in samples {
            for value in values { results.add(key, value) }
        }
        return classes.map { results.median($0.key) ?? 0 }
    }

    private func measureVirtualTime(_ results: inout Results) async throws {
        for round in 0..<options.virtualRounds {
            let run = try await virtualTimeRun(count: options.virtualRequests, budget: .seconds(30))
            guard run.virtualSeconds >= 5 * Double(run.requests) else {
                throw BenchFailure(
                    "virtual time: the clock advanced \(run.virtualSeconds) s for \(run.requests) requests delayed 5 s"
                )
            }
            results.add("virtual_time_wall_ms", run.wallMilliseconds)
            results.notes["virtual_seconds"] = String(format: "%.0f", run.virtualSeconds)
            progress(
                String(
                    format: "virtual time %d/%d: %.1f ms wall for %d × 5 s (%.0f s virtual)",
                    round + 1,
                    options.virtualRounds,
                    run.wallMilliseconds,
                    options.virtualRequests,
                    run.virtualSeconds
                )
            )
        }
    }

    /// The long stream from the toolkit and from the floor, interleaved round by round (which goes
    /// first alternates), as CPU per event; then the concurrent short streams, as wall time.
    private func measureStreams(_ results: inout Results) async throws {
        let stubReader = StreamReader()
        let floorReader = StreamReader()
        let (registry, stub) = Streams.stubSession(delegate: stubReader)
        let floor = Streams.floorSession(delegate: floorReader)
        defer {
            stub.finishTasksAndInvalidate()
            floor.finishTasksAndInvalidate()
            withExtendedLifetime(registry) {}
        }
        let workloads = [("stream_stub_eps", stub, stubReader), ("stream_floor_eps", floor, floorReader)]
        for (_, session, reader) in workloads { _ = try await Streams.read(2, session, reader) }  // warm-up
        for round in 0..<options.streamRounds {
            for (key, session, reader) in round % 2 == 0 ? workloads : workloads.reversed() {
                let sample = try await measuringCPU {
                    try await Streams.read(options.streamsPerBatch, session, reader)
                }
                results.add(key, sample)
            }
            progress(
                String(
                    format: "streams %d/%d: %.2f CPU µs per event (toolkit), %.2f (floor)",
                    round + 1,
                    options.streamRounds,
                    results.samples["stream_stub_eps_cpu_us"]?.last ?? 0,
                    results.samples["stream_floor_eps_cpu_us"]?.last ?? 0
                )
            )
        }
        for run in 0..<options.concurrentStreamRuns {
            let wall = try await Streams.concurrentRun()
            results.add("streams_concurrent_s", wall)
            progress(
                String(
                    format:
                        "concurrent streams %d/%d: %d streams, about a third cancelled at random, in %.2f s; no instance left",
                    run + 1,
                    options.concurrentStreamRuns,
                    Streams.concurrentCount,
                    wall
                )
            )
        }
    }

    private func measureFiles(_ results: inout Results) throws {
        let root = try StubFileCorpus.temporaryFolder("mappings")
        defer { StubFileCorpus.removeTree(root) }
        let bytes = try StubFileCorpus.writeMappings(count: options.fileCount, into: root)
        results.notes["mapping_bytes"] = "\(bytes)"
        progress("wrote \(options.fileCount) mapping files (\(bytes / 1024) KiB) to \(root.path)")
        let clock = ContinuousClock()
        for round in 0..<options.fileRounds {
            // Alternate which goes first, so that neither always gets the colder cache.
            for step in (round % 2 == 0 ? [0, 1, 2] : [2, 1, 0]) {
                let start = clock.now
                let cpu = processCPUSeconds()
                switch step {
                case 0:
                    let count = try StubFileCorpus.loadIntoRegistry(root: root)
                    guard count == options.fileCount else {
                        throw BenchFailure("loaded \(count) stubs from \(options.fileCount) files")
                    }
                    results.add("load_10k_files_s", seconds(clock.now - start))
                    results.add("load_10k_files_cpu_s", processCPUSeconds() - cpu)
                case 1:
                    let count = try StubFileCorpus.parseWithJSONSerialization(root: root)
                    guard count == options.fileCount else {
                        throw BenchFailure("parsed \(count) of \(options.fileCount) files")
                    }
                    results.add("json_parse_10k_files_s", seconds(clock.now - start))
                    results.add("json_parse_10k_files_cpu_s", processCPUSeconds() - cpu)
                default:
                    let count = try StubFileCorpus.decodeOnly(root: root)
                    guard count == options.fileCount else {
                        throw BenchFailure("decoded \(count) stubs from \(options.fileCount) files")
                    }
                    results.add("decode_10k_files_s", seconds(clock.now - start))
                }
            }
            progress(
                String(
                    format: "files %d/%d: load %.3f s (StubFiles.load alone %.3f s), JSONSerialization %.3f s",
                    round + 1,
                    options.fileRounds,
                    results.samples["load_10k_files_s"]!.last!,
                    results.samples["decode_10k_files_s"]!.last!,
                    results.samples["json_parse_10k_files_s"]!.last!
                )
            )
        }
    }

    private func measureLargeBody(_ results: inout Results) throws {
        let root = try StubFileCorpus.temporaryFolder("large-body")
        defer { StubFileCorpus.removeTree(root) }
        try StubFileCorpus.writeLargeBodyRoot(into: root)
        for run in 0..<options.largeBodyRuns {
            for mode in ["async", "completion"] {
                let report = try LargeBody.measure(root: root, mode: mode)
                let suffix = mode == "async" ? "" : "_completion"
                results.add("large_body_peak_mb" + suffix, report.growthMiB)
                results.add("large_body_sampled_mb" + suffix, report.sampledGrowthMiB)
                results.add("large_body_s" + suffix, report.seconds)
                progress(
                    "large body \(run + 1)/\(options.largeBodyRuns) (\(mode)): "
                        + String(
                            format:
                                "peak RSS growth %.1f MiB (VmHWM %d kB, before %d kB, sampled peak +%.1f MiB), %.2f s",
                            report.growthMiB,
                            report.peakKB,
                            report.baselineKB,
                            report.sampledGrowthMiB,
                            report.seconds
                        )
                )
            }
        }
    }
}
