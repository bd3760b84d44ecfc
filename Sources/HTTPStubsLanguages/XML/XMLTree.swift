import Foundation
import HTTPStubs

#if canImport(FoundationXML)
import FoundationXML
#endif

/// Why a text could not be read as XML.
package enum XMLReadError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Not well-formed: the reason, such as `the XML is malformed near line 2, column 7`.
    case malformed(String)
    /// An element opened deeper than ``XMLTree/maximumDepth``, at this line and column.
    case tooDeep(line: Int, column: Int)
    /// A start tag with more than ``XMLTree/maximumAttributes`` attributes, on this line.
    case tooManyAttributes(line: Int)
    /// The work budget of the request ran out while the document was read.
    case overBudget(WorkBudget.Exhaustion)
    /// The platform's Foundation has no `XMLParser`.
    case unavailable

    /// What is wrong, and what to do about it.
    package var description: String {
        switch self {
        case let .malformed(reason):
            return reason
        case let .tooDeep(line, column):
            return
                "XML nested deeper than \(XMLTree.maximumDepth) levels (an element opens at line \(line), "
                + "column \(column) inside \(XMLTree.maximumDepth) others); swift-http-stubs reads at most "
                + "\(XMLTree.maximumDepth), as libxml2 does: flatten the document"
        case let .tooManyAttributes(line):
            return
                "an element on line \(line) has more than \(XMLTree.maximumAttributes) attributes, the most "
                + "swift-http-stubs reads in one element (libxml2 checks them pairwise); use child elements"
        case let .overBudget(exhaustion):
            return exhaustion.description
        case .unavailable:
            return XMLPatternError.unavailable.message
        }
    }
}

/// An attribute of an ``XMLTree`` element.
struct XMLTreeAttribute: Sendable, Equatable {
    /// The namespace URI, empty when none.
    let namespaceURI: String
    /// The name without prefix.
    let localName: String
    /// The name as written, with any prefix.
    let qualifiedName: String
    /// The normalized value.
    let value: String

    /// The namespace URI and local name in one string, for looking attributes up by name.
    var nameKey: String {
        namespaceURI + "\u{0}" + localName
    }

    /// Whether both attributes have the same namespace URI and local name.
    func hasSameName(as other: XMLTreeAttribute) -> Bool {
        namespaceURI == other.namespaceURI && localName == other.localName
    }
}

/// An immutable, platform-neutral snapshot of an XML document's elements, read with the SAX
/// `XMLParser` (which reports every error; libxml2's tree parser silently recovers from some and
/// prints others to standard error).
///
/// The elements are stored flat, in document order, each naming its children and parent by
/// index: nothing about the tree is recursive, so building, walking and freeing it take no stack
/// however the document is shaped. Reading refuses documents nested deeper than
/// ``maximumDepth`` levels (the limit libxml2's tree parser, behind `XMLDocument`, applies too)
/// and start tags with more than ``maximumAttributes`` attributes (libxml2 compares them
/// pairwise), and charges ``WorkBudget/current`` for every element read.
struct XMLTree: Sendable {
    /// The deepest nesting of elements read: the root element is level 1.
    static let maximumDepth = 256
    /// The most attributes (namespace declarations included) one start tag may have.
    static let maximumAttributes = 1_000
    /// How many bytes of text cost a ``WorkBudget`` unit.
    static let textBytesPerUnit = 1

    /// One element.
    struct Element: Sendable {
        /// The namespace URI, empty when none.
        let namespaceURI: String
        /// The name without prefix.
        let localName: String
        /// The name as written, with any prefix.
        let qualifiedName: String
        /// The attributes, namespace declarations excluded, sorted by qualified name.
        let attributes: [XMLTreeAttribute]
        /// The parent's index; `nil` for the root element.
        let parent: Int?
        /// The child elements' indexes, in order.
        fileprivate(set) var children: [Int] = []
        /// The element's own text (text and CDATA children, concatenated and trimmed).
        fileprivate(set) var text = ""
        /// The 1-based position among same-named siblings, or 0 when it has none.
        fileprivate(set) var position = 0

