import Foundation
import HTTPStubs

/// A syntax error in a JSONPath expression, located by character offset.
package struct JSONPathSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong and how to fix it.
    let message: String
    /// The 0-based offset, in characters, of the problem in the expression.
    let offset: Int

    /// The error as `JSONPath syntax error at offset N: message`.
    package var description: String {
        "JSONPath syntax error at offset \(offset): \(message)"
    }
}

/// The outcome of evaluating a JSONPath expression against a document.
package enum JSONPathResult: Sendable, Equatable {
    /// A definite path that does not exist (Jayway's `PathNotFoundException`).
    case notFound
    /// The value a definite path (or a path ending in a function) leads to; may be `null`.
    case value(JSONValue)
    /// The values an indefinite path selects, in document order; may be empty.
    case values([JSONValue])
}

/// A JSONPath expression in the Jayway JsonPath dialect that WireMock's
/// `matchesJsonPath` operator uses.
///
/// Supported: `$`, `.name`, `['name']`, `['a','b']`, `[0]`, `[-1]`, `[0,2]`,
/// `[1:3]`, `[*]`, `.*`, `..name`, `..[0]`, `..*`, filters `[?(…)]` with
/// `==`, `!=`, `<`, `<=`, `>`, `>=`, `=~ /regex/i`, Jayway's word operators `in`, `nin`,
/// `subsetof`, `anyof`, `noneof`, `contains`, `size` and `empty` (with list literals such as
/// `['S', 'M']`), `&&`, `||`, `!`, parentheses and existence tests, and a trailing `.length()` /
/// `.size()`.
package struct JSONPathExpression: Sendable, CustomStringConvertible {
    /// The expression as written.
    let text: String
    /// The parsed expression.
    private let query: JSONPathQuery

    /// Parses a Jayway JsonPath expression such as `$.items[?(@.price < 10)].name`.
    package init(_ text: String) throws(JSONPathSyntaxError) {
        var parser = JSONPathParser(text)
        self.text = text
        self.query = try parser.parseExpression()
    }

    /// The expression as written.
    package var description: String {
        text
    }

    /// Whether the path addresses at most one value: no wildcard, recursive
    /// descent, filter, slice or union.
    package var isDefinite: Bool {
        query.isDefinite
    }

    /// The steps of a path from the document (`$`) that names one member or one index at each step
    /// (`$.a['b'][0]`), with no index counted from the end and no `length()`: ``evaluate(_:)`` gives
    /// `.value` of the value they lead to, or `.notFound` when a step meets a missing member, an index
    /// out of range or a value of the wrong type. `nil` for any other path.
    package var keysFromRoot: [JSONPathKey]? {
        guard query.startsAtRoot, !query.endsWithLength else { return nil }
        var keys: [JSONPathKey] = []
        for step in query.steps {
            switch step {
            case .child(.names(let names)) where names.count == 1: keys.append(.member(names[0]))
            case .child(.indexes(let indexes)) where indexes.count == 1 && indexes[0] >= 0:
                keys.append(.element(indexes[0]))
            default: return nil
            }
        }
        return keys
    }

    /// Evaluates the expression against `root`.
    ///
    /// The values an indefinite path visits are charged to the request's ``WorkBudget`` (`..`
    /// repeated, or a filter that runs a `$..` query for each element, visits a number of values
    /// that grows with the square of the document's, or faster); once the budget is spent the
    /// evaluation stops, selecting nothing more, and the work that spent it is what the request's
    /// failure names.
    package func evaluate(_ root: JSONValue) -> JSONPathResult {
        WorkBudget.metering { _ in query.evaluate(current: root, root: root) }
    }

    /// The values the expression selects in `root` with where each is, as Jayway JsonPath finds them
    /// for its update operations (`delete`, `set`) and for a read with `DEFAULT_PATH_LEAF_TO_NULL`,
    /// WireMock's configuration for its JSON helpers: in document order; a last step naming a member
    /// that an object lacks selects it as `null` (so a delete there changes nothing). `nil` is Jayway's
    /// `PathNotFoundException`: before any wildcard, filter, slice or descent, a step meets a missing
    /// member or a value of the wrong type. A path ending in `length()` locates nothing.
    package func locate(in root: JSONValue) -> [JSONPathLocatedValue]? {
        WorkBudget.metering { _ in query.locate(root: root) }
    }

    /// WireMock's string form of `matchesJsonPath`: a definite path matches when
    /// it exists and its value is not `null` (empty arrays and objects match);
    /// an indefinite path matches when it selects at least one value.
    package func matchesExistence(in root: JSONValue) -> Bool {
        switch evaluate(root) {
        case .notFound: false
        case .value(let value): value != .null
        case .values(let values): !values.isEmpty
        }
    }

    /// Whether the expression selects nothing in `root`: no value, `null`, no values from an
    /// indefinite path, or (when `emptyArrayIsNothing`) an empty array, as WireMock's `absent`
    /// sub-matcher sees them.
    package func selectsNothing(in root: JSONValue, emptyArrayIsNothing: Bool) -> Bool {
        switch evaluate(root) {
        case .notFound, .value(.null): true
        case .values(let values): values.isEmpty
        case .value(.array(let elements)): emptyArrayIsNothing && elements.isEmpty
        case .value: false
        }
    }

    /// WireMock's `getExpressionResult` for the nested form
    /// `{"expression": "…", "equalTo": …}`: the strings the nested operator is applied to.
    ///
    /// - Parameters:
    ///   - root: The request body.
    ///   - forJSONComparison: Whether the nested operator compares JSON
    ///     (`equalToJson`); then an array result stays one compact JSON string
    ///     instead of being split into its elements.
    /// - Returns: An object as compact JSON; an array as compact JSON or one string
    ///   per element; a scalar as its text (`null` as `"null"`); nothing when the
    ///   path does not exist.
    package func stringValues(in root: JSONValue, forJSONComparison: Bool) -> [String] {
        switch evaluate(root) {
        case .notFound:
            return []
        case .value(.array(let elements)), .values(let elements):
            return forJSONComparison ? [JSONValue.array(elements).serialized()] : elements.map(Self.plainString)
        case .value(let value):
            return [Self.plainString(value)]
        }
    }

    /// A value as WireMock converts it to a string: strings unquoted, numbers as
    /// written, `true`/`false`, `null`, containers as compact JSON.
    static func plainString(_ value: JSONValue) -> String {
        value.scalarText ?? value.serialized()
    }
}

