/// WireMock's random helpers.
enum WireMockRandomHelpers {
    /// The helpers by name.
    static let all: [String: TemplateHelper] = [:]
}
