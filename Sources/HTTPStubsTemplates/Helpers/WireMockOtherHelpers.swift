import Foundation
import HTTPStubs

/// WireMock's remaining helpers: `systemValue` (refused for every key, as WireMock's default
/// `SystemKeyAuthoriser` refuses all but `wiremock.*`, which the toolkit has none of), `hostname`
/// (the machine's name), and handlebars.java's `assign`.
enum WireMockOtherHelpers {
    /// The helpers by name.
    static let all: [String: TemplateHelper] = [
        "systemValue": TemplateHelper { call in
            let key = WireMockHelperSupport.hashString(call, "key") ?? ""
            return WireMockHelperSupport.inBandError("Access to \(key) is denied")
        },
        "hostname": TemplateHelper { _ in .string(ProcessInfo.processInfo.hostName) },
        "assign": TemplateHelper { call throws(TemplateRenderError) in
            guard let name = WireMockHelperSupport.optionalString(call, 0) else { return .null }
            let value: TemplateValue =
                call.isBlock
                ? .string(try call.renderBody().trimmingCharacters(in: .whitespacesAndNewlines))
                : (WireMockHelperSupport.param(call, 1) ?? .null)
            try WireMockHelperSupport.assign(call, name, value)
            return .null
        },
    ]
}
