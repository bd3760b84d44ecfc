/// One level of handlebars.java's context stack: the value `this` refers to, the level it was
/// entered from, and the data variables (`@index`, `@key`, …) set when it was entered.
final class TemplateScope: Sendable {
    /// The value of `this`.
    let value: TemplateValue
    /// The enclosing level, which `../` reaches; `nil` at the root.
    let parent: TemplateScope?
    /// The data variables of this level, keyed with their `@` (`@index`).
    let data: TemplateObject

    /// A level for `value`, entered from `parent`.
    init(value: TemplateValue, parent: TemplateScope?, data: TemplateObject) {
        self.value = value
        self.parent = parent
        self.data = data
    }
}
