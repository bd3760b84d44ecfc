import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Writes the exchanges that reached the real server into a WireMock stub root, as the HAR
/// importer and WireMock's recorder write them: one mapping file per distinct request
/// (`mappings/<method>-<path-slug>-<hash>.json`), bodies in `__files/` (JSON pretty-printed, binary
/// bodies as files), and identical requests that got several answers as a scenario.
///
/// Secrets are redacted before anything is written. Files are written atomically (a temporary file,
/// then a rename); a file that existed before recording started is never overwritten unless
/// ``overwrites`` (mode `all`); recordings from many threads are serialized, so none clobbers another.
final class StubRecorder: Sendable {
    /// The stub root.
    let root: URL
    /// What is redacted.
    let redaction: Redaction
    /// Whether files that existed before may be overwritten (`all`).
    let overwrites: Bool
    private let state: Locked<State>

    private struct State {
        /// The recorded requests, in order, each with its exchanges.
        var requests: [Recorded] = []
        /// The mapping stems that existed before recording and must not be reused.
        var takenStems: Set<String>
        /// The scenario names that mappings in the root used before recording (see
        /// ``StubRecorder/scenarioNames(in:)``): new scenarios must not share their state.
        let takenScenarios: Set<String>
        /// The files this recorder wrote, relative to the root.
        var written: Set<String> = []
    }

    /// The exchanges of one distinct request.
    private struct Recorded {
        let request: HARRequest
        var exchanges: [HARExchange]
    }

    init(root: URL, redaction: Redaction, overwrites: Bool) {
        self.root = root
        self.redaction = redaction
        self.overwrites = overwrites
        let mappings = root.appendingPathComponent("mappings")
        let existing = (try? FileManager.default.contentsOfDirectory(atPath: mappings.path)) ?? []
        let taken = overwrites ? [] : Set(existing.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) })
        self.state = Locked(State(takenStems: taken, takenScenarios: Self.scenarioNames(in: mappings)))
    }

    /// The scenario names the mapping files under `mappings` (at any depth) use, except the one a
    /// file directly in it names after itself (`scenario-<stem>` in `<stem>.json`): that one goes
    /// with the stem, which is taken too, or is re-recorded with it in mode `all`.
    private static func scenarioNames(in mappings: URL) -> Set<String> {
        let files = ((try? FileManager.default.subpathsOfDirectory(atPath: mappings.path)) ?? []).filter { $0.hasSuffix(".json") }
        var names: Set<String> = []
        for file in files {
            guard let data = FileManager.default.contents(atPath: mappings.appendingPathComponent(file).path),
                  let document = try? JSONValue(parsing: data) else { continue }
            let ownName = file.contains("/") ? nil : HARImporter.scenarioName(stem: String(file.dropLast(5)))
            for mapping in document.objectValue?["mappings"]?.arrayValue ?? [document] {
                if let name = mapping.objectValue?["scenarioName"]?.stringValue, name != ownName { names.insert(name) }
            }
        }
        return names
    }

    /// Records one exchange and writes the files it changes; returns the mapping file's path.
    func record(_ request: StubRequest, outcome: Outcome) throws -> String {
        let recordedRequest = redacted(request)
        let exchange = HARExchange(entryIndex: 0, jsonPath: .root, request: recordedRequest, outcome: redacted(outcome), startedAt: nil, order: nil)
        return try state.withLock { state in
            let key = (recordedRequest.key, recordedRequest.body?.key)
            let index: Int
            if let existing = state.requests.firstIndex(where: { ($0.request.key, $0.request.body?.key) == key }) {
                index = existing
                state.requests[index].exchanges.append(exchange)
            } else {
                index = state.requests.count
                state.requests.append(Recorded(request: recordedRequest, exchanges: [exchange]))
            }
            let distinct = state.requests.map { HARDistinctRequest(request: $0.request, matchesBody: $0.request.body != nil, exchanges: $0.exchanges) }
            let layout = HARImporter(requests: distinct).layout(avoiding: state.takenStems, scenarios: state.takenScenarios)
            for file in layout.files where file.relativePath.hasPrefix("mappings/") && !state.written.contains(file.relativePath) {
                // Re-recording over an earlier recording (mode all): its body files are this
                // recorder's to replace too.
                state.written.formUnion(Self.bodyFiles(referencedBy: root.appendingPathComponent(file.relativePath)))
            }
            for file in layout.files {
                try write(file.contents, to: root.appendingPathComponent(file.relativePath))
            }
            // A request answered a second time becomes a scenario whose bodies are numbered: the
            // files this recorder wrote earlier and no longer needs go.
            let current = Set(layout.files.map(\.relativePath))
            for stale in state.written.subtracting(current) {
                try? FileManager.default.removeItem(at: root.appendingPathComponent(stale))
            }
            state.written = current
            return root.appendingPathComponent("mappings/\(layout.stems[index]).json").path
        }
    }

    /// What answered a recorded request.
    enum Outcome {
        case response(HTTPURLResponse, Data)
        case failure(URLError.Code)
    }

    /// The `__files/` paths a mapping file on disk refers to, if it exists and parses.
    private static func bodyFiles(referencedBy mapping: URL) -> Set<String> {
        guard let data = try? Data(contentsOf: mapping), let value = try? JSONValue(parsing: data) else { return [] }
        let mappings = value.objectValue?["mappings"]?.arrayValue ?? [value]
        return Set(mappings.compactMap { $0.objectValue?["response"]?.objectValue?["bodyFileName"]?.stringValue }.map { "__files/\($0)" })
    }

    private func write(_ data: Data, to url: URL) throws {
        if (try? Data(contentsOf: url)) == data { return }
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url, options: .atomic)
    }

    private func redacted(_ request: StubRequest) -> HARRequest {
        var recorded = request
        recorded.url = redaction.redactedURL(request.url)
        recorded.headers = HTTPHeaders()
        let contentType = request.header("Content-Type")
        let body = request.body.flatMap { $0.isEmpty ? nil : redaction.redactedBody($0, contentType: contentType) }
        let recordedBody = body.map { data in
            String(data: data, encoding: .utf8).map { HARBody(text: $0, isForm: Redaction.isForm(contentType)) } ?? HARBody(bytes: data)
        }
        return HARRequest(url: recorded.url.absoluteString, stubRequest: recorded, body: recordedBody)
    }

    private func redacted(_ outcome: Outcome) -> HAROutcome {
        switch outcome {
        case let .failure(code):
            return .urlError(code)
        case let .response(response, body):
            var headers = HTTPHeaders()
            for (name, value) in response.allHeaderFields.sorted(by: { "\($0.key)" < "\($1.key)" }) {
                let name = "\(name)"
                guard !["content-length", "content-encoding", "transfer-encoding"].contains(name.lowercased()) else { continue }
                headers.add(name, redaction.redactedHeader(name, "\(value)"))
            }
            let contentType = response.value(forHTTPHeaderField: "Content-Type") ?? ""
            let redactedBody = redaction.redactedBody(body, contentType: contentType)
            return .response(HARResponse(status: response.statusCode, reason: "", headers: headers, body: redactedBody, contentType: contentType))
        }
    }
}
