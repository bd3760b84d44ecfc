import HTTPStubs

/// A parameter or hash value of a tag: `"text"`, `'text'`, `1`, `-2.5`, `true`, a path, or a
/// subexpression `(helper …)`.
indirect enum TemplateArgument: Sendable, Hashable {
    /// A literal: a string (quotes removed, `\"` or `\'` unescaped), a number or a boolean.
    case literal(TemplateValue)
    /// A path read from the context when the tag renders; `null` when missing.
    case path(TemplatePath)
    /// A helper call whose result is the argument.
    case subexpression(TemplateExpression)
}