// MARK: - Syntax tree

/// A parsed path: where it starts, its steps and an optional trailing function.
private struct JSONPathQuery: Sendable {
    /// Whether the path starts at the document (`$`) or at the filtered value (`@`).
    let startsAtRoot: Bool
    /// The steps, outermost first.
    let steps: [JSONPathStep]
    /// The trailing `length()`/`size()` call, if any.
    let endsWithLength: Bool

    /// Whether every step selects at most one value.
    var isDefinite: Bool {
        steps.allSatisfy(\.isDefinite)
    }

    /// Evaluates the path from `current` (for `@`) or `root` (for `$`).
    func evaluate(current: JSONValue, root: JSONValue) -> JSONPathResult {
        let start = startsAtRoot ? root : current
        if isDefinite {
            var value = start
            for step in steps {
                guard let next = step.definiteChild(of: value) else { return .notFound }
                value = next
            }
            guard endsWithLength else { return .value(value) }
            switch value {
            case .array(let elements): return .value(.number(JSONNumber(elements.count)))
            case .object(let object): return .value(.number(JSONNumber(object.keys.count)))
            case .string(let string): return .value(.number(JSONNumber(string.utf16.count)))
            default: return .notFound
            }
        }
        var nodes = [start]
        for step in steps {
            var next: [JSONValue] = []
            for node in nodes {
                let selected = step.select(from: node, root: root)
                // Charged as it grows: one step can select far more values than the last.
                guard chargeVisits(selected.count + 1) else { return .values([]) }
                next += selected
            }
            nodes = next
        }
        return endsWithLength ? .value(.number(JSONNumber(nodes.count))) : .values(nodes)
    }
}

/// Charges the work budget of the evaluation under way for `count` values visited; `false` once it
/// is spent (see ``JSONPathExpression/evaluate(_:)``).
private func chargeVisits(_ count: Int) -> Bool {
    WorkBudget.current?.spend(count * WorkBudget.Cost.pathNode, on: "a JSONPath expression") ?? true
}

extension JSONPathQuery {
    /// ``JSONPathExpression/locate(in:)`` from the document's root.
    func locate(root: JSONValue) -> [JSONPathLocatedValue]? {
        guard startsAtRoot, !endsWithLength else { return startsAtRoot ? [] : nil }
        var nodes = [JSONPathLocatedValue(location: [], value: root)]
        var upstreamIsDefinite = true
        for (index, step) in steps.enumerated() {
            let isLeaf = index == steps.count - 1
            var next: [JSONPathLocatedValue] = []
            for node in nodes {
                guard step.isDefinite else {
                    let located = step.locate(from: node, root: root)
                    guard chargeVisits(located.count + 1) else { return [] }
                    next += located
                    continue
                }
                switch (step, node.value) {
                case (.child(.names(let names)), .object(let object)):
                    let location = node.location + [.member(names[0])]
                    if let value = object[names[0]] {
                        next.append(JSONPathLocatedValue(location: location, value: value))
                    } else if isLeaf {
                        next.append(JSONPathLocatedValue(location: location, value: .null))
                    } else if upstreamIsDefinite {
                        return nil
                    }
                case (.child(.indexes(let indexes)), .array(let elements)):
                    let position = indexes[0] < 0 ? elements.count + indexes[0] : indexes[0]
                    if elements.indices.contains(position) {
                        next.append(
                            JSONPathLocatedValue(
                                location: node.location + [.element(position)],
                                value: elements[position]
                            )
                        )
                    }
                default:
                    if upstreamIsDefinite { return nil }
                }
            }
            nodes = next
            upstreamIsDefinite = upstreamIsDefinite && step.isDefinite
        }
        return nodes
    }
}

