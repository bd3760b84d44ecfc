import Foundation
import HTTPStubs

#if canImport(FoundationXML)
import FoundationXML
#endif

/// WireMock's `matchesXPath`: an XPath 1.0 expression that selects nodes.
///
/// The expression is fully checked when created, because libxml2 (behind
/// `XMLDocument.nodes(forXPath:)` on Linux) crashes the process on any XPath
/// evaluation error. Checked: syntax, the core function library and its arities,
/// argument and operand types, and namespace prefixes. Variables, extension
/// functions and expressions whose result is not a node-set (such as
/// `count(//a)`) are rejected.
///
/// Prefixes listed in `namespaces` (`xPathNamespaces`) match by namespace URI;
/// any other prefix matches the prefix as written in the document.
///
/// A document is first read as an ``XMLTree`` (the SAX check, with its depth and attribute
/// limits), then built by libxml2. The work is charged to ``WorkBudget/current``: reading and
/// building per node, evaluating by an upper bound on the nodes the expression can visit in a
/// document of that shape (computed before libxml2 runs it, since its evaluation cannot be
/// interrupted), and each selected node's text by its length.
package struct XPathExpression: Sendable, CustomStringConvertible {
    /// The expression as written.
    let expression: String
    /// The equivalent expression without namespace prefixes, evaluated from the root element.
    private let rewritten: String
    /// What evaluating the expression costs.
    private let cost: XPathCost

    /// Checks `expression` and resolves its namespace prefixes with `namespaces` (prefix → URI).
    package init(_ expression: String, namespaces: [String: String] = [:]) throws(XMLPatternError) {
        #if canImport(FoundationXML) || os(macOS)
        self.expression = expression
        var parser = try XPathParser(expression, namespaces: namespaces)
        (self.rewritten, self.cost) = try parser.parseTopLevel()
        #else
        throw XMLPatternError.unavailable
        #endif
    }

    /// The expression as written.
    package var description: String {
        expression
    }

    /// The string value of each selected node (the text content of elements, the values of
    /// attributes, the text of text nodes). The string form of `matchesXPath` matches when this
    /// is non-empty.
    /// - Throws: `XMLReadError` when `xml` is not a document this toolkit reads, or the work
    ///   budget ran out.
    package func evaluate(_ xml: String) throws(XMLReadError) -> [String] {
        #if canImport(FoundationXML) || os(macOS)
        return try WorkBudget.metering { budget in
            Result { () throws(XMLReadError) in
                try selectedNodes(in: xml, charging: budget).map { node throws(XMLReadError) in
                    try Self.charged(node.stringValue ?? "", to: budget)
                }
            }
        }.get()
        #else
        throw .unavailable
        #endif
    }

    /// Each selected node as WireMock's `xPath` template helper prints it: an element as its XML,
    /// indented by two spaces per level and ending with a newline; an attribute or text node as
    /// its text.
    /// - Throws: `XMLReadError` when `xml` is not a document this toolkit reads, or the work
    ///   budget ran out.
    package func renderedNodes(_ xml: String) throws(XMLReadError) -> [String] {
        #if canImport(FoundationXML) || os(macOS)
        return try WorkBudget.metering { budget in
            Result { () throws(XMLReadError) in
                try selectedNodes(in: xml, charging: budget).map { node throws(XMLReadError) in
                    guard node.kind == .element else { return try Self.charged(node.stringValue ?? "", to: budget) }
                    return try Self.indented(node, level: 0, charging: budget)
                }
            }
        }.get()
        #else
        throw .unavailable
        #endif
    }

    #if canImport(FoundationXML) || os(macOS)
    /// The nodes this expression selects in `xml`, its evaluation charged to `budget` beforehand.
    private func selectedNodes(in xml: String, charging budget: WorkBudget) throws(XMLReadError) -> [XMLNode] {
        let (root, shape) = try Self.wellFormedRoot(xml, charging: budget)
        let visits = cost.visits(1, distinct: true, in: shape)
        let units = min(visits * Double(WorkBudget.Cost.xmlVisit), Double(Int.max / 2))
        guard budget.spend(Int(units), on: "the XPath \(quoted(expression)) on a document of \(shape.nodes) nodes")
        else { throw .overBudget(budget.exhaustion!) }
        let nodes = (try? root.nodes(forXPath: rewritten)) ?? []
        guard
            budget.spend(
                nodes.count * WorkBudget.Cost.xmlElement,
                on: "the nodes the XPath \(quoted(expression)) selects"
            )
        else { throw .overBudget(budget.exhaustion!) }
        return nodes
    }

    /// The root element of `xml` and the document's shape. The SAX check rejects what libxml2's
    /// tree parser would silently recover from (and documents nested deeper than it reads, which
    /// it would cut short), and external entities are never loaded.
    private static func wellFormedRoot(
        _ xml: String,
        charging budget: WorkBudget
    ) throws(XMLReadError) -> (XMLElement, XMLTree.Shape) {
        let shape = try XMLTree.parse(xml).shape
        guard
            budget.spend(
                shape.nodes * WorkBudget.Cost.xmlElement,
                on: "building an XML document of \(shape.nodes) nodes"
            )
        else { throw .overBudget(budget.exhaustion!) }
        guard let document = try? XMLDocument(xmlString: xml, options: [.nodeLoadExternalEntitiesNever]),
            let root = document.rootElement()
        else { throw .malformed("libxml2 could not build the document") }
        return (root, shape)
    }

    /// `text`, its length charged to `budget`.
    private static func charged(_ text: String, to budget: WorkBudget) throws(XMLReadError) -> String {
        guard budget.spend(text.utf8.count, on: "the text of the nodes an XPath selects") else {
            throw .overBudget(budget.exhaustion!)
        }
        return text
    }
    #endif

    /// `xml` re-printed as WireMock 3's `formatXml` does: pretty (children indented by two spaces,
    /// ending with a newline) or, `compact`, without the whitespace between elements.
    /// - Throws: `XMLReadError` when `xml` is not a document this toolkit reads, or the work
    ///   budget ran out.
    package static func formatted(_ xml: String, compact: Bool) throws(XMLReadError) -> String {
        #if canImport(FoundationXML) || os(macOS)
        return try WorkBudget.metering { budget in
            Result { () throws(XMLReadError) in
                let (root, _) = try wellFormedRoot(
                    xml.trimmingCharacters(in: .whitespacesAndNewlines),
                    charging: budget
                )
                try removeBlankText(root, charging: budget)
                return compact
                    ? try charged(root.xmlString, to: budget) : try indented(root, level: 0, charging: budget)
            }
        }.get()
        #else
        throw .unavailable
        #endif
    }

    #if canImport(FoundationXML) || os(macOS)
    /// Removes the whitespace-only text between elements. Recursive, as deep as the document
    /// (at most ``XMLTree/maximumDepth`` levels).
    private static func removeBlankText(_ node: XMLNode, charging budget: WorkBudget) throws(XMLReadError) {
        guard let element = node as? XMLElement else { return }
        let children = element.children ?? []
        guard budget.spend((1 + children.count) * WorkBudget.Cost.xmlVisit, on: "formatting XML") else {
            throw .overBudget(budget.exhaustion!)
        }
        let hasElements = children.contains { $0.kind == .element }
        for (index, child) in children.enumerated().reversed() {
            if hasElements, child.kind == .text,
                (child.stringValue ?? "").allSatisfy({ $0.isWhitespace || $0.isNewline })
            {
                element.removeChild(at: index)
            } else {
                try removeBlankText(child, charging: budget)
            }
        }
    }

    /// An element's XML, one element a line, children indented by two spaces (text-only elements
    /// on one line). Recursive, as deep as the document (at most ``XMLTree/maximumDepth`` levels);
    /// each element and the text made are charged to `budget`.
    private static func indented(
        _ node: XMLNode,
        level: Int,
        charging budget: WorkBudget
    ) throws(XMLReadError) -> String {
        guard budget.spend(WorkBudget.Cost.xmlElement, on: "printing XML") else {
            throw .overBudget(budget.exhaustion!)
        }
        let indent = String(repeating: "  ", count: level)
        let children = node.children ?? []
        let elementChildren = children.filter { $0.kind == .element }
        guard let element = node as? XMLElement else { return try charged(indent + node.xmlString + "\n", to: budget) }
        let name = element.name ?? ""
        let attributes = (element.attributes ?? []).map { " " + $0.xmlString }.joined()
        if children.isEmpty { return try charged(indent + "<\(name)\(attributes)/>\n", to: budget) }
        guard !elementChildren.isEmpty else { return try charged(indent + node.xmlString + "\n", to: budget) }
        var text = try charged(indent + "<\(name)\(attributes)>\n", to: budget)
        for child in elementChildren {
            text += try indented(child, level: level + 1, charging: budget)
        }
        return text + indent + "</\(name)>\n"
    }
    #endif
}

