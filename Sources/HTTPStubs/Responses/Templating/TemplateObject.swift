/// A map of a template's data model that keeps its keys in insertion order, as the `LinkedHashMap`s
/// WireMock builds do: `{{#each}}` visits entries and printing lists them in that order. Lookup by key
/// is a dictionary read. Setting an existing key replaces its value in place.
struct TemplateObject: Sendable, Hashable {
    /// The entries in insertion order.
    private(set) var entries: [(key: String, value: TemplateValue)] = []
    /// The position of each key in `entries`.
    private var positions: [String: Int] = [:]

    /// An empty map.
    init() {}

    /// A map of `pairs` in their order; a repeated key keeps its first position and its last value.
    init(_ pairs: [(String, TemplateValue)]) {
        for (key, value) in pairs { self[key] = value }
    }

    /// The value of `key`, or `nil` when the map has no such key. Setting `nil` is ignored.
    subscript(key: String) -> TemplateValue? {
        get { positions[key].map { entries[$0].value } }
        set {
            guard let newValue else { return }
            if let position = positions[key] {
                entries[position].value = newValue
            } else {
                positions[key] = entries.count
                entries.append((key, newValue))
            }
        }
    }

    /// How many entries the map has.
    var count: Int { entries.count }

    static func == (lhs: TemplateObject, rhs: TemplateObject) -> Bool {
        lhs.entries.count == rhs.entries.count
            && zip(lhs.entries, rhs.entries).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(entries.count)
        for entry in entries {
            hasher.combine(entry.key)
            hasher.combine(entry.value)
        }
    }
}
