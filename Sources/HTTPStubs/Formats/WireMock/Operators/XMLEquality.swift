import Foundation

#if canImport(FoundationXML)
import FoundationXML
#endif

/// A problem with an XML pattern (`equalToXml`, `matchesXPath`) in a stub.
struct XMLPatternError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong and how to fix it.
    let message: String

    /// The message.
    var description: String {
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
struct XMLEquality: Sendable {
    /// The most differences `compare` reports.
    static let maximumDifferences = 5

    /// The expected document's root element.
    private let expected: XMLTreeElement
    /// Whether sibling elements may appear in any order.
    let ignoreOrderOfSameNode: Bool
    /// The placeholders among the expected texts and attribute values, by their text.
    private var placeholders: [String: XMLUnitPlaceholder] = [:]

    /// Parses the expected document.
    ///
    /// - Throws: `XMLPatternError` when `expected` is not well-formed XML, or
    ///   when the platform cannot parse XML.
    init(expected: String, ignoreOrderOfSameNode: Bool = false) throws(XMLPatternError) {
        do {
            self.expected = try XMLTreeElement.parse(expected)
        } catch {
            guard error != .unavailable else { throw error }
            throw XMLPatternError(
                message:
                    "the expected XML of equalToXml is not well-formed: \(error.message); "
                    + "check that every tag is closed and attribute values are quoted"
            )
        }
        self.ignoreOrderOfSameNode = ignoreOrderOfSameNode
    }

    /// This comparison with the placeholders `syntax` finds in the expected texts and attribute values.
    /// - Throws: `XMLPatternError`, prefixed with the element's path, for a placeholder that could
    ///   never match (see ``XMLUnitPlaceholderSyntax/placeholder(in:)``).
    func withPlaceholders(_ syntax: XMLUnitPlaceholderSyntax) throws(XMLPatternError) -> XMLEquality {
        var result = self
        var pending = [(element: expected, path: "/" + expected.qualifiedName)]
        while let (element, path) = pending.popLast() {
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
                throw XMLPatternError(message: "\(path): \(error.message)")
            }
            for index in element.elements.indices {
                pending.append((element.elements[index], path + "/" + element.step(forChildAt: index)))
            }
        }
        return result
    }

    /// Compares `actual` with the expected document.
    ///
    /// - Returns: Whether they are similar, and up to five readable differences
    ///   such as `/a/b[2]: expected text "x", got "y"`.
    func compare(_ actual: String) -> (isMatch: Bool, differences: [String]) {
        let actualRoot: XMLTreeElement
        do {
            actualRoot = try XMLTreeElement.parse(actual)
        } catch {
            let reason = error == .unavailable ? error.message : "the body is not well-formed XML: \(error.message)"
            return (false, [reason])
        }
        var differences: [String] = []
        compare(expected, actualRoot, path: "/" + expected.qualifiedName, into: &differences)
        return (differences.isEmpty, differences)
    }

    /// Appends the differences between two elements at `path`, up to the limit.
    private func compare(
        _ expected: XMLTreeElement,
        _ actual: XMLTreeElement,
        path: String,
        into differences: inout [String]
    ) {
        func report(_ text: String) {
            if differences.count < Self.maximumDifferences { differences.append("\(path): \(text)") }
        }
        guard expected.namespaceURI == actual.namespaceURI, expected.localName == actual.localName else {
            report("expected element \(expected.displayName), got \(actual.displayName)")
            return
        }
        for attribute in expected.attributes {
            let other = actual.attributes.first { $0.hasSameName(as: attribute) }
            if let placeholder = placeholders[attribute.value] {
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
        for attribute in actual.attributes where !expected.attributes.contains(where: { $0.hasSameName(as: attribute) })
        {
            report("unexpected attribute \(attribute.qualifiedName)=\"\(attribute.value)\"")
        }
        let expectedText = expected.text
        let actualText = actual.text
        let got = actualText.isEmpty ? "no text" : "\"\(actualText)\""
        if !expectedText.isEmpty, let placeholder = placeholders[expectedText] {
            if textPlaceholder(placeholder, of: expected, accepts: actual) {
                // XMLUnit lets an element's only text stand for an only child element.
                if expected.elements.isEmpty { return }
            } else {
                report("expected text \(placeholder), got \(got)")
            }
        } else if expectedText != actualText {
            report(
                expectedText.isEmpty ? "expected no text, got \(got)" : "expected text \"\(expectedText)\", got \(got)"
            )
        }
        guard differences.count < Self.maximumDifferences else { return }
        for (expectedChild, actualChild) in pairChildren(expected.elements, actual.elements) {
            guard differences.count < Self.maximumDifferences else { return }
            switch (expectedChild, actualChild) {
            case (let expectedIndex?, let actualIndex?):
                compare(
                    expected.elements[expectedIndex],
                    actual.elements[actualIndex],
                    path: path + "/" + expected.step(forChildAt: expectedIndex),
                    into: &differences
                )
            case (let expectedIndex?, nil):
                report("missing element \(expected.elements[expectedIndex].displayName)")
            case (nil, let actualIndex?):
                report("unexpected element \(actual.elements[actualIndex].displayName)")
            case (nil, nil):
                break
            }
        }
    }

    /// Whether `actual` passes the placeholder that is the text of `expected`, as XMLUnit compares
    /// child nodes: a text-only expected element matches an element with that text, with no
    /// text (the placeholder then sees none), or whose only child is an element (likewise); an
    /// expected element with child elements needs text beside them.
    private func textPlaceholder(
        _ placeholder: XMLUnitPlaceholder,
        of expected: XMLTreeElement,
        accepts actual: XMLTreeElement
    ) -> Bool {
        guard expected.elements.isEmpty else { return !actual.text.isEmpty && placeholder.accepts(actual.text) }
        if actual.elements.isEmpty { return placeholder.accepts(actual.text.isEmpty ? nil : actual.text) }
        return actual.elements.count == 1 && actual.text.isEmpty && placeholder.accepts(nil)
    }

    /// Pairs expected with actual child elements: by position or, when order is
    /// ignored, first each expected element with an equal unpaired one, then the
    /// rest with the first unpaired element of the same name.
    private func pairChildren(_ expected: [XMLTreeElement], _ actual: [XMLTreeElement]) -> [(Int?, Int?)] {
        guard ignoreOrderOfSameNode else {
            return (0..<max(expected.count, actual.count)).map { index in
                (index < expected.count ? index : nil, index < actual.count ? index : nil)
            }
        }
        var partners = [Int?](repeating: nil, count: expected.count)
        var unpaired = Array(actual.indices)
        for (expectedIndex, element) in expected.enumerated() {
            let equal = unpaired.first { candidate in
                var scratch: [String] = []
                compare(element, actual[candidate], path: "", into: &scratch)
                return scratch.isEmpty
            }
            if let equal {
                partners[expectedIndex] = equal
                unpaired.removeAll { $0 == equal }
            }
        }
        for (expectedIndex, element) in expected.enumerated() where partners[expectedIndex] == nil {
            let sameName = unpaired.first {
                actual[$0].namespaceURI == element.namespaceURI && actual[$0].localName == element.localName
            }
            if let sameName {
                partners[expectedIndex] = sameName
                unpaired.removeAll { $0 == sameName }
            }
        }
        return partners.enumerated().map { ($0.offset, $0.element) } + unpaired.map { (nil, $0) }
    }
}

/// An attribute of an `XMLTreeElement`.
struct XMLTreeAttribute: Sendable, Equatable {
    /// The namespace URI, empty when none.
    let namespaceURI: String
    /// The name without prefix.
    let localName: String
    /// The name as written, with any prefix.
    let qualifiedName: String
    /// The normalized value.
    let value: String

    /// Whether both attributes have the same namespace URI and local name.
    func hasSameName(as other: XMLTreeAttribute) -> Bool {
        namespaceURI == other.namespaceURI && localName == other.localName
    }
}

/// An immutable, platform-neutral snapshot of an element, built from `XMLDocument`.
struct XMLTreeElement: Sendable, Equatable {
    /// The namespace URI, empty when none.
    let namespaceURI: String
    /// The name without prefix.
    let localName: String
    /// The name as written, with any prefix.
    let qualifiedName: String
    /// The attributes, namespace declarations excluded.
    let attributes: [XMLTreeAttribute]
    /// The child elements, in order.
    let elements: [XMLTreeElement]
    /// The element's own text (text and CDATA children, concatenated and trimmed).
    let text: String

    /// The name for messages: `<name>`, with the namespace URI when there is one.
    var displayName: String {
        namespaceURI.isEmpty ? "<\(qualifiedName)>" : "<\(qualifiedName)> (namespace \(namespaceURI))"
    }

    /// The path step of the child element at `index`: its name, with a 1-based
    /// position among same-named siblings when there are several.
    func step(forChildAt index: Int) -> String {
        let child = elements[index]
        let sameName = elements.indices.filter { elements[$0].qualifiedName == child.qualifiedName }
        guard sameName.count > 1, let position = sameName.firstIndex(of: index) else { return child.qualifiedName }
        return "\(child.qualifiedName)[\(position + 1)]"
    }

    /// Parses a well-formed document and snapshots its root element.
    ///
    /// Uses the SAX `XMLParser`, which reports every error (libxml2's tree
    /// parser silently recovers from some and prints others to standard error).
    static func parse(_ xml: String) throws(XMLPatternError) -> XMLTreeElement {
        #if canImport(FoundationXML) || canImport(Darwin)  // XMLParser: every Apple platform
        let parser = XMLParser(data: Data(xml.utf8))
        parser.shouldProcessNamespaces = true
        parser.shouldReportNamespacePrefixes = true
        parser.shouldResolveExternalEntities = false
        let builder = XMLTreeBuilder()
        parser.delegate = builder
        let succeeded = parser.parse()
        guard succeeded, parser.parserError == nil, builder.isComplete, let root = builder.root else {
            let location = parser.lineNumber > 0 ? " near line \(parser.lineNumber), column \(parser.columnNumber)" : ""
            let reason =
                builder.root == nil && parser.parserError == nil
                ? "the document has no root element" : "the XML is malformed\(location)"
            throw XMLPatternError(message: reason)
        }
        return root
        #else
        throw XMLPatternError.unavailable
        #endif
    }
}

#if canImport(FoundationXML) || canImport(Darwin)  // XMLParser: every Apple platform
/// Builds `XMLTreeElement`s from `XMLParser` events.
private final class XMLTreeBuilder: NSObject, XMLParserDelegate {
    /// An element whose end tag has not been seen yet.
    private struct OpenElement {
        /// The namespace URI.
        var namespaceURI: String
        /// The name without prefix.
        var localName: String
        /// The name as written.
        var qualifiedName: String
        /// The attributes.
        var attributes: [XMLTreeAttribute]
        /// The finished child elements.
        var elements: [XMLTreeElement] = []
        /// The text seen so far.
        var text = ""
        /// Prefix → namespace URI in scope for this element.
        var namespaces: [String: String]
    }

    /// The open elements, outermost first.
    private var stack: [OpenElement] = []
    /// Prefix mappings announced for the next start tag.
    private var pendingNamespaces: [String: String] = [:]
    /// The finished root element.
    private(set) var root: XMLTreeElement?

    /// Whether every element was closed.
    var isComplete: Bool {
        stack.isEmpty
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
        let namespaces = (stack.last?.namespaces ?? [:]).merging(pendingNamespaces) { _, new in new }
        pendingNamespaces = [:]
        let attributes = attributeDict.compactMap { name, value -> XMLTreeAttribute? in
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
        stack.append(
            OpenElement(
                namespaceURI: namespaceURI ?? "",
                localName: elementName,
                qualifiedName: qName ?? elementName,
                attributes: attributes,
                namespaces: namespaces
            )
        )
    }

    /// Closes the innermost element.
    func parser(
        _ parser: XMLParser,
        didEndElement elementName: String,
        namespaceURI: String?,
        qualifiedName qName: String?
    ) {
        guard let open = stack.popLast() else { return }
        let element = XMLTreeElement(
            namespaceURI: open.namespaceURI,
            localName: open.localName,
            qualifiedName: open.qualifiedName,
            attributes: open.attributes,
            elements: open.elements,
            text: open.text.trimmingCharacters(in: .whitespacesAndNewlines)
        )
        if stack.isEmpty {
            root = element
        } else {
            stack[stack.count - 1].elements.append(element)
        }
    }

    /// Appends text to the innermost element.
    func parser(_ parser: XMLParser, foundCharacters string: String) {
        guard !stack.isEmpty else { return }
        stack[stack.count - 1].text += string
    }

    /// Appends a CDATA section's text to the innermost element.
    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        guard !stack.isEmpty else { return }
        stack[stack.count - 1].text += String(decoding: CDATABlock, as: UTF8.self)
    }
}
#endif
