/// A registry's stubs in the order they are tried — priority first (1 is the highest), then newest
/// first — indexed by literal path and by literal path prefix (the start of a URI template or of a
/// path regex), so that a request is tested only against the stubs that could match its path.
///
/// Not thread-safe: the registry uses it under its lock.
struct StubIndex {
    /// A stub and its use count.
    final class Entry: @unchecked Sendable {
        // Invariant: `uses` and `isIndexed` are only touched under the registry's lock; everything
        // else is immutable, so a selection may read it from any thread (and run the stub's
        // matchers outside the lock).
        let stub: Stub
        /// The stub as the journal names it, built once rather than for every request it answers.
        let summary: StubSummary
        /// Insertion order: later stubs win ties of priority.
        let order: Int
        /// Whether matching or answering with the stub runs a closure of the user's.
        let runsUserCode: Bool
        /// For each of the stub's responses, what it resolves to when that is the same for every
        /// request (an HTTP response with its bytes in memory and no delay to draw), resolved once
        /// here rather than for each request it answers; `nil` for every other response.
        let literalAnswers: [LiteralAnswer?]
        /// How many requests the stub answered.
        var uses = 0
        /// Whether the entry is still in the index: a selection that chose it outside the lock
        /// checks this before committing (cheaper than looking its identity up).
        var isIndexed = true

        init(stub: Stub, order: Int) {
            self.stub = stub
            self.summary = StubSummary(stub)
            self.order = order
            self.runsUserCode = stub.pattern.runsUserCode || stub.responses.contains { $0.runsUserCode }
            self.literalAnswers = stub.responses.map(Self.literalAnswer)
        }

        /// What `response` resolves to for any request, as ``ResponseResolution`` would resolve it,
        /// when nothing in it depends on the request or the registry; `nil` otherwise.
        private static func literalAnswer(_ response: StubResponse) -> LiteralAnswer? {
            guard response.delay == nil, case let .http(status, reason, headers, body) = response.content,
                case let .data(data) = body.source
            else { return nil }
            return LiteralAnswer(
                ResolvedResponse(
                    answer: .http(status: status, reason: reason, headers: headers, body: data),
                    delay: .zero,
                    dribble: response.dribble
                )
            )
        }

        /// Whether the stub's pattern matches `request`. Tested here, in place: read through the
        /// entry (`entry.stub.pattern`), the whole pattern is copied out first, retaining each of
        /// its parts, for every candidate of every request.
        func matches(_ request: InterceptedRequest) -> Bool {
            stub.pattern.matches(request)
        }

        /// The URI-template variables the stub's pattern captures from `request`, read in place
        /// (see ``matches(_:)``).
        func pathParameters(of request: InterceptedRequest) -> [String: String] {
            stub.pattern.pathParameters(of: request)
        }

        /// Whether the stub's pattern tests the request body, read in place (see ``matches(_:)``).
        var readsBody: Bool {
            stub.pattern.readsBody
        }

        /// Whether this entry is tried before `other`.
        func precedes(_ other: Entry) -> Bool {
            stub.priority != other.stub.priority ? stub.priority < other.stub.priority : order > other.order
        }
    }

    /// A response resolved once for every request it answers (see ``Entry/literalAnswers``), in a
    /// box that the planner reads in place (``withResponse(_:)``), where copying the response out
    /// would retain and release each of its parts for every request.
    final class LiteralAnswer: @unchecked Sendable {
        // Invariant: immutable after `init`.
        private let response: ResolvedResponse

        init(_ response: ResolvedResponse) {
            self.response = response
        }

        /// Runs `body` with the response, read in place: a property read from outside the box would
        /// copy it out first.
        func withResponse<Result>(_ body: (ResolvedResponse) -> Result) -> Result {
            body(response)
        }
    }

    /// Every entry, in the order tried.
    private(set) var all: [Entry] = []
    private var byID: [Stub.ID: Entry] = [:]
    private var byPath: [String: [Entry]] = [:]
    private var byPrefix: [String: [Entry]] = [:]
    /// The lengths, in UTF-8 bytes, of the keys of `byPrefix`: the only prefixes of a path worth
    /// looking up.
    private var prefixLengths: [Int: Int] = [:]
    private var anyPath: [Entry] = []
    private var nextOrder = 0
    /// The path looked up last and its candidates, until the index changes: most requests ask
    /// for the path the one before asked for (a test calling one endpoint, polling, retries), and
    /// comparing two paths costs a fraction of hashing one (BENCHMARKS.md, "Kept from the request before").
    private var lastPath: String?
    private var lastCandidates: [Entry] = []

    /// The entry of the stub with this identity.
    func entry(id: Stub.ID) -> Entry? {
        byID[id]
    }

    /// Adds a stub (replacing one with the same identity).
    mutating func insert(_ stub: Stub) {
        forgetLastLookup()
        remove(id: stub.id)
        let entry = makeEntry(stub)
        Self.insert(entry, into: &all)
        switch Self.bucket(of: stub) {
        case let .path(path): Self.insert(entry, into: &byPath[path, default: []])
        case let .prefix(prefix): Self.insert(entry, into: &byPrefix[prefix, default: []])
        case .any: Self.insert(entry, into: &anyPath)
        }
    }