        /// The name for messages: `<name>`, with the namespace URI when there is one.
        var displayName: String {
            namespaceURI.isEmpty ? "<\(qualifiedName)>" : "<\(qualifiedName)> (namespace \(namespaceURI))"
        }

        /// The element's path step: its name, with its position among same-named siblings when
        /// there are several (`b[2]`).
        var step: String {
            position == 0 ? qualifiedName : "\(qualifiedName)[\(position)]"
        }
    }

    /// How big a document is, for bounding the work an expression may do on it.
    struct Shape: Sendable {
        /// The elements.
        var elements = 0
        /// The other nodes: text, CDATA, comments, processing instructions.
        var otherNodes = 0
        /// The attributes.
        var attributes = 0
        /// The deepest level of nesting.
        var depth = 0
        /// The most children one element has.
        var widest = 0
        /// The most attributes one element has.
        var mostAttributes = 0

        /// Every node: elements, attributes and the others.
        var nodes: Int {
            elements + otherNodes + attributes
        }
    }

    /// The elements in document order; the root element is the first.
    let elements: [Element]
    /// The document's size.
    let shape: Shape

    /// The index of the root element.
    var root: Int { 0 }

    /// The element at `index`.
    subscript(index: Int) -> Element {
        elements[index]
    }

    /// The path of the element at `index`, such as `/a/b[2]/c`.
    func path(of index: Int) -> String {
        var steps: [String] = []
        var current: Int? = index
        while let element = current {
            steps.append(element == root ? elements[element].qualifiedName : elements[element].step)
            current = elements[element].parent
        }
        return "/" + steps.reversed().joined(separator: "/")
    }

    /// Reads a well-formed document, charging ``WorkBudget/current`` (or a budget of its own).
    static func parse(_ xml: String) throws(XMLReadError) -> XMLTree {
        #if canImport(FoundationXML) || canImport(Darwin)  // XMLParser: every Apple platform
        let data = Data(xml.utf8)
        if let line = startTagWithTooManyAttributes(in: data) { throw .tooManyAttributes(line: line) }
        return try WorkBudget.metering { budget in
            Result { () throws(XMLReadError) in try read(data, charging: budget) }
        }.get()
        #else
        throw .unavailable
        #endif
    }

    #if canImport(FoundationXML) || canImport(Darwin)
    /// Reads `data` with the SAX parser, charging `budget`.
    private static func read(_ data: Data, charging budget: WorkBudget) throws(XMLReadError) -> XMLTree {
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = true
        parser.shouldReportNamespacePrefixes = true
        parser.shouldResolveExternalEntities = false
        let builder = XMLTreeBuilder(budget: budget)
        parser.delegate = builder
        let succeeded = parser.parse()
        if let failure = builder.failure { throw failure }
        guard succeeded, parser.parserError == nil, builder.isComplete, !builder.elements.isEmpty else {
            let location = parser.lineNumber > 0 ? " near line \(parser.lineNumber), column \(parser.columnNumber)" : ""
            throw .malformed(
                builder.elements.isEmpty && parser.parserError == nil
                    ? "the document has no root element" : "the XML is malformed\(location)"
            )
        }
        return XMLTree(elements: builder.elements, shape: builder.shape)
    }
    #endif

