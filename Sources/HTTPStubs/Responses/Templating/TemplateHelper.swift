/// A helper a template can call by name (`{{upper name}}`, `{{#each items}}…{{/each}}`).
///
/// The function gets the evaluated parameters and hash, the current context and, for a block,
/// ways to render its body and inverse (see ``TemplateHelperCall``). It returns the value to print:
/// a `{{ }}` tag escapes it unless it is ``TemplateValue/safe(_:)``; a block prints it as is. It
/// runs synchronously on the rendering thread; it must not block waiting for other work.
struct TemplateHelper: Sendable {
    /// The helper's code.
    let function: @Sendable (TemplateHelperCall) throws -> TemplateValue

    /// A helper running `function`.
    init(_ function: @escaping @Sendable (TemplateHelperCall) throws -> TemplateValue) {
        self.function = function
    }
}
