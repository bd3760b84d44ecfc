import HTTPStubs
import HTTPStubsLanguages

extension JSONValue {
    /// The value with the values at `locations` (from ``JSONPathExpression/locate(in:)``) removed,
    /// all at once, as Jayway JsonPath's `delete` removes them from the document it read (the
    /// elements of one array from the last one back, so that each index still means the element the
    /// path selected). A location with nothing there, or inside a removed value, changes nothing.
    func removing(_ locations: [[JSONPathKey]]) -> JSONValue {
        var tree = JSONPathLocationTree()
        for location in locations where !location.isEmpty { tree.insert(location[...]) }
        return removing(tree)
    }

    private func removing(_ tree: JSONPathLocationTree) -> JSONValue {
        switch self {
        case .object(let object):
            var members: [JSONMember] = []
            for member in object.members {
                let key = JSONPathKey.member(member.key)
                guard let child = tree.children[key] else {
                    members.append(member)
                    continue
                }
                if !child.isRemoved { members.append(JSONMember(key: member.key, value: member.value.removing(child))) }
            }
            return .object(JSONObject(members: members))
        case .array(let items):
            // A loop rather than `compactMap`: `nil` would become JSON's `null` (`ExpressibleByNilLiteral`).
            var kept: [JSONValue] = []
            for (index, item) in items.enumerated() {
                guard let child = tree.children[.element(index)] else {
                    kept.append(item)
                    continue
                }
                if !child.isRemoved { kept.append(item.removing(child)) }
            }
            return .array(kept)
        default:
            return self
        }
    }

    /// The value with `replacement` at `location` (Jayway's `set`); unchanged when nothing is there.
    func replacing(at location: ArraySlice<JSONPathKey>, with replacement: JSONValue) -> JSONValue {
        guard let key = location.first else { return replacement }
        let rest = location.dropFirst()
        switch (self, key) {
        case (.object(var object), .member(let name)):
            guard let child = object[name] else { return self }
            object[name] = child.replacing(at: rest, with: replacement)
            return .object(object)
        case (.array(var items), .element(let index)) where items.indices.contains(index):
            items[index] = items[index].replacing(at: rest, with: replacement)
            return .array(items)
        default:
            return self
        }
    }
}
