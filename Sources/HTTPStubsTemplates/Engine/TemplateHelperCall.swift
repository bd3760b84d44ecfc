import HTTPStubs

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
    /// The block's parameter names (`as |x i|`), empty when it has none.
    let blockParams: [String]
    /// What the helper's ``TemplateHelper/prepare`` made of this tag at parse time, if anything.
    var prepared: TemplatePrepared?

    /// Takes `units` from the response's work budget for `work` (a unit per byte or per
    /// ``WorkBudget/Cost/listElement``), before the helper makes what they pay for; throws the
    /// located error naming what spent the budget once it is spent. What the helper returns is
    /// charged after it returns, less what it charged here.
    func charge(_ units: Int, for work: @autoclosure () -> String) throws(TemplateRenderError) {
        try session.charge(units, by: self, for: work())
    }

    /// handlebars.java's `options.fn()`: the body rendered in the current context.
    func renderBody() throws(TemplateRenderError) -> String {
        try session.render(body, in: withBlockParams(scope, values: [scope.value]))
    }

    /// `options.fn(value)`: the body rendered with `value` as `this` (a child context, so `../`
    /// reaches the current one), with data variables such as `@index` set from `data`.
    /// `blockValues` are what `as |a b|` names (by default `value` alone).
    func renderBody(
        in value: TemplateValue,
        data: TemplateObject = TemplateObject(),
        blockValues: [TemplateValue]? = nil
    ) throws(TemplateRenderError) -> String {
        let child = TemplateScope(value: value, parent: scope, data: data)
        return try session.render(body, in: withBlockParams(child, values: blockValues ?? [value]))
    }

    /// `options.inverse()`: the inverse rendered in the current context.
    func renderInverse() throws(TemplateRenderError) -> String {
        try session.render(inverse, in: withBlockParams(scope, values: [scope.value]))
    }

    /// `options.inverse(value)`: the inverse rendered with `value` as `this`.
    func renderInverse(in value: TemplateValue) throws(TemplateRenderError) -> String {
        let child = TemplateScope(value: value, parent: scope, data: TemplateObject())
        return try session.render(inverse, in: withBlockParams(child, values: [value]))
    }

    /// `scope`, or a block-parameter level above it naming `values` when the block has `as |…|`.
    private func withBlockParams(_ scope: TemplateScope, values: [TemplateValue]) -> TemplateScope {
        guard !blockParams.isEmpty else { return scope }
        let named = TemplateObject(zip(blockParams, values).map { ($0, $1) })
        return TemplateScope(value: .object(named), parent: scope, data: TemplateObject(), holdsBlockParams: true)
    }
}
