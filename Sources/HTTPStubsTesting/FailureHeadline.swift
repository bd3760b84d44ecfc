/// The first line of a failure the toolkit reports under Swift Testing (`Unmatched request: POST
/// https://api.example.com/v1/users`, `Unmet expectation: …`), recorded as the error.
///
/// Swift Testing prints an issue recorded with only a comment as the generic `Issue recorded`, with
/// the comment below it; an issue recorded with an error prints the error on the issue's own line
/// (`Caught error: Unmatched request: …`, checked on Linux with Swift Testing 6.3.1). Xcode's issue
/// navigator titles an issue from the same description, so it should read the same there (not
/// checked: no Apple platform has run this code yet). The rest of the report follows as the
/// issue's comment. A `withKnownIssue` matcher sees the headline as
/// `issue.error` and the whole text in `issue.description`.
struct FailureHeadline: Error, CustomStringConvertible {
    /// The headline.
    let description: String

    /// Splits a failure message into its first line and the lines after it (`nil` when there are none),
    /// without the blank lines that separate them.
    static func split(_ message: String) -> (headline: FailureHeadline, details: String?) {
        guard let newline = message.firstIndex(of: "\n") else { return (FailureHeadline(description: message), nil) }
        let rest = message[message.index(after: newline)...].drop { $0 == "\n" }
        return (FailureHeadline(description: String(message[..<newline])), rest.isEmpty ? nil : String(rest))
    }
}
