import HTTPStubs

/// One `key=value` argument of a tag.
struct TemplateHashArgument: Sendable, Hashable {
    /// The name before `=`.
    let key: String
    /// The value after `=`.
    let value: TemplateArgument
}
