import HTTPStubs

/// One step from a JSON value to a value inside it: a member of an object or an element of an array.
/// A list of keys from the document's root is where a value is (``JSONPathLocatedValue``).
package enum JSONPathKey: Sendable, Hashable {
    /// The member named so.
    case member(String)
    /// The element at this 0-based position.
    case element(Int)
}
