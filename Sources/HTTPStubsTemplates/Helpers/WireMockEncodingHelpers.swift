import Foundation
import HTTPStubs

/// WireMock's `base64` (`decode=true`, `padding=false`, block form), `urlEncode` (`decode=true`;
/// `application/x-www-form-urlencoded` as Java's `URLEncoder` writes it) and `formData` (a form
/// body as lists of values stored under a variable, `urlDecode=true` to decode them). A missing
/// input fails as WireMock's `NullPointerException` does.
enum WireMockEncodingHelpers {
    /// The helpers by name.
    static let all: [String: TemplateHelper] = [
        "base64": TemplateHelper { call throws(TemplateRenderError) in
            guard let text = try WireMockHelperSupport.bodyOrFirst(call) else {
                throw WireMockHelperSupport.failure(call, "java.lang.NullPointerException: nothing to encode")
            }
            // Encoding makes 4 bytes of 3, decoding fewer than it reads.
            try call.charge(
                WireMockHelperSupport.units(text.utf8.count / 3 + 1, each: 4),
                for: "base64 of \(text.utf8.count) bytes"
            )
            if WireMockHelperSupport.hashFlag(call, "decode") {
                var padded = text.trimmingCharacters(in: .whitespacesAndNewlines)
                while padded.count % 4 != 0 { padded += "=" }
                guard let data = Data(base64Encoded: padded) else {
                    throw WireMockHelperSupport.failure(call, "java.lang.IllegalArgumentException: not Base64: \(text)")
                }
                return .string(String(decoding: data, as: UTF8.self))
            }
            var encoded = Data(text.utf8).base64EncodedString()
            if call.hash["padding"].map({ $0.printed == "false" }) == true {
                while encoded.hasSuffix("=") { encoded.removeLast() }
            }
            return .string(encoded)
        },
        "urlEncode": TemplateHelper { call throws(TemplateRenderError) in
            guard let text = try WireMockHelperSupport.bodyOrFirst(call) else {
                throw WireMockHelperSupport.failure(call, "java.lang.NullPointerException: nothing to encode")
            }
            // Decoding makes fewer bytes than it reads, encoding at most 3 of one.
            let decode = WireMockHelperSupport.hashFlag(call, "decode")
            try call.charge(
                WireMockHelperSupport.units(text.utf8.count, each: decode ? 1 : 3),
                for: "URL-\(decode ? "de" : "en")coding \(text.utf8.count) bytes"
            )
            if decode { return .string(PercentDecoding.decodeForm(text)) }
            return .string(formEncode(text))
        },
        "formData": TemplateHelper { call throws(TemplateRenderError) in
            let text = try WireMockHelperSupport.requiredString(call, 0)
            try WireMockStringHelpers.read(text, call)
            let decode = WireMockHelperSupport.hashFlag(call, "urlDecode")
            var names: [String] = []
            var values: [String: [String]] = [:]
            for pair in text.split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let name = decode ? PercentDecoding.decodeForm(parts[0]) : String(parts[0])
                let value = parts.count > 1 ? (decode ? PercentDecoding.decodeForm(parts[1]) : String(parts[1])) : ""
                if values[name] == nil { names.append(name) }
                values[name, default: []].append(value)
            }
            let form = TemplateValue.object(
                TemplateObject(names.map { ($0, TemplateRequestModel.listOrSingle(values[$0] ?? [])) })
            )
            if let variable = WireMockHelperSupport.optionalString(call, 1) {
                try WireMockHelperSupport.assign(call, variable, form)
                return .null
            }
            return form
        },
    ]

    /// `URLEncoder.encode(text, UTF-8)`: letters, digits and `.-*_` kept, space as `+`, the rest
    /// percent-encoded in upper case.
    static func formEncode(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "*"),
                UInt8(ascii: "_"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: " "):
                result += "+"
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                result += "%" + (hex.count == 1 ? "0" : "") + hex
            }
        }
        return result
    }
}
