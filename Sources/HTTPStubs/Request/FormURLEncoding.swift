import Foundation

/// Decoding of `application/x-www-form-urlencoded` text, also used for URL queries.
package enum FormURLEncoding {
    /// Splits `a=1&b=two+words` into decoded pairs; `+` becomes a space and invalid percent escapes
    /// are kept as written.
    package static func decode(_ text: String) -> [(name: String, value: String)] {
        text.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = PercentDecoding.decodeForm(parts[0])
            let value = parts.count > 1 ? PercentDecoding.decodeForm(parts[1]) : ""
            return (name, value)
        }
    }
}