    /// The line of the first start tag in `data` with more than ``maximumAttributes`` attributes,
    /// found by counting the `=` outside quotes in each start tag (comments, CDATA sections,
    /// processing instructions, declarations and end tags skipped): one pass, before libxml2,
    /// whose check for duplicate attributes takes time that grows with their square. Text and
    /// quoted values are skipped with `memchr`, so that the pass stays fast in a debug build.
    private static func startTagWithTooManyAttributes(in data: Data) -> Int? {
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> Int? in
            guard let base = raw.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return nil }
            let count = raw.count
            /// The index of the first `byte` at or after `start`, or `count`.
            func find(_ byte: UInt8, from start: Int) -> Int {
                guard start < count, let found = memchr(base + start, Int32(byte), count - start) else { return count }
                return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            }
            /// The index just past the first `terminator` at or after `start`, or `count`.
            func end(of terminator: StaticString, from start: Int) -> Int {
                let length = terminator.utf8CodeUnitCount
                var index = find(terminator.utf8Start[0], from: start)
                while index < count {
                    if index + length <= count, memcmp(base + index, terminator.utf8Start, length) == 0 {
                        return index + length
                    }
                    index = find(terminator.utf8Start[0], from: index + 1)
                }
                return count
            }
            func starts(_ prefix: StaticString, at index: Int) -> Bool {
                index + prefix.utf8CodeUnitCount <= count
                    && memcmp(base + index, prefix.utf8Start, prefix.utf8CodeUnitCount) == 0
            }
            var index = find(UInt8(ascii: "<"), from: 0)
            while index < count {
                let tagStart = index
                if starts("<!--", at: index) {
                    index = end(of: "-->", from: index + 4)
                } else if starts("<![CDATA[", at: index) {
                    index = end(of: "]]>", from: index + 9)
                } else if starts("<?", at: index) {
                    index = end(of: "?>", from: index + 2)
                } else {
                    // A start tag, an end tag or a declaration: up to the `>` outside quotes.
                    let isStartTag =
                        index + 1 < count && base[index + 1] != UInt8(ascii: "/")
                        && base[index + 1] != UInt8(ascii: "!")
                    var equalSigns = 0
                    index += 1
                    while index < count {
                        let byte = base[index]
                        index += 1
                        if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                            index = find(byte, from: index) + 1
                        } else if byte == UInt8(ascii: "=") {
                            equalSigns += 1
                            if isStartTag, equalSigns > maximumAttributes {
                                return 1 + (0..<tagStart).count { base[$0] == UInt8(ascii: "\n") }
                            }
                        } else if byte == UInt8(ascii: ">") {
                            break
                        }
                    }
                }
                index = find(UInt8(ascii: "<"), from: index)
            }
            return nil
        }
    }
}

#if canImport(FoundationXML) || canImport(Darwin)  // XMLParser: every Apple platform
/// Builds an ``XMLTree`` from `XMLParser` events, stopping the parser at the first element past
/// ``XMLTree/maximumDepth`` or when the work budget runs out.
private final class XMLTreeBuilder: NSObject, XMLParserDelegate {
    /// An element whose end tag has not been seen yet.
    private struct OpenElement {
        /// Its index in `elements`.
        var index: Int
        /// Prefix → namespace URI in scope for this element.
        var namespaces: [String: String]
    }

    /// The budget each element is charged to.
    private let budget: WorkBudget
    /// The elements read so far, in document order.
    private(set) var elements: [XMLTree.Element] = []
    /// The document's size so far.
    private(set) var shape = XMLTree.Shape()
    /// Why reading stopped early, if it did.
    private(set) var failure: XMLReadError?
    /// The open elements, outermost first.
    private var stack: [OpenElement] = []
    /// Prefix mappings announced for the next start tag.
    private var pendingNamespaces: [String: String] = [:]

    init(budget: WorkBudget) {
        self.budget = budget
    }

    /// Whether every element was closed.
    var isComplete: Bool {
        stack.isEmpty
    }

    /// Stops the parser for `reason`.
    private func stop(_ parser: XMLParser, _ reason: XMLReadError) {
        failure = reason
        parser.abortParsing()
    }

    /// Records a namespace declaration of the next element.
    func parser(_ parser: XMLParser, didStartMappingPrefix prefix: String, toURI namespaceURI: String) {
        pendingNamespaces[prefix] = namespaceURI
    }