/// An upper bound on the nodes evaluating an XPath subexpression visits, as a formula of the
/// document's shape (``XMLTree/Shape``): libxml2 evaluates an expression without a way to stop
/// it, so its cost is bounded before it starts. Each location step reaches, from each context
/// node, at most the nodes its axis can (the children, the attributes, the descendants, …, capped
/// by what the whole document holds when the contexts are distinct), and each predicate is
/// evaluated once per node a step reaches.
private indirect enum XPathCost: Sendable {
    /// A literal or number.
    case value
    /// An operator or function call: its operands, evaluated in the same context.
    case combined([XPathCost])
    /// A location path: absolute (from the document) or relative (from the context node).
    case path(absolute: Bool, steps: [XPathStepCost])
    /// A filter expression (a parenthesized expression or function call) with predicates and
    /// location steps after it.
    case filtered(XPathCost, predicates: [XPathCost], steps: [XPathStepCost])

    /// The nodes `evaluations` evaluations visit; `distinct` when each has a context node of its own.
    func visits(_ evaluations: Double, distinct: Bool, in shape: XMLTree.Shape) -> Double {
        switch self {
        case .value:
            return evaluations
        case let .combined(operands):
            return operands.reduce(evaluations) { $0 + $1.visits(evaluations, distinct: distinct, in: shape) }
        case let .path(absolute, steps):
            if !absolute, distinct { return Self.walk(steps, from: evaluations, in: shape) }
            return evaluations * Self.walk(steps, from: 1, in: shape)
        case let .filtered(primary, predicates, steps):
            // The primary expression may select every node.
            let selected = Double(shape.nodes + 1)
            var total = primary.visits(evaluations, distinct: distinct, in: shape)
            for predicate in predicates {
                total += predicate.visits(evaluations * selected, distinct: false, in: shape)
            }
            return total + evaluations * Self.walk(steps, from: selected, in: shape)
        }
    }

    /// The nodes `steps` visit from `contexts` distinct context nodes.
    private static func walk(_ steps: [XPathStepCost], from contexts: Double, in shape: XMLTree.Shape) -> Double {
        var contexts = contexts
        var total = contexts
        for step in steps {
            let reached = step.reach.nodes(from: contexts, in: shape)
            total += reached
            for predicate in step.predicates {
                total += predicate.visits(reached, distinct: step.reach.reachesDistinctNodes, in: shape)
            }
            contexts = min(reached, Double(shape.nodes + 1))
        }
        return total
    }
}