/// One step of a path.
private enum JSONPathStep: Sendable {
    /// Selects among the children of the current value (`.name`, `[…]`).
    case child(JSONPathSelector)
    /// Applies the selector to the current value and all its descendants (`..`).
    case descendant(JSONPathSelector)

    /// Whether this step selects at most one value.
    var isDefinite: Bool {
        switch self {
        case .child(.names(let names)): names.count == 1
        case .child(.indexes(let indexes)): indexes.count == 1
        default: false
        }
    }

    /// The single child a definite step selects, or `nil` when it does not exist.
    func definiteChild(of value: JSONValue) -> JSONValue? {
        switch (self, value) {
        case (.child(.names(let names)), .object(let object)):
            return names.first.flatMap { object[$0] }
        case (.child(.indexes(let indexes)), .array(let elements)):
            guard let index = indexes.first else { return nil }
            let position = index < 0 ? elements.count + index : index
            guard elements.indices.contains(position) else { return nil }
            return elements[position]
        default:
            return nil
        }
    }

    /// The values this step selects from `value`, skipping missing ones.
    func select(from value: JSONValue, root: JSONValue) -> [JSONValue] {
        switch self {
        case .child(let selector):
            return selector.select(from: value, root: root)
        case .descendant(.filter(let filter)):
            return Self.selfAndDescendants(of: value).filter { node in
                if case .object = node { filter.isSatisfied(by: node, root: root) } else { false }
            }
        case .descendant(let selector):
            return Self.selfAndDescendants(of: value).flatMap { selector.select(from: $0, root: root) }
        }
    }

    /// ``select(from:root:)`` with locations, for a step that is not definite.
    func locate(from node: JSONPathLocatedValue, root: JSONValue) -> [JSONPathLocatedValue] {
        func located(
            _ selected: [(key: JSONPathKey?, value: JSONValue)],
            under parent: JSONPathLocatedValue
        )
            -> [JSONPathLocatedValue]
        {
            selected.map {
                JSONPathLocatedValue(location: parent.location + ($0.key.map { [$0] } ?? []), value: $0.value)
            }
        }
        switch self {
        case .child(let selector):
            return located(selector.selectWithKeys(from: node.value, root: root), under: node)
        case .descendant(.filter(let filter)):
            return Self.selfAndDescendants(of: node).filter { descendant in
                if case .object = descendant.value {
                    filter.isSatisfied(by: descendant.value, root: root)
                } else {
                    false
                }
            }
        case .descendant(let selector):
            return Self.selfAndDescendants(of: node).flatMap { descendant in
                located(selector.selectWithKeys(from: descendant.value, root: root), under: descendant)
            }
        }
    }

    /// `node` followed by all values nested in it with their locations, in document order.
    private static func selfAndDescendants(of node: JSONPathLocatedValue) -> [JSONPathLocatedValue] {
        guard chargeVisits(1) else { return [] }
        var result: [JSONPathLocatedValue] = []
        var stack = [node]
        while let next = stack.popLast() {
            if result.count % 1024 == 1023, !chargeVisits(1024) { break }
            result.append(next)
            switch next.value {
            case .array(let elements):
                stack += elements.indices.reversed().map {
                    JSONPathLocatedValue(location: next.location + [.element($0)], value: elements[$0])
                }
            case .object(let object):
                stack += object.uniqueMembers.reversed().map {
                    JSONPathLocatedValue(location: next.location + [.member($0.key)], value: $0.value)
                }
            default: break
            }
        }
        return result
    }

    /// `value` followed by all values nested in it, in document order (iterative, so deep documents are safe).
    private static func selfAndDescendants(of value: JSONValue) -> [JSONValue] {
        guard chargeVisits(1) else { return [] }
        var result: [JSONValue] = []
        var stack = [value]
        while let node = stack.popLast() {
            if result.count % 1024 == 1023, !chargeVisits(1024) { break }
            result.append(node)
            switch node {
            case .array(let elements): stack.append(contentsOf: elements.reversed())
            case .object(let object): stack.append(contentsOf: object.uniqueMembers.map(\.value).reversed())
            default: break
            }
        }
        return result
    }
}

/// What a step selects among the children of a value.
private enum JSONPathSelector: Sendable {
    /// Object members by name (`.a`, `['a']`, `['a','b']`).
    case names([String])
    /// Array elements by index, negative from the end (`[0]`, `[-1]`, `[0,2]`).
    case indexes([Int])
    /// A range of array elements, end exclusive (`[1:3]`, `[:2]`, `[-2:]`).
    case slice(start: Int?, end: Int?)
    /// Every element or member value (`*`).
    case wildcard
    /// The array elements, or the object itself, that satisfy a condition (`[?(…)]`).
    case filter(JSONPathFilter)

    /// The children of `value` this selector picks, skipping missing ones.
    func select(from value: JSONValue, root: JSONValue) -> [JSONValue] {
        selectWithKeys(from: value, root: root).map(\.value)
    }