    /// Opens an element, resolving attribute prefixes.
    func parser(
        _ parser: XMLParser,
        didStartElement elementName: String,
        namespaceURI: String?,
        qualifiedName qName: String?,
        attributes attributeDict: [String: String] = [:]
    ) {
        guard failure == nil else { return }
        guard stack.count < XMLTree.maximumDepth else {
            return stop(parser, .tooDeep(line: parser.lineNumber, column: parser.columnNumber))
        }
        let units = WorkBudget.Cost.xmlElement + attributeDict.count * WorkBudget.Cost.xmlVisit
        guard budget.spend(units, on: "reading an XML document (\(elements.count) elements so far)") else {
            return stop(parser, .overBudget(budget.exhaustion!))
        }
        var namespaces = stack.last?.namespaces ?? [:]
        if !pendingNamespaces.isEmpty {
            namespaces.merge(pendingNamespaces) { _, new in new }
            pendingNamespaces = [:]
        }
        let attributes =
            attributeDict.isEmpty
            ? []
            : attributeDict.compactMap { name, value -> XMLTreeAttribute? in
                guard name != "xmlns", !name.hasPrefix("xmlns:") else { return nil }
                guard let colon = name.firstIndex(of: ":") else {
                    return XMLTreeAttribute(namespaceURI: "", localName: name, qualifiedName: name, value: value)
                }
                return XMLTreeAttribute(
                    namespaceURI: namespaces[String(name[..<colon])] ?? "",
                    localName: String(name[name.index(after: colon)...]),
                    qualifiedName: name,
                    value: value
                )
            }.sorted { $0.qualifiedName < $1.qualifiedName }
        let index = elements.count
        let parent = stack.last?.index
        elements.append(
            XMLTree.Element(
                namespaceURI: namespaceURI ?? "",
                localName: elementName,
                qualifiedName: qName ?? elementName,
                attributes: attributes,
                parent: parent
            )
        )
        if let parent {
            elements[parent].children.append(index)
            shape.widest = max(shape.widest, elements[parent].children.count)
        }
        stack.append(OpenElement(index: index, namespaces: namespaces))
        shape.elements += 1
        shape.attributes += attributes.count
        shape.mostAttributes = max(shape.mostAttributes, attributes.count)
        shape.depth = max(shape.depth, stack.count)
    }

    /// Closes the innermost element: trims its text and numbers its same-named children.
    func parser(
        _ parser: XMLParser,
        didEndElement elementName: String,
        namespaceURI: String?,
        qualifiedName qName: String?
    ) {
        guard failure == nil, let open = stack.popLast() else { return }
        if !elements[open.index].text.isEmpty {
            elements[open.index].text = elements[open.index].text.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let children = elements[open.index].children
        guard children.count > 1 else { return }
        var counts: [String: Int] = [:]
        for child in children { counts[elements[child].qualifiedName, default: 0] += 1 }
        guard counts.values.contains(where: { $0 > 1 }) else { return }
        var seen: [String: Int] = [:]
        for child in children where counts[elements[child].qualifiedName]! > 1 {
            seen[elements[child].qualifiedName, default: 0] += 1
            elements[child].position = seen[elements[child].qualifiedName]!
        }
    }

    /// Appends text to the innermost element.
    func parser(_ parser: XMLParser, foundCharacters string: String) {
        append(string, parser)
    }

    /// Appends a CDATA section's text to the innermost element.
    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        append(String(decoding: CDATABlock, as: UTF8.self), parser)
    }

    /// Appends `text` to the innermost element, charging its length.
    private func append(_ text: String, _ parser: XMLParser) {
        guard failure == nil, let open = stack.last else { return }
        guard budget.spend(1 + text.utf8.count / XMLTree.textBytesPerUnit, on: "reading the text of an XML document")
        else { return stop(parser, .overBudget(budget.exhaustion!)) }
        elements[open.index].text += text
        shape.otherNodes += 1
    }

    /// Counts a comment.
    func parser(_ parser: XMLParser, foundComment comment: String) {
        shape.otherNodes += 1
    }

    /// Counts a processing instruction.
    func parser(_ parser: XMLParser, foundProcessingInstructionWithTarget target: String, data: String?) {
        shape.otherNodes += 1
    }
}
#endif
