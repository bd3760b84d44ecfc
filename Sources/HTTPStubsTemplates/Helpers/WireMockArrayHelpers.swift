import HTTPStubs

/// WireMock 3's list helpers `arrayAdd` and `arrayRemove` (`ArrayAddHelper`, `ArrayRemoveHelper`):
/// a copy of the list with a value inserted or removed at `position` (`start`, `end`, the default,
/// or an index). Their `[ERROR: …]` answers are never HTML-escaped, as in WireMock 3, which does not
/// escape by default; a Java exception (a list that is not one, an index past the end) is a render
/// error.
enum WireMockArrayHelpers {
    /// The helpers by name.
    static let all: [String: TemplateHelper] = [
        "arrayAdd": TemplateHelper { call throws(TemplateRenderError) in
            let input = call.params.first ?? call.context
            if input.isNull { return .list([]) }
            var list = try items(of: input, call)
            guard call.params.count > 1 else {
                return unescapedError("Missing required parameter: additional value to add to list")
            }
            guard let position = position(call) else { return positionError }
            switch position {
            case .end: list.append(call.params[1])
            case .index(let index):
                guard (0...list.count).contains(index) else { return rangeError }
                list.insert(call.params[1], at: index)
            }
            return .list(list)
        },
        "arrayRemove": TemplateHelper { call throws(TemplateRenderError) in
            let input = call.params.first ?? call.context
            let given = input.isNull ? nil : try items(of: input, call)
            guard let position = position(call) else { return positionError }
            guard var list = given else {
                throw WireMockHelperSupport.failure(call, "java.lang.NullPointerException: the list is null")
            }
            let index: Int
            switch position {
            case .end: index = list.count - 1
            case .index(let given):
                guard (0...list.count).contains(given) else { return rangeError }
                index = given
            }
            guard list.indices.contains(index) else {
                throw WireMockHelperSupport.failure(
                    call,
                    "java.lang.IndexOutOfBoundsException: Index \(index) out of bounds for length \(list.count)"
                )
            }
            list.remove(at: index)
            return .list(list)
        },
    ]

    /// Where a value goes or is taken from.
    private enum Position {
        /// After the last element (`end`, the default), or the last element.
        case end
        /// At this index (`start` is 0).
        case index(Int)
    }

    /// The `position=` argument as `AbstractArrayHelper.parsePosition` reads it: `start` or `end` in
    /// any case, a Java `int`, or text that `Integer.parseInt` reads; `nil` for anything else.
    private static func position(_ call: TemplateHelperCall) -> Position? {
        guard let value = call.hash["position"], !value.isNull else { return .end }
        let text = value.printed
        // None longer is `start`, `end` or an `int`: not even lower-cased.
        guard text.utf8.count <= 16 else { return nil }
        if text.lowercased() == "start" { return .index(0) }
        if text.lowercased() == "end" { return .end }
        return Int32(text).map { .index(Int($0)) }
    }

    /// The elements of the list a helper is given, or the render error of Java's cast failing.
    private static func items(
        of value: TemplateValue,
        _ call: TemplateHelperCall
    ) throws(TemplateRenderError)
        -> [TemplateValue]
    {
        guard let items = WireMockHelperSupport.items(value) else {
            throw WireMockHelperSupport.failure(
                call,
                "java.lang.ClassCastException: \(value.printed) is not a java.util.List"
            )
        }
        return items
    }

    private static let positionError = unescapedError("position must be 'start', 'end' or an integer")
    private static let rangeError = unescapedError(
        "position must be greater than or equal to 0 and less than or equal to the size of the list"
    )

    /// WireMock's in-band `[ERROR: message]`, printed as is even by `{{ }}`, as WireMock 3 prints it.
    static func unescapedError(_ message: String) -> TemplateValue {
        .safe("[ERROR: \(message)]")
    }
}
