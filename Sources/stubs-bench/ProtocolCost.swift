import Foundation
import HTTPStubs

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
enum ProtocolCost {
    /// CPU nanoseconds per request for each protocol class: `batches` batches of `batchSize`
    /// `request`s each, the two classes alternating batch by batch. Between batches (outside the
    /// measurement), `between` runs, to clear the journal.
    static func measure(
        _ classes: [(key: String, type: URLProtocol.Type)],
        request: URLRequest = targetRequest(),
        batches: Int,
        batchSize: Int,
        between: () -> Void
    ) throws -> [String: [Double]] {
        var samples: [String: [Double]] = [:]
        for batch in 0..<batches {
            let order = batch % 2 == 0 ? classes : classes.reversed()
            for (key, type) in order {
                between()
                let client = CheckingClient()
                let start = threadCPUSeconds()
                for _ in 0..<batchSize {
                    guard type.canInit(with: request) else {
                        throw BenchFailure("\(key): canInit refused the benchmark request")
                    }
                    let instance = type.init(
                        request: type.canonicalRequest(for: request),
                        cachedResponse: nil,
                        client: client
                    )
                    instance.startLoading()
                    instance.stopLoading()
                }
                let elapsed = threadCPUSeconds() - start
                guard client.finished == batchSize, client.failure == nil else {
                    throw BenchFailure(
                        "\(key): \(client.finished) of \(batchSize) requests answered as expected; "
                            + "\(client.failure ?? "no failure reported")"
                    )
                }
                samples[key, default: []].append(elapsed * 1e9 / Double(batchSize))
            }
        }
        return samples
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