/// A location step's cost: what its axis reaches and its predicates.
private struct XPathStepCost: Sendable {
    /// What the axis reaches.
    var reach: XPathReach
    /// The predicates' costs.
    var predicates: [XPathCost]

    /// `//`: `/descendant-or-self::node()/`.
    static let descendants = XPathStepCost(reach: .descendants, predicates: [])
}

/// What an XPath axis reaches from one context node.
private enum XPathReach: Sendable {
    /// `self`.
    case itself
    /// `parent`.
    case parent
    /// `ancestor`, `ancestor-or-self`.
    case ancestors
    /// `child`.
    case children
    /// `attribute`, `namespace`.
    case attributes
    /// `descendant`, `descendant-or-self`.
    case descendants
    /// `following-sibling`, `preceding-sibling`.
    case siblings
    /// `following`, `preceding`.
    case everything

    /// The reach of the axis `name`, or `nil` when it is not an XPath axis.
    init?(axis name: String) {
        switch name {
        case "self": self = .itself
        case "parent": self = .parent
        case "ancestor", "ancestor-or-self": self = .ancestors
        case "child": self = .children
        case "attribute", "namespace": self = .attributes
        case "descendant", "descendant-or-self": self = .descendants
        case "following-sibling", "preceding-sibling": self = .siblings
        case "following", "preceding": self = .everything
        default: return nil
        }
    }

    /// Whether distinct context nodes reach distinct nodes (so that the predicates after the
    /// step see each node once).
    var reachesDistinctNodes: Bool {
        switch self {
        case .itself, .children, .attributes: true
        default: false
        }
    }

    /// The most nodes `contexts` distinct context nodes reach in a document of `shape`.
    func nodes(from contexts: Double, in shape: XMLTree.Shape) -> Double {
        let all = Double(shape.nodes + 1)
        let depth = Double(shape.depth + 1)
        // An element's child nodes: its child elements, and the text, comments and processing
        // instructions before, between and after them.
        let childNodes = Double(2 * shape.widest + 1)
        switch self {
        case .itself, .parent: return contexts
        case .ancestors: return contexts * depth
        case .children: return min(contexts * childNodes, all)
        case .attributes: return min(contexts * Double(shape.mostAttributes), Double(shape.attributes))
        case .descendants: return min(contexts * all, all * depth)
        case .siblings: return contexts * childNodes
        case .everything: return contexts * all
        }
    }
}

/// The static type of an XPath subexpression.
private enum XPathType {
    case nodeSet, string, number, boolean
}

/// A checked subexpression: its rewritten text, static type and cost.
private struct XPathPiece {
    /// The equivalent XPath text, free of namespace prefixes.
    var text: String
    /// The static type.
    var type: XPathType
    /// What evaluating it costs.
    var cost: XPathCost
}

