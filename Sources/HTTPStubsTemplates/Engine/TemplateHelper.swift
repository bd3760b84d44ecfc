import HTTPStubs

/// A helper a template can call by name (`{{upper name}}`, `{{#each items}}…{{/each}}`).
///
/// The function gets the evaluated parameters and hash, the current context and, for a block,
/// ways to render its body and inverse (see ``TemplateHelperCall``). It returns the value to print:
/// a `{{ }}` tag escapes it unless it is ``TemplateValue/safe(_:)``; a block prints it as is. It
/// runs synchronously on the rendering thread; it must not block waiting for other work.
struct TemplateHelper: Sendable {
    /// The helper's code.
    let function: @Sendable (TemplateHelperCall) throws -> TemplateValue
    /// Work done once per tag when the template is parsed rather than on each call: from the tag's
    /// expression (typically its literal arguments), what the function then finds in
    /// ``TemplateHelperCall/prepared``; `nil` for nothing. The function must give the same result
    /// with or without it.
    let prepare: (@Sendable (TemplateExpression) -> TemplatePrepared?)?

    /// A helper running `function`, with `prepare` run on each of its tags at parse time.
    init(
        prepare: (@Sendable (TemplateExpression) -> TemplatePrepared?)? = nil,
        _ function: @escaping @Sendable (TemplateHelperCall) throws -> TemplateValue
    ) {
        self.prepare = prepare
        self.function = function
    }
}
