import HTTPStubs
import HTTPStubsLanguages

/// Locations in a JSON value (``JSONPathLocatedValue/location``) as a tree of keys, for removing
/// them all at once (``JSONValue/removing(_:)``).
struct JSONPathLocationTree {
    /// Whether the value here is removed (then what is below it does not matter).
    var isRemoved = false
    /// The locations below, by the key that leads to them.
    var children: [JSONPathKey: JSONPathLocationTree] = [:]

    /// Adds the location `keys`, relative to this value.
    mutating func insert(_ keys: ArraySlice<JSONPathKey>) {
        guard let key = keys.first else {
            isRemoved = true
            return
        }
        children[key, default: JSONPathLocationTree()].insert(keys.dropFirst())
    }
}