/// One XPath token.
private enum XPathToken: Equatable {
    /// Punctuation or an operator symbol: `( ) [ ] . .. @ , :: / // | + - = != < <= > >= *`.
    case symbol(String)
    /// A name test or name: `*`, `prefix:*`, `name` or `prefix:name` (`*` only where it is not multiplication).
    case name(String)
    /// `and`, `or`, `div` or `mod` in operator position.
    case operatorName(String)
    /// A quoted string, unquoted.
    case literal(String)
    /// A number as written.
    case number(String)
    /// `$name`.
    case variable(String)
}

/// Tokenizes, checks and rewrites an XPath 1.0 expression.
private struct XPathParser {
    /// The longest expression accepted.
    private static let maximumLength = 10_000
    /// The deepest nesting of parentheses, predicates and function calls accepted.
    private static let maximumDepth = 48
    /// Core functions: minimum and maximum arity (nil: unbounded), whether the
    /// arguments must be node-sets, and the result type.
    private static let functions: [String: (minimum: Int, maximum: Int?, nodeSetArguments: Bool, result: XPathType)] = [
        "last": (0, 0, false, .number), "position": (0, 0, false, .number),
        "count": (1, 1, true, .number), "id": (1, 1, false, .nodeSet),
        "local-name": (0, 1, true, .string), "namespace-uri": (0, 1, true, .string), "name": (0, 1, true, .string),
        "string": (0, 1, false, .string), "concat": (2, nil, false, .string),
        "starts-with": (2, 2, false, .boolean), "contains": (2, 2, false, .boolean),
        "substring-before": (2, 2, false, .string), "substring-after": (2, 2, false, .string),
        "substring": (2, 3, false, .string), "string-length": (0, 1, false, .number),
        "normalize-space": (0, 1, false, .string), "translate": (3, 3, false, .string),
        "boolean": (1, 1, false, .boolean), "not": (1, 1, false, .boolean),
        "true": (0, 0, false, .boolean), "false": (0, 0, false, .boolean), "lang": (1, 1, false, .boolean),
        "number": (0, 1, false, .number), "sum": (1, 1, true, .number),
        "floor": (1, 1, false, .number), "ceiling": (1, 1, false, .number), "round": (1, 1, false, .number),
    ]
    /// Node type tests.
    private static let nodeTypes: Set<String> = ["comment", "text", "processing-instruction", "node"]

    /// The expression's tokens with their character offsets.
    private let tokens: [(token: XPathToken, offset: Int)]
    /// The length of the expression, for errors at its end.
    private let length: Int
    /// Prefix → namespace URI.
    private let namespaces: [String: String]
    /// The index of the next token.
    private var index = 0
    /// The current nesting depth.
    private var depth = 0

    /// Tokenizes `expression`.
    init(_ expression: String, namespaces: [String: String]) throws(XMLPatternError) {
        let characters = Array(expression)
        guard characters.count <= Self.maximumLength else {
            throw XMLPatternError(message: "the XPath expression is longer than \(Self.maximumLength) characters")
        }
        self.length = characters.count
        self.namespaces = namespaces
        self.tokens = try Self.tokenize(characters)
    }

    /// Parses the whole expression, which must select nodes, and returns its
    /// rewritten form; a relative path is anchored at the document like WireMock does.
    mutating func parseTopLevel() throws(XMLPatternError) -> (text: String, cost: XPathCost) {
        guard !tokens.isEmpty else { throw XMLPatternError(message: "the XPath expression is empty") }
        let piece = try parseOr()
        if index < tokens.count {
            throw error("unexpected \(Self.describe(tokens[index].token))", at: tokens[index].offset)
        }
        guard piece.type == .nodeSet else {
            throw XMLPatternError(
                message:
                    "the XPath expression `\(piece.text)` computes a \(piece.type) instead of selecting nodes; "
                    + "matchesXPath needs a path such as //item[count(child) = 2]"
            )
        }
        return (piece.text, piece.cost)
    }

    // MARK: Expressions

    /// OrExpr.
    private mutating func parseOr() throws(XMLPatternError) -> XPathPiece {
        try parseBinary(operators: [.operatorName("or")], type: .boolean) {
            (parser: inout XPathParser) throws(XMLPatternError) in try parser.parseAnd()
        }
    }

    /// AndExpr.
    private mutating func parseAnd() throws(XMLPatternError) -> XPathPiece {
        try parseBinary(operators: [.operatorName("and")], type: .boolean) {
            (parser: inout XPathParser) throws(XMLPatternError) in try parser.parseEquality()
        }
    }

    /// EqualityExpr.
    private mutating func parseEquality() throws(XMLPatternError) -> XPathPiece {
        try parseBinary(operators: [.symbol("="), .symbol("!=")], type: .boolean) {
            (parser: inout XPathParser) throws(XMLPatternError) in try parser.parseRelational()
        }
    }

    /// RelationalExpr.
    private mutating func parseRelational() throws(XMLPatternError) -> XPathPiece {
        try parseBinary(operators: [.symbol("<"), .symbol("<="), .symbol(">"), .symbol(">=")], type: .boolean) {
            (parser: inout XPathParser) throws(XMLPatternError) in try parser.parseAdditive()
        }
    }

