import HTTPStubs

/// A value a JSONPath selects, with where it is in the document
/// (``JSONPathExpression/locate(in:)``), so that it can be removed or replaced there.
package struct JSONPathLocatedValue: Sendable, Equatable {
    /// The keys leading from the document's root to the value; empty for the root.
    package let location: [JSONPathKey]
    /// The value; `null` for a member the path names that its object lacks (Jayway's
    /// `DEFAULT_PATH_LEAF_TO_NULL`).
    package let value: JSONValue
}
