import Foundation

/// handlebars.java's `StringHelpers` that WireMock registers (`upper`, `lower`, `capitalize`,
/// `capitalizeFirst`, `abbreviate`, `center`, `ljust`, `rjust`, `cut`, `defaultIfEmpty`, `join`,
/// `substring`, `slugify`, `stringFormat`, `stripTags`, `wordWrap`, `replace`, `yesno`,
/// `numberFormat`) and WireMock's `trim` and `size`. A missing input prints nothing where
/// handlebars.java returns it unchanged, and fails where WireMock throws (`trim`, `size`).
enum WireMockStringHelpers {
    /// The helpers by name.
    static let all: [String: TemplateHelper] = [
        "upper": TemplateHelper { call in onText(call) { $0.uppercased() } },
        "lower": TemplateHelper { call in onText(call) { $0.lowercased() } },
        "capitalize": TemplateHelper { call in
            let fully = WireMockHelperSupport.hashFlag(call, "fully")
            return onText(call) { capitalize($0, fully: fully) }
        },
        "capitalizeFirst": TemplateHelper { call in
            onText(call) { $0.prefix(1).uppercased() + $0.dropFirst() }
        },
        "abbreviate": TemplateHelper { call throws(TemplateRenderError) in
            guard let width = WireMockHelperSupport.integer(WireMockHelperSupport.param(call, 1)) else {
                throw WireMockHelperSupport.failure(call, "abbreviate needs a width")
            }
            return onText(call) { text in
                guard text.count > width else { return text }
                guard width >= 4 else { return text }
                return text.prefix(width - 3) + "..."
            }
        },
        "center": TemplateHelper { call in pad(call, left: true, right: true) },
        "ljust": TemplateHelper { call in pad(call, left: false, right: true) },
        "rjust": TemplateHelper { call in pad(call, left: true, right: false) },
        "cut": TemplateHelper { call in
            let strip = WireMockHelperSupport.optionalString(call, 1) ?? " "
            return onText(call) { $0.replacingOccurrences(of: strip, with: "") }
        },
        "defaultIfEmpty": TemplateHelper { call in
            let value = WireMockStringHelpers.first(call)
            return value.isFalsy ? (WireMockHelperSupport.param(call, 1) ?? .string("")) : value
        },
        "join": TemplateHelper(join),
        "substring": TemplateHelper(substring),
        "slugify": TemplateHelper { call in
            onText(call) { text in
                let folded = text.folding(options: [.diacriticInsensitive], locale: nil).lowercased()
                var slug = ""
                var pendingDash = false
                for scalar in folded.unicodeScalars {
                    if CharacterSet.alphanumerics.contains(scalar) || scalar == "_" {
                        if pendingDash && !slug.isEmpty { slug += "-" }
                        pendingDash = false
                        slug.unicodeScalars.append(scalar)
                    } else if scalar == " " || scalar == "-" || scalar == "\t" {
                        pendingDash = true
                    }
                }
                return slug
            }
        },
        "stringFormat": TemplateHelper(stringFormat),
        "stripTags": TemplateHelper { call in
            onText(call) { $0.replacingOccurrences(of: "<[^>]*>", with: "", options: .regularExpression) }
        },
        "wordWrap": TemplateHelper { call in
            let width = WireMockHelperSupport.integer(WireMockHelperSupport.param(call, 1)) ?? 80
            return onText(call) { wordWrap($0, width: width) }
        },
        "replace": TemplateHelper { call in
            let target = WireMockHelperSupport.optionalString(call, 1) ?? ""
            let replacement = WireMockHelperSupport.optionalString(call, 2) ?? ""
            return onText(call) { target.isEmpty ? $0 : $0.replacingOccurrences(of: target, with: replacement) }
        },
        "yesno": TemplateHelper { call in
            switch WireMockStringHelpers.first(call) {
            case .bool(true): call.hash["yes"] ?? .string("yes")
            case .bool(false): call.hash["no"] ?? .string("no")
            case .null: call.hash["maybe"] ?? .string("maybe")
            case let other: other
            }
        },
        "numberFormat": TemplateHelper(numberFormat),
        "trim": TemplateHelper { call throws(TemplateRenderError) in
            guard let text = try WireMockHelperSupport.bodyOrFirst(call) else {
                throw WireMockHelperSupport.failure(call, "java.lang.NullPointerException: nothing to trim")
            }
            return .string(text.trimmingCharacters(in: .whitespacesAndNewlines))
        },
        "size": TemplateHelper { call throws(TemplateRenderError) in
            switch WireMockStringHelpers.first(call) {
            case .null:
                throw WireMockHelperSupport.failure(call, "java.lang.NullPointerException: size of a missing value")
            case .list(let items): return .integer(items.count)
            case .object(let object): return .integer(object.count)
            case .javaObject(let object):
                if let items = object.items { return .integer(items.count) }
                return object.properties.count > 0 ? .integer(object.properties.count) : .null
            case .string(let text), .safe(let text): return .integer(text.utf16.count)
            case .number, .bool: return .null
            }
        },
    ]