    /// AdditiveExpr.
    private mutating func parseAdditive() throws(XMLPatternError) -> XPathPiece {
        try parseBinary(operators: [.symbol("+"), .symbol("-")], type: .number) {
            (parser: inout XPathParser) throws(XMLPatternError) in try parser.parseMultiplicative()
        }
    }

    /// MultiplicativeExpr.
    private mutating func parseMultiplicative() throws(XMLPatternError) -> XPathPiece {
        try parseBinary(operators: [.symbol("*"), .operatorName("div"), .operatorName("mod")], type: .number) {
            (parser: inout XPathParser) throws(XMLPatternError) in try parser.parseUnary()
        }
    }

    /// Parses `operand (operator operand)*`; any operator makes the result `type`.
    private mutating func parseBinary(
        operators: [XPathToken],
        type: XPathType,
        operand: (inout XPathParser) throws(XMLPatternError) -> XPathPiece
    ) throws(XMLPatternError) -> XPathPiece {
        var result = try operand(&self)
        while let next = peek(), operators.contains(next) {
            index += 1
            let rhs = try operand(&self)
            result = XPathPiece(
                text: "\(result.text) \(Self.spelling(of: next)) \(rhs.text)",
                type: type,
                cost: .combined([result.cost, rhs.cost])
            )
        }
        return result
    }

    /// UnaryExpr: `-`* UnionExpr.
    private mutating func parseUnary() throws(XMLPatternError) -> XPathPiece {
        guard peek() == .symbol("-") else { return try parseUnion() }
        index += 1
        let operand = try nested { (parser: inout XPathParser) throws(XMLPatternError) in try parser.parseUnary() }
        return XPathPiece(text: "-\(operand.text)", type: .number, cost: operand.cost)
    }

    /// UnionExpr: PathExpr (`|` PathExpr)*, all node-sets.
    private mutating func parseUnion() throws(XMLPatternError) -> XPathPiece {
        let start = currentOffset
        var result = try parsePath()
        while peek() == .symbol("|") {
            let barOffset = currentOffset
            index += 1
            let rhs = try parsePath()
            guard result.type == .nodeSet, rhs.type == .nodeSet else {
                throw error(
                    "`|` combines node-sets only, but one side computes a value",
                    at: result.type == .nodeSet ? barOffset : start
                )
            }
            result = XPathPiece(
                text: "\(result.text) | \(rhs.text)",
                type: .nodeSet,
                cost: .combined([result.cost, rhs.cost])
            )
        }
        return result
    }

    /// PathExpr: a location path, or a filter expression optionally followed by `/` or `//` and a relative path.
    private mutating func parsePath() throws(XMLPatternError) -> XPathPiece {
        guard let next = peek() else { throw error("the expression ends too early", at: length) }
        switch next {
        case .symbol("("), .literal, .number, .variable:
            break
        case .name where isFunctionCall(at: index):
            break
        case .symbol("/"), .symbol("//"):
            index += 1
            let slash = Self.spelling(of: next)
            if next == .symbol("/"), !startsStep() {
                return XPathPiece(text: "/", type: .nodeSet, cost: .path(absolute: true, steps: []))
            }
            let relative = try parseRelativePath()
            return XPathPiece(
                text: slash + relative.text,
                type: .nodeSet,
                cost: .path(absolute: true, steps: (next == .symbol("//") ? [.descendants] : []) + relative.steps)
            )
        default:
            // The document node is the context of a top-level relative path; libxml2 would use the root element.
            let relative = try parseRelativePath()
            return XPathPiece(
                text: depth == 0 ? "/" + relative.text : relative.text,
                type: .nodeSet,
                cost: .path(absolute: depth == 0, steps: relative.steps)
            )
        }
        let start = currentOffset
        var filter = try parsePrimary()
        var predicates: [XPathCost] = []
        while peek() == .symbol("[") {
            guard filter.type == .nodeSet else {
                throw error("a predicate `[…]` can only follow a node-set", at: currentOffset)
            }
            let predicate = try parsePredicate()
            filter.text += predicate.text
            predicates.append(predicate.cost)
        }
        var steps: [XPathStepCost] = []
        if let slash = peek(), slash == .symbol("/") || slash == .symbol("//") {
            guard filter.type == .nodeSet else {
                throw error("a path step can only follow a node-set, not a computed value", at: start)
            }
            index += 1
            let relative = try parseRelativePath()
            filter.text += Self.spelling(of: slash) + relative.text
            steps = (slash == .symbol("//") ? [.descendants] : []) + relative.steps
        }
        if !predicates.isEmpty || !steps.isEmpty {
            filter.cost = .filtered(filter.cost, predicates: predicates, steps: steps)
        }
        return filter
    }

