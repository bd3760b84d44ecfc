import Foundation
import HTTPStubs
import HTTPStubsFiles

/// The two outputs: a table for people, one JSON object for scripts.
enum Report {
    /// The goals of the benchmark issue: (key, comparison, bound).
    /// `loopback_speedup` and `wiremock_speedup` are information, not goals: their ceiling is set
    /// by the server, not by the toolkit.
    static let goals: [(key: String, atMost: Bool, bound: Double)] = [
        ("overhead_ratio", true, 1.10),
        ("scale_ratio", true, 1.5),
        ("load_ratio", true, 3),
        ("large_body_peak_mb", true, 120),
        ("virtual_time_wall_ms", true, 1_000),
        ("switches_over_floor", true, 0),
        ("stream_event_cpu_ratio", true, 1.2),
    ]

    static func value(_ key: String, in results: Results) -> Double? {
        switch key {
        case "overhead_ratio": return results.overheadRatio
        case "scale_ratio": return results.scaleRatio
        case "loopback_speedup": return results.loopbackSpeedup
        case "wiremock_speedup": return results.wiremockSpeedup
        case "load_ratio": return results.loadRatio
        case "template_ratio": return results.ratio("template_literal_rps", "template_rps")
        case "template_ratio_unpinned": return results.ratio("template_literal_unpinned_rps", "template_unpinned_rps")
        case "switches_over_floor": return results.switchesOverFloor
        case "stream_event_cpu_ratio": return results.ratio("stream_stub_eps_cpu_us", "stream_floor_eps_cpu_us")
        default: return results.median(key)
        }
    }

    // MARK: JSON

    static func json(_ results: Results) -> String {
        let keys: [(String, Int)] = [
            ("floor_rps", 1), ("stub_rps", 1), ("stub_10k_rps", 1), ("loopback_rps", 1), ("wiremock_rps", 1),
            ("concurrent_rps", 1),
            ("load_10k_files_s", 4), ("json_parse_10k_files_s", 4), ("large_body_peak_mb", 1),
            ("virtual_time_wall_ms", 1), ("template_rps", 1), ("template_literal_rps", 1),
            ("template_unpinned_rps", 1), ("template_literal_unpinned_rps", 1),
            ("overhead_ratio", 3), ("scale_ratio", 3), ("load_ratio", 3), ("template_ratio", 3),
            ("template_ratio_unpinned", 3),
            ("loopback_speedup", 3), ("wiremock_speedup", 3), ("switches_over_floor", 2),
            ("floor_protocol_ns", 0), ("stub_protocol_ns", 0),
            ("floor_cold_protocol_ns", 0), ("stub_cold_protocol_ns", 0),
            ("template_protocol_ns", 0), ("template_literal_protocol_ns", 0),
            ("stream_stub_eps", 0), ("stream_floor_eps", 0), ("stream_stub_eps_cpu_us", 3),
            ("stream_floor_eps_cpu_us", 3), ("stream_event_cpu_ratio", 3), ("streams_concurrent_s", 3),
        ]
        // The WireMock keys are optional: present only when the wiremock workload ran.
        let wiremockRan = results.median("wiremock_rps") != nil
        var members: [String] = []
        for (key, decimals) in keys where wiremockRan || !key.hasPrefix("wiremock_") {
            members.append("  \(quote(key)): \(number(value(key, in: results), decimals: decimals))")
            // Each ratio also from CPU time, which other work on the machine moves much less.
            if (key.hasSuffix("_ratio") && !key.hasSuffix("_cpu_ratio")) || key == "loopback_speedup" {
                members.append("  \(quote(key + "_cpu")): \(number(cpuRatio(key, in: results), decimals: 3))")
            }
            // The protocols alone also by their lowest batch, which noise moves less (see `Results.minimum`).
            if key.hasSuffix("_protocol_ns") {
                let lowest = key.dropLast("_ns".count) + "_min_ns"
                members.append("  \(quote(String(lowest))): \(number(results.minimum(key), decimals: 0))")
            }
        }
        // Context switches per request (data(for:)), all threads: a thread hand-off is two.
        for workload in ["floor_rps", "stub_rps"] {
            let name = workload.dropLast("_rps".count)
            for (suffix, label) in [("_vcsw", "voluntary"), ("_ivcsw", "involuntary")] {
                let value = results.median(workload + suffix)
                members.append("  \(quote("\(name)_context_switches_\(label)")): \(number(value, decimals: 2))")
            }
        }
        let machine = results.machine
        members.append(
            """
              "machine": {
                "cpus": \(machine.cpus),
                "cpu_model": \(quote(machine.cpuModel)),
                "cpu_family": \(machine.cpuFamily.map(String.init) ?? "null"),
                "cpu_model_number": \(machine.cpuModelNumber.map(String.init) ?? "null"),
                "cpu_stepping": \(machine.cpuStepping.map(String.init) ?? "null"),
                "cpu_microarchitecture": \(machine.microarchitecture.map(quote) ?? "null"),
                "memory_gib": \(number(machine.memoryGiB, decimals: 1)),
                "swift": \(quote(machine.swift)),
                "os": \(quote(machine.os)),
                "kernel": \(quote(machine.kernel)),
                "load_average_1m": \(number(machine.loadAverage, decimals: 2))
              }
            """
        )
        return "{\n" + members.joined(separator: ",\n") + "\n}"
    }

