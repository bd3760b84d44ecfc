import HTTPStubs

/// A map of a template's data model that keeps its keys in insertion order, as the `LinkedHashMap`s
/// WireMock builds do: `{{#each}}` visits entries and printing lists them in that order. Lookup by key
/// is a dictionary read, or for a map of at most ``indexedAbove`` entries (most maps a render makes)
/// a scan that spares building the dictionary. Setting an existing key replaces its value in place.
///
/// A map can also be backed by the request model (``TemplateRequestModel``): its keys are fixed, and
/// a value is computed when a template first reads it, so a template that reads two fields of the
/// request does not pay for the rest. Such a map reads, prints and compares like the stored map of
/// the same entries; setting a key first stores every entry.
package struct TemplateObject: Sendable, Hashable {
    /// The entries in insertion order, when the map is not lazy.
    private var stored: [(key: String, value: TemplateValue)] = []
    /// The position of each key in `stored`, once it has more than ``indexedAbove`` entries.
    private var positions: [String: Int] = [:]
    /// Where the values come from when the map is lazy; `nil` for a stored map.
    private var lazy: TemplateRequestModel?

    /// How many entries a map holds before its keys are indexed.
    private static let indexedAbove = 8

    /// An empty map.
    package init() {}

    /// A map of `pairs` in their order; a repeated key keeps its first position and its last value.
    package init(_ pairs: [(key: String, value: TemplateValue)]) {
        if pairs.count <= Self.indexedAbove && Self.hasDistinctKeys(pairs) {
            // Most maps: the pairs are the entries as they are, without copying them one by one.
            stored = pairs
            return
        }
        stored.reserveCapacity(pairs.count)
        for (key, value) in pairs { self[key] = value }
    }

    /// Whether no key of `pairs` appears twice.
    private static func hasDistinctKeys(_ pairs: [(key: String, value: TemplateValue)]) -> Bool {
        for index in pairs.indices.dropFirst() where pairs[..<index].contains(where: { $0.key == pairs[index].key }) {
            return false
        }
        return true
    }

    /// A map whose keys are `lazy`'s and whose values it computes when they are first read.
    init(lazy: TemplateRequestModel) {
        self.lazy = lazy
    }

    /// The entries in insertion order (for a lazy map, every value computed).
    var entries: [(key: String, value: TemplateValue)] {
        guard let lazy else { return stored }
        return lazy.keys.map { ($0, lazy.value(of: $0) ?? .null) }
    }

    /// The value of `key`, or `nil` when the map has no such key. Setting `nil` is ignored.
    subscript(key: String) -> TemplateValue? {
        get {
            if let lazy { return lazy.value(of: key) }
            return position(of: key).map { stored[$0].value }
        }
        set {
            guard let newValue else { return }
            if lazy != nil {
                let entries = entries
                lazy = nil
                for entry in entries { self[entry.key] = entry.value }
            }
            if let position = position(of: key) {
                stored[position].value = newValue
                return
            }
            stored.append((key, newValue))
            if !positions.isEmpty {
                positions[key] = stored.count - 1
            } else if stored.count > Self.indexedAbove {
                for (position, entry) in stored.enumerated() { positions[entry.key] = position }
            }
        }
    }

    /// Where `key` is in `stored`.
    private func position(of key: String) -> Int? {
        guard positions.isEmpty else { return positions[key] }
        // Comparing the lengths first spares most comparisons of different keys.
        let length = key.utf8.count
        return stored.firstIndex { $0.key.utf8.count == length && $0.key == key }
    }

    /// How many entries the map has.
    var count: Int { lazy?.keys.count ?? stored.count }

    package static func == (lhs: TemplateObject, rhs: TemplateObject) -> Bool {
        let left = lhs.entries
        let right = rhs.entries
        return left.count == right.count && zip(left, right).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }

    package func hash(into hasher: inout Hasher) {
        let entries = entries
        hasher.combine(entries.count)
        for entry in entries {
            hasher.combine(entry.key)
            hasher.combine(entry.value)
        }
    }
}
