/// One `"key": value` member of a JSON object.
public struct JSONMember: Sendable, Hashable {
    /// The member name.
    public var key: String
    /// The member value.
    public var value: JSONValue

    /// A member called `key` with `value`.
    public init(key: String, value: JSONValue) {
        self.key = key
        self.value = value
    }
}

/// A JSON object: its members in source order, duplicates included.
///
/// Lookups see the last occurrence of a key (as Jackson does), and two objects
/// are equal when they map the same keys to equal values, in any order.
public struct JSONObject: Sendable, Hashable {
    /// The members as written, in order.
    public var members: [JSONMember]

    /// Creates an object from members in order.
    public init(members: [JSONMember] = []) {
        self.members = members
    }

    /// The distinct keys, in order of first appearance.
    public var keys: [String] {
        uniqueMembers.map(\.key)
    }

    /// Whether the object has no members.
    public var isEmpty: Bool {
        members.isEmpty
    }

    /// The value of the last member named `key`. Setting a value replaces the
    /// last such member or appends one; setting `nil` removes every such member.
    public subscript(key: String) -> JSONValue? {
        get {
            members.last { $0.key == key }?.value
        }
        set {
            guard let newValue else {
                members.removeAll { $0.key == key }
                return
            }
            if let index = members.lastIndex(where: { $0.key == key }) {
                members[index].value = newValue
            } else {
                members.append(JSONMember(key: key, value: newValue))
            }
        }
    }

    /// Each key once, in order of first appearance, with the value of its last occurrence.
    package var uniqueMembers: [JSONMember] {
        guard repeatsAKey else { return members }
        var indexOfKey: [String: Int] = [:]
        var unique: [JSONMember] = []
        for member in members {
            if let index = indexOfKey[member.key] {
                unique[index].value = member.value
            } else {
                indexOfKey[member.key] = unique.count
                unique.append(member)
            }
        }
        return unique
    }

    /// Whether some key appears more than once. Most objects have a few members and none repeated:
    /// they are compared pair by pair, without building a dictionary (which showed when loading
    /// thousands of mapping files, whose every object is read this way).
    private var repeatsAKey: Bool {
        guard members.count > 16 else {
            for later in members.indices.dropFirst() {
                for earlier in members.indices[..<later] where members[earlier].key == members[later].key {
                    return true
                }
            }
            return false
        }
        var seen = Set<String>(minimumCapacity: members.count)
        return !members.allSatisfy { seen.insert($0.key).inserted }
    }

    /// Each key mapped to the value of its last occurrence.
    var dictionary: [String: JSONValue] {
        Dictionary(members.map { ($0.key, $0.value) }, uniquingKeysWith: { _, last in last })
    }

    /// Whether both objects map the same keys to equal values, regardless of order.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.dictionary == rhs.dictionary
    }

    /// Hashes the key–value mapping independently of member order, consistently with `==`.
    public func hash(into hasher: inout Hasher) {
        let dictionary = dictionary
        var combined = 0
        for (key, value) in dictionary {
            var memberHasher = Hasher()
            memberHasher.combine(key)
            memberHasher.combine(value)
            combined ^= memberHasher.finalize()
        }
        hasher.combine(dictionary.count)
        hasher.combine(combined)
    }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    /// Creates an object whose members keep the literal's order.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(members: elements.map { JSONMember(key: $0.0, value: $0.1) })
    }
}
