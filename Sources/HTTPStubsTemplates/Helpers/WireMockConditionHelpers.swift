import Foundation
import HTTPStubs

/// handlebars.java's `ConditionalHelpers` (`eq`, `neq`, `gt`, `gte`, `lt`, `lte`, `and`, `or`,
/// `not`), its `NumberHelper` (`isEven`, `isOdd`, `stripes`) and WireMock's `contains` and
/// `matches`, with Java's equality and ordering: `eq 1 '1'` is false, a request-model list or
/// the method never equals a string, strings order lexicographically, and ordering a value that
/// is not comparable (a query list) fails like WireMock's `Not a comparable`.
enum WireMockConditionHelpers {
    /// The helpers by name.
    static let all: [String: TemplateHelper] = [
        "eq": TemplateHelper { call throws(TemplateRenderError) in
            try WireMockHelperSupport.conditional(call, try equal(call))
        },
        "neq": TemplateHelper { call throws(TemplateRenderError) in
            try WireMockHelperSupport.conditional(call, !(try equal(call)))
        },
        "gt": TemplateHelper { call throws(TemplateRenderError) in
            try WireMockHelperSupport.conditional(call, try compare(call) > 0)
        },
        "gte": TemplateHelper { call throws(TemplateRenderError) in
            try WireMockHelperSupport.conditional(call, try compare(call) >= 0)
        },
        "lt": TemplateHelper { call throws(TemplateRenderError) in
            try WireMockHelperSupport.conditional(call, try compare(call) < 0)
        },
        "lte": TemplateHelper { call throws(TemplateRenderError) in
            try WireMockHelperSupport.conditional(call, try compare(call) <= 0)
        },
        "and": TemplateHelper { call throws(TemplateRenderError) in
            let values = call.params.isEmpty ? [call.context] : call.params
            return try WireMockHelperSupport.conditional(call, values.allSatisfy { !$0.isFalsy })
        },
        "or": TemplateHelper { call throws(TemplateRenderError) in
            let values = call.params.isEmpty ? [call.context] : call.params
            return try WireMockHelperSupport.conditional(call, values.contains { !$0.isFalsy })
        },
        "not": TemplateHelper { call throws(TemplateRenderError) in
            try WireMockHelperSupport.conditional(call, first(call).isFalsy)
        },
        "contains": TemplateHelper(contains),
        "matches": TemplateHelper(matches),
        "isEven": TemplateHelper { call throws(TemplateRenderError) in
            parity(call, even: true)
        },
        "isOdd": TemplateHelper { call throws(TemplateRenderError) in
            parity(call, even: false)
        },
        "stripes": TemplateHelper { call throws(TemplateRenderError) in
            let index = WireMockHelperSupport.integer(first(call)) ?? 0
            let even = WireMockHelperSupport.param(call, 1) ?? .string("even")
            let odd = WireMockHelperSupport.param(call, 2) ?? .string("odd")
            return index % 2 == 0 ? even : odd
        },
    ]

    /// The value the helper works on: the first parameter, or `this` without parameters.
    static func first(_ call: TemplateHelperCall) -> TemplateValue {
        call.params.first ?? call.context
    }

    /// Whether the first two parameters are equal (``javaEquals(_:_:)``), the work budget charged
    /// for reading the smaller of them.
    static func equal(_ call: TemplateHelperCall) throws(TemplateRenderError) -> Bool {
        let lhs = first(call)
        let rhs = WireMockHelperSupport.param(call, 1) ?? .null
        try call.charge(min(lhs.workUnits, rhs.workUnits), for: "comparing two values")
        return javaEquals(lhs, rhs)
    }

