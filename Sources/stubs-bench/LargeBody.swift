import Foundation
import HTTPStubs
import HTTPStubsFiles

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The large-body measurement runs in a child process (this binary, re-invoked with a hidden
/// flag) so that its peak resident set (`VmHWM`) is its own and not the rest of the benchmark's.
enum LargeBody {
    static let childFlag = "--child-large-body"

    /// What the child reports, as one line `baseline_kb hwm_kb sampled_peak_kb bytes`.
    struct Report {
        /// Resident set just before the request (after loading the stubs and a warm-up request).
        let baselineKB: Int
        /// Peak resident set of the process (`VmHWM`) after the request.
        let peakKB: Int
        /// Peak `VmRSS` seen by a sampler thread during the request (a cross-check of `VmHWM`).
        let sampledPeakKB: Int
        /// Body bytes the caller received.
        let bytes: Int
        let seconds: Double

        var growthMiB: Double { Double(peakKB - baselineKB) / 1024 }
        var sampledGrowthMiB: Double { Double(sampledPeakKB - baselineKB) / 1024 }
    }

    /// In the child: serve `/large` from the stub root once with `data(for:)`, and print the report.
    /// `completion` uses `dataTask(with:completionHandler:)`, anything else `data(for:)`.
    static func runChild(root: String, mode: String) async -> Int32 {
        do {
            let registry = StubRegistry()
            try registry.load(root)
            let session = registry.makeSession()
            var small = URLRequest(url: URL(string: "http://\(Payload.host)/small")!)
            small.httpMethod = "GET"
            _ = try await session.data(for: small)
            let baseline = ProcStatus.kilobytes("VmRSS") ?? 0
            let sampler = RSSSampler()
            sampler.start()
            let clock = ContinuousClock()
            let start = clock.now
            let large = URLRequest(url: URL(string: "http://\(Payload.host)/large")!)
            let (data, response): (Data, URLResponse)
            if mode == "completion" {
                (data, response) = try await withCheckedThrowingContinuation { continuation in
                    session.dataTask(with: large) { data, response, error in
                        if let data, let response {
                            continuation.resume(returning: (data, response))
                        } else {
                            continuation.resume(throwing: error ?? BenchFailure("no response"))
                        }
                    }.resume()
                }
            } else {
                (data, response) = try await session.data(for: large)
            }
            let elapsed = seconds(clock.now - start)
            let sampled = sampler.stop()
            let peak = ProcStatus.kilobytes("VmHWM") ?? 0
            guard (response as? HTTPURLResponse)?.statusCode == 200 else {
                throw BenchFailure("large body: unexpected response \(String(describing: response))")
            }
            print("\(baseline) \(peak) \(max(sampled, baseline)) \(data.count) \(elapsed)")
            return 0
        } catch {
            FileHandle.standardError.write(Data("large body child: \(error)\n".utf8))
            return 1
        }
    }

    /// In the parent: write the stub root, run the child, read its report.
    static func measure(root: URL, mode: String) throws -> Report {
        let process = Process()
        process.executableURL = URL(
            fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        )
        process.arguments = [childFlag, root.path, mode]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let fields = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isWhitespace)
        guard process.terminationStatus == 0, fields.count == 5,
            let baseline = Int(fields[0]), let peak = Int(fields[1]), let sampled = Int(fields[2]),
            let bytes = Int(fields[3]), let elapsed = Double(fields[4])
        else {
            throw BenchFailure(
                "large body child failed (status \(process.terminationStatus)): "
                    + "\(String(decoding: data, as: UTF8.self))"
            )
        }
        guard bytes == StubFileCorpus.largeBodyBytes else {
            throw BenchFailure("large body: received \(bytes) bytes, expected \(StubFileCorpus.largeBodyBytes)")
        }
        return Report(baselineKB: baseline, peakKB: peak, sampledPeakKB: sampled, bytes: bytes, seconds: elapsed)
    }
}

/// Samples `VmRSS` every 2 ms on a background thread and keeps the maximum.
final class RSSSampler: @unchecked Sendable {
    // Invariant: `peak` and `running` are only touched while `lock` is held.
    private let lock = NSLock()
    private var peak = 0
    private var running = true
    private let finished = DispatchSemaphore(value: 0)

    func start() {
        let thread = Thread { [self] in
            while lock.withLock({ running }) {
                let rss = ProcStatus.kilobytes("VmRSS") ?? 0
                lock.withLock { peak = max(peak, rss) }
                usleep(2_000)
            }
            finished.signal()
        }
        thread.start()
    }

    /// Stops sampling and returns the peak in kB.
    func stop() -> Int {
        lock.withLock { running = false }
        finished.wait()
        return lock.withLock { peak }
    }
}

/// Reads `/proc/self/status`.
enum ProcStatus {
    /// A `kB` field such as `VmRSS` or `VmHWM`.
    static func kilobytes(_ field: String) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
            return Int(line.dropFirst(field.count + 1).split(whereSeparator: \.isWhitespace).first ?? "")
        }
        return nil
    }
}