    private static func number(_ value: Double?, decimals: Int) -> String {
        guard let value, value.isFinite else { return "null" }
        return String(format: "%.\(decimals)f", value)
    }

    /// `text` as a JSON string.
    private static func quote(_ text: String) -> String {
        JSONValue.string(text).serialized()
    }

    // MARK: Table

    static func table(_ results: Results, options: Options) -> String {
        let machine = results.machine
        var lines: [String] = []
        lines.append(
            "swift-http-stubs benchmark — \(options.quick ? "quick" : "full") run: "
                + "request rates are medians over \(options.rounds) rounds × \(options.slices) interleaved slices"
        )
        lines.append(
            "machine: \(machine.cpus) × \(machine.cpuDescription), \(String(format: "%.1f", machine.memoryGiB)) GiB, "
                + "Swift \(machine.swift), \(machine.os), Linux \(machine.kernel)"
                + String(
                    format: ", load average %.2f at start, %.2f at end",
                    machine.loadAverage,
                    Machine.loadAverageNow()
                )
        )
        lines.append("")

        let rows: [(String, String)] = [
            ("floor: bare URLProtocol", "floor_rps"),
            ("toolkit, 1 stub", "stub_rps"),
            ("toolkit, 10,000 stubs", "stub_10k_rps"),
            ("POST, response template, pinned", "template_rps"),
            ("POST, literal body, pinned", "template_literal_rps"),
            ("POST, response template", "template_unpinned_rps"),
            ("POST, literal body", "template_literal_unpinned_rps"),
            ("loopback HTTP/1.1 server", "loopback_rps"),
            (WireMockServer.label(jar: options.wiremockJar ?? ""), "wiremock_rps"),
            ("\(options.concurrentTasks) tasks, 1,000 stubs", "concurrent_rps"),
        ]
        // The label column is 27 wide unless a label of a measured row needs more.
        let width = max(27, rows.filter { results.median($0.1) != nil }.map { $0.0.count + 2 }.max() ?? 0)
        lines.append(
            pad("workload", width) + pad("API", 12) + lpad("req/s", 10) + lpad("µs/req", 10) + lpad("CPU µs/req", 12)
                + lpad("cs/req", 12) + "   p25–p75 req/s"
        )
        for (label, key) in rows {
            for (api, suffix) in [("data(for:)", ""), ("completion", "_completion")] {
                guard let rate = results.median(key + suffix) else { continue }
                let shownAPI = key == "concurrent_rps" ? "data(for:) ×\(options.concurrentTasks)" : api
                // WireMock's CPU time is spent in another process (the JVM), so it has no CPU µs/req.
                let cpu = key == "wiremock_rps" ? nil : results.median(key + suffix + "_cpu_us")
                lines.append(
                    pad(suffix.isEmpty ? label : "", width) + pad(shownAPI, 12) + lpad(Self.rate(rate), 10)
                        + lpad(micros(rate), 10)
                        + lpad(cpu.map { String(format: "%.1f", $0) } ?? "–", 12)
                        + lpad(switches(key + suffix, in: results), 12)
                        + "   " + spread(results.quartiles(key + suffix))
                )
            }
        }
        for (key, how) in [
            ("template_ratio", "with the process pinned to one CPU; goal ≤ 1.2"),
            (
                "template_ratio_unpinned",
                "unpinned, as the other workloads run; information: it adds waking the other CPUs"
            ),
        ] {
            guard let ratio = value(key, in: results) else { continue }
            let cpu = cpuRatio(key, in: results).map { String(format: "%.2f", $0) } ?? "–"
            lines.append(
                String(format: "  (\(key): a templated stub costs %.2f× a literal one per request", ratio)
                    + ", \(cpu)× in CPU time, \(how))"
            )
        }
        if let built = results.notes["stub_10k_build_s"] {
            lines.append("  (adding the 10,000 stubs in code took \(built) s, outside the measurement)")
        }
        lines.append(
            "  (µs/req = wall time / requests; CPU µs/req = CPU time of the whole process, all threads, / requests;"
        )
        lines.append(
            "   the concurrent row's µs/req is wall time / requests with "
                + "\(options.concurrentTasks) requests in flight;"
        )
        lines.append(
            "   cs/req = context switches of the whole process per request, voluntary+involuntary: "
                + "a thread hand-off is a voluntary one)"
        )
        if results.median("wiremock_rps") != nil {
            lines.append(
                "  (WireMock runs in a separate JVM process, so its CPU time is not in CPU µs/req: shown as –)"
            )
        }
        lines.append("")

        if let floor = results.median("floor_protocol_ns"), let stub = results.median("stub_protocol_ns"),
            let floorLowest = results.minimum("floor_protocol_ns"), let stubLowest = results.minimum("stub_protocol_ns")
        {
            lines.append(
                "the protocols alone, without URLSession: CPU ns per request, medians (and lowest) "
                    + "of \(options.protocolBatches) batches of \(options.protocolBatchSize.formatted())"
            )
            lines.append(
                "  " + pad("floor: bare URLProtocol", 40) + lpad(nanoseconds(floor), 10)
                    + lpad("(\(nanoseconds(floorLowest)))", 12)
            )
            lines.append(
                "  " + pad("toolkit, 1 stub", 40) + lpad(nanoseconds(stub), 10)
                    + lpad("(\(nanoseconds(stubLowest)))", 12)
            )
            lines.append(
                "  the toolkit's own work: \(nanoseconds(stub - floor)) per request "
                    + "(\(nanoseconds(stubLowest - floorLowest)) between the lowest batches, which noise moves less)"
            )
            if let floorCold = results.median("floor_cold_protocol_ns"),
                let stubCold = results.median("stub_cold_protocol_ns"),
                let floorColdLowest = results.minimum("floor_cold_protocol_ns"),
                let stubColdLowest = results.minimum("stub_cold_protocol_ns")
            {
                lines.append(
                    "  from cold caches (\(ProtocolCost.evictionBytes >> 20) MiB written after each request, "
                        + "as other threads do between requests through URLSession; the median request's wall time, "
                        + "batches of \(options.coldProtocolBatchSize.formatted())): "
                        + "\(nanoseconds(stubCold - floorCold)) per request "
                        + "(\(nanoseconds(stubColdLowest - floorColdLowest)) between the lowest batches)"
                )
            }
            lines.append("")
        }
        if let templated = results.median("template_protocol_ns"),
            let literal = results.median("template_literal_protocol_ns")
        {
            lines.append("the template workload's protocols alone: CPU ns per request, medians as above")
            lines.append("  " + pad("literal body", 40) + lpad(nanoseconds(literal), 10))
            lines.append(
                "  " + pad("response template", 40) + lpad(nanoseconds(templated), 10)
                    + "   (rendering: \(nanoseconds(templated - literal)) per request)"
            )
            lines.append("")
        }
        if let load = results.median("load_10k_files_s"), let parse = results.median("json_parse_10k_files_s") {
            let bytes = Int(results.notes["mapping_bytes"] ?? "") ?? 0
            lines.append(
                "\(options.fileCount.formatted()) mapping files (\(bytes / 1024) KiB), "
                    + "medians of \(options.fileRounds) rounds"
            )
            lines.append(
                "  " + pad("StubRegistry.load(root)", 40) + lpad(String(format: "%.3f s", load), 10)
                    + lpad(String(format: "%.1f µs/file", load * 1e6 / Double(options.fileCount)), 18)
            )
            if let decode = results.median("decode_10k_files_s") {
                lines.append(
                    "  " + pad("  of which StubFiles.load(root) alone", 40) + lpad(String(format: "%.3f s", decode), 10)
                        + lpad(String(format: "%.1f µs/file", decode * 1e6 / Double(options.fileCount)), 18)
                        + "   (read, parse, decode; no registry)"
                )
            }
            lines.append(
                "  " + pad("read + JSONSerialization (baseline)", 40) + lpad(String(format: "%.3f s", parse), 10)
                    + lpad(String(format: "%.1f µs/file", parse * 1e6 / Double(options.fileCount)), 18)
            )
            lines.append("")
        }
        if let peak = results.median("large_body_peak_mb") {
            let sampled = results.median("large_body_sampled_mb") ?? 0
            let time = results.median("large_body_s") ?? 0
            lines.append(
                String(
                    format:
                        "100 MiB bodyFileName, data(for:): "
                        + "        peak RSS growth %6.1f MiB (sampled VmRSS %6.1f MiB), %.2f s",
                    peak,
                    sampled,
                    time
                )
            )
            if let completion = results.median("large_body_peak_mb_completion") {
                lines.append(
                    String(
                        format:
                            "100 MiB bodyFileName, completion handler: "
                            + "peak RSS growth %6.1f MiB (sampled VmRSS %6.1f MiB), %.2f s",
                        completion,
                        results.median("large_body_sampled_mb_completion") ?? 0,
                        results.median("large_body_s_completion") ?? 0
                    )
                )
            }
            lines.append(
                "  (growth of VmHWM over VmRSS before the request, "
                    + "in a child process; the caller's own Data is 100 MiB)"
            )
        }
        if let stub = results.median("stream_stub_eps_cpu_us"), let floor = results.median("stream_floor_eps_cpu_us") {
            lines.append(
                String(
                    format: "a %d-event SSE stream to a delegate, ImmediateStubClock: %.2f CPU µs per event "
                        + "(floor protocol, same chunks: %.2f)",
                    Streams.eventCount,
                    stub,
                    floor
                )
            )
        }
        if let wall = results.median("streams_concurrent_s") {
            lines.append(
                String(
                    format:
                        "%d concurrent StubStreams, about a third cancelled by their client at random: %.2f s wall, "
                        + "every task ended, no protocol instance left",
                    Streams.concurrentCount,
                    wall
                )
            )
        }
        if let wall = results.median("virtual_time_wall_ms") {
            lines.append(
                String(
                    format: "%d sequential requests to a stub delayed 5 s, ImmediateStubClock: %.1f ms wall",
                    options.virtualRequests,
                    wall
                )
                    + " (\(results.notes["virtual_seconds"] ?? "?") s virtual)"
            )
        }
        lines.append("")

        lines.append(
            pad("metric", 24) + lpad("value", 12) + lpad("goal", 10) + "      " + "same ratio from CPU µs/req"
        )
        for goal in goals {
            let measured = value(goal.key, in: results)
            let verdict: String
            if let measured {
                verdict = (goal.atMost ? measured <= goal.bound : measured >= goal.bound) ? "✓" : "✗"
            } else {
                verdict = "–"
            }
            let shown =
                measured.map {
                    String(
                        format: goal.key.hasSuffix("_ratio") || goal.key == "switches_over_floor" ? "%.2f" : "%.1f",
                        $0
                    )
                } ?? "not run"
            let cpu = cpuRatio(goal.key, in: results).map { String(format: "%.2f", $0) } ?? ""
            lines.append(
                pad(goal.key, 24) + lpad(shown, 12)
                    + lpad((goal.atMost ? "≤ " : "≥ ") + String(format: "%g", goal.bound), 10)
                    + "   " + verdict + "  "
                    + lpad(cpu, 10)
            )
        }
        // Information, no goal: the server sets their ceiling. No CPU ratio for WireMock, whose CPU
        // time is in another process.
        if let speedup = results.loopbackSpeedup {
            let cpu = cpuRatio("loopback_speedup", in: results).map { String(format: "%.2f", $0) } ?? ""
            lines.append(
                pad("loopback_speedup", 24) + lpad(String(format: "%.2f", speedup), 12) + lpad("–", 10) + "   –  "
                    + lpad(cpu, 10)
            )
        }
        if let speedup = results.wiremockSpeedup {
            lines.append(
                pad("wiremock_speedup", 24) + lpad(String(format: "%.2f", speedup), 12) + lpad("–", 10) + "   –  "
                    + lpad("–", 10)
            )
        }
        if let ceiling = results.ratio("floor_rps", "loopback_rps") {
            lines.append(
                String(
                    format: "(ceiling of loopback_speedup with a zero-cost toolkit: floor_rps / loopback_rps = %.2f)",
                    ceiling
                )
            )
        }
        lines.append("")
        lines.append(String(format: "total wall time %.1f s", results.wallSeconds))
        return lines.joined(separator: "\n")
    }

