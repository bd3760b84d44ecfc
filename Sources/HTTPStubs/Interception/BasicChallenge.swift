/// Finds a `Basic` challenge in a `WWW-Authenticate` value (RFC 9110 §11.6.1): the one scheme
/// swift-corelibs-foundation acts on. A 401 carrying one makes corelibs start an authentication
/// challenge, which hangs a task served by a protocol or re-sends it over the real network;
/// `Bearer`, `Digest`, `Negotiate` and other schemes pass through it untouched.
enum BasicChallenge {
    /// Whether `value`, a comma-separated list of challenges, has one whose scheme is `Basic`
    /// (in any case). Commas and words inside quoted strings are skipped, so
    /// `Bearer error_description="Basic is off"` has none.
    static func isPresent(in value: String) -> Bool {
        var atElementStart = true
        var index = value.startIndex
        while index < value.endIndex {
            let character = value[index]
            if character == "\"" {
                index = endOfQuotedString(in: value, from: index)
                atElementStart = false
                continue
            }
            if character == "," {
                atElementStart = true
                index = value.index(after: index)
                continue
            }
            if character == " " || character == "\t" {
                index = value.index(after: index)
                continue
            }
            let tokenEnd = value[index...].firstIndex { $0 == " " || $0 == "\t" || $0 == "," || $0 == "=" || $0 == "\"" } ?? value.endIndex
            // A token that starts an element and is not followed by `=` is an auth-scheme; one
            // followed by `=` is an auth-param of the challenge before it.
            let isScheme = atElementStart && (tokenEnd == value.endIndex || value[tokenEnd] != "=")
            if isScheme && value[index..<tokenEnd].lowercased() == "basic" { return true }
            atElementStart = false
            index = tokenEnd == index ? value.index(after: index) : tokenEnd
        }
        return false
    }

    /// The index after the quoted string that starts at `start` (its closing quote, or the end).
    private static func endOfQuotedString(in value: String, from start: String.Index) -> String.Index {
        var index = value.index(after: start)
        while index < value.endIndex {
            switch value[index] {
            case "\\":
                index = value.index(after: index)
                if index < value.endIndex { index = value.index(after: index) }
            case "\"":
                return value.index(after: index)
            default:
                index = value.index(after: index)
            }
        }
        return index
    }
}
