import Testing

@testable import HTTPStubs
@testable import HTTPStubsFiles
@testable import HTTPStubsLanguages
@testable import HTTPStubsTemplates

/// Tests for `XMLEquality` (`equalToXml`) and `XPathExpression` (`matchesXPath`).
@Suite struct XMLOperatorTests {
    @Test func equalityIgnoresAttributeOrderWhitespaceAndComments() throws {
        let equality = try XMLEquality(expected: #"<a x="1" y="2"><b>text</b><c/></a>"#)
        let actual = """
            <?xml version="1.0"?>
            <!-- greeting -->
            <a y="2"   x="1">
                <b>  text  </b>
                <?pi data?>
                <c></c>
            </a>
            """
        let result = equality.compare(actual)
        #expect(result.isMatch, "\(result.differences)")
        #expect(result.differences.isEmpty)
    }

    @Test func equalityComparesNamespacesByURI() throws {
        let equality = try XMLEquality(expected: #"<p:a xmlns:p="urn:x"><p:b>1</p:b></p:a>"#)
        #expect(equality.compare(#"<q:a xmlns:q="urn:x"><q:b>1</q:b></q:a>"#).isMatch)
        #expect(equality.compare(#"<a xmlns="urn:x"><b>1</b></a>"#).isMatch)
        let different = equality.compare(#"<p:a xmlns:p="urn:y"><p:b>1</p:b></p:a>"#)
        #expect(!different.isMatch)
        #expect(
            different.differences == ["/p:a: expected element <p:a> (namespace urn:x), got <p:a> (namespace urn:y)"]
        )
    }

    @Test func equalityReportsReadableDifferences() throws {
        let equality = try XMLEquality(expected: #"<a><b>x</b><b id="1">x</b><c/></a>"#)
        let result = equality.compare(#"<a><b>x</b><b id="2" extra="e">y</b><d/><e/></a>"#)
        #expect(!result.isMatch)
        #expect(
            result.differences == [
                #"/a/b[2]: expected attribute id="1", got "2""#,
                #"/a/b[2]: unexpected attribute extra="e""#,
                #"/a/b[2]: expected text "x", got "y""#,
                "/a/c: expected element <c>, got <d>",
                "/a: unexpected element <e>",
            ]
        )
        let many = try XMLEquality(expected: "<a>" + String(repeating: "<b>1</b>", count: 10) + "</a>")
            .compare("<a>" + String(repeating: "<b>2</b>", count: 10) + "</a>")
        #expect(many.differences.count == XMLEquality.maximumDifferences)
        #expect(try XMLEquality(expected: "<a><b/></a>").compare("<a/>").differences == ["/a: missing element <b>"])
        #expect(try XMLEquality(expected: "<a>1</a>").compare("<a><![CDATA[1]]></a>").isMatch)
    }

    @Test func ignoreOrderOfSameNode() throws {
        let expected = "<list><item>1</item><item>2</item><other/></list>"
        let actual = "<list><other/><item>2</item><item>1</item></list>"
        #expect(!(try XMLEquality(expected: expected).compare(actual).isMatch))
        let unordered = try XMLEquality(expected: expected, ignoreOrderOfSameNode: true)
        #expect(unordered.ignoreOrderOfSameNode)
        #expect(unordered.compare(actual).isMatch)
        let mismatch = unordered.compare("<list><other/><item>2</item><item>3</item></list>")
        #expect(mismatch.differences == [#"/list/item[1]: expected text "1", got "3""#])
    }

    @Test func malformedXML() throws {
        #expect(throws: XMLPatternError.self) { try XMLEquality(expected: "<a><b></a>") }
        do {
            _ = try XMLEquality(expected: "not xml")
        } catch {
            #expect(error.message.contains("not well-formed"))
        }
        let result = try XMLEquality(expected: "<a/>").compare("<a>")
        #expect(!result.isMatch)
        #expect(result.differences.count == 1)
        #expect(result.differences.first?.contains("not well-formed XML") == true)
        for notXML in ["<a><b></a>", "<a>", "", "{\"json\": true}"] {
            let error = #expect(throws: XMLReadError.self) { try XPathExpression("//a").evaluate(notXML) }
            guard case .malformed? = error else {
                Issue.record("\(quoted(notXML)): expected a malformed-XML error, got \(String(describing: error))")
                continue
            }
        }
    }

    @Test func xpathSelectsNodes() throws {
        let xml = #"<root><item id="1">one</item><item id="2">two<sub>2</sub></item><!-- note --></root>"#
        func values(_ expression: String) throws -> [String]? {
            try XPathExpression(expression).evaluate(xml)
        }
        #expect(try values("//item") == ["one", "two2"])
        #expect(try values("/root/item/@id") == ["1", "2"])
        #expect(try values("//item[@id = '2']/text()") == ["two"])
        #expect(try values("//item[2]/sub") == ["2"])
        #expect(try values("root/item[1]") == ["one"], "a relative path starts at the document")
        #expect(try values("//item[contains(., 'tw') and count(sub) = 1]/@id") == ["2"])
        #expect(try values("//item[position() = last()] | //sub") == ["two2", "2"])
        #expect(try values("(//item)[1]") == ["one"])
        #expect(try values("//comment()") == [" note "])
        #expect(try values("//missing") == [])
        #expect(try values("/root/item[@id * 2 = 4 and string-length(normalize-space(text())) > 0]/@id") == ["2"])
        #expect(try values("//child::item/attribute::id[. != 1]") == ["2"])
        #expect(try values("//item[1]/following-sibling::*/@id") == ["2"])
        #expect(try values("//sub/ancestor::*[1]/@id") == ["2"])
    }

    @Test func xpathWithNamespaces() throws {
        let xml = """
            <soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/">
              <soap:Body><m:GetPrice xmlns:m="urn:prices" m:currency="EUR"><m:Item>Apple</m:Item></m:GetPrice></soap:Body>
            </soap:Envelope>
            """
        let namespaces = ["s": "http://schemas.xmlsoap.org/soap/envelope/", "p": "urn:prices"]
        #expect(
            try XPathExpression("/s:Envelope/s:Body/p:GetPrice/p:Item", namespaces: namespaces).evaluate(xml) == [
                "Apple"
            ]
        )
        #expect(try XPathExpression("//p:GetPrice/@p:currency", namespaces: namespaces).evaluate(xml) == ["EUR"])
        #expect(try XPathExpression("//p:*", namespaces: namespaces).evaluate(xml) == ["Apple", "Apple"])
        #expect(try XPathExpression("//s:Item", namespaces: namespaces).evaluate(xml) == [])
        #expect(
            try XPathExpression("//m:Item").evaluate(xml) == ["Apple"],
            "undeclared prefixes match the document's prefixes"
        )
        #expect(
            try XPathExpression("//Item").evaluate(xml) == [],
            "unprefixed names match elements without a namespace"
        )
        #expect(try XPathExpression("//*[local-name() = 'Item']").evaluate(xml) == ["Apple"])
        let defaultNamespace = #"<a xmlns="urn:d"><b>1</b></a>"#
        #expect(try XPathExpression("/d:a/d:b", namespaces: ["d": "urn:d"]).evaluate(defaultNamespace) == ["1"])
    }