    /// ``select(from:root:)`` with each child's key in `value`; no key for `value` itself (a filter
    /// applied to an object).
    func selectWithKeys(from value: JSONValue, root: JSONValue) -> [(key: JSONPathKey?, value: JSONValue)] {
        switch (self, value) {
        case (.names(let names), .object(let object)):
            return names.compactMap { name in object[name].map { (.member(name), $0) } }
        case (.indexes(let indexes), .array(let elements)):
            return indexes.compactMap { index in
                let position = index < 0 ? elements.count + index : index
                guard elements.indices.contains(position) else { return nil }
                return (.element(position), elements[position])
            }
        case (.slice(let start, let end), .array(let elements)):
            let count = elements.count
            func clamp(_ bound: Int?, default defaultValue: Int) -> Int {
                guard let bound else { return defaultValue }
                return Swift.min(Swift.max(bound < 0 ? count + bound : bound, 0), count)
            }
            let lower = clamp(start, default: 0)
            let upper = clamp(end, default: count)
            return lower < upper ? (lower..<upper).map { (.element($0), elements[$0]) } : []
        case (.wildcard, .array(let elements)):
            return elements.indices.map { (.element($0), elements[$0]) }
        case (.wildcard, .object(let object)):
            return object.uniqueMembers.map { (.member($0.key), $0.value) }
        case (.filter(let filter), .array(let elements)):
            // Each element is charged: a filter may run a `$..` query over the whole document for each.
            return elements.indices.filter { chargeVisits(1) && filter.isSatisfied(by: elements[$0], root: root) }.map {
                (.element($0), elements[$0])
            }
        case (.filter(let filter), .object):
            return filter.isSatisfied(by: value, root: root) ? [(nil, value)] : []
        default:
            return []
        }
    }
}

/// A filter condition, `?(…)`.
private indirect enum JSONPathFilter: Sendable {
    /// Every condition holds (`a && b && …`, a list rather than nested pairs: a chain of
    /// thousands of terms is tested in a loop, where nested pairs would overflow the stack).
    case all([JSONPathFilter])
    /// Some condition holds (`a || b || …`).
    case any([JSONPathFilter])
    /// The condition does not hold.
    case not(JSONPathFilter)
    /// The path exists (its value may be `null`).
    case exists(JSONPathQuery)
    /// A comparison of two operands.
    case comparison(JSONPathOperand, JSONPathComparison, JSONPathOperand)
    /// The operand's string form fully matches a regular expression.
    case matches(JSONPathOperand, CompiledRegex)
    /// One of Jayway's word operators (`in`, `size`, `subsetof`, …).
    case relation(JSONPathOperand, JSONPathRelation, JSONPathOperand)

    /// Whether `current` (the value `@` stands for) satisfies the condition.
    func isSatisfied(by current: JSONValue, root: JSONValue) -> Bool {
        switch self {
        case .all(let conditions):
            return conditions.allSatisfy { $0.isSatisfied(by: current, root: root) }
        case .any(let conditions):
            return conditions.contains { $0.isSatisfied(by: current, root: root) }
        case .not(let condition):
            return !condition.isSatisfied(by: current, root: root)
        case .exists(let query):
            switch query.evaluate(current: current, root: root) {
            case .notFound: return false
            case .value: return true
            case .values(let values): return !values.isEmpty
            }
        case .comparison(let lhs, let comparison, let rhs):
            return comparison.holds(
                lhs.resolve(current: current, root: root),
                rhs.resolve(current: current, root: root)
            )
        case .matches(let operand, let regex):
            guard let value = operand.resolve(current: current, root: root), value != .null else { return false }
            return regex.matches(JSONPathExpression.plainString(value))
        case .relation(let lhs, let relation, let rhs):
            return relation.holds(lhs.resolve(current: current, root: root), rhs.resolve(current: current, root: root))
        }
    }
}

/// One side of a comparison.
private enum JSONPathOperand: Sendable {
    /// A path from `@` or `$`.
    case query(JSONPathQuery)
    /// A string, number, Boolean or `null` literal.
    case literal(JSONValue)

    /// The operand's value, or `nil` when its path does not exist.
    /// An indefinite path yields the array of the values it selects.
    func resolve(current: JSONValue, root: JSONValue) -> JSONValue? {
        switch self {
        case .literal(let value):
            return value
        case .query(let query):
            switch query.evaluate(current: current, root: root) {
            case .notFound: return nil
            case .value(let value): return value
            case .values(let values): return .array(values)
            }
        }
    }
}

/// A comparison operator of a filter.
private enum JSONPathComparison: String, Sendable, CaseIterable {
    case equal = "=="
    case notEqual = "!="
    case lessOrEqual = "<="
    case greaterOrEqual = ">="
    case less = "<"
    case greater = ">"