    /// Java's `equals` as `EqualsBuilder` applies it to the values a template holds.
    static func javaEquals(_ lhs: TemplateValue, _ rhs: TemplateValue?) -> Bool {
        let rhs = rhs ?? .null
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.string(let a), .string(let b)), (.string(let a), .safe(let b)), (.safe(let a), .string(let b)),
            (.safe(let a), .safe(let b)):
            return a == b
        case (.number(let a, _), .number(let b, _)): return a == b
        case (.bool(let a), .bool(let b)): return a == b
        case (.list(let a), .list(let b)): return a.count == b.count && zip(a, b).allSatisfy { javaEquals($0, $1) }
        case (.object(let a), .object(let b)): return a == b
        case (.javaObject(let a), .javaObject(let b)): return a == b
        default: return false
        }
    }

    /// handlebars.java's `cmp`: strings and numbers of one kind compare naturally, numbers of
    /// different kinds as doubles, anything else fails.
    static func compare(_ call: TemplateHelperCall) throws(TemplateRenderError) -> Int {
        let lhs = first(call)
        let rhs = WireMockHelperSupport.param(call, 1) ?? .null
        func comparable(_ value: TemplateValue) -> Bool {
            switch value {
            case .string, .safe, .number, .bool: true
            default: false
            }
        }
        guard comparable(lhs) else {
            throw WireMockHelperSupport.failure(
                call,
                "java.lang.IllegalArgumentException: Not a comparable: \(lhs.printed)"
            )
        }
        guard comparable(rhs) else {
            throw WireMockHelperSupport.failure(
                call,
                "java.lang.IllegalArgumentException: Not a comparable: \(rhs.printed)"
            )
        }
        switch (lhs, rhs) {
        case (.string(let a), .string(let b)), (.safe(let a), .safe(let b)), (.string(let a), .safe(let b)),
            (.safe(let a), .string(let b)):
            try call.charge(WireMockHelperSupport.units(adding: a.utf8.count, b.utf8.count), for: "comparing two texts")
            return a == b ? 0 : (a.utf16.lexicographicallyPrecedes(b.utf16) ? -1 : 1)
        case (.bool(let a), .bool(let b)):
            return a == b ? 0 : (a ? 1 : -1)
        default:
            guard let a = WireMockHelperSupport.double(lhs), let b = WireMockHelperSupport.double(rhs) else {
                throw WireMockHelperSupport.failure(
                    call,
                    "java.lang.ClassCastException: cannot compare \(lhs.printed) with \(rhs.printed)"
                )
            }
            return a == b ? 0 : (a < b ? -1 : 1)
        }
    }

    /// WireMock's `ContainsHelper`: a list contains the element, anything else contains the
    /// text (`false` when either is missing).
    static func contains(_ call: TemplateHelperCall) throws(TemplateRenderError) -> TemplateValue {
        let haystack = first(call)
        let needle = WireMockHelperSupport.param(call, 1) ?? .null
        let result: Bool
        if let items = WireMockHelperSupport.items(haystack) {
            try call.charge(
                WireMockHelperSupport.units(items.count, each: max(needle.workUnits, 1)),
                for: "looking for a value among \(items.count) elements"
            )
            result = items.contains { javaEquals($0, needle) }
        } else if haystack.isNull || needle.isNull {
            result = false
        } else {
            let text = haystack.printed
            let pattern = needle.printed
            try WireMockStringHelpers.read(text, call, costPerByte: LiteralSearch.costPerByte)
            try WireMockStringHelpers.read(pattern, call)
            result = pattern.utf8.count <= text.utf8.count && LiteralSearch(pattern).isFound(in: text)
        }
        return call.isBlock ? .safe(try result ? call.renderBody() : call.renderInverse()) : .bool(result)
    }

    /// WireMock's `MatchesRegexHelper`: whether the whole text matches the pattern; a missing text
    /// fails (a `NullPointerException` in WireMock).
    static func matches(_ call: TemplateHelperCall) throws(TemplateRenderError) -> TemplateValue {
        let text = try WireMockHelperSupport.requiredString(call, 0)
        let pattern = try WireMockHelperSupport.requiredString(call, 1)
        try WireMockStringHelpers.read(text, call)
        try WireMockHelperSupport.chargeCompiling(pattern, call)
        let regex: CompiledRegex
        do {
            regex = try CompiledRegex(pattern, extent: .wholeText)
        } catch {
            throw WireMockHelperSupport.failure(call, error.message(pattern: pattern, at: "'matches'"))
        }
        let result = regex.matches(text)
        return call.isBlock ? .safe(try result ? call.renderBody() : call.renderInverse()) : .bool(result)
    }

    /// `NumberHelper.isEven`/`isOdd`: the word (`even`/`odd`, or the second parameter) when the
    /// number has that parity, otherwise nothing.
    static func parity(_ call: TemplateHelperCall, even: Bool) -> TemplateValue {
        guard let number = WireMockHelperSupport.integer(first(call)) else { return .null }
        guard (number % 2 == 0) == even else { return .null }
        return WireMockHelperSupport.param(call, 1) ?? .string(even ? "even" : "odd")
    }
}
