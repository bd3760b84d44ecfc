/// A decoded query parameter of a request: what matching counts when a stub wants the query pairs
/// exactly, and what a HAR capture's distinct requests are told apart by.
package struct QueryPair: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The decoded name.
    let name: String
    /// The decoded value.
    let value: String

    /// Orders by name, then value.
    package static func < (lhs: QueryPair, rhs: QueryPair) -> Bool {
        (lhs.name, lhs.value) < (rhs.name, rhs.value)
    }

    /// `name=value`.
    package var description: String { "\(name)=\(value)" }
}