    /// A rate ratio recomputed from CPU µs per request, which other processes barely disturb.
    static func cpuRatio(_ key: String, in results: Results) -> Double? {
        func cpu(_ name: String) -> Double? { results.median(name + "_cpu_us") }
        func ratio(_ top: Double?, _ bottom: Double?) -> Double? {
            guard let top, let bottom, bottom > 0 else { return nil }
            return top / bottom
        }
        switch key {
        case "overhead_ratio": return ratio(cpu("stub_rps"), cpu("floor_rps"))
        case "scale_ratio": return ratio(cpu("stub_10k_rps"), cpu("stub_rps"))
        case "load_ratio":
            return ratio(results.median("load_10k_files_cpu_s"), results.median("json_parse_10k_files_cpu_s"))
        case "loopback_speedup": return ratio(cpu("loopback_rps"), cpu("stub_rps"))
        case "template_ratio": return ratio(cpu("template_rps"), cpu("template_literal_rps"))
        case "template_ratio_unpinned": return ratio(cpu("template_unpinned_rps"), cpu("template_literal_unpinned_rps"))
        default: return nil
        }
    }

    /// `3.1+1.8`: the medians of the voluntary and involuntary context switches per request.
    private static func switches(_ key: String, in results: Results) -> String {
        guard let voluntary = results.median(key + "_vcsw"), let involuntary = results.median(key + "_ivcsw") else {
            return "–"
        }
        return String(format: "%.2f+%.2f", voluntary, involuntary)
    }

    private static func rate(_ value: Double?) -> String {
        guard let value else { return "–" }
        return Int(value.rounded()).formatted()
    }

    private static func micros(_ value: Double?) -> String {
        guard let value, value > 0 else { return "–" }
        return String(format: "%.1f", 1e6 / value)
    }

    private static func spread(_ range: (low: Double, high: Double)?) -> String {
        guard let range else { return "" }
        return "[\(Int(range.low.rounded()).formatted())–\(Int(range.high.rounded()).formatted())]"
    }

    /// `2,864 ns`.
    private static func nanoseconds(_ value: Double) -> String {
        Int(value.rounded()).formatted() + " ns"
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }

    private static func lpad(_ text: String, _ width: Int) -> String {
        text.count >= width ? " " + text : String(repeating: " ", count: width - text.count) + text
    }
}
