/// The address of a value inside a JSON document, rendered like
/// `$.request.headers['Content-Type'].equalTo` or `$.mappings[3].response`.
package struct JSONPath: Hashable, Sendable, CustomStringConvertible {
    /// One step from a container to one of its children.
    package enum Component: Hashable, Sendable {
        /// The member of an object with this key.
        case key(String)
        /// The element of an array at this zero-based index.
        case index(Int)
    }

    /// The steps from the root, outermost first.
    package var components: [Component]

    /// The path of the root value, `$`.
    package static let root = JSONPath([])

    /// Creates a path from its steps.
    package init(_ components: [Component]) {
        self.components = components
    }

    /// This path extended by one step.
    package func appending(_ component: Component) -> JSONPath {
        JSONPath(components + [component])
    }

    /// The path in JSONPath notation: dots for identifier-like keys, quoted brackets otherwise.
    package var description: String {
        var text = "$"
        for component in components {
            switch component {
            case .index(let index):
                text += "[\(index)]"
            case .key(let key) where Self.isIdentifier(key):
                text += "." + key
            case .key(let key):
                text += "['"
                for scalar in key.unicodeScalars {
                    if scalar == "\\" || scalar == "'" { text += "\\" }
                    text.unicodeScalars.append(scalar)
                }
                text += "']"
            }
        }
        return text
    }

    /// Whether `key` is an ASCII identifier (`[A-Za-z_$][A-Za-z0-9_$]*`).
    private static func isIdentifier(_ key: String) -> Bool {
        guard let first = key.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { return false }
        return key.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "$"):
                true
            default:
                false
            }
        }
    }
}
