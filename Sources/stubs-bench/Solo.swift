import Foundation
import HTTPStubs
import HTTPStubsFiles

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `--solo floor|stub|template|template_literal`, a hidden option for profiling one side at a time:
/// a warm-up, then one batch of `--requests N` sequential requests through the floor, the 1-stub
/// toolkit, or one half of the `template` workload alone
/// (`--api completion` for the completion-handler chain), so that `perf stat`, `perf record` or
/// `strace -f -c` on the whole process counts that workload and little else. The batch's wall
/// time, CPU time and context switches per request go to stderr.
enum Solo {
    static let workloads = ["floor", "stub", "template", "template_literal"]

    static func run(_ workload: String, completion: Bool, requests: Int) async throws {
        let registry: StubRegistry? =
            switch workload {
            case "stub": Registries.single()
            case "template": Registries.templated()
            case "template_literal": Registries.literalPost()
            default: nil
            }
        let session = registry?.makeSession() ?? FloorProtocol.makeSession()
        defer { session.finishTasksAndInvalidate() }
        let request = workload.hasPrefix("template") ? templateRequest() : targetRequest()
        func batch(_ count: Int) async throws -> Sample {
            try await measuringCPU {
                completion
                    ? try await sequentialCompletion(session, request, count: count, budget: .seconds(3_600))
                    : try await sequentialAsync(session, request, count: count, budget: .seconds(3_600))
            }
        }
        _ = try await batch(200)
        registry?.clearJournal()
        let sample = try await batch(requests)
        let (voluntary, involuntary) = sample.switchesPerRequest
        FileHandle.standardError.write(
            Data(
                String(
                    format: "%@ (%@): %d requests, %.0f req/s, %.1f CPU µs/req, "
                        + "context switches per request %.2f voluntary + %.2f involuntary\n",
                    workload,
                    completion ? "completion" : "data(for:)",
                    sample.requests,
                    sample.perSecond,
                    sample.cpuMicroseconds,
                    voluntary,
                    involuntary
                ).utf8
            )
        )
    }
}
