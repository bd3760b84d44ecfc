import Foundation
import HTTPStubs

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Writes the exchanges that reached the real server into a WireMock stub root, as the HAR
/// importer and WireMock's recorder write them: one mapping file per distinct request
/// (`mappings/<method>-<path-slug>-<hash>.json`), bodies in `__files/` (JSON pretty-printed, binary
/// bodies as files), and identical requests that got several answers as a scenario.
///
/// Secrets are redacted before anything is written. Every file is written whole through a
/// temporary file (see ``AtomicFile``). A recorder only ever replaces or removes files it created
/// itself, unless ``overwrites`` (mode `all`): it creates the others with `link(2)`, which fails
/// when the name exists, and then takes the next name. So recordings from many threads (which one
/// recorder serializes), from several registries and from several processes into one stub root
/// never clobber each other.
final class StubRecorder: ExchangeRecorder {
    /// The stub root.
    package let root: URL
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
        /// The files this recorder wrote, relative to the root: its to replace and remove. Every
        /// other file in the root is only ever created, never replaced (except in mode `all`).
        var owned: Set<String> = []
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
        // A recording killed mid-write left its temporary files: they go now.
        AtomicFile.removeAbandonedTemporaries(in: mappings)
        AtomicFile.removeAbandonedTemporaries(in: root.appendingPathComponent("__files"))
        let existing = (try? FileManager.default.contentsOfDirectory(atPath: mappings.path)) ?? []
        let taken = overwrites ? [] : Set(existing.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) })
        self.state = Locked(State(takenStems: taken, takenScenarios: Self.scenarioNames(in: mappings)))
    }

    /// The scenario names the mapping files under `mappings` (at any depth) use, except the one a
    /// file directly in it names after itself (`scenario-<stem>` in `<stem>.json`): that one goes
    /// with the stem, which is taken too, or is re-recorded with it in mode `all`.
    private static func scenarioNames(in mappings: URL) -> Set<String> {
        let files = ((try? FileManager.default.subpathsOfDirectory(atPath: mappings.path)) ?? []).filter {
            $0.hasSuffix(".json")
        }
        var names: Set<String> = []
        for file in files {
            guard let data = FileManager.default.contents(atPath: mappings.appendingPathComponent(file).path),
                let document = try? JSONValue(parsing: data)
            else { continue }
            let ownName = file.contains("/") ? nil : HARImporter.scenarioName(stem: String(file.dropLast(5)))
            for mapping in document.objectValue?["mappings"]?.arrayValue ?? [document] {
                if let name = mapping.objectValue?["scenarioName"]?.stringValue, name != ownName { names.insert(name) }
            }
        }
        return names
    }

    /// The files this recorder wrote and still keeps, relative to the root, sorted: its mappings and
    /// their body files (a file it wrote and later removed, such as a body renumbered into a
    /// scenario, is not among them).
    package var writtenFiles: [String] {
        state.withLock { $0.owned }.sorted()
    }

    /// Records one exchange and writes the files it changes; returns the mapping file's path.
    package func record(_ request: InterceptedRequest, outcome: RecordedOutcome) throws -> String {
        try StubRootPath.checkRoot(root)
        let recordedRequest = redacted(request)
        let exchange = HARExchange(
            entryIndex: 0,
            jsonPath: .root,
            request: recordedRequest,
            outcome: redacted(outcome),
            startedAt: nil,
            order: nil
        )
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
            let distinct = state.requests.map {
                HARDistinctRequest(request: $0.request, matchesBody: $0.request.body != nil, exchanges: $0.exchanges)
            }
            let importer = HARImporter(requests: distinct)
            var layout = importer.layout(avoiding: state.takenStems, scenarios: state.takenScenarios)
            // A stem that another recorder (another registry, another process) claimed since this
            // one started is taken: lay the files out again without it. Each turn takes one more
            // name that exists on disk, so this ends.
            while let claimed = try write(layout, state: &state) {
                state.takenStems.insert(claimed)
                layout = importer.layout(avoiding: state.takenStems, scenarios: state.takenScenarios)
            }
            return root.appendingPathComponent(layout[index].mapping.relativePath).path
        }
    }

    /// Writes the files of `layout`. A request's files that this recorder has not written yet are
    /// created, never replaced, bodies before the mapping that names them; when one of them exists
    /// already, none is left behind and its stem is returned. Files this recorder wrote (and, in mode
    /// `all`, files of the same name) are replaced, and the ones it wrote and no longer needs are
    /// removed.
    /// - Returns: The stem of a request whose files another recorder created meanwhile, or `nil`
    ///   when every file was written.
    private func write(_ layout: [HARImporter.RequestFiles], state: inout State) throws -> String? {
        for request in layout {
            let files = request.bodies + [request.mapping]
            if overwrites || state.owned.contains(request.mapping.relativePath) {
                if !state.owned.contains(request.mapping.relativePath) {
                    // Re-recording over an earlier recording (mode all): its body files are this
                    // recorder's to replace too.
                    state.owned.formUnion(
                        HARImporter.bodyFiles(
                            referencedBy: (try? RegularFile.read(try url(request.mapping).path)) ?? Data()
                        )
                    )
                }
                for file in files {
                    let target = try url(file)
                    // Read only when regular: a FIFO planted there would block the recording.
                    if (try? RegularFile.read(target.path)) != file.contents {
                        try AtomicFile.replace(file.contents, at: target)
                    }
                }
                state.owned.formUnion(files.map(\.relativePath))
            } else {
                guard try create(files) else { return request.stem }
                state.owned.formUnion(files.map(\.relativePath))
            }
        }
        // A request answered a second time becomes a scenario whose bodies are numbered: the
        // files this recorder wrote earlier and no longer needs go.
        let current = Set(layout.flatMap { $0.bodies + [$0.mapping] }.map(\.relativePath))
        for stale in state.owned.subtracting(current) {
            // A mapping written by hand may name any body file: only one inside the root goes.
            guard let target = try? StubRootPath.file(stale, in: root) else { continue }
            try? FileManager.default.removeItem(at: target)
        }
        state.owned = current
        return nil
    }

    /// Creates every file in order, or none: when one exists already or cannot be written, the
    /// ones created before it are removed.
    /// - Returns: Whether all were created; `false` when one existed.
    private func create(_ files: [HARImporter.File]) throws -> Bool {
        var created: [URL] = []
        defer {
            if created.count < files.count {
                for url in created { try? FileManager.default.removeItem(at: url) }
            }
        }
        for file in files {
            let target = try url(file)
            guard try AtomicFile.create(file.contents, at: target) == .created else { return false }
            created.append(target)
        }
        return true
    }

    /// Where a file of the stub root is, proven inside it.
    private func url(_ file: HARImporter.File) throws -> URL {
        try StubRootPath.file(file.relativePath, in: root)
    }

    /// The request as it is written: its URL redacted, no headers, and its body redacted; a body
    /// whose secrets cannot be replaced where they are (compressed, or in an encoding that cannot
    /// be read) is replaced whole, and the mapping then says so and does not match it.
    private func redacted(_ request: InterceptedRequest) -> HARRequest {
        var recorded = request
        recorded.url = redaction.redactedURL(request.url)
        recorded.headers = HeaderFields()
        let contentType = request.header("Content-Type")
        let body = request.body.flatMap { body -> Data? in
            guard !body.isEmpty else { return nil }
            switch redaction.redactedBody(
                body,
                contentType: contentType,
                contentEncoding: request.header("Content-Encoding")
            )
            {
            case let .asSent(data): return data
            case .decoded, .withheld: return Data(Redaction.placeholder.utf8)
            }
        }
        let isForm = Redaction.isForm(contentType)
        let recordedBody = body.map { data -> HARBody in
            if let text = String(data: data, encoding: .utf8) { return HARBody(text: text, isForm: isForm) }
            // A body with redacted values is matched as text, even when a byte of it is not UTF-8
            // (matching reads such a byte as U+FFFD, on both sides), so that it still matches
            // requests carrying other secrets.
            if data.range(of: Data(Redaction.placeholder.utf8)) != nil {
                return HARBody(text: String(decoding: data, as: UTF8.self), isForm: isForm)
            }
            return HARBody(bytes: data)
        }
        return HARRequest(url: recorded.url.absoluteString, stubRequest: recorded, body: recordedBody)
    }

    private func redacted(_ outcome: RecordedOutcome) -> HAROutcome {
        switch outcome {
        case let .failure(code):
            return .urlError(code)
        case let .response(response, body):
            var headers = HeaderFields(of: response)
            for name in ["content-length", "content-encoding", "transfer-encoding"] { headers.remove(name) }
            headers = headers.mappingValues { redaction.redactedHeader($0, $1) }
            let contentType = response.value(forHTTPHeaderField: "Content-Type") ?? ""
            let redactedBody = redaction.redactedBody(body, contentType: contentType)
            return .response(
                HARResponse(
                    status: response.statusCode,
                    reason: "",
                    headers: headers,
                    body: redactedBody,
                    contentType: contentType
                )
            )
        }
    }
}
