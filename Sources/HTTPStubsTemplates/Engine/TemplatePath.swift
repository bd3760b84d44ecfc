import HTTPStubs

/// A path of a tag (`request.path.[0]`, `../name`, `@index`, `this`), compiled the way
/// handlebars.java's `PathCompiler` compiles it, so that lookups walk the same steps.
struct TemplatePath: Sendable, Hashable, CustomStringConvertible {
    /// One step of a path.
    enum Segment: Sendable, Hashable {
        /// `this` or `./` inside a path: stays on the value reached so far.
        case this
        /// `.`, `./` or `this` alone: the current context's value itself.
        case current
        /// `..` alone: the parent context's value.
        case parentValue
        /// `../` followed by more: the rest of the path is looked up from the parent context.
        case parent
        /// A key of a map (also `size`, `length` and `empty` of lists, maps and strings).
        case property(String)
        /// A segment that reads as an integer (`0`, `[1]`): an index of a list, else a key.
        case index(Int, key: String)
        /// `@name`: a data variable of an `{{#each}}` (`@index`, `@key`, `@first`, `@last`) or
        /// `@root`; handlebars.java also finds a key `name` of the context this way.
        case data(String)
    }

    /// The path as written.
    let text: String
    /// The compiled steps, never empty.
    let segments: [Segment]

    /// Compiles `text` as `PathCompiler.parse` does: `this`, `.`, `./` alone are the current value;
    /// `..` alone the parent value; a leading `../` or `./` is a step; the rest splits into
    /// `[literal]` segments, `../` and runs of characters other than `.` and `/`. A run that
    /// `Integer.parseInt` accepts is an index, `@` starts a data name (`@` alone makes the next
    /// name a data name, as in `@../index`).
    init(_ text: String) {
        self.text = text
        self.segments = Self.compile(Substring(text))
    }

    /// A path made of `segments` (the rest of a path after a `../` step).
    init(segments: ArraySlice<Segment>) {
        self.text = ""
        self.segments = segments.isEmpty ? [.current] : Array(segments)
    }

    var description: String { text }

    /// Whether the lookup stays in the current context (handlebars.java's `local()`): paths that
    /// start with `this`, `.`, `./` or `../` do; a plain name or `@data` walks up the contexts.
    var isLocal: Bool {
        switch segments[0] {
        case .this, .current, .parentValue, .parent: true
        case .property, .index, .data: false
        }
    }

    private static func compile(_ path: Substring) -> [Segment] {
        if path == "this" || path == "./" || path == "." { return [.current] }
        if path == ".." { return [.parentValue] }
        if path.hasPrefix("../") { return [.parent] + compile(path.dropFirst(3)) }
        if path.hasPrefix("./") { return [.this] + compile(path.dropFirst(2)) }
        var segments: [Segment] = []
        var data = false
        var rest = path
        while !rest.isEmpty {
            let key: Substring
            if rest.first == "[", let close = rest.firstIndex(of: "]"),
                !rest[rest.index(after: rest.startIndex)..<close].contains("["),
                close > rest.index(after: rest.startIndex)
            {
                key = rest[rest.startIndex...close]
                rest = rest[rest.index(after: close)...]
            } else if rest.hasPrefix("../") {
                segments.append(.parent)
                rest = rest.dropFirst(3)
                continue
            } else if rest.first == "." || rest.first == "/" {
                rest = rest.dropFirst()
                continue
            } else {
                let end = rest.firstIndex { $0 == "." || $0 == "/" } ?? rest.endIndex
                key = rest[..<end]
                rest = rest[end...]
            }
            if key == "this" {
                segments.append(.this)
            } else if key.first == "@" {
                if key.count == 1 { data = true } else { segments.append(.data(String(key.dropFirst()))) }
            } else {
                var name = key
                if name.first == "[" && name.last == "]" { name = name.dropFirst().dropLast() }
                if let index = javaInteger(name) {
                    segments.append(.index(index, key: String(name)))
                } else if data {
                    segments.append(.data(String(name)))
                } else {
                    segments.append(.property(String(name)))
                }
            }
        }
        return segments.isEmpty ? [.current] : segments
    }

    /// `Integer.parseInt`: an optional sign and ASCII digits that fit in 32 bits.
    private static func javaInteger(_ text: Substring) -> Int? {
        var digits = text
        if digits.first == "-" || digits.first == "+" { digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int32(text) else {
            return nil
        }
        return Int(value)
    }
}
