import HTTPStubs

/// A template that could not be rendered for a request: a limit was reached, a helper failed, or
/// a tag calls a helper that is not registered. Located at the tag that failed.
struct TemplateRenderError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The tag that failed.
    let location: TemplateSourceLocation
    /// What went wrong and what to do about it.
    let message: String

    /// `line:column: message`.
    var description: String { "\(location): \(message)" }
}