    /// Whether the comparison holds; a missing operand only satisfies `!=`.
    /// Numbers compare numerically, strings by UTF-16 code units (as Java does);
    /// values of different types are never equal nor ordered.
    func holds(_ lhs: JSONValue?, _ rhs: JSONValue?) -> Bool {
        guard let lhs, let rhs else { return self == .notEqual }
        switch self {
        case .equal: return JaywayEquality.equals(lhs, rhs)
        case .notEqual: return !JaywayEquality.equals(lhs, rhs)
        default: break
        }
        let order: Int
        switch (lhs, rhs) {
        case (.number(let left), .number(let right)):
            order = left == right ? 0 : (left.doubleValue < right.doubleValue ? -1 : 1)
        case (.string(let left), .string(let right)):
            order = left == right ? 0 : (left.utf16.lexicographicallyPrecedes(right.utf16) ? -1 : 1)
        default:
            return false
        }
        switch self {
        case .less: return order < 0
        case .lessOrEqual: return order <= 0
        case .greater: return order > 0
        default: return order >= 0
        }
    }
}

/// Equality as Jayway JsonPath's value nodes define it (`a.equals(b)`), checked against
/// WireMock 2.35.1: a number equals a string holding the same number (`1 == '1'`, `1.0 == '1'`),
/// a string equals a number whose text it spells (`'1' == 1`, but not `'2' == 2.0`), and other
/// values are equal when they are the same JSON.
private enum JaywayEquality {
    static func equals(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.number(let number), .string(let text)):
            guard let parsed = JSONNumber(text: text) ?? Double(text).flatMap(JSONNumber.init) else { return false }
            return number == parsed
        case (.string(let text), .number(let number)):
            return text == number.text
        default:
            return a == b
        }
    }
}

/// Jayway JsonPath's word operators, which WireMock's `matchesJsonPath` accepts (written in any
/// case, as Jayway reads them). A missing operand satisfies only `nin`, as in Jayway.
private enum JSONPathRelation: String, Sendable, CaseIterable {
    /// The left value is one of the right array's elements.
    case `in`
    /// The left value is none of the right array's elements.
    case nin
    /// Every element of the left array is in the right array.
    case subsetof
    /// Some element of the left array is in the right array.
    case anyof
    /// No element of the left array is in the right array.
    case noneof
    /// The left string contains the right string, or the left array contains the right value.
    case contains
    /// The left array's length (or string's length in UTF-16 units) is the right number.
    case size
    /// Whether the left array or string is empty is the right Boolean (never true of an object, in
    /// Jayway).
    case empty

    func holds(_ lhs: JSONValue?, _ rhs: JSONValue?) -> Bool {
        let equals = JaywayEquality.equals
        switch self {
        case .in:
            guard let lhs, case .array(let list)? = rhs else { return false }
            return list.contains { equals(lhs, $0) }
        case .nin:
            guard let lhs else { return true }
            guard case .array(let list)? = rhs else { return false }
            return !list.contains { equals(lhs, $0) }
        case .subsetof:
            guard case .array(let left)? = lhs, case .array(let right)? = rhs else { return false }
            return left.allSatisfy { element in right.contains { equals(element, $0) } }
        case .anyof:
            guard case .array(let left)? = lhs, case .array(let right)? = rhs else { return false }
            return left.contains { element in right.contains { equals(element, $0) } }
        case .noneof:
            guard case .array(let left)? = lhs, case .array(let right)? = rhs else { return false }
            return !left.contains { element in right.contains { equals(element, $0) } }
        case .contains:
            switch (lhs, rhs) {
            case (.string(let text)?, .string(let part)?): return text.contains(part)
            case (.string(let text)?, .number(let number)?): return text.contains(number.text)
            case (.array(let list)?, let value?): return list.contains { equals(value, $0) }
            default: return false
            }
        case .size:
            guard case .number(let expected)? = rhs, let expected = expected.int64Value else { return false }
            switch lhs {
            case .array(let list)?: return Int64(list.count) == expected
            case .string(let text)?: return Int64(text.utf16.count) == expected
            default: return false
            }
        case .empty:
            guard case .bool(let expected)? = rhs else { return false }
            switch lhs {
            case .array(let list)?: return list.isEmpty == expected
            case .string(let text)?: return text.isEmpty == expected
            default: return false
            }
        }
    }
}

// MARK: - Parser

/// A recursive-descent parser over the characters of an expression.
private struct JSONPathParser {
    /// The deepest nesting of filters and parentheses accepted.
    private static let maximumDepth = 32
    /// The expression's characters, so offsets count characters.
    private let characters: [Character]
    /// The offset of the next character to read.
    private var position = 0
    /// The current nesting of filters and parentheses.
    private var depth = 0

    /// Prepares to parse `text`.
    init(_ text: String) {
        characters = Array(text)
    }