    /// PrimaryExpr: a parenthesized expression, literal, number or function call.
    private mutating func parsePrimary() throws(XMLPatternError) -> XPathPiece {
        let offset = currentOffset
        switch peek() {
        case .variable(let name)?:
            throw error("variables such as `$\(name)` are not supported; write the value instead", at: offset)
        case .literal(let value)?:
            index += 1
            return XPathPiece(text: try Self.quote(value, at: offset), type: .string, cost: .value)
        case .number(let text)?:
            index += 1
            return XPathPiece(text: text, type: .number, cost: .value)
        case .symbol("(")?:
            index += 1
            let inner = try nested { (parser: inout XPathParser) throws(XMLPatternError) in try parser.parseOr() }
            try expect(.symbol(")"), "to close the `(` at offset \(offset)")
            return XPathPiece(text: "(\(inner.text))", type: inner.type, cost: inner.cost)
        case .name(let name)?:
            return try parseFunctionCall(name, at: offset)
        default:
            throw error("expected a value", at: offset)
        }
    }

    /// A call of a core function, checking arity and argument types.
    private mutating func parseFunctionCall(_ name: String, at offset: Int) throws(XMLPatternError) -> XPathPiece {
        guard let signature = Self.functions[name] else {
            throw error("unknown function `\(name)()`; only the XPath 1.0 core functions are supported", at: offset)
        }
        index += 2
        var arguments: [XPathPiece] = []
        if peek() != .symbol(")") {
            repeat {
                let argumentOffset = currentOffset
                let argument = try nested { (parser: inout XPathParser) throws(XMLPatternError) in try parser.parseOr()
                }
                if signature.nodeSetArguments, argument.type != .nodeSet {
                    throw error("`\(name)()` needs a node-set argument such as //item", at: argumentOffset)
                }
                arguments.append(argument)
            } while consume(.symbol(","))
        }
        try expect(.symbol(")"), "to close the call of `\(name)()`")
        guard arguments.count >= signature.minimum, arguments.count <= signature.maximum ?? Int.max else {
            let expected =
                signature.maximum == signature.minimum
                ? "\(signature.minimum)"
                : signature.maximum.map { "\(signature.minimum) to \($0)" } ?? "at least \(signature.minimum)"
            throw error("`\(name)()` takes \(expected) argument(s), not \(arguments.count)", at: offset)
        }
        return XPathPiece(
            text: "\(name)(\(arguments.map(\.text).joined(separator: ", ")))",
            type: signature.result,
            cost: .combined(arguments.map(\.cost))
        )
    }

    /// RelativeLocationPath: Step ((`/` | `//`) Step)*, with the cost of each step (`//` is one more).
    private mutating func parseRelativePath() throws(XMLPatternError) -> (text: String, steps: [XPathStepCost]) {
        var (text, first) = try parseStep()
        var steps = [first]
        while let slash = peek(), slash == .symbol("/") || slash == .symbol("//") {
            index += 1
            let (stepText, step) = try parseStep()
            text += Self.spelling(of: slash) + stepText
            steps += (slash == .symbol("//") ? [.descendants] : []) + [step]
        }
        return (text, steps)
    }

    /// Whether the next token can start a location step.
    private func startsStep() -> Bool {
        switch peek() {
        case .name?, .symbol(".")?, .symbol("..")?, .symbol("@")?: true
        default: false
        }
    }

    /// Step: `.`, `..`, or an optional axis, a node test and predicates.
    private mutating func parseStep() throws(XMLPatternError) -> (text: String, cost: XPathStepCost) {
        let offset = currentOffset
        switch peek() {
        case .symbol(".")?, .symbol("..")?:
            index += 1
            let text = Self.spelling(of: tokens[index - 1].token)
            return (text, XPathStepCost(reach: text == "." ? .itself : .parent, predicates: []))
        case .symbol("@")?:
            index += 1
            let (test, predicates) = try parseNodeTestAndPredicates(axis: "attribute")
            return ("@" + test, XPathStepCost(reach: .attributes, predicates: predicates))
        case .name(let name)? where index + 1 < tokens.count && tokens[index + 1].token == .symbol("::"):
            guard let reach = XPathReach(axis: name) else {
                throw error("unknown axis `\(name)::`", at: offset)
            }
            index += 2
            let (test, predicates) = try parseNodeTestAndPredicates(axis: name)
            return ("\(name)::" + test, XPathStepCost(reach: reach, predicates: predicates))
        case .name?:
            let (test, predicates) = try parseNodeTestAndPredicates(axis: "child")
            return (test, XPathStepCost(reach: .children, predicates: predicates))
        case nil:
            throw error("the path ends too early; add a step such as `item` or `@id`", at: length)
        case let token?:
            throw error(
                "expected a path step such as `item`, `@id` or `text()`, found \(Self.describe(token))",
                at: offset
            )
        }
    }

