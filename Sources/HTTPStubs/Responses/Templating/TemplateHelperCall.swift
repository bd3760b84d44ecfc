/// One call of a helper: its arguments, the context it runs in and, for a block, its body and
/// inverse (the part after `{{else}}`), which the helper renders zero or more times.
struct TemplateHelperCall {
    /// The helper's name as written.
    let name: String
    /// The positional parameters, evaluated (a missing path is ``TemplateValue/null``).
    let params: [TemplateValue]
    /// The `key=value` arguments, evaluated.
    let hash: [String: TemplateValue]
    /// The current context (`this`) where the tag is.
    let context: TemplateValue
    /// Whether the call is a block (`{{#name}}…{{/name}}`) rather than a tag or subexpression.
    let isBlock: Bool
    /// Where the helper's name is written.
    let location: TemplateSourceLocation

    /// The rendering this call belongs to.
    let session: TemplateRenderSession
    /// The scope of the tag.
    let scope: TemplateScope
    /// The block's body (empty for a tag).
    let body: [TemplateNode]
    /// The block's inverse (empty when there is no `{{else}}`).
    let inverse: [TemplateNode]

    /// handlebars.java's `options.fn()`: the body rendered in the current context.
    func renderBody() throws(TemplateRenderError) -> String {
        try session.render(body, in: scope)
    }

    /// `options.fn(value)`: the body rendered with `value` as `this` (a child context, so `../`
    /// reaches the current one), with data variables such as `@index` set from `data`.
    func renderBody(in value: TemplateValue, data: TemplateObject = TemplateObject()) throws(TemplateRenderError) -> String {
        try session.render(body, in: TemplateScope(value: value, parent: scope, data: data))
    }

    /// `options.inverse()`: the inverse rendered in the current context.
    func renderInverse() throws(TemplateRenderError) -> String {
        try session.render(inverse, in: scope)
    }

    /// `options.inverse(value)`: the inverse rendered with `value` as `this`.
    func renderInverse(in value: TemplateValue) throws(TemplateRenderError) -> String {
        try session.render(inverse, in: TemplateScope(value: value, parent: scope, data: TemplateObject()))
    }
}
