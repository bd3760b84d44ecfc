import HTTPStubs

/// The helpers a WireMock response template may call: handlebars.java's built-ins
/// (``TemplateBuiltinHelpers``) and WireMock's own, by name.
enum WireMockHelpers {
    /// Every helper by name.
    static let all: [String: TemplateHelper] = {
        var helpers = TemplateBuiltinHelpers.all
        for group in [
            WireMockConditionHelpers.all, WireMockStringHelpers.all, WireMockJSONHelpers.all,
            WireMockEncodingHelpers.all, WireMockExtractHelpers.all, WireMockOtherHelpers.all,
            WireMockDateHelpers.all, WireMockRandomHelpers.all, WireMockArrayHelpers.all, WireMockJSONEditHelpers.all,
        ] {
            helpers.merge(group) { _, new in new }
        }
        helpers["math"] = WireMockMathHelper.helper
        return helpers
    }()
}
