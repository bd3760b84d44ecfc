import HTTPStubs

/// The inside of a tag: a name or path, then positional parameters, then `key=value` hash
/// arguments (`{{jsonPath request.body '$.id' default='none'}}`).
struct TemplateExpression: Sendable, Hashable {
    /// The first word: a helper name, or the path to print or open as a section.
    let name: TemplatePath
    /// The positional parameters, in order.
    let params: [TemplateArgument]
    /// The hash arguments in source order (a repeated key: the last value wins when rendering).
    let hash: [TemplateHashArgument]
    /// Where the name starts.
    let location: TemplateSourceLocation
    /// What the helper made of the constant arguments when the template was parsed (see
    /// ``TemplateHelper/prepare``); `nil` when it made nothing.
    var prepared: TemplatePrepared?
    /// The helper the name was bound to when the template was prepared; `nil` when it was not
    /// prepared, and the renderer looks the name up.
    var binding: TemplateHelperBinding?

    /// Whether the tag can only be a helper call: it has parameters or hash arguments (or is a
    /// subexpression). handlebars.java rejects such a tag when no helper has its name, while a bare
    /// `{{name}}` is a helper call only if a helper is registered under that name, else a path.
    var requiresHelper: Bool { !params.isEmpty || !hash.isEmpty }
}
