import HTTPStubs

/// One level of handlebars.java's context stack: the value `this` refers to, the level it was
/// entered from, and the data variables (`@index`, `@key`, …) set when it was entered.
final class TemplateScope: Sendable {
    /// The value of `this`.
    let value: TemplateValue
    /// The enclosing level, which `../` reaches; `nil` at the root.
    let parent: TemplateScope?
    /// The data variables of this level, keyed with their `@` (`@index`).
    let data: TemplateObject

    /// Whether this level holds block parameters (`as |x i|`): then `value` maps their names to
    /// their values, `this` means the parent's value, and `./` or `../` paths are read from the
    /// parent (handlebars.java's `Context.BlockParam`).
    let holdsBlockParams: Bool

    /// A level for `value`, entered from `parent`.
    init(value: TemplateValue, parent: TemplateScope?, data: TemplateObject, holdsBlockParams: Bool = false) {
        self.value = value
        self.parent = parent
        self.data = data
        self.holdsBlockParams = holdsBlockParams
    }
}
