/// The keys of a lazy ``TemplateObject`` and how to compute their values: the request model, whose
/// fields are built when a template first reads them rather than all for every request.
final class TemplateLazyObject: Sendable {
    /// The keys in order, each of which `value(of:)` answers.
    let keys: [String]
    /// The value of a key; `nil` for a key that is not in ``keys``. It may cache what it computes,
    /// and must give the same value each time it is asked.
    let value: @Sendable (_ key: String) -> TemplateValue?

    /// An object with `keys`, computing their values with `value`.
    init(keys: [String], value: @escaping @Sendable (_ key: String) -> TemplateValue?) {
        self.keys = keys
        self.value = value
    }

    /// The value of `key`, `nil` when the object has no such key.
    func value(of key: String) -> TemplateValue? {
        value(key)
    }
}