    /// Parses a whole expression, which must start with `$`.
    mutating func parseExpression() throws(JSONPathSyntaxError) -> JSONPathQuery {
        skipWhitespace()
        guard peek() == "$" else {
            if position == characters.count {
                throw error("the expression is empty; write a path such as `$.name`", at: position)
            }
            throw error(
                "a JSONPath must start with `$` (the document root), "
                    + "for example `$.\(String(characters[position...]).prefix(20))`",
                at: position
            )
        }
        let query = try parseQuery()
        skipWhitespace()
        guard position == characters.count else {
            throw error(
                "unexpected `\(characters[position])`; "
                    + "steps are written `.name`, `['name']`, `[0]`, `[*]` or `[?(…)]`",
                at: position
            )
        }
        return query
    }

    /// Parses `$` or `@` followed by steps.
    private mutating func parseQuery() throws(JSONPathSyntaxError) -> JSONPathQuery {
        let startsAtRoot = characters[position] == "$"
        position += 1
        var steps: [JSONPathStep] = []
        while let character = peek() {
            if character == "[" {
                steps.append(.child(try parseBracket()))
            } else if character == "." {
                let dotOffset = position
                position += 1
                if peek() == "." {
                    position += 1
                    steps.append(.descendant(try parseSelectorAfterDot(dotOffset: dotOffset)))
                    continue
                }
                if let name = try parseFunctionName() {
                    guard name == "length" || name == "size" else {
                        throw error(
                            "unsupported function `\(name)()`; only `length()` and `size()` are supported",
                            at: dotOffset + 1
                        )
                    }
                    if let next = peek(), next == "." || next == "[" {
                        throw error("`\(name)()` must be the last step of the path", at: position)
                    }
                    return JSONPathQuery(startsAtRoot: startsAtRoot, steps: steps, endsWithLength: true)
                }
                steps.append(.child(try parseSelectorAfterDot(dotOffset: dotOffset)))
            } else {
                break
            }
        }
        return JSONPathQuery(startsAtRoot: startsAtRoot, steps: steps, endsWithLength: false)
    }

    /// After a `.`: reads `name(` and returns the name when a function call follows; otherwise reads nothing.
    private mutating func parseFunctionName() throws(JSONPathSyntaxError) -> String? {
        var end = position
        while end < characters.count, Self.isNameCharacter(characters[end]) { end += 1 }
        guard end > position, end < characters.count, characters[end] == "(" else { return nil }
        let name = String(characters[position..<end])
        guard end + 1 < characters.count, characters[end + 1] == ")" else {
            throw error("functions take no arguments; write `\(name)()`", at: end + 1)
        }
        position = end + 2
        return name
    }

    /// Parses what follows `.` or `..`: a name, `*` or a bracket.
    private mutating func parseSelectorAfterDot(dotOffset: Int) throws(JSONPathSyntaxError) -> JSONPathSelector {
        switch peek() {
        case "[":
            return try parseBracket()
        case "*":
            position += 1
            return .wildcard
        default:
            let start = position
            while let character = peek(), Self.isNameCharacter(character) { position += 1 }
            guard position > start else {
                throw error(
                    "expected a property name, `*` or `[` after `.`; quote unusual names as `['my name']`",
                    at: start
                )
            }
            return .names([String(characters[start..<position])])
        }
    }

    /// Parses `[…]`: quoted names, indexes, a slice, `*` or a filter.
    private mutating func parseBracket() throws(JSONPathSyntaxError) -> JSONPathSelector {
        let open = position
        position += 1
        skipWhitespace()
        let selector: JSONPathSelector
        switch peek() {
        case "*":
            position += 1
            selector = .wildcard
        case "?":
            position += 1
            guard peek() == "(" else {
                throw error("a filter is written `[?(condition)]`; add `(` after `?`", at: position)
            }
            position += 1
            selector = .filter(
                try nested { (parser: inout JSONPathParser) throws(JSONPathSyntaxError) in try parser.parseOr() }
            )
            skipWhitespace()
            guard peek() == ")" else {
                throw error("expected `)` to close the filter opened at offset \(open + 2)", at: position)
            }
            position += 1
        case "'", "\"":
            var names = [try parseString()]
            skipWhitespace()
            while peek() == "," {
                position += 1
                skipWhitespace()
                guard let quote = peek(), quote == "'" || quote == "\"" else {
                    throw error("expected a quoted property name after `,`", at: position)
                }
                names.append(try parseString())
                skipWhitespace()
            }
            selector = .names(names)
        case let character? where character == "-" || character == ":" || character.isASCII && character.isNumber:
            selector = try parseIndexes()
        default:
            throw error("expected a quoted name, an index, a slice, `*` or `?(` after `[`", at: position)
        }
        skipWhitespace()
        guard peek() == "]" else {
            throw error("expected `]` to close the `[` at offset \(open)", at: position)
        }
        position += 1
        return selector
    }

