extension JSONValue {
    /// The value's type with an article, for messages: `a string`, `an object`, `null`.
    package var article: String {
        switch self {
        case .null: return "null"
        case let .string(text): return "the string \(quoted(text.count > 40 ? String(text.prefix(40)) + "…" : text))"
        case let .number(number): return "the number \(number)"
        case let .bool(flag): return "\(flag)"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}
