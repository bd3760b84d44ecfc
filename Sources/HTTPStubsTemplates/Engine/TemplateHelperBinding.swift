import HTTPStubs

/// What a tag's name means, decided when the template is prepared (``Template/prepared(with:)``)
/// rather than by looking the name up in the table of helpers on every render.
///
/// It is derived from the expression it belongs to, so it takes no part in comparing or hashing
/// expressions: two tags written alike are equal whether or not they were prepared.
enum TemplateHelperBinding: Sendable, Hashable {
    /// No helper has the name: a bare `{{name}}` or `{{#name}}` reads the path `name`.
    case path
    /// The helper the name calls.
    case helper(TemplateHelper)

    static func == (lhs: TemplateHelperBinding, rhs: TemplateHelperBinding) -> Bool { true }

    func hash(into hasher: inout Hasher) {}
}
