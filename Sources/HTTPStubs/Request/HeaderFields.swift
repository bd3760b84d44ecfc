/// An ordered list of HTTP header fields in which a name may repeat.
///
/// Names compare case-insensitively, as HTTP requires. The order of fields, and the spelling of
/// each name, is kept as written.
public struct HeaderFields: Sendable, Hashable, ExpressibleByDictionaryLiteral, Sequence, CustomStringConvertible {
    /// One header field, as a name and a value; names compare without regard to case.
    public struct Field: Sendable, Hashable {
        /// The field's name, as written.
        public var name: String
        /// The field's value.
        public var value: String

        /// A field with this name (kept as written) and value.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The fields in order.
    public private(set) var fields: [Field]

    /// Creates headers from fields in order.
    public init(_ fields: [Field] = []) {
        self.fields = fields
    }

    /// Creates headers from a dictionary literal; repeat a name to send several values.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.fields = elements.map { Field(name: $0.0, value: $0.1) }
    }

    /// Creates headers from a `[String: String]` dictionary, sorted by name so the order is stable.
    public init(_ dictionary: [String: String]) {
        var fields = dictionary.map { Field(name: $0.key, value: $0.value) }
        // In place: one array, not two; a single field (as most requests have) is sorted already.
        if fields.count > 1 { fields.sort { $0.name < $1.name } }
        self.fields = fields
    }

    /// The first value of the field with this name (case-insensitive), or `nil`.
    public subscript(name: String) -> String? {
        fields.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// Every value of the fields with this name (case-insensitive), in order.
    public func values(for name: String) -> [String] {
        let lowered = name.lowercased()
        return fields.filter { $0.name.lowercased() == lowered }.map(\.value)
    }

    /// Whether a field with this name (case-insensitive) is present.
    public func contains(_ name: String) -> Bool {
        self[name] != nil
    }

    /// Appends a field, keeping any existing field of the same name.
    public mutating func add(_ name: String, _ value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Replaces every field of this name (case-insensitive) with one field.
    public mutating func set(_ name: String, _ value: String) {
        remove(name)
        fields.append(Field(name: name, value: value))
    }

    /// Removes every field of this name (case-insensitive).
    public mutating func remove(_ name: String) {
        let lowered = name.lowercased()
        fields.removeAll { $0.name.lowercased() == lowered }
    }

    /// The fields folded into a dictionary as `HTTPURLResponse` needs them: repeated names are
    /// joined with `", "` (as HTTP allows, and as URLSession reports them on Apple platforms).
    public var folded: [String: String] {
        var result: [String: String] = [:]
        var spelling: [String: String] = [:]
        result.reserveCapacity(fields.count)
        spelling.reserveCapacity(fields.count)
        for field in fields {
            let key = field.name.lowercased()
            if let name = spelling[key] {
                result[name] = result[name].map { "\($0), \(field.value)" } ?? field.value
            } else {
                spelling[key] = field.name
                result[field.name] = field.value
            }
        }
        return result
    }

    /// Iterates over the fields in order.
    public func makeIterator() -> IndexingIterator<[Field]> {
        fields.makeIterator()
    }

    /// Whether there are no fields.
    public var isEmpty: Bool { fields.isEmpty }

    /// The fields as `Name: value` lines.
    public var description: String {
        fields.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
    }
}