    /// A node test followed by predicates, with namespace prefixes rewritten, and the predicates' costs.
    private mutating func parseNodeTestAndPredicates(
        axis: String
    ) throws(XMLPatternError) -> (text: String, predicates: [XPathCost]) {
        let offset = currentOffset
        guard case .name(let name)? = peek() else {
            throw error("expected a name or a node test such as `text()` after the axis", at: offset)
        }
        index += 1
        var text: String
        if Self.nodeTypes.contains(name), consume(.symbol("(")) {
            if name == "processing-instruction", case .literal(let target)? = peek() {
                index += 1
                text = "\(name)(\(try Self.quote(target, at: offset)))"
            } else {
                text = "\(name)()"
            }
            try expect(.symbol(")"), "to close `\(name)(`")
        } else if peek() == .symbol("(") {
            throw error(
                "`\(name)(` is not a node test; use a function in a predicate, such as [\(name)(…)]",
                at: offset
            )
        } else if let colon = name.firstIndex(of: ":") {
            let prefix = String(name[..<colon])
            let local = String(name[name.index(after: colon)...])
            let condition: String
            if let uri = namespaces[prefix] {
                let uriLiteral = try Self.quote(uri, at: offset)
                condition =
                    local == "*"
                    ? "namespace-uri() = \(uriLiteral)"
                    : "local-name() = \(try Self.quote(local, at: offset)) and namespace-uri() = \(uriLiteral)"
            } else {
                condition =
                    local == "*"
                    ? "starts-with(name(), \(try Self.quote(prefix + ":", at: offset)))"
                    : "name() = \(try Self.quote(name, at: offset))"
            }
            text = axis == "namespace" ? "*" : "*[\(condition)]"
        } else {
            text = name
        }
        var predicates: [XPathCost] = []
        while peek() == .symbol("[") {
            let predicate = try parsePredicate()
            text += predicate.text
            predicates.append(predicate.cost)
        }
        return (text, predicates)
    }

    /// Predicate: `[` Expr `]`.
    private mutating func parsePredicate() throws(XMLPatternError) -> XPathPiece {
        let offset = currentOffset
        index += 1
        let inner = try nested { (parser: inout XPathParser) throws(XMLPatternError) in try parser.parseOr() }
        try expect(.symbol("]"), "to close the `[` at offset \(offset)")
        return XPathPiece(text: "[\(inner.text)]", type: inner.type, cost: inner.cost)
    }

    // MARK: Helpers

    /// Whether the name token at `position` starts a function call (`name(` and not a node type).
    private func isFunctionCall(at position: Int) -> Bool {
        guard case .name(let name) = tokens[position].token, !Self.nodeTypes.contains(name),
            position + 1 < tokens.count
        else { return false }
        return tokens[position + 1].token == .symbol("(")
    }

    /// Runs `body` one nesting level deeper, refusing absurdly deep expressions.
    private mutating func nested(
        _ body: (inout XPathParser) throws(XMLPatternError) -> XPathPiece
    ) throws(XMLPatternError) -> XPathPiece {
        guard depth < Self.maximumDepth else {
            throw error(
                "the expression is nested too deeply (more than \(Self.maximumDepth) levels)",
                at: currentOffset
            )
        }
        depth += 1
        defer { depth -= 1 }
        return try body(&self)
    }

    /// The next token, if any.
    private func peek() -> XPathToken? {
        index < tokens.count ? tokens[index].token : nil
    }

    /// The offset of the next token, or the end of the expression.
    private var currentOffset: Int {
        index < tokens.count ? tokens[index].offset : length
    }

    /// Skips `token` when it comes next and reports whether it did.
    private mutating func consume(_ token: XPathToken) -> Bool {
        guard peek() == token else { return false }
        index += 1
        return true
    }

    /// Skips `token`, or throws saying it is needed `purpose`.
    private mutating func expect(_ token: XPathToken, _ purpose: String) throws(XMLPatternError) {
        guard consume(token) else {
            let found = peek().map(Self.describe) ?? "the end of the expression"
            throw error("expected `\(Self.spelling(of: token))` \(purpose), found \(found)", at: currentOffset)
        }
    }

    /// An error at `offset`.
    private func error(_ message: String, at offset: Int) -> XMLPatternError {
        XMLPatternError(message: "invalid XPath at offset \(offset): \(message)")
    }

    /// `value` as an XPath string literal.
    private static func quote(_ value: String, at offset: Int) throws(XMLPatternError) -> String {
        if !value.contains("'") { return "'\(value)'" }
        if !value.contains("\"") { return "\"\(value)\"" }
        throw XMLPatternError(
            message: "invalid XPath at offset \(offset): a string cannot contain both ' and \" in XPath 1.0"
        )
    }