    /// Adds stubs in order, as many calls to ``insert(_:)`` would, but sorting each list once:
    /// loading 10,000 stub files does not shift the lists 10,000 times.
    mutating func insert(contentsOf stubs: [Stub]) {
        forgetLastLookup()
        guard stubs.count > 1 else {
            for stub in stubs { insert(stub) }
            return
        }
        var latest: [Stub.ID: Int] = [:]
        for (position, stub) in stubs.enumerated() {
            latest[stub.id] = position
        }
        for (position, stub) in stubs.enumerated() where latest[stub.id] == position {
            remove(id: stub.id)
        }
        var touchedPaths: Set<String> = []
        var touchedPrefixes: Set<String> = []
        var touchedAny = false
        for (position, stub) in stubs.enumerated() where latest[stub.id] == position {
            let entry = makeEntry(stub)
            all.append(entry)
            switch Self.bucket(of: stub) {
            case let .path(path):
                byPath[path, default: []].append(entry)
                touchedPaths.insert(path)
            case let .prefix(prefix):
                byPrefix[prefix, default: []].append(entry)
                touchedPrefixes.insert(prefix)
            case .any:
                anyPath.append(entry)
                touchedAny = true
            }
        }
        all.sort { $0.precedes($1) }
        for path in touchedPaths { byPath[path]?.sort { $0.precedes($1) } }
        for prefix in touchedPrefixes { byPrefix[prefix]?.sort { $0.precedes($1) } }
        if touchedAny { anyPath.sort { $0.precedes($1) } }
    }

    /// Removes the stub with this identity; returns whether there was one.
    @discardableResult
    mutating func remove(id: Stub.ID) -> Bool {
        guard let entry = byID.removeValue(forKey: id) else { return false }
        forgetLastLookup()
        entry.isIndexed = false
        all.removeAll { $0 === entry }
        switch Self.bucket(of: entry.stub) {
        case let .path(path):
            byPath[path]?.removeAll { $0 === entry }
            if byPath[path]?.isEmpty == true { byPath[path] = nil }
        case let .prefix(prefix):
            byPrefix[prefix]?.removeAll { $0 === entry }
            if byPrefix[prefix]?.isEmpty == true {
                byPrefix[prefix] = nil
                let length = prefix.utf8.count
                prefixLengths[length]! -= 1
                if prefixLengths[length] == 0 { prefixLengths[length] = nil }
            }
        case .any:
            anyPath.removeAll { $0 === entry }
        }
        return true
    }

    /// Removes every stub.
    mutating func removeAll() {
        forgetLastLookup()
        for entry in all { entry.isIndexed = false }
        all.removeAll()
        byID.removeAll()
        byPath.removeAll()
        byPrefix.removeAll()
        prefixLengths.removeAll()
        anyPath.removeAll()
    }

    /// The entries that could match a request with this path, in the order tried.
    mutating func candidates(forPath path: String) -> [Entry] {
        if lastPath == path { return lastCandidates }
        let found = lookUp(path)
        lastPath = path
        lastCandidates = found
        return found
    }

    /// The index's buckets changed: the last lookup may no longer hold.
    private mutating func forgetLastLookup() {
        lastPath = nil
        lastCandidates = []
    }

    /// ``candidates(forPath:)``, looked up in the buckets.
    private func lookUp(_ path: String) -> [Entry] {
        var merged = Self.merge(byPath[path] ?? [], anyPath)
        // Most registries have no prefix buckets: iterating none would still retain and release the dictionary.
        guard !prefixLengths.isEmpty else { return merged }
        let utf8 = path.utf8
        for length in prefixLengths.keys where length <= utf8.count {  // any order: merging keeps the order tried
            let end = utf8.index(utf8.startIndex, offsetBy: length)
            guard end.samePosition(in: path.unicodeScalars) != nil else { continue }  // not a whole character
            if let entries = byPrefix[String(path[..<end])] {
                merged = Self.merge(merged, entries)
            }
        }
        return merged
    }

    /// Where a stub is filed.
    private enum Bucket {
        case path(String)
        case prefix(String)
        case any
    }

    private static func bucket(of stub: Stub) -> Bucket {
        if let path = stub.pattern.literalPath { return .path(path) }
        if let prefix = stub.pattern.pathPrefix { return .prefix(prefix) }
        return .any
    }

    /// A new entry for `stub`, newer than every other, known by its identity.
    private mutating func makeEntry(_ stub: Stub) -> Entry {
        let entry = Entry(stub: stub, order: nextOrder)
        nextOrder += 1
        byID[stub.id] = entry
        if case let .prefix(prefix) = Self.bucket(of: stub), byPrefix[prefix] == nil {
            prefixLengths[prefix.utf8.count, default: 0] += 1
        }
        return entry
    }

    /// Two lists in the order tried, merged.
    private static func merge(_ first: [Entry], _ second: [Entry]) -> [Entry] {
        guard !first.isEmpty else { return second }
        guard !second.isEmpty else { return first }
        var merged: [Entry] = []
        merged.reserveCapacity(first.count + second.count)
        var left = 0
        var right = 0
        while left < first.count || right < second.count {
            if right == second.count || (left < first.count && first[left].precedes(second[right])) {
                merged.append(first[left])
                left += 1
            } else {
                merged.append(second[right])
                right += 1
            }
        }
        return merged
    }

    /// Inserts `entry` before the first entry it precedes (binary search: the list is sorted).
    private static func insert(_ entry: Entry, into list: inout [Entry]) {
        var low = 0
        var high = list.count
        while low < high {
            let middle = (low + high) / 2
            if list[middle].precedes(entry) { low = middle + 1 } else { high = middle }
        }
        list.insert(entry, at: low)
    }
}