    /// Parses `0`, `-1`, `0,2` or a slice `1:3`, `:2`, `-2:`.
    private mutating func parseIndexes() throws(JSONPathSyntaxError) -> JSONPathSelector {
        let first = try parseOptionalInteger()
        skipWhitespace()
        if peek() == ":" {
            position += 1
            skipWhitespace()
            let end = try parseOptionalInteger()
            skipWhitespace()
            if peek() == ":" {
                throw error("slice steps are not supported; write `[start:end]`", at: position)
            }
            return .slice(start: first, end: end)
        }
        guard let first else {
            throw error("expected an array index", at: position)
        }
        var indexes = [first]
        while peek() == "," {
            position += 1
            skipWhitespace()
            guard let index = try parseOptionalInteger() else {
                throw error("expected an array index after `,`", at: position)
            }
            indexes.append(index)
            skipWhitespace()
        }
        return .indexes(indexes)
    }

    /// Parses an optionally negative integer, or returns `nil` when none starts here.
    private mutating func parseOptionalInteger() throws(JSONPathSyntaxError) -> Int? {
        let start = position
        if peek() == "-" { position += 1 }
        let digitsStart = position
        while let character = peek(), character.isASCII, character.isNumber { position += 1 }
        guard position > digitsStart else {
            if position > start { throw error("expected digits after `-`", at: position) }
            return nil
        }
        guard let value = Int(String(characters[start..<position])) else {
            throw error("the index is too large", at: start)
        }
        return value
    }

    /// Parses a quoted string with backslash escapes.
    private mutating func parseString() throws(JSONPathSyntaxError) -> String {
        let open = position
        let quote = characters[position]
        position += 1
        var result = ""
        while let character = peek() {
            position += 1
            if character == quote { return result }
            guard character == "\\" else {
                result.append(character)
                continue
            }
            guard let escaped = peek() else { break }
            position += 1
            switch escaped {
            case "n": result.append("\n")
            case "t": result.append("\t")
            case "r": result.append("\r")
            case "b": result.append("\u{8}")
            case "f": result.append("\u{C}")
            case "u":
                let hexEnd = position + 4
                guard hexEnd <= characters.count,
                    let code = UInt32(String(characters[position..<hexEnd]), radix: 16),
                    let scalar = Unicode.Scalar(code)
                else {
                    throw error("`\\u` must be followed by four hexadecimal digits", at: position - 2)
                }
                result.unicodeScalars.append(scalar)
                position = hexEnd
            default: result.append(escaped)
            }
        }
        throw error("unterminated string; close it with \(quote)", at: open)
    }

    /// Runs `body` one nesting level deeper, refusing absurdly deep expressions.
    private mutating func nested<T>(
        _ body: (inout JSONPathParser) throws(JSONPathSyntaxError) -> T
    ) throws(JSONPathSyntaxError) -> T {
        guard depth < Self.maximumDepth else {
            throw error(
                "filters and parentheses are nested too deeply (more than \(Self.maximumDepth) levels)",
                at: position
            )
        }
        depth += 1
        defer { depth -= 1 }
        return try body(&self)
    }

    /// Parses `a || b || …`.
    private mutating func parseOr() throws(JSONPathSyntaxError) -> JSONPathFilter {
        var terms = [try parseAnd()]
        while consume("||") {
            terms.append(try parseAnd())
        }
        return terms.count == 1 ? terms[0] : .any(terms)
    }

    /// Parses `a && b && …`.
    private mutating func parseAnd() throws(JSONPathSyntaxError) -> JSONPathFilter {
        var terms = [try parseUnary()]
        while consume("&&") {
            terms.append(try parseUnary())
        }
        return terms.count == 1 ? terms[0] : .all(terms)
    }

    /// Parses `!condition`, `(condition)`, a comparison or an existence test.
    private mutating func parseUnary() throws(JSONPathSyntaxError) -> JSONPathFilter {
        skipWhitespace()
        if consume("!") {
            return .not(
                try nested { (parser: inout JSONPathParser) throws(JSONPathSyntaxError) in try parser.parseUnary() }
            )
        }
        if peek() == "(" {
            let open = position
            position += 1
            let inner = try nested { (parser: inout JSONPathParser) throws(JSONPathSyntaxError) in try parser.parseOr()
            }
            skipWhitespace()
            guard peek() == ")" else {
                throw error("expected `)` to close the `(` at offset \(open)", at: position)
            }
            position += 1
            return inner
        }
        let operandStart = position
        let lhs = try parseOperand()
        skipWhitespace()
        if consume("=~") {
            skipWhitespace()
            return .matches(lhs, try parseRegex())
        }
        let operatorStart = position
        guard let comparison = JSONPathComparison.allCases.first(where: { consume($0.rawValue) }) else {
            if let character = peek(), character.isLetter || character == "=" {
                var end = position
                while end < characters.count, characters[end].isLetter || characters[end] == "=" { end += 1 }
                let word = String(characters[position..<end])
                if let relation = JSONPathRelation(rawValue: word.lowercased()) {
                    position = end
                    return .relation(lhs, relation, try parseOperand())
                }
                throw error(
                    "unsupported operator `\(word)`; use ==, !=, <, <=, >, >=, "
                        + "=~, in, nin, subsetof, anyof, noneof, contains, size or empty",
                    at: position
                )
            }
            guard case .query(let query) = lhs else {
                throw error(
                    "a literal alone is not a condition; compare it with ==, !=, <, <=, >, >= or =~",
                    at: operandStart
                )
            }
            return .exists(query)
        }
        skipWhitespace()
        if peek() == "/" {
            throw error("a regular expression needs the `=~` operator, not `\(comparison.rawValue)`", at: operatorStart)
        }
        return .comparison(lhs, comparison, try parseOperand())
    }

