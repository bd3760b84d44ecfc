import Foundation
import HTTPStubs

#if canImport(FoundationXML)
import FoundationXML
#endif

/// A problem with an XML pattern (`equalToXml`, `matchesXPath`) in a stub.
package struct XMLPatternError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong and how to fix it.
    package let message: String

    /// The message.
    package var description: String {
        message
    }

    /// The error reported wherever the platform's Foundation has no `XMLDocument`.
    static let unavailable = XMLPatternError(message: "XML matching is not available on this platform")
}

/// WireMock's `equalToXml`: semantic comparison in the spirit of XMLUnit's "similar".
///
/// Elements compare by namespace URI and local name, attributes as an unordered
/// set (namespace declarations excluded), child elements in order (or in any
/// order with `ignoreOrderOfSameNode`), and text after trimming, with
/// whitespace-only text, comments and processing instructions ignored. With XMLUnit placeholders
/// (``withPlaceholders(_:)``), an expected text or attribute value such as `${xmlunit.ignore}`
/// stands for a kind of value.
///
/// Both documents are read as ``XMLTree``s (depth-limited, flat) and compared with an explicit
/// stack, never by recursion; every pair of elements compared charges ``WorkBudget/current``, so
/// that a wide body, or `ignoreOrderOfSameNode` trying many pairings, stops with a clear
/// difference instead of taking minutes.
package struct XMLEquality: Sendable {
    /// The most differences `compare` reports.
    static let maximumDifferences = 5

    /// The expected document.
    private let expected: XMLTree
    /// Whether sibling elements may appear in any order.
    let ignoreOrderOfSameNode: Bool
    /// The placeholders among the expected texts and attribute values, by their text.
    private var placeholders: [String: XMLUnitPlaceholder] = [:]

    /// Parses the expected document.
    ///
    /// - Throws: `XMLPatternError` when `expected` is not well-formed XML, is nested too deeply,
    ///   or when the platform cannot parse XML.
    package init(expected: String, ignoreOrderOfSameNode: Bool = false) throws(XMLPatternError) {
        do {
            self.expected = try XMLTree.parse(expected)
        } catch .unavailable {
            throw .unavailable
        } catch let .malformed(reason) {
            throw XMLPatternError(
                message:
                    "the expected XML of equalToXml is not well-formed: \(reason); "
                    + "check that every tag is closed and attribute values are quoted"
            )
        } catch {
            throw XMLPatternError(message: "the expected XML of equalToXml cannot be read: \(error)")
        }
        self.ignoreOrderOfSameNode = ignoreOrderOfSameNode
    }

    /// This comparison with the placeholders `syntax` finds in the expected texts and attribute values.
    /// - Throws: `XMLPatternError`, prefixed with the element's path, for a placeholder that could
    ///   never match (see ``XMLUnitPlaceholderSyntax/placeholder(in:)``).
    package func withPlaceholders(_ syntax: XMLUnitPlaceholderSyntax) throws(XMLPatternError) -> XMLEquality {
        var result = self
        for (index, element) in expected.elements.enumerated() {
            do {
                if !element.text.isEmpty, let placeholder = try syntax.placeholder(in: element.text) {
                    result.placeholders[element.text] = placeholder
                }
                for attribute in element.attributes {
                    if let placeholder = try syntax.placeholder(in: attribute.value) {
                        result.placeholders[attribute.value] = placeholder
                    }
                }
            } catch {
                throw XMLPatternError(message: "\(expected.path(of: index)): \(error.message)")
            }
        }
        return result
    }

    /// Compares `actual` with the expected document.
    ///
    /// - Returns: Whether they are similar, and up to five readable differences
    ///   such as `/a/b[2]: expected text "x", got "y"`; or why `actual` could not be compared (not
    ///   well-formed, nested too deeply, the work budget spent).
    package func compare(_ actual: String) -> (isMatch: Bool, differences: [String]) {
        // One budget for reading and comparing: the request's, or one of its own.
        WorkBudget.metering { budget in
            let actualTree: XMLTree
            do {
                actualTree = try XMLTree.parse(actual)
            } catch let XMLReadError.malformed(reason) {
                return (false, ["the body is not well-formed XML: \(reason)"])
            } catch {
                return (false, ["\(error)"])
            }
            var comparison = Comparison(equality: self, actual: actualTree, budget: budget)
            var differences = Differences(limit: Self.maximumDifferences)
            comparison.compare(expected.root, actualTree.root, into: &differences)
            if let exhaustion = comparison.exhaustion { return (false, ["\(exhaustion)"]) }
            return (differences.count == 0, differences.reported)
        }
    }

    /// Differences found, the first `limit` of them as text.
    fileprivate struct Differences {
        /// How many are kept as text; 0 when only whether there is one matters.
        let limit: Int
        /// How many were found.
        private(set) var count = 0
        /// The first `limit`, as text.
        private(set) var reported: [String] = []

        /// Whether no more need be looked for.
        var isFull: Bool {
            count >= max(limit, 1)
        }

        /// Records a difference, made into text only when it is kept.
        mutating func report(_ text: @autoclosure () -> String) {
            count += 1
            if reported.count < limit { reported.append(text()) }
        }
    }

    /// One comparison of the expected document with an actual one, charging a work budget.
    private struct Comparison {
        let equality: XMLEquality
        let actual: XMLTree
        let budget: WorkBudget
        /// Why the comparison stopped before it finished, if it did.
        private(set) var exhaustion: WorkBudget.Exhaustion?

        init(equality: XMLEquality, actual: XMLTree, budget: WorkBudget) {
            self.equality = equality
            self.actual = actual
            self.budget = budget
        }

        private var expected: XMLTree {
            equality.expected
        }

        /// Takes the cost of comparing one pair of elements (and of their attributes) from the
        /// budget; `false` once it is spent.
        private mutating func charge(_ expectedIndex: Int, _ actualIndex: Int) -> Bool {
            guard exhaustion == nil else { return false }
            let attributes = expected[expectedIndex].attributes.count + actual[actualIndex].attributes.count
            let units = WorkBudget.Cost.xmlElement + WorkBudget.Cost.xmlVisit * attributes
            if budget.spend(units, on: "comparing XML (equalToXml)") { return true }
            exhaustion = budget.exhaustion
            return false
        }

        /// Appends the differences between two documents' elements and their descendants, up to
        /// the limit, in document order.
        mutating func compare(_ expectedRoot: Int, _ actualRoot: Int, into differences: inout Differences) {
            /// A step of the comparison: a pair to compare, or an element without a partner.
            enum Work {
                case pair(Int, Int)
                case missing(parent: Int, child: Int)
                case unexpected(parent: Int, child: Int)
            }
            var work: [Work] = [.pair(expectedRoot, actualRoot)]
            while !differences.isFull, let next = work.popLast() {
                switch next {
                case let .pair(expectedIndex, actualIndex):
                    guard charge(expectedIndex, actualIndex) else { return }
                    guard compareOwn(expectedIndex, actualIndex, into: &differences), !differences.isFull else {
                        continue
                    }
                    guard let pairs = pairChildren(expectedIndex, actualIndex) else { return }
                    for pair in pairs.reversed() {
                        switch pair {
                        case let (expectedChild?, actualChild?): work.append(.pair(expectedChild, actualChild))
                        case let (expectedChild?, nil):
                            work.append(.missing(parent: expectedIndex, child: expectedChild))
                        case let (nil, actualChild?):
                            work.append(.unexpected(parent: expectedIndex, child: actualChild))
                        case (nil, nil): break
                        }
                    }
                case let .missing(parent, child):
                    differences.report(
                        "\(expected.path(of: parent)): missing element \(expected[child].displayName)"
                    )
                case let .unexpected(parent, child):
                    differences.report(
                        "\(expected.path(of: parent)): unexpected element \(actual[child].displayName)"
                    )
                }
            }
        }

        /// Reports the differences of two elements themselves (names, attributes, text); `true`
        /// when their children are to be compared too.
        private func compareOwn(_ expectedIndex: Int, _ actualIndex: Int, into differences: inout Differences) -> Bool {
            let expectedElement = expected[expectedIndex]
            let actualElement = actual[actualIndex]
            let expected = self.expected
            func report(_ text: @autoclosure () -> String) {
                differences.report("\(expected.path(of: expectedIndex)): \(text())")
            }
            guard expectedElement.namespaceURI == actualElement.namespaceURI,
                expectedElement.localName == actualElement.localName
            else {
                report("expected element \(expectedElement.displayName), got \(actualElement.displayName)")
                return false
            }
            let actualAttributes = AttributeLookup(actualElement.attributes)
            for attribute in expectedElement.attributes {
                let other = actualAttributes.named(like: attribute)
                if let placeholder = equality.placeholders[attribute.value] {
                    if !placeholder.accepts(other?.value) {
                        report(
                            "attribute \(attribute.qualifiedName): expected \(placeholder), got "
                                + (other.map { "\"\($0.value)\"" } ?? "none")
                        )
                    }
                    continue
                }
                if let other {
                    if other.value != attribute.value {
                        report(
                            "expected attribute \(attribute.qualifiedName)=\"\(attribute.value)\", got \"\(other.value)\""
                        )
                    }
                } else {
                    report("missing attribute \(attribute.qualifiedName)=\"\(attribute.value)\"")
                }
            }
            let expectedAttributes = AttributeLookup(expectedElement.attributes)
            for attribute in actualElement.attributes where expectedAttributes.named(like: attribute) == nil {
                report("unexpected attribute \(attribute.qualifiedName)=\"\(attribute.value)\"")
            }
            let expectedText = expectedElement.text
            let actualText = actualElement.text
            let got = actualText.isEmpty ? "no text" : "\"\(actualText)\""
            if !expectedText.isEmpty, let placeholder = equality.placeholders[expectedText] {
                if textPlaceholder(placeholder, of: expectedElement, accepts: actualElement) {
                    // XMLUnit lets an element's only text stand for an only child element.
                    if expectedElement.children.isEmpty { return false }
                } else {
                    report("expected text \(placeholder), got \(got)")
                }
            } else if expectedText != actualText {
                report(
                    expectedText.isEmpty
                        ? "expected no text, got \(got)" : "expected text \"\(expectedText)\", got \(got)"
                )
            }
            return true
        }

        /// Whether `actual` passes the placeholder that is the text of `expected`, as XMLUnit
        /// compares child nodes: a text-only expected element matches an element with that text,
        /// with no text (the placeholder then sees none), or whose only child is an element
        /// (likewise); an expected element with child elements needs text beside them.
        private func textPlaceholder(
            _ placeholder: XMLUnitPlaceholder,
            of expected: XMLTree.Element,
            accepts actual: XMLTree.Element
        ) -> Bool {
            guard expected.children.isEmpty else { return !actual.text.isEmpty && placeholder.accepts(actual.text) }
            if actual.children.isEmpty { return placeholder.accepts(actual.text.isEmpty ? nil : actual.text) }
            return actual.children.count == 1 && actual.text.isEmpty && placeholder.accepts(nil)
        }

        /// Pairs the expected element's child elements with the actual one's: by position or,
        /// when order is ignored, first each expected child with the first unpaired similar one,
        /// then the rest with the first unpaired child of the same name. `nil` when the work
        /// budget ran out.
        private mutating func pairChildren(_ expectedIndex: Int, _ actualIndex: Int) -> [(Int?, Int?)]? {
            let expectedChildren = expected[expectedIndex].children
            let actualChildren = actual[actualIndex].children
            guard equality.ignoreOrderOfSameNode else {
                return (0..<max(expectedChildren.count, actualChildren.count)).map { index in
                    (
                        index < expectedChildren.count ? expectedChildren[index] : nil,
                        index < actualChildren.count ? actualChildren[index] : nil
                    )
                }
            }
            var partners = [Int?](repeating: nil, count: expectedChildren.count)
            var unpaired = actualChildren
            for (position, child) in expectedChildren.enumerated() {
                for (candidatePosition, candidate) in unpaired.enumerated() {
                    guard let similar = isSimilar(child, candidate) else { return nil }
                    if similar {
                        partners[position] = candidate
                        unpaired.remove(at: candidatePosition)
                        break
                    }
                }
            }
            for (position, child) in expectedChildren.enumerated() where partners[position] == nil {
                let element = expected[child]
                guard charge(child, actualIndex) else { return nil }
                let sameName = unpaired.firstIndex {
                    actual[$0].namespaceURI == element.namespaceURI && actual[$0].localName == element.localName
                }
                if let sameName {
                    partners[position] = unpaired.remove(at: sameName)
                }
            }
            return partners.enumerated().map { (expectedChildren[$0.offset], $0.element) } + unpaired.map { (nil, $0) }
        }

        /// Whether two elements and their descendants have no difference, with order ignored:
        /// each expected child pairs with the first unpaired similar actual child, and none is
        /// left over. Searched with an explicit stack; `nil` when the work budget ran out.
        private mutating func isSimilar(_ expectedIndex: Int, _ actualIndex: Int) -> Bool? {
            /// A pair of elements whose children are being paired.
            struct Frame {
                /// The expected element's children.
                let expectedChildren: [Int]
                /// How many of them have found a partner.
                var paired = 0
                /// The actual element's children without a partner yet.
                var unpaired: [Int]
                /// The position in `unpaired` of the candidate being tried.
                var candidate = 0
            }
            /// What comparing two elements themselves gives: the answer, or their children to pair.
            enum Opened {
                case decided(Bool)
                case children(Frame)
            }
            /// Compares two elements themselves; `nil` when the work budget ran out.
            func open(_ comparison: inout Comparison, _ expectedIndex: Int, _ actualIndex: Int) -> Opened? {
                guard comparison.charge(expectedIndex, actualIndex) else { return nil }
                var differences = Differences(limit: 0)
                let descend = comparison.compareOwn(expectedIndex, actualIndex, into: &differences)
                guard differences.count == 0 else { return .decided(false) }
                guard descend else { return .decided(true) }
                return .children(
                    Frame(
                        expectedChildren: comparison.expected[expectedIndex].children,
                        unpaired: comparison.actual[actualIndex].children
                    )
                )
            }
            var stack: [Frame] = []
            switch open(&self, expectedIndex, actualIndex) {
            case nil: return nil
            case let .decided(result)?: return result
            case let .children(frame)?: stack.append(frame)
            }
            // The answer for the pair the top frame tried (once the stack is empty, the answer).
            var outcome = false
            // Whether `outcome` is new, for the top frame's candidate.
            var tried = false
            while let top = stack.indices.last {
                if tried {
                    tried = false
                    if outcome {
                        stack[top].unpaired.remove(at: stack[top].candidate)
                        stack[top].paired += 1
                        stack[top].candidate = 0
                    } else {
                        stack[top].candidate += 1
                    }
                }
                let frame = stack[top]
                if frame.paired == frame.expectedChildren.count || frame.candidate == frame.unpaired.count {
                    outcome = frame.paired == frame.expectedChildren.count && frame.unpaired.isEmpty
                    stack.removeLast()
                    tried = true
                    continue
                }
                switch open(&self, frame.expectedChildren[frame.paired], frame.unpaired[frame.candidate]) {
                case nil:
                    return nil
                case let .decided(result)?:
                    outcome = result
                    tried = true
                case let .children(child)?:
                    stack.append(child)
                }
            }
            return outcome
        }
    }
}

/// An element's attributes looked up by namespace URI and local name: through a dictionary when
/// there are many (so that comparing two elements with thousands of attributes takes linear time),
/// by a search when there are few.
private struct AttributeLookup {
    /// The attributes.
    let attributes: [XMLTreeAttribute]
    /// The index of each by ``XMLTreeAttribute/nameKey``, when there are many.
    private let indexes: [String: Int]?

    init(_ attributes: [XMLTreeAttribute]) {
        self.attributes = attributes
        guard attributes.count > 16 else {
            indexes = nil
            return
        }
        var indexes: [String: Int] = [:]
        for (index, attribute) in attributes.enumerated() { indexes[attribute.nameKey] = index }
        self.indexes = indexes
    }

    /// The attribute with the same namespace URI and local name as `other`, if any.
    func named(like other: XMLTreeAttribute) -> XMLTreeAttribute? {
        guard let indexes else { return attributes.first { $0.hasSameName(as: other) } }
        return indexes[other.nameKey].map { attributes[$0] }
    }
}
