/// A registry's stubs in the order they are tried — priority first (1 is the highest), then newest
/// first — indexed by literal path and by literal path prefix (the start of a URI template or of a
/// path regex), so that a request is tested only against the stubs that could match its path.
///
/// Not thread-safe: the registry uses it under its lock.
struct StubIndex {
    /// A stub and its use count.
    final class Entry {
        let stub: Stub
        /// Insertion order: later stubs win ties of priority.
        let order: Int
        /// How many requests the stub answered.
        var uses = 0

        init(stub: Stub, order: Int) {
            self.stub = stub
            self.order = order
        }

        /// Whether this entry is tried before `other`.
        func precedes(_ other: Entry) -> Bool {
            stub.priority != other.stub.priority ? stub.priority < other.stub.priority : order > other.order
        }
    }

    /// Every entry, in the order tried.
    private(set) var all: [Entry] = []
    private var byPath: [String: [Entry]] = [:]
    private var byPrefix: [String: [Entry]] = [:]
    private var anyPath: [Entry] = []
    private var nextOrder = 0

    /// Adds a stub (replacing one with the same identity) and returns its entry.
    mutating func insert(_ stub: Stub) {
        remove(id: stub.id)
        let entry = Entry(stub: stub, order: nextOrder)
        nextOrder += 1
        Self.insert(entry, into: &all)
        if let path = stub.pattern.literalPath {
            Self.insert(entry, into: &byPath[path, default: []])
        } else if let prefix = stub.pattern.pathPrefix {
            Self.insert(entry, into: &byPrefix[prefix, default: []])
        } else {
            Self.insert(entry, into: &anyPath)
        }
    }

    /// Removes the stub with this identity; returns whether there was one.
    @discardableResult
    mutating func remove(id: String) -> Bool {
        guard let entry = all.first(where: { $0.stub.id == id }) else { return false }
        all.removeAll { $0 === entry }
        if let path = entry.stub.pattern.literalPath {
            byPath[path]?.removeAll { $0 === entry }
            if byPath[path]?.isEmpty == true { byPath[path] = nil }
        } else if let prefix = entry.stub.pattern.pathPrefix {
            byPrefix[prefix]?.removeAll { $0 === entry }
            if byPrefix[prefix]?.isEmpty == true { byPrefix[prefix] = nil }
        } else {
            anyPath.removeAll { $0 === entry }
        }
        return true
    }

    /// Removes every stub.
    mutating func removeAll() {
        all.removeAll()
        byPath.removeAll()
        byPrefix.removeAll()
        anyPath.removeAll()
    }

    /// The entries that could match a request with this path, in the order tried.
    func candidates(forPath path: String) -> [Entry] {
        var merged = Self.merge(byPath[path] ?? [], anyPath)
        if !byPrefix.isEmpty {
            var end = path.startIndex
            while end < path.endIndex {
                end = path.index(after: end)
                if let entries = byPrefix[String(path[..<end])] {
                    merged = Self.merge(merged, entries)
                }
            }
        }
        return merged
    }

    /// Two lists in the order tried, merged.
    private static func merge(_ first: [Entry], _ second: [Entry]) -> [Entry] {
        guard !first.isEmpty else { return second }
        guard !second.isEmpty else { return first }
        var merged: [Entry] = []
        merged.reserveCapacity(first.count + second.count)
        var left = 0, right = 0
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
        var low = 0, high = list.count
        while low < high {
            let middle = (low + high) / 2
            if list[middle].precedes(entry) { low = middle + 1 } else { high = middle }
        }
        list.insert(entry, at: low)
    }
}