    /// Parses `@…`, `$…`, a quoted string, a number, `true`, `false` or `null`.
    private mutating func parseOperand() throws(JSONPathSyntaxError) -> JSONPathOperand {
        skipWhitespace()
        let start = position
        switch peek() {
        case "@", "$":
            return .query(
                try nested { (parser: inout JSONPathParser) throws(JSONPathSyntaxError) in try parser.parseQuery() }
            )
        case "'", "\"":
            return .literal(.string(try parseString()))
        case "[":
            return .literal(.array(try parseList()))
        case let character? where character == "-" || character.isASCII && character.isNumber:
            while let next = peek(), next.isASCII, next.isNumber || "-+.eE".contains(next) { position += 1 }
            guard let number = JSONNumber(text: String(characters[start..<position])) else {
                throw error("`\(String(characters[start..<position]))` is not a valid number", at: start)
            }
            return .literal(.number(number))
        default:
            for (word, value) in [("true", JSONValue.bool(true)), ("false", .bool(false)), ("null", .null)]
            where consume(word) {
                return .literal(value)
            }
            if position == characters.count {
                throw error(
                    "the filter is incomplete; expected a value such as `@.name`, 'text', 42, true or null",
                    at: position
                )
            }
            throw error("expected `@.path`, `$.path`, a quoted string, a number, true, false or null", at: position)
        }
    }

    /// Parses a list literal, `['S', 'M']` or `[1, 2]`, of strings, numbers, Booleans and `null`.
    private mutating func parseList() throws(JSONPathSyntaxError) -> [JSONValue] {
        let open = position
        position += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if peek() == "]" {
            position += 1
            return elements
        }
        while true {
            let elementStart = position
            guard case .literal(let value) = try parseOperand() else {
                throw error("a list holds only strings, numbers, true, false and null", at: elementStart)
            }
            elements.append(value)
            skipWhitespace()
            if consume(",") { continue }
            guard peek() == "]" else {
                throw error("expected `,` or `]` to close the list opened at offset \(open)", at: position)
            }
            position += 1
            return elements
        }
    }

    /// Parses `/pattern/` with an optional `i` flag.
    private mutating func parseRegex() throws(JSONPathSyntaxError) -> CompiledRegex {
        let open = position
        guard peek() == "/" else {
            throw error("`=~` must be followed by a regular expression such as /abc.*/ or /abc/i", at: position)
        }
        position += 1
        var pattern = ""
        var closed = false
        while let character = peek() {
            position += 1
            if character == "/" {
                closed = true
                break
            }
            if character == "\\", let escaped = peek() {
                position += 1
                if escaped != "/" { pattern.append("\\") }
                pattern.append(escaped)
            } else {
                pattern.append(character)
            }
        }
        guard closed else {
            throw error("unterminated regular expression; close it with `/`", at: open)
        }
        var ignoringCase = false
        while let flag = peek(), flag.isLetter {
            guard flag == "i" else {
                throw error(
                    "unsupported regular expression flag `\(flag)`; only `i` (ignore case) is supported",
                    at: position
                )
            }
            ignoringCase = true
            position += 1
        }
        // Anchored at both ends like Java's `Matcher.matches()`; refused, as every other regular
        // expression in a stub, when it could backtrack for ever.
        do {
            return try CompiledRegex(pattern, extent: .wholeText, ignoringCase: ignoringCase)
        } catch .invalid {
            throw self.error("invalid regular expression /\(pattern)/", at: open)
        } catch {
            throw self.error("the regular expression /\(pattern)/ \(error.explanation)", at: open)
        }
    }

    /// The next character, if any.
    private func peek() -> Character? {
        position < characters.count ? characters[position] : nil
    }

    /// Skips `token` when it comes next (after whitespace) and reports whether it did.
    private mutating func consume(_ token: String) -> Bool {
        skipWhitespace()
        let tokenCharacters = Array(token)
        guard position + tokenCharacters.count <= characters.count,
            Array(characters[position..<position + tokenCharacters.count]) == tokenCharacters
        else { return false }
        position += tokenCharacters.count
        return true
    }

    /// Skips spaces, tabs and line breaks.
    private mutating func skipWhitespace() {
        while let character = peek(), character.isWhitespace { position += 1 }
    }

    /// Whether `character` may appear in a dot-notation property name.
    private static func isNameCharacter(_ character: Character) -> Bool {
        !character.isWhitespace && !".[]()'\",=!<>&|~/".contains(character)
    }

    /// An error at `offset`.
    private func error(_ message: String, at offset: Int) -> JSONPathSyntaxError {
        JSONPathSyntaxError(message: message, offset: offset)
    }
}