    /// The value a string helper works on: the first parameter, else `this`.
    static func first(_ call: TemplateHelperCall) -> TemplateValue {
        call.params.first ?? call.context
    }

    /// `transform` applied to the printed first parameter; nothing when it is missing.
    static func onText(_ call: TemplateHelperCall, _ transform: (String) -> String) -> TemplateValue {
        let value = first(call)
        if value.isNull { return .null }
        return .string(transform(value.printed))
    }

    /// `WordUtils.capitalize` (each word's first letter up) or, `fully`, `capitalizeFully` (the
    /// rest down).
    static func capitalize(_ text: String, fully: Bool) -> String {
        var result = ""
        var atWordStart = true
        for character in text {
            if character.isWhitespace {
                atWordStart = true
                result.append(character)
            } else if atWordStart {
                result += character.uppercased()
                atWordStart = false
            } else {
                result += fully ? character.lowercased() : String(character)
            }
        }
        return result
    }

    /// `center`, `ljust`, `rjust`: pads to `size=` with `pad=` (a space by default), centre
    /// padding putting the extra character on the right.
    static func pad(_ call: TemplateHelperCall, left: Bool, right: Bool) -> TemplateValue {
        let size = WireMockHelperSupport.integer(call.hash["size"]) ?? 0
        let padding = WireMockHelperSupport.hashString(call, "pad").flatMap(\.first) ?? " "
        return onText(call) { text in
            let missing = size - text.count
            guard missing > 0 else { return text }
            let before = left && right ? missing / 2 : (left ? missing : 0)
            let after = missing - before
            return String(repeating: padding, count: before) + text + String(repeating: padding, count: after)
        }
    }

    /// `join`: a list's elements (or the parameters before the last) joined by the last
    /// parameter, within `prefix=` and `suffix=`.
    static func join(_ call: TemplateHelperCall) throws(TemplateRenderError) -> TemplateValue {
        guard call.params.count >= 2 else { return first(call) }
        let separator = call.params[call.params.count - 1].printed
        var values: [TemplateValue] = []
        for value in call.params.dropLast() {
            if let items = WireMockHelperSupport.items(value) { values += items } else { values.append(value) }
        }
        let prefix = WireMockHelperSupport.hashString(call, "prefix") ?? ""
        let suffix = WireMockHelperSupport.hashString(call, "suffix") ?? ""
        return .string(prefix + values.map(\.printed).joined(separator: separator) + suffix)
    }

    /// `substring text start [end]` in UTF-16 units as Java counts; out of range fails like
    /// Java's `StringIndexOutOfBoundsException`.
    static func substring(_ call: TemplateHelperCall) throws(TemplateRenderError) -> TemplateValue {
        let value = first(call)
        if value.isNull { return .null }
        let units = Array(value.printed.utf16)
        let start = WireMockHelperSupport.integer(WireMockHelperSupport.param(call, 1)) ?? 0
        let end = WireMockHelperSupport.integer(WireMockHelperSupport.param(call, 2)) ?? units.count
        guard start >= 0, end <= units.count, start <= end else {
            throw WireMockHelperSupport.failure(
                call,
                "java.lang.StringIndexOutOfBoundsException: begin \(start), end \(end), length \(units.count)"
            )
        }
        return .string(String(decoding: units[start..<end], as: UTF16.self))
    }