    /// How `token` is written.
    private static func spelling(of token: XPathToken) -> String {
        switch token {
        case .symbol(let text), .name(let text), .operatorName(let text), .number(let text): text
        case .literal(let text): "'\(text)'"
        case .variable(let name): "$\(name)"
        }
    }

    /// `token` for messages.
    private static func describe(_ token: XPathToken) -> String {
        "`\(spelling(of: token))`"
    }

    // MARK: Tokenizer

    /// Splits `characters` into tokens, following the XPath 1.0 lexical rules
    /// for telling `*` and `and`/`or`/`div`/`mod` apart from names.
    private static func tokenize(
        _ characters: [Character]
    ) throws(XMLPatternError) -> [(token: XPathToken, offset: Int)] {
        var tokens: [(token: XPathToken, offset: Int)] = []
        var position = 0
        func fail(_ message: String, _ offset: Int) -> XMLPatternError {
            XMLPatternError(message: "invalid XPath at offset \(offset): \(message)")
        }
        /// Whether the next `*` or NCName is an operator, given the previous token.
        func operatorExpected() -> Bool {
            guard let previous = tokens.last?.token else { return false }
            switch previous {
            case .symbol(let symbol): return [")", "]", ".", ".."].contains(symbol)
            case .operatorName: return false
            default: return true
            }
        }
        func readNCName() -> String {
            let start = position
            while position < characters.count, isNameCharacter(characters[position], first: position == start) {
                position += 1
            }
            return String(characters[start..<position])
        }
        while position < characters.count {
            let character = characters[position]
            let start = position
            if character.isWhitespace {
                position += 1
                continue
            }
            let next: Character? = position + 1 < characters.count ? characters[position + 1] : nil
            switch character {
            case "(", ")", "[", "]", "@", ",", "|", "+", "-", "=", "<", ">", "!", "/", ":", ".", "*":
                break
            case "'", "\"":
                guard let close = characters[(position + 1)...].firstIndex(of: character) else {
                    throw fail("unterminated string; close it with \(character)", start)
                }
                tokens.append((.literal(String(characters[(position + 1)..<close])), start))
                position = close + 1
                continue
            case "$":
                position += 1
                let name = readNCName()
                guard !name.isEmpty else { throw fail("expected a variable name after `$`", start) }
                tokens.append((.variable(name), start))
                continue
            default:
                if character.isASCII, character.isNumber {
                    while position < characters.count, characters[position].isASCII,
                        characters[position].isNumber || characters[position] == "."
                    { position += 1 }
                    let text = String(characters[start..<position])
                    guard Double(text) != nil else { throw fail("`\(text)` is not a number", start) }
                    tokens.append((.number(text), start))
                    continue
                }
                guard isNameCharacter(character, first: true) else {
                    throw fail("unexpected character `\(character)`", start)
                }
                let name = readNCName()
                if operatorExpected() {
                    guard ["and", "or", "div", "mod"].contains(name) else {
                        throw fail("expected an operator (and, or, div, mod, =, |, …), found `\(name)`", start)
                    }
                    tokens.append((.operatorName(name), start))
                    continue
                }
                if position + 1 < characters.count, characters[position] == ":", characters[position + 1] != ":" {
                    position += 1
                    if position < characters.count, characters[position] == "*" {
                        position += 1
                        tokens.append((.name(name + ":*"), start))
                        continue
                    }
                    let local = readNCName()
                    guard !local.isEmpty else { throw fail("expected a local name or `*` after `\(name):`", position) }
                    tokens.append((.name(name + ":" + local), start))
                    continue
                }
                tokens.append((.name(name), start))
                continue
            }
            // Symbols.
            let symbol: String
            switch (character, next) {
            case ("/", "/"?): symbol = "//"
            case (".", "."?): symbol = ".."
            case (":", ":"?): symbol = "::"
            case ("!", "="?): symbol = "!="
            case ("<", "="?): symbol = "<="
            case (">", "="?): symbol = ">="
            case (".", let digit?) where digit.isASCII && digit.isNumber:
                position += 1
                while position < characters.count, characters[position].isASCII, characters[position].isNumber {
                    position += 1
                }
                tokens.append((.number(String(characters[start..<position])), start))
                continue
            case ("!", _): throw fail("`!` is only valid in `!=`; use not(…) for negation", start)
            case (":", _): throw fail("unexpected `:`", start)
            case ("*", _) where !operatorExpected():
                position += 1
                tokens.append((.name("*"), start))
                continue
            default: symbol = String(character)
            }
            position += symbol.count
            tokens.append((.symbol(symbol), start))
        }
        return tokens
    }

    /// Whether `character` may appear in an XML name (NCName), optionally as its first character.
    private static func isNameCharacter(_ character: Character, first: Bool) -> Bool {
        if character.isLetter || character == "_" { return true }
        if first { return false }
        return character.isNumber || character == "-" || character == "."
    }
}