    @Test(arguments: [
        "", "//", "//a[", "//a]", "/a/b[@id='x]", "count(//a)", "//a = 'x'", "'text'", "1 + 2", "$var",
        "//a[$x]", "unknown(//a)", "count()", "count('x')", "substring('a')", "//a | 'b'", "'x'[1]", "'x'/a",
        "//a[", "foo::a", "//p:a:b", "//a!b", "//a[not()]", "//text(", "//a/b(", "//@", "concat('a')", "1 2",
        "//a or //b", String(repeating: "(", count: 200) + "//a" + String(repeating: ")", count: 200),
        "//a" + String(repeating: "[1]", count: 5000),
    ])
    func invalidXPathThrows(expression: String) {
        #expect(throws: XMLPatternError.self, "\(expression.prefix(40))") { try XPathExpression(expression) }
    }

    @Test func invalidXPathMessagesSayWhereAndWhat() {
        #expect(
            throws: XMLPatternError(
                message:
                    "invalid XPath at offset 4: unknown function `foo()`; only the XPath 1.0 core functions are supported"
            )
        ) {
            try XPathExpression("//a[foo()]")
        }
        #expect(
            throws: XMLPatternError(
                message: "invalid XPath at offset 0: variables such as `$v` are not supported; write the value instead"
            )
        ) {
            try XPathExpression("$v")
        }
    }
}