    /// `wordWrap text width`: `WordUtils.wrap`, breaking at spaces with `\n`.
    static func wordWrap(_ text: String, width: Int) -> String {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            if line.isEmpty {
                line = String(word)
            } else if line.count + 1 + word.count <= width {
                line += " " + word
            } else {
                lines.append(line)
                line = String(word)
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines.joined(separator: "\n")
    }

    /// `stringFormat pattern args…`: Java's `String.format` for `%s`, `%d` (with `0` and width
    /// flags), `%f` (with precision) and `%%`.
    static func stringFormat(_ call: TemplateHelperCall) throws(TemplateRenderError) -> TemplateValue {
        let value = first(call)
        if value.isNull { return .null }
        var arguments = call.params.dropFirst().makeIterator()
        let pattern = Array(value.printed)
        var output = ""
        var index = 0
        while index < pattern.count {
            let character = pattern[index]
            index += 1
            guard character == "%", index < pattern.count else {
                output.append(character)
                continue
            }
            var spec = ""
            while index < pattern.count, "0123456789.-+,".contains(pattern[index]) {
                spec.append(pattern[index])
                index += 1
            }
            guard index < pattern.count else { break }
            let conversion = pattern[index]
            index += 1
            if conversion == "%" {
                output += "%"
                continue
            }
            if conversion == "n" {
                output += "\n"
                continue
            }
            let argument = arguments.next() ?? .null
            switch conversion {
            case "d":
                guard let number = WireMockHelperSupport.integer(argument) else {
                    throw WireMockHelperSupport.failure(
                        call,
                        "java.util.IllegalFormatConversionException: d != \(argument.printed)"
                    )
                }
                output += String(format: "%" + spec + "ld", number)
            case "f", "e":
                guard let number = WireMockHelperSupport.double(argument) else {
                    throw WireMockHelperSupport.failure(
                        call,
                        "java.util.IllegalFormatConversionException: \(conversion) != \(argument.printed)"
                    )
                }
                output += String(format: "%" + spec + String(conversion), number)
            default:
                let text = argument.isNull ? "null" : argument.printed
                let width = Int(spec.filter(\.isNumber)) ?? 0
                let padding = String(repeating: " ", count: max(0, width - text.count))
                output += spec.hasPrefix("-") ? text + padding : padding + text
            }
        }
        return .string(output)
    }

    /// `numberFormat number style`: `integer` (grouped, rounded half-even), `currency`,
    /// `percent`, `number` (grouped, up to three decimals) or a `DecimalFormat` pattern made of
    /// `#`, `0`, `,` and `.`, in the US locale.
    static func numberFormat(_ call: TemplateHelperCall) throws(TemplateRenderError) -> TemplateValue {
        let value = first(call)
        if value.isNull { return .null }
        guard let number = WireMockHelperSupport.double(value) else { return value }
        let style = WireMockHelperSupport.optionalString(call, 1) ?? "number"
        let formatter = NumberFormatter()
        formatter.locale = Locale(identifier: "en_US")
        formatter.roundingMode = .halfEven
        switch style {
        case "integer":
            formatter.numberStyle = .decimal
            formatter.maximumFractionDigits = 0
        case "currency":
            formatter.numberStyle = .currency
        case "percent":
            formatter.numberStyle = .percent
        case "number":
            formatter.numberStyle = .decimal
            formatter.maximumFractionDigits = 3
        default:
            formatter.positiveFormat = style
            formatter.negativeFormat = "-" + style
        }
        return .string(formatter.string(from: NSNumber(value: number)) ?? value.printed)
    }
}
