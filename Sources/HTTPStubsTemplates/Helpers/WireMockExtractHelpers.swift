import Foundation
import HTTPStubs
import HTTPStubsLanguages

/// WireMock's extracting helpers: `regexExtract` (through the package's one regex entrance,
/// ``CompiledRegex``), `xPath` and `soapXPath` (through ``XPathExpression``).
enum WireMockExtractHelpers {
    /// The helpers by name.
    static let all: [String: TemplateHelper] = [
        "regexExtract": TemplateHelper(regexExtract),
        "xPath": TemplateHelper { call throws(TemplateRenderError) in try xPath(call, soap: false) },
        "soapXPath": TemplateHelper { call throws(TemplateRenderError) in try xPath(call, soap: true) },
    ]

    /// `regexExtract text pattern [variable] default=…`: the first match, or with a variable name
    /// every group of every match stored under it; `[ERROR: Nothing matched …]` without a match
    /// (or the default).
    static func regexExtract(_ call: TemplateHelperCall) throws(TemplateRenderError) -> TemplateValue {
        let text = try WireMockHelperSupport.requiredString(call, 0)
        let pattern = try WireMockHelperSupport.requiredString(call, 1)
        try WireMockStringHelpers.read(text, call)
        try WireMockHelperSupport.chargeCompiling(pattern, call)
        let regex: CompiledRegex
        do {
            regex = try CompiledRegex(pattern, extent: .anywhere)
        } catch {
            return WireMockHelperSupport.inBandError("Invalid regex string \(pattern)")
        }
        guard let variable = WireMockHelperSupport.optionalString(call, 2) else {
            guard let groups = regex.groups(in: text) else {
                return call.hash["default"] ?? WireMockHelperSupport.inBandError("Nothing matched \(pattern)")
            }
            return .string(groups[0])
        }
        // Every match in one pass; a search or its matches that spend the budget fail the call when it returns.
        let captured = regex.allGroups(in: text).flatMap { $0.dropFirst().map(TemplateValue.string) }
        guard !captured.isEmpty else {
            return call.hash["default"] ?? WireMockHelperSupport.inBandError("Nothing matched \(pattern)")
        }
        try WireMockHelperSupport.assign(call, variable, .list(captured))
        return .null
    }

    /// `xPath xml expression`: the text of the first selected node (an element as its XML), empty
    /// when nothing is selected; `[ERROR: …]` for XML or an expression that does not parse.
    static func xPath(_ call: TemplateHelperCall, soap: Bool) throws(TemplateRenderError) -> TemplateValue {
        guard let xml = WireMockHelperSupport.optionalString(call, 0) else { return .null }
        guard var expression = WireMockHelperSupport.optionalString(call, 1) else { return .null }
        try WireMockJSONHelpers.chargeParsing(xml, call, asXML: true)
        if soap { expression = "/Envelope/Body" + expression }
        try WireMockHelperSupport.chargeCompiling(expression, call)
        let compiled: XPathExpression
        do {
            compiled = try XPathExpression(expression)
        } catch {
            return WireMockHelperSupport.inBandError("\(expression) is not a valid XPath expression")
        }
        let values: [String]
        do {
            values = try compiled.renderedNodes(xml)
        } catch XMLReadError.malformed {
            return WireMockHelperSupport.inBandError("\(xml) is not valid XML")
        } catch {
            return WireMockHelperSupport.inBandError("\(error)")
        }
        guard !values.isEmpty else { return .null }
        return values.count == 1 ? .string(values[0]) : TemplateRequestModel.listOrSingle(values)
    }
}
