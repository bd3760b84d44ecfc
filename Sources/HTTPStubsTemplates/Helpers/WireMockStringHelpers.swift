import Foundation
import HTTPStubs

/// handlebars.java's `StringHelpers` that WireMock registers (`upper`, `lower`, `capitalize`,
/// `capitalizeFirst`, `abbreviate`, `center`, `ljust`, `rjust`, `cut`, `defaultIfEmpty`, `join`,
/// `substring`, `slugify`, `stringFormat`, `stripTags`, `wordWrap`, `replace`, `yesno`,
/// `numberFormat`) and WireMock's `trim` and `size`. A missing input prints nothing where
/// handlebars.java returns it unchanged, and fails where WireMock throws (`trim`, `size`).
///
/// Each charges the response's work budget for the text it reads, and before making it for text
/// its arguments make longer than its input (padding, replacements, format widths), so that no
/// argument makes one allocate more than the budget allows.
enum WireMockStringHelpers {
    /// The helpers by name.
    static let all: [String: TemplateHelper] = [
        "upper": TemplateHelper { call throws(TemplateRenderError) in try onText(call) { $0.uppercased() } },
        "lower": TemplateHelper { call throws(TemplateRenderError) in try onText(call) { $0.lowercased() } },
        "capitalize": TemplateHelper { call throws(TemplateRenderError) in
            let fully = WireMockHelperSupport.hashFlag(call, "fully")
            return try onText(call) { capitalize($0, fully: fully) }
        },
        "capitalizeFirst": TemplateHelper { call throws(TemplateRenderError) in
            try onText(call) { $0.prefix(1).uppercased() + $0.dropFirst() }
        },
        "abbreviate": TemplateHelper { call throws(TemplateRenderError) in
            guard let width = WireMockHelperSupport.integer(WireMockHelperSupport.param(call, 1)) else {
                throw WireMockHelperSupport.failure(call, "abbreviate needs a width")
            }
            return try onText(call) { text in
                guard width >= 4, text.count > width else { return text }
                return text.prefix(width - 3) + "..."
            }
        },
        "center": TemplateHelper { call throws(TemplateRenderError) in try pad(call, left: true, right: true) },
        "ljust": TemplateHelper { call throws(TemplateRenderError) in try pad(call, left: false, right: true) },
        "rjust": TemplateHelper { call throws(TemplateRenderError) in try pad(call, left: true, right: false) },
        "cut": TemplateHelper { call throws(TemplateRenderError) in
            let strip = WireMockHelperSupport.optionalString(call, 1) ?? " "
            try read(strip, call)
            return try onText(call, costPerByte: LiteralSearch.costPerByte) { text in
                LiteralSearch.replacing(LiteralSearch(strip).occurrences(in: text), in: text, with: "")
            }
        },
        "defaultIfEmpty": TemplateHelper { call in
            let value = WireMockStringHelpers.first(call)
            return value.isFalsy ? (WireMockHelperSupport.param(call, 1) ?? .string("")) : value
        },
        "join": TemplateHelper(join),
        "substring": TemplateHelper(substring),
        "slugify": TemplateHelper { call throws(TemplateRenderError) in
            // Folding and classifying each character costs about four times reading it.
            try onText(call, costPerByte: 4) { text in
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
        "stripTags": TemplateHelper { call throws(TemplateRenderError) in try onText(call, stripTags) },
        "wordWrap": TemplateHelper { call throws(TemplateRenderError) in
            let width = WireMockHelperSupport.integer(WireMockHelperSupport.param(call, 1)) ?? 80
            return try onText(call) { wordWrap($0, width: width) }
        },
        "replace": TemplateHelper(replace),
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
            try read(text, call)
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

    /// `transform` applied to the printed first parameter, once the work budget is charged for
    /// reading it; nothing when it is missing.
    static func onText(
        _ call: TemplateHelperCall,
        costPerByte: Int = 1,
        _ transform: (String) throws(TemplateRenderError) -> String
    ) throws(TemplateRenderError) -> TemplateValue {
        let value = first(call)
        if value.isNull { return .null }
        let text = value.printed
        try read(text, call, costPerByte: costPerByte)
        return .string(try transform(text))
    }

    /// Charges the work budget `costPerByte` units per byte of `text`, which the helper reads whole.
    static func read(_ text: String, _ call: TemplateHelperCall, costPerByte: Int = 1) throws(TemplateRenderError) {
        try call.charge(text.utf8.count * costPerByte, for: "reading \(text.utf8.count) bytes")
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
    /// padding putting the extra character on the right. A size no longer than the text (a
    /// negative one too) leaves it as it is, as `StringUtils` does; the padding is charged to the
    /// work budget before it is made.
    static func pad(_ call: TemplateHelperCall, left: Bool, right: Bool) throws(TemplateRenderError) -> TemplateValue {
        let size = WireMockHelperSupport.integer(call.hash["size"]) ?? 0
        let padding = WireMockHelperSupport.hashString(call, "pad").flatMap(\.first) ?? " "
        return try onText(call) { text throws(TemplateRenderError) in
            let length = text.count
            guard size > length else { return text }
            let missing = size - length
            try call.charge(
                WireMockHelperSupport.units(missing, each: String(padding).utf8.count),
                for: "padding to size=\(size): \(missing) characters"
            )
            let before = left && right ? missing / 2 : (left ? missing : 0)
            let after = missing - before
            return String(repeating: padding, count: before) + text + String(repeating: padding, count: after)
        }
    }

    /// `replace text target replacement`: every occurrence of `target` replaced; a replacement
    /// longer than its target is charged to the work budget for every occurrence before the text
    /// is made.
    static func replace(_ call: TemplateHelperCall) throws(TemplateRenderError) -> TemplateValue {
        let target = WireMockHelperSupport.optionalString(call, 1) ?? ""
        let replacement = WireMockHelperSupport.optionalString(call, 2) ?? ""
        try read(target, call)
        return try onText(call, costPerByte: LiteralSearch.costPerByte) { text throws(TemplateRenderError) in
            guard !target.isEmpty else { return text }
            let occurrences = LiteralSearch(target).occurrences(in: text)
            let growth = replacement.utf8.count - target.utf8.count
            try call.charge(
                WireMockHelperSupport.units(occurrences.count, each: growth),
                for: "replacing \(occurrences.count) occurrences with \(replacement.utf8.count) bytes each"
            )
            return LiteralSearch.replacing(occurrences, in: text, with: replacement)
        }
    }

    /// `stripTags`: the text without what `<[^>]*>` matches, found in one pass (a regular
    /// expression tries every `<` to the end of a text with no `>` after it).
    static func stripTags(_ text: String) -> String {
        let bytes = Array(text.utf8)
        var kept: [UInt8] = []
        var start = 0
        while let open = bytes[start...].firstIndex(of: UInt8(ascii: "<")),
            let close = bytes[open...].firstIndex(of: UInt8(ascii: ">"))
        {
            kept += bytes[start..<open]
            start = close + 1
        }
        kept += bytes[start...]
        return String(decoding: kept, as: UTF8.self)
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
        return .string(try joined(values.map(\.printed), separator: separator, prefix: prefix, suffix: suffix, call))
    }

    /// `parts` joined by `separator` within `prefix` and `suffix`, charged to the work budget before
    /// it is made (a separator repeated between many parts can be far longer than them).
    static func joined(
        _ parts: [String],
        separator: String,
        prefix: String,
        suffix: String,
        _ call: TemplateHelperCall
    ) throws(TemplateRenderError) -> String {
        var size = WireMockHelperSupport.units(adding: prefix.utf8.count, suffix.utf8.count)
        for part in parts { size = WireMockHelperSupport.units(adding: size, part.utf8.count) }
        size = WireMockHelperSupport.units(
            adding: size,
            WireMockHelperSupport.units(parts.count - 1, each: separator.utf8.count)
        )
        try call.charge(size, for: "joining \(parts.count) values: \(size) bytes")
        return prefix + parts.joined(separator: separator) + suffix
    }

    /// `substring text start [end]` in UTF-16 units as Java counts; out of range fails like
    /// Java's `StringIndexOutOfBoundsException`.
    static func substring(_ call: TemplateHelperCall) throws(TemplateRenderError) -> TemplateValue {
        let value = first(call)
        if value.isNull { return .null }
        let text = value.printed
        try read(text, call)
        let units = Array(text.utf16)
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

    /// `wordWrap text width`: `WordUtils.wrap`, breaking at spaces with `\n`. The line's length is
    /// kept as it grows, so that a long line costs its length once rather than once per word.
    static func wordWrap(_ text: String, width: Int) -> String {
        var lines: [String] = []
        var line = ""
        var lineLength = 0
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            let wordLength = word.count
            if line.isEmpty {
                line = String(word)
                lineLength = wordLength
            } else if lineLength < width, wordLength < width - lineLength {
                line += " " + word
                lineLength += 1 + wordLength
            } else {
                lines.append(line)
                line = String(word)
                lineLength = wordLength
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines.joined(separator: "\n")
    }

    /// `stringFormat pattern args…`: Java's `String.format` for `%s`, `%d` (with `0` and width
    /// flags), `%f` (with precision) and `%%`. A width or precision is charged to the work budget
    /// before the text is made.
    static func stringFormat(_ call: TemplateHelperCall) throws(TemplateRenderError) -> TemplateValue {
        let value = first(call)
        if value.isNull { return .null }
        var arguments = call.params.dropFirst().makeIterator()
        let patternText = value.printed
        try read(patternText, call)
        let pattern = Array(patternText)
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
            let (width, precision) = try formatSizes(spec, call)
            // A number prints at most about 330 digits (a double near 1e308) besides its width and
            // precision.
            try call.charge(
                WireMockHelperSupport.units(adding: width, precision, 400),
                for: "formatting '%\(spec)\(conversion)'"
            )
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
                let whole = argument.isNull ? "null" : argument.printed
                try read(whole, call)
                let text = spec.contains(".") ? String(whole.prefix(precision)) : whole
                let padding = String(repeating: " ", count: max(0, width - text.count))
                output += spec.hasPrefix("-") ? text + padding : padding + text
            }
        }
        return .string(output)
    }

    /// The width and precision of a format specification such as `-08.3` (0 when absent): Java's
    /// are `int`s, so anything longer is refused with the range.
    private static func formatSizes(
        _ spec: String,
        _ call: TemplateHelperCall
    ) throws(TemplateRenderError) -> (Int, Int) {
        let parts = spec.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        var sizes: [Int] = []
        for (index, part) in parts.enumerated() {
            let digits = part.filter(\.isNumber)
            guard let size = digits.isEmpty ? 0 : Int32(digits) else {
                throw WireMockHelperSupport.outOfRange(
                    call,
                    "the \(index == 0 ? "width" : "precision") \(digits) of '%\(spec)'",
                    range: "it must be a Java int, at most 2147483647",
                    fix: "write a smaller one"
                )
            }
            sizes.append(Int(size))
        }
        return (sizes[0], sizes.count > 1 ? sizes[1] : 0)
    }

    /// `numberFormat number style`: `integer` (grouped, rounded half-even), `currency`,
    /// `percent`, `number` (grouped, up to three decimals) or a `DecimalFormat` pattern made of
    /// `#`, `0`, `,` and `.`, in the US locale.
    static func numberFormat(_ call: TemplateHelperCall) throws(TemplateRenderError) -> TemplateValue {
        let value = first(call)
        if value.isNull { return .null }
        guard let number = WireMockHelperSupport.double(value) else { return value }
        let style = WireMockHelperSupport.optionalString(call, 1) ?? "number"
        // A pattern prints about a character per character of it, and a number near 1e308 about 400.
        try call.charge(
            WireMockHelperSupport.units(adding: WorkBudget.Cost.formatter, style.utf8.count, 400),
            for: "a number format"
        )
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
