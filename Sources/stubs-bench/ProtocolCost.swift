import Foundation
import HTTPStubs
import HTTPStubsFiles

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The protocols alone, without URLSession: a loop on one thread that does what URLSession does
/// for each request (`canInit`, `canonicalRequest`, a new instance, `startLoading`,
/// `stopLoading`) against a client that only checks what it receives.
///
/// Through URLSession, most of a request's cost is waking threads, and that swings from run to
/// run; here the toolkit's own work per request is measured with nothing else around it, so its
/// difference from the floor's is stable to a few tens of nanoseconds.
///
/// In that loop the protocols' code and data stay in the CPU's caches from one request to the next.
/// Through URLSession they do not: other threads run between two requests. With `evictingCaches`,
/// the loop writes a buffer larger than a core's L2 cache after each request (the same for both
/// classes, so it cancels out of their difference), which makes the difference what the same
/// work costs starting from cold caches.
enum ProtocolCost {
    /// Bytes written between two requests with `evictingCaches`: 2 MiB, twice the L2 cache of a
    /// Zen 4 or Zen 5 core and four times a Zen 3 core's.
    static let evictionBytes = 2 << 20

    /// CPU nanoseconds per request for each protocol class: `batches` batches of `batchSize`
    /// `request`s each, the two classes alternating batch by batch. Between batches (outside the
    /// measurement), `between` runs, to clear the journal. With `evictingCaches`, a buffer of
    /// ``evictionBytes`` is written after each request, and a batch's figure is its median
    /// request's wall time instead (the eviction is not timed).
    static func measure(
        _ classes: [(key: String, type: URLProtocol.Type)],
        request: URLRequest = targetRequest(),
        batches: Int,
        batchSize: Int,
        evictingCaches: Bool = false,
        between: () -> Void
    ) throws -> [String: [Double]] {
        var samples: [String: [Double]] = [:]
        var eviction = evictingCaches ? [UInt8](repeating: 0, count: evictionBytes) : []
        let clock = ContinuousClock()
        var durations: [Double] = []
        durations.reserveCapacity(evictingCaches ? batchSize : 0)
        for batch in 0..<batches {
            let order = batch % 2 == 0 ? classes : classes.reversed()
            for (key, type) in order {
                between()
                let client = CheckingClient()
                durations.removeAll(keepingCapacity: true)
                let start = threadCPUSeconds()
                for _ in 0..<batchSize {
                    let began = evictingCaches ? clock.now : nil
                    try serve(request, with: type, key: key, client: client)
                    if let began {
                        durations.append(seconds(clock.now - began) * 1e9)
                        evict(&eviction)
                    }
                }
                let elapsed = threadCPUSeconds() - start
                guard client.finished == batchSize, client.failure == nil else {
                    throw BenchFailure(
                        "\(key): \(client.finished) of \(batchSize) requests answered as expected; "
                            + "\(client.failure ?? "no failure reported")"
                    )
                }
                if evictingCaches {
                    // The median request: the eviction is not timed, and a request the host preempted is an outlier.
                    durations.sort()
                    samples[key, default: []].append(durations[durations.count / 2])
                } else {
                    samples[key, default: []].append(elapsed * 1e9 / Double(batchSize))
                }
            }
        }
        return samples
    }

    /// One request, as URLSession makes it; the instance is released before this returns.
    @inline(never)
    private static func serve(
        _ request: URLRequest,
        with type: URLProtocol.Type,
        key: String,
        client: CheckingClient
    ) throws {
        guard type.canInit(with: request) else {
            throw BenchFailure("\(key): canInit refused the benchmark request")
        }
        let instance = type.init(request: type.canonicalRequest(for: request), cachedResponse: nil, client: client)
        instance.startLoading()
        instance.stopLoading()
    }

    /// Writes one byte of every 64-byte cache line of `buffer` (nothing when it is empty).
    private static func evict(_ buffer: inout [UInt8]) {
        buffer.withUnsafeMutableBufferPointer { bytes in
            for offset in stride(from: 0, to: bytes.count, by: 64) { bytes[offset] &+= 1 }
        }
    }

    private static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}

/// A `URLProtocolClient` that checks each answer (status 200, then the benchmark body, then the
/// end) and counts the requests answered so; any other call is a failure.
private final class CheckingClient: NSObject, URLProtocolClient, @unchecked Sendable {
    // Invariant: used by the one thread running the measurement loop, and only from it.
    private(set) var finished = 0
    private(set) var failure: String?
    private var status: Int?
    private var body = Data()

    func urlProtocol(
        _ protocol: URLProtocol,
        didReceive response: URLResponse,
        cacheStoragePolicy policy: URLCache.StoragePolicy
    ) {
        status = (response as? HTTPURLResponse)?.statusCode
        body = Data()
    }

    func urlProtocol(_ protocol: URLProtocol, didLoad data: Data) {
        body.append(data)
    }

    func urlProtocolDidFinishLoading(_ protocol: URLProtocol) {
        if status == 200, body == Payload.body {
            finished += 1
        } else {
            failure = "answered with status \(status.map(String.init) ?? "none") and \(body.count) bytes"
        }
        status = nil
    }

    func urlProtocol(_ protocol: URLProtocol, didFailWithError error: any Error) {
        failure = "failed: \(error)"
    }

    func urlProtocol(_ protocol: URLProtocol, wasRedirectedTo request: URLRequest, redirectResponse: URLResponse) {
        failure = "redirected to \(request.url?.absoluteString ?? "?")"
    }

    func urlProtocol(_ protocol: URLProtocol, cachedResponseIsValid cachedResponse: CachedURLResponse) {
        failure = "asked to use a cached response"
    }

    func urlProtocol(_ protocol: URLProtocol, didReceive challenge: URLAuthenticationChallenge) {
        failure = "sent an authentication challenge"
    }

    func urlProtocol(_ protocol: URLProtocol, didCancel challenge: URLAuthenticationChallenge) {
        failure = "cancelled an authentication challenge"
    }
}
