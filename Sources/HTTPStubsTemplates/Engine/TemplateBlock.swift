import HTTPStubs

/// A block: `{{#name params}}body{{else}}inverse{{/name}}`, or an inverted section
/// `{{^name}}body{{/name}}`.
///
/// `{{else if x}}` chains are nested: the inverse of the block is a single block node for
/// `if x` whose own inverse holds the rest of the chain, as handlebars.java builds them.
struct TemplateBlock: Sendable, Hashable {
    /// The opening tag's expression (for `{{else if x}}`: `if x`).
    let expression: TemplateExpression
    /// `{{^name}}`: the body renders when the value of `name` is falsy.
    let inverted: Bool
    /// The names of `as |item index|`: while the body renders, `item` is the value the helper
    /// renders it with and `index` the second block value (`each` passes the index or key).
    let blockParams: [String]
    /// What renders when the helper calls its body (or the section is entered).
    let body: [TemplateNode]
    /// What renders after `{{else}}` (or `{{^}}`); empty when there is no `else`.
    let inverse: [TemplateNode]
}
