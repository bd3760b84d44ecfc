/// WireMock's date helpers.
enum WireMockDateHelpers {
    /// The helpers by name.
    static let all: [String: TemplateHelper] = [:]
}
