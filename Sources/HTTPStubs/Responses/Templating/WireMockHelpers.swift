/// The helpers a WireMock response template may call: handlebars.java's built-ins
/// (``TemplateBuiltinHelpers``) and WireMock's own, by name.
enum WireMockHelpers {
    /// Every helper by name.
    static let all: [String: TemplateHelper] = {
        let helpers = TemplateBuiltinHelpers.all
        return helpers
    }()
}
