import Foundation
import Testing

@testable import HTTPStubs
@testable import HTTPStubsFiles
@testable import HTTPStubsLanguages
@testable import HTTPStubsTemplates

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Every WireMock operator, request field and response field, each read from a small mapping file
/// written to a temporary stub root, with WireMock's Java semantics: what matches, what does not,
/// and what the response looks like (through `registry.answer` and through real URLSession calls).
@Suite("WireMock operators")
struct WireMockOperatorTests {
    // MARK: String operators

    @Test("equalTo is exact and case-sensitive; caseInsensitive relaxes the case only")
    func equalTo() throws {
        let exact = try probe(#"{"headers": {"X-Mode": {"equalTo": "Fast"}}}"#)
        #expect(exact.matches(headers: ["X-Mode": "Fast"]))
        #expect(!exact.matches(headers: ["X-Mode": "fast"]))
        #expect(!exact.matches(headers: ["X-Mode": "Fast "]))
        #expect(!exact.matches())

        let relaxed = try probe(#"{"headers": {"X-Mode": {"equalTo": "Fast", "caseInsensitive": true}}}"#)
        #expect(relaxed.matches(headers: ["X-Mode": "fAST"]))
        #expect(!relaxed.matches(headers: ["X-Mode": "Faster"]))
    }

    @Test("contains and doesNotContain test substrings; neither accepts an absent value")
    func containsAndDoesNotContain() throws {
        let contains = try probe(#"{"headers": {"Accept": {"contains": "json"}}}"#)
        #expect(contains.matches(headers: ["Accept": "application/json; q=1"]))
        #expect(!contains.matches(headers: ["Accept": "text/plain"]))
        #expect(!contains.matches())

        let doesNotContain = try probe(#"{"headers": {"Accept": {"doesNotContain": "xml"}}}"#)
        #expect(doesNotContain.matches(headers: ["Accept": "application/json"]))
        #expect(!doesNotContain.matches(headers: ["Accept": "application/xml"]))
    }

    @Test("matches is a full match (a partial match is no match); doesNotMatch is its negation")
    func matchesAndDoesNotMatch() throws {
        let matches = try probe(#"{"queryParameters": {"id": {"matches": "[0-9]+"}}}"#)
        #expect(matches.matches(url: "/?id=123"))
        #expect(!matches.matches(url: "/?id=a123"), "a partial match must not match")
        #expect(!matches.matches(url: "/?id=123a"), "a partial match must not match")
        #expect(!matches.matches(url: "/"))

        let doesNotMatch = try probe(#"{"queryParameters": {"id": {"doesNotMatch": "[0-9]+"}}}"#)
        #expect(doesNotMatch.matches(url: "/?id=12a"), "no full match, so doesNotMatch holds")
        #expect(!doesNotMatch.matches(url: "/?id=12"))
    }

    @Test("absent: true needs the value missing, on headers, query parameters, cookies and the body")
    func absent() throws {
        let absent = try probe(
            #"{"headers": {"X-Debug": {"absent": true}}, "queryParameters": {"trace": {"absent": true}}}"#
        )
        #expect(absent.matches())
        #expect(!absent.matches(headers: ["X-Debug": "1"]))
        #expect(!absent.matches(url: "/?trace="))
        #expect(!absent.matches(url: "/?trace"))

        let cookie = try probe(#"{"cookies": {"c": {"absent": true}}}"#)
        #expect(cookie.matches())
        #expect(!cookie.matches(headers: ["Cookie": "c=1"]))

        let body = try probe(#"{"bodyPatterns": [{"absent": true}]}"#)
        #expect(body.matches(.get))
        #expect(!body.matches(.post, body: "x"))
    }

    @Test(
        "absent: false also means absent: WireMock tests only that the key is there (checked against WireMock 2.35.1)"
    )
    func absentFalse() throws {
        let stub = try probe(#"{"headers": {"X-Debug": {"absent": false}}}"#)
        #expect(stub.matches())
        #expect(!stub.matches(headers: ["X-Debug": "1"]))
    }

    @Test(
        "doesNotContain and doesNotMatch accept an absent header, query parameter or empty body, as WireMock does (checked against WireMock 2.35.1)"
    )
    func negativeOperatorsOnAbsentValues() throws {
        let header = try probe(#"{"headers": {"X-A": {"doesNotContain": "x"}}}"#)
        let query = try probe(#"{"queryParameters": {"q": {"doesNotMatch": "[0-9]+"}}}"#)
        let bodyContains = try probe(#"{"bodyPatterns": [{"doesNotContain": "x"}]}"#)
        let bodyMatch = try probe(#"{"bodyPatterns": [{"doesNotMatch": "x"}]}"#)
        #expect(header.matches())
        #expect(query.matches(url: "/"))
        #expect(bodyContains.matches(.get))
        #expect(bodyMatch.matches(.get))

        // What already agrees with WireMock.
        #expect(!header.matches(headers: ["X-A": "axb"]))
        #expect(!query.matches(url: "/?q=12"))
        #expect(!bodyContains.matches(.post, body: "xyz"))
        let cookie = try probe(#"{"cookies": {"c": {"doesNotContain": "x"}}}"#)
        #expect(!cookie.matches(), "WireMock 2.35.1 needs the cookie present")
        let emptyEqual = try probe(#"{"bodyPatterns": [{"equalTo": ""}]}"#)
        #expect(!emptyEqual.matches(.get), "WireMock 2.35.1: equalTo \"\" does not match a request without a body")
        let not = try probe(#"{"queryParameters": {"q": {"not": {"equalTo": "a"}}}}"#)
        #expect(not.matches(url: "/"), "WireMock 3's NotPattern negates the inner pattern's verdict on null")
    }

    // MARK: JSON operators

    @Test("equalToJson: the JSON value and the JSON-string forms, compared semantically")
    func equalToJson() throws {
        for form in [#"{"a": 1, "b": [1, 2]}"#, #""{\"a\": 1, \"b\": [1, 2]}""#] {
            let json = try probe(#"{"bodyPatterns": [{"equalToJson": \#(form)}]}"#)
            #expect(json.matches(.post, body: #"{"b":[1,2],"a":1}"#), "member order does not count: \(form)")
            #expect(json.matches(.post, body: #"{ "a" : 1.0 , "b" : [ 1 , 2 ] }"#), "1.0 equals 1: \(form)")
            #expect(!json.matches(.post, body: #"{"a":1,"b":[2,1]}"#), "array order counts: \(form)")
            #expect(!json.matches(.post, body: #"{"a":1,"b":[1,2],"c":3}"#), "extra members count: \(form)")
            #expect(!json.matches(.post, body: #"{"a":"1","b":[1,2]}"#), "types count: \(form)")
            #expect(!json.matches(.post, body: "not json"))
            #expect(!json.matches(.post))
        }
    }

    @Test("equalToJson with ignoreArrayOrder and ignoreExtraElements")
    func equalToJsonFlags() throws {
        let order = try probe(#"{"bodyPatterns": [{"equalToJson": {"tags": ["a", "b"]}, "ignoreArrayOrder": true}]}"#)
        #expect(order.matches(.post, body: #"{"tags":["b","a"]}"#))
        #expect(!order.matches(.post, body: #"{"tags":["b","a"],"x":1}"#))

        let extra = try probe(#"{"bodyPatterns": [{"equalToJson": {"user": {"id": 1}}, "ignoreExtraElements": true}]}"#)
        #expect(extra.matches(.post, body: #"{"user":{"id":1,"name":"Ann"},"meta":{}}"#))
        #expect(!extra.matches(.post, body: #"{"user":{"id":2}}"#))

        let both = try probe(
            #"{"bodyPatterns": [{"equalToJson": "[1, 2]", "ignoreArrayOrder": true, "ignoreExtraElements": true}]}"#
        )
        #expect(both.matches(.post, body: "[2, 1]"))
    }

    @Test("matchesJsonPath, string form: the expression must select something")
    func matchesJsonPathString() throws {
        let path = try probe(#"{"bodyPatterns": [{"matchesJsonPath": "$.items[?(@.price > 10)]"}]}"#)
        #expect(path.matches(.post, body: #"{"items":[{"price":5},{"price":12}]}"#))
        #expect(!path.matches(.post, body: #"{"items":[{"price":5}]}"#))
        #expect(!path.matches(.post, body: "<xml/>"))

        let member = try probe(#"{"bodyPatterns": [{"matchesJsonPath": "$.name"}]}"#)
        #expect(member.matches(.post, body: #"{"name":"x"}"#))
        #expect(!member.matches(.post, body: #"{"other":"x"}"#))
    }

    @Test("matchesJsonPath, object form: the selected value is tested with equalTo, contains or equalToJson")
    func matchesJsonPathObject() throws {
        let equal = try probe(#"{"bodyPatterns": [{"matchesJsonPath": {"expression": "$.user.id", "equalTo": "42"}}]}"#)
        #expect(equal.matches(.post, body: #"{"user":{"id":42}}"#), "numbers are compared as their text")
        #expect(!equal.matches(.post, body: #"{"user":{"id":43}}"#))
        #expect(!equal.matches(.post, body: #"{"user":{}}"#))

        let contains = try probe(
            #"{"bodyPatterns": [{"matchesJsonPath": {"expression": "$.name", "contains": "ann"}}]}"#
        )
        #expect(contains.matches(.post, body: #"{"name":"joanna"}"#))
        #expect(!contains.matches(.post, body: #"{"name":"bob"}"#))

        let json = try probe(
            #"{"bodyPatterns": [{"matchesJsonPath": {"expression": "$.user", "equalToJson": "{\"id\": 1, \"roles\": [\"a\"]}"}}]}"#
        )
        #expect(json.matches(.post, body: #"{"user":{"roles":["a"],"id":1},"other":true}"#))
        #expect(!json.matches(.post, body: #"{"user":{"roles":["b"],"id":1}}"#))
    }

    // MARK: XML and binary operators

    @Test("equalToXml compares documents, not text")
    func equalToXml() throws {
        let xml = try probe(
            #"{"bodyPatterns": [{"equalToXml": "<order id=\"1\" kind=\"x\"><item>tea</item></order>"}]}"#
        )
        #expect(xml.matches(.post, body: "<order kind=\"x\" id=\"1\">\n  <item>tea</item>\n</order>"))
        #expect(!xml.matches(.post, body: "<order id=\"1\" kind=\"x\"><item>coffee</item></order>"))
        #expect(!xml.matches(.post, body: "<order id=\"2\" kind=\"x\"><item>tea</item></order>"))
        #expect(!xml.matches(.post, body: "not xml"))
    }

    @Test("matchesXPath: string form, object form and xPathNamespaces")
    func matchesXPath() throws {
        let string = try probe(#"{"bodyPatterns": [{"matchesXPath": "/order/item[text()='tea']"}]}"#)
        #expect(string.matches(.post, body: "<order><item>milk</item><item>tea</item></order>"))
        #expect(!string.matches(.post, body: "<order><item>milk</item></order>"))

        let object = try probe(#"{"bodyPatterns": [{"matchesXPath": {"expression": "/order/@id", "equalTo": "7"}}]}"#)
        #expect(object.matches(.post, body: "<order id=\"7\"/>"))
        #expect(!object.matches(.post, body: "<order id=\"8\"/>"))

        let contains = try probe(
            #"{"bodyPatterns": [{"matchesXPath": {"expression": "//item/text()", "contains": "ea"}}]}"#
        )
        #expect(contains.matches(.post, body: "<order><item>milk</item><item>tea</item></order>"))

        let namespaced = try probe(
            #"{"bodyPatterns": [{"matchesXPath": "/s:Envelope/s:Body", "xPathNamespaces": {"s": "urn:soap"}}]}"#
        )
        #expect(namespaced.matches(.post, body: #"<e:Envelope xmlns:e="urn:soap"><e:Body/></e:Envelope>"#))
        #expect(!namespaced.matches(.post, body: #"<e:Envelope xmlns:e="urn:other"><e:Body/></e:Envelope>"#))
    }

    @Test("binaryEqualTo compares the body's bytes with base64")
    func binaryEqualTo() throws {
        let bytes = Data([0x00, 0x01, 0xFE, 0xFF, 0x80])
        let binary = try probe(#"{"bodyPatterns": [{"binaryEqualTo": "\#(bytes.base64EncodedString())"}]}"#)
        #expect(binary.matches(.post, data: bytes))
        #expect(!binary.matches(.post, data: bytes + [0]))
        #expect(!binary.matches(.post, data: Data([0x00, 0x01])))
    }

    // MARK: Logical operators

    @Test("and, or and not combine matchers")
    func logical() throws {
        let and = try probe(#"{"queryParameters": {"id": {"and": [{"contains": "1"}, {"doesNotContain": "2"}]}}}"#)
        #expect(and.matches(url: "/?id=13"))
        #expect(!and.matches(url: "/?id=12"))
        #expect(!and.matches(url: "/?id=3"))

        let or = try probe(#"{"queryParameters": {"name": {"or": [{"equalTo": "John"}, {"matches": "Ja.*"}]}}}"#)
        #expect(or.matches(url: "/?name=John"))
        #expect(or.matches(url: "/?name=Jack"))
        #expect(!or.matches(url: "/?name=Bob"))

        let not = try probe(
            #"{"queryParameters": {"name": {"not": {"or": [{"equalTo": "John"}, {"equalTo": "Jack"}]}}}}"#
        )
        #expect(not.matches(url: "/?name=Bob"))
        #expect(!not.matches(url: "/?name=Jack"))
    }

    // MARK: Multi-value operators and request parts

    @Test("hasExactly and includes on repeated headers and query parameters")
    func multiValue() throws {
        let exactly = try probe(#"{"queryParameters": {"tag": {"hasExactly": [{"equalTo": "a"}, {"contains": "b"}]}}}"#)
        #expect(exactly.matches(url: "/?tag=xbx&tag=a"))
        #expect(!exactly.matches(url: "/?tag=a&tag=b&tag=c"), "an extra value breaks hasExactly")
        #expect(!exactly.matches(url: "/?tag=a"))

        let includes = try probe(#"{"queryParameters": {"tag": {"includes": [{"equalTo": "a"}, {"equalTo": "b"}]}}}"#)
        #expect(includes.matches(url: "/?tag=c&tag=b&tag=a"))
        #expect(!includes.matches(url: "/?tag=a&tag=c"))

        let headers = try probe(#"{"headers": {"X-Tag": {"hasExactly": [{"equalTo": "1"}, {"equalTo": "2"}]}}}"#)
        #expect(headers.matches(headers: [("X-Tag", "2"), ("x-tag", "1")]))
        #expect(!headers.matches(headers: [("X-Tag", "1")]))

        let includesHeader = try probe(#"{"headers": {"X-Tag": {"includes": [{"equalTo": "2"}]}}}"#)
        #expect(includesHeader.matches(headers: [("X-Tag", "1"), ("X-Tag", "2")]))
    }

    @Test("a single operator on a repeated header or parameter matches when any value does")
    func anyValueMatches() throws {
        let header = try probe(#"{"headers": {"Accept": {"equalTo": "text/html"}}}"#)
        #expect(header.matches(headers: [("Accept", "application/json"), ("Accept", "text/html")]))
        let query = try probe(#"{"queryParameters": {"id": {"equalTo": "2"}}}"#)
        #expect(query.matches(url: "/?id=1&id=2"))
        #expect(!query.matches(url: "/?id=1&id=3"))
    }

    @Test("header names are case-insensitive, in the file and in the request")
    func headerNamesCaseInsensitive() throws {
        let lower = try probe(#"{"headers": {"content-type": {"equalTo": "text/plain"}}}"#)
        #expect(lower.matches(headers: ["CONTENT-TYPE": "text/plain"]))
        #expect(lower.matches(headers: ["Content-Type": "text/plain"]))
        #expect(!lower.matches(headers: ["Content-Type": "TEXT/PLAIN"]), "values stay case-sensitive")
    }

    @Test("query parameters are tested decoded (%XX and +)")
    func queryDecoded() throws {
        let query = try probe(
            #"{"queryParameters": {"name": {"equalTo": "Jürgen Müller"}, "q": {"equalTo": "a+b=c&d"}}}"#
        )
        #expect(query.matches(url: "/?name=J%C3%BCrgen+M%C3%BCller&q=a%2Bb%3Dc%26d"))
        #expect(query.matches(url: "/?name=J%C3%BCrgen%20M%C3%BCller&q=a%2Bb%3Dc%26d"))
        #expect(!query.matches(url: "/?name=J%C3%BCrgen+M%C3%BCller&q=a+b=c"))
    }

    @Test("formParameters read an application/x-www-form-urlencoded body, decoded")
    func formParameters() throws {
        let form = try probe(
            #"{"method": "POST", "formParameters": {"user": {"equalTo": "ann lee"}, "tag": {"includes": [{"equalTo": "x"}, {"equalTo": "y"}]}}}"#
        )
        let type: HeaderFields = ["Content-Type": "application/x-www-form-urlencoded"]
        #expect(form.matches(.post, headers: type, body: "tag=y&user=ann+lee&tag=x"))
        #expect(!form.matches(.post, headers: type, body: "tag=y&user=ann"))
        #expect(!form.matches(.post, headers: type, body: "user=ann+lee&tag=x"))
    }

    @Test("cookies come from the Cookie header")
    func cookies() throws {
        let cookies = try probe(#"{"cookies": {"session": {"matches": "[a-f0-9]+"}, "debug": {"absent": true}}}"#)
        #expect(cookies.matches(headers: ["Cookie": "theme=dark; session=abc123"]))
        #expect(!cookies.matches(headers: ["Cookie": "session=abc123; debug=1"]))
        #expect(!cookies.matches(headers: ["Cookie": "session=XYZ"]))
        #expect(!cookies.matches())
    }

    @Test(
        "basicAuth (the Java creator's key) and basicAuthCredentials (the schema's) both work",
        arguments: ["basicAuth", "basicAuthCredentials"]
    )
    func basicAuth(key: String) throws {
        let auth = try probe(#"{"\#(key)": {"username": "ann", "password": "s3cret"}}"#)
        let good = "Basic " + Data("ann:s3cret".utf8).base64EncodedString()
        let bad = "Basic " + Data("ann:wrong".utf8).base64EncodedString()
        #expect(auth.matches(headers: ["Authorization": good]))
        #expect(!auth.matches(headers: ["Authorization": bad]))
        #expect(!auth.matches())
    }

    @Test("host as a string (case-insensitive) and as a matcher; scheme; port (with the scheme's default)")
    func hostSchemePort() throws {
        let host = try probe(#"{"host": "API.example.com"}"#)
        #expect(host.matches(url: "https://api.example.com/x"))
        #expect(!host.matches(url: "https://example.com/x"))

        let hostMatcher = try probe(#"{"host": {"matches": ".*\\.example\\.org"}}"#)
        #expect(hostMatcher.matches(url: "http://a.example.org/"))
        #expect(!hostMatcher.matches(url: "http://example.org/"))

        let scheme = try probe(#"{"scheme": "https"}"#)
        #expect(scheme.matches(url: "https://example.com/"))
        #expect(!scheme.matches(url: "http://example.com/"))

        let port = try probe(#"{"port": 443}"#)
        #expect(port.matches(url: "https://example.com/"), "https defaults to 443")
        #expect(port.matches(url: "http://example.com:443/"))
        #expect(!port.matches(url: "https://example.com:8443/"))
    }

    @Test(
        "url is the exact path and query; urlPath ignores the query; urlPattern and urlPathPattern are full regex matches"
    )
    func urlForms() throws {
        let url = try probe(#"{"url": "/things?a=1&b=2"}"#)
        #expect(url.matches(url: "/things?a=1&b=2"))
        #expect(!url.matches(url: "/things?b=2&a=1"), "query order counts for url")
        #expect(!url.matches(url: "/things"))

        let path = try probe(#"{"urlPath": "/things"}"#)
        #expect(path.matches(url: "/things?b=2&a=1"))
        #expect(path.matches(url: "/things"))
        #expect(!path.matches(url: "/things/1"))

        let pattern = try probe(#"{"urlPattern": "/things/[0-9]+"}"#)
        #expect(pattern.matches(url: "/things/12"))
        #expect(!pattern.matches(url: "/things/12?x=1"), "urlPattern sees the query")
        #expect(!pattern.matches(url: "/a/things/12"))

        let pathPattern = try probe(#"{"urlPathPattern": "/things/[0-9]+"}"#)
        #expect(pathPattern.matches(url: "/things/12?x=1"))
        #expect(!pathPattern.matches(url: "/things/12/x"))
    }

    @Test("urlPathTemplate with pathParameters")
    func urlPathTemplate() throws {
        let template = try probe(
            #"{"urlPathTemplate": "/users/{id}/posts/{post}", "pathParameters": {"id": {"matches": "[0-9]+"}, "post": {"equalTo": "first"}}}"#
        )
        #expect(template.matches(url: "/users/12/posts/first?x=1"))
        #expect(!template.matches(url: "/users/ann/posts/first"))
        #expect(!template.matches(url: "/users/12/posts/second"))
        #expect(!template.matches(url: "/users/12/posts"))

        let plain = try probe(#"{"urlPathTemplate": "/users/{id}"}"#)
        #expect(plain.matches(url: "/users/anything"))
        #expect(!plain.matches(url: "/users/a/b"))
    }

    @Test("method ANY matches every method, GET_OR_HEAD matches GET and HEAD, others are exact")
    func methods() throws {
        let any = try probe(#"{"method": "ANY"}"#)
        for method in [InterceptedRequest.Method.get, .post, .delete, "PROPFIND"] {
            #expect(any.matches(method))
        }
        let getOrHead = try probe(#"{"method": "GET_OR_HEAD"}"#)
        #expect(getOrHead.matches(.get))
        #expect(getOrHead.matches(.head))
        #expect(!getOrHead.matches(.post))

        let put = try probe(#"{"method": "PUT"}"#)
        #expect(put.matches(.put))
        #expect(!put.matches(.patch))
    }

    @Test("multipartPatterns: ANY needs some part to pass, ALL needs every part to")
    func multipart() throws {
        let boundary = "XyZ123"
        let body = [
            "--\(boundary)\r\n",
            "Content-Disposition: form-data; name=\"info\"\r\n",
            "Content-Type: application/json; charset=utf-8\r\n\r\n",
            "{\"a\":1,\"b\":2}\r\n",
            "--\(boundary)\r\n",
            "Content-Disposition: form-data; name=\"file\"; filename=\"a.txt\"\r\n",
            "Content-Type: text/plain\r\n\r\n",
            "hello\r\n",
            "--\(boundary)--\r\n",
        ].joined()
        let type: HeaderFields = ["Content-Type": "multipart/form-data; boundary=\(boundary)"]

        let anyPart = try probe(
            #"""
            {"multipartPatterns": [{"matchingType": "ANY",
              "headers": {"Content-Disposition": {"contains": "name=\"info\""}, "Content-Type": {"contains": "charset"}},
              "bodyPatterns": [{"equalToJson": "{\"a\": 1}", "ignoreExtraElements": true}]}]}
            """#
        )
        #expect(anyPart.matches(.post, headers: type, body: body))
        #expect(!anyPart.matches(.post, headers: type, body: body.replacingOccurrences(of: "\"a\":1", with: "\"a\":9")))
        #expect(!anyPart.matches(.post, body: "{\"a\":1}"), "not a multipart body")

        let allParts = try probe(
            #"{"multipartPatterns": [{"matchingType": "ALL", "headers": {"Content-Disposition": {"contains": "form-data"}}}]}"#
        )
        #expect(allParts.matches(.post, headers: type, body: body))
        let allHello = try probe(
            #"{"multipartPatterns": [{"matchingType": "ALL", "bodyPatterns": [{"contains": "hello"}]}]}"#
        )
        #expect(!allHello.matches(.post, headers: type, body: body))
    }

    @Test("every body pattern must match")
    func bodyPatternsAllMatch() throws {
        let body = try probe(
            #"{"bodyPatterns": [{"contains": "alpha"}, {"contains": "beta"}, {"doesNotContain": "gamma"}]}"#
        )
        #expect(body.matches(.post, body: "beta alpha"))
        #expect(!body.matches(.post, body: "alpha"))
        #expect(!body.matches(.post, body: "alpha beta gamma"))
    }

    @Test("every part of a request pattern must match")
    func allPartsMatch() throws {
        let stub = try probe(
            #"{"method": "POST", "urlPath": "/a", "headers": {"X": {"equalTo": "1"}}, "queryParameters": {"q": {"equalTo": "2"}}, "bodyPatterns": [{"equalTo": "b"}]}"#
        )
        #expect(stub.matches(.post, url: "/a?q=2", headers: ["X": "1"], body: "b"))
        #expect(!stub.matches(.put, url: "/a?q=2", headers: ["X": "1"], body: "b"))
        #expect(!stub.matches(.post, url: "/b?q=2", headers: ["X": "1"], body: "b"))
        #expect(!stub.matches(.post, url: "/a?q=3", headers: ["X": "1"], body: "b"))
        #expect(!stub.matches(.post, url: "/a?q=2", headers: ["X": "2"], body: "b"))
        #expect(!stub.matches(.post, url: "/a?q=2", headers: ["X": "1"], body: "c"))
    }

    // MARK: Responses

    @Test("status defaults to 200 when absent or 0; statusMessage is the reason phrase")
    func status() throws {
        for response in [#"{}"#, #"{"status": 0}"#, #"{"body": "x"}"#] {
            let answer = try answer(response: response)
            #expect(answer?.status == 200, "\(response)")
        }
        let teapot = try answer(response: #"{"status": 418, "statusMessage": "I'm a teapot"}"#)
        #expect(teapot?.status == 418)
        #expect(teapot?.reason == "I'm a teapot")
    }

    @Test("headers given as a string or an array of strings; names keep their spelling")
    func responseHeaders() async throws {
        let response =
            #"{"headers": {"Set-Cookie": ["a=1", "b=2"], "X-One": "1", "Vary": ["Accept", "Accept-Encoding"]}, "body": "ok"}"#
        let answered = try #require(try answer(response: response))
        #expect(answered.headers.values(for: "Set-Cookie") == ["a=1", "b=2"])
        #expect(answered.headers.values(for: "x-one") == ["1"])
        #expect(answered.headers.fields.map(\.name).contains("X-One"))
        #expect(answered.headers["Content-Type"] == nil, "a WireMock body declares no Content-Type of its own")

        let root = try TemporaryStubRoot(mappings: ["x.json": #"{"request": {}, "response": \#(response)}"#])
        let registry = try root.registry()
        let session = registry.makeSession()
        let (data, http) = try await send(session, "GET", "http://localhost/")
        #expect(String(decoding: data, as: UTF8.self) == "ok")
        #expect(http.value(forHTTPHeaderField: "X-One") == "1")
        #expect(http.value(forHTTPHeaderField: "Vary") == "Accept, Accept-Encoding")
        withExtendedLifetime(registry) {}
    }

    @Test("body, jsonBody, base64Body and bodyFileName")
    func bodies() async throws {
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0xFF])
        let root = try TemporaryStubRoot(
            mappings: [
                "body.json": #"{"request": {"url": "/body"}, "response": {"body": "plain ✓"}}"#,
                "json.json":
                    #"{"request": {"url": "/json"}, "response": {"jsonBody": {"n": 1.50, "big": 12345678901234567890, "list": [true, null]}}}"#,
                "base64.json":
                    #"{"request": {"url": "/base64"}, "response": {"base64Body": "\#(png.base64EncodedString())"}}"#,
                "file.json": #"{"request": {"url": "/file"}, "response": {"bodyFileName": "nested/data.bin"}}"#,
            ],
            files: ["nested/data.bin": png]
        )
        let registry = try root.registry()
        let session = registry.makeSession()
        #expect(try await send(session, "GET", "http://h/body").data == Data("plain ✓".utf8))
        let json = String(decoding: try await send(session, "GET", "http://h/json").data, as: UTF8.self)
        #expect(json == #"{"n":1.50,"big":12345678901234567890,"list":[true,null]}"#)
        #expect(try await send(session, "GET", "http://h/base64").data == png)
        let completion = await complete(session, "http://h/file")
        #expect(completion.data == png)
        #expect(completion.status == 200)
        withExtendedLifetime(registry) {}
    }

    @Test("fixedDelayMilliseconds is waited for (a lower bound only)")
    func fixedDelay() async throws {
        let root = try TemporaryStubRoot(mappings: [
            "x.json": #"{"request": {}, "response": {"body": "late", "fixedDelayMilliseconds": 60}}"#
        ])
        let registry = try root.registry()
        let clock = ContinuousClock()
        let start = clock.now
        let (data, _) = try await send(registry.makeSession(), "GET", "http://h/")
        #expect(String(decoding: data, as: UTF8.self) == "late")
        #expect(clock.now - start >= .milliseconds(60) - .milliseconds(2))
        #expect(try answer(response: #"{"fixedDelayMilliseconds": 60}"#)?.delay == .milliseconds(60))
        withExtendedLifetime(registry) {}
    }

    @Test(
        "delayDistribution: fixed, uniform (both ends included) and lognormal (seeded, capped by maxValue), plus fixedDelayMilliseconds"
    )
    func delayDistributions() throws {
        #expect(
            try answer(response: #"{"delayDistribution": {"type": "fixed", "milliseconds": 25}}"#)?.delay
                == .milliseconds(25)
        )
        #expect(
            try answer(
                response: #"{"fixedDelayMilliseconds": 10, "delayDistribution": {"type": "fixed", "milliseconds": 25}}"#
            )?.delay == .milliseconds(35)
        )

        let uniform = try delays(
            #"{"delayDistribution": {"type": "uniform", "lower": 100, "upper": 200}}"#,
            seed: 1,
            count: 40
        )
        #expect(uniform.allSatisfy { $0 >= .milliseconds(100) && $0 <= .milliseconds(200) }, "\(uniform)")
        #expect(Set(uniform).count > 1)

        let logNormal = #"{"delayDistribution": {"type": "lognormal", "median": 80, "sigma": 0.4}}"#
        let first = try delays(logNormal, seed: 42, count: 20)
        let again = try delays(logNormal, seed: 42, count: 20)
        let other = try delays(logNormal, seed: 43, count: 20)
        #expect(first == again, "the same seed gives the same delays")
        #expect(first != other)
        #expect(first.allSatisfy { $0 > .zero })

        let capped = try delays(
            #"{"delayDistribution": {"type": "lognormal", "median": 1000, "sigma": 2, "maxValue": 50}}"#,
            seed: 7,
            count: 20
        )
        #expect(capped.allSatisfy { $0 <= .milliseconds(50) }, "\(capped)")
    }

    @Test("chunkedDribbleDelay sends the whole body, no sooner than its total duration")
    func chunkedDribbleDelay() async throws {
        let text = String(repeating: "0123456789", count: 10)
        let root = try TemporaryStubRoot(mappings: [
            "x.json":
                #"{"request": {}, "response": {"body": "\#(text)", "chunkedDribbleDelay": {"numberOfChunks": 4, "totalDuration": 80}}}"#
        ])
        let registry = try root.registry()
        #expect(registry.stubs.first?.responses.first?.dribble == Dribble(chunks: 4, over: .milliseconds(80)))
        let clock = ContinuousClock()
        let start = clock.now
        let completion = await complete(registry.makeSession(), "http://h/")
        #expect(completion.text == text)
        #expect(clock.now - start >= .milliseconds(80) - .milliseconds(2))
        withExtendedLifetime(registry) {}
    }

    @Test(
        "each fault fails the request with the URLError a URLSession client would see",
        arguments: [
            ("EMPTY_RESPONSE", URLError.Code.networkConnectionLost),
            ("CONNECTION_RESET_BY_PEER", .networkConnectionLost),
            ("MALFORMED_RESPONSE_CHUNK", .cannotParseResponse),
            ("RANDOM_DATA_THEN_CLOSE", .cannotParseResponse),
        ]
    )
    func faults(fault: String, code: URLError.Code) async throws {
        let root = try TemporaryStubRoot(mappings: ["x.json": #"{"request": {}, "response": {"fault": "\#(fault)"}}"#])
        let registry = try root.registry()
        #expect(await urlErrorCode(registry.makeSession(), "http://h/") == code)
        let completion = await complete(registry.makeSession(), "http://h/")
        #expect(completion.urlError?.code == code)
        #expect(completion.data == nil || completion.data?.isEmpty == true)
        withExtendedLifetime(registry) {}
    }

    @Test(
        "the swiftHTTPStubs extension fails the request with a URLError, by name or by number",
        arguments: [
            #""notConnectedToInternet""#, "-1009",
        ]
    )
    func urlErrorExtension(value: String) async throws {
        let root = try TemporaryStubRoot(mappings: [
            "x.json": #"{"request": {}, "response": {"status": 200, "swiftHTTPStubs": {"urlError": \#(value)}}}"#
        ])
        let registry = try root.registry()
        #expect(await urlErrorCode(registry.makeSession(), "http://h/") == .notConnectedToInternet)
        let completion = await complete(registry.makeSession(), "http://h/")
        #expect(completion.urlError?.code == .notConnectedToInternet)
        withExtendedLifetime(registry) {}
    }

    // MARK: Order

    @Test("files load in lexicographic order, and on a priority tie the later file wins")
    func fileOrder() throws {
        let same = #"{"request": {"url": "/x"}, "response": {"body": "%@"}}"#
        let root = try TemporaryStubRoot(mappings: [
            "b.json": same.replacingOccurrences(of: "%@", with: "b"),
            "a.json": same.replacingOccurrences(of: "%@", with: "a"),
            "c/z.json": same.replacingOccurrences(of: "%@", with: "c/z"),
            "a0.json": same.replacingOccurrences(of: "%@", with: "a0"),
        ])
        let load = root.load()
        #expect(
            load.files.map { String($0.dropFirst(root.path.count + "/mappings/".count)) } == [
                "a.json", "a0.json", "b.json", "c/z.json",
            ]
        )
        #expect(load.stubs.map(\.source.file) == load.files)
        #expect(try root.body(of: "/x") == "c/z")
    }

    @Test("a higher priority (smaller number) beats a later file; in a mappings file a later entry wins a tie")
    func priorities() throws {
        let root = try TemporaryStubRoot(mappings: [
            "a.json": #"{"priority": 1, "request": {"url": "/x"}, "response": {"body": "a, priority 1"}}"#,
            "b.json": #"{"request": {"url": "/x"}, "response": {"body": "b, default 5"}}"#,
            "c.json":
                #"{"mappings": [{"request": {"url": "/y"}, "response": {"body": "first"}}, {"request": {"url": "/y"}, "response": {"body": "second"}}]}"#,
            "d.json": #"{"priority": 6, "request": {"url": "/y"}, "response": {"body": "low"}}"#,
        ])
        #expect(try root.body(of: "/x") == "a, priority 1")
        #expect(try root.body(of: "/y") == "second")
    }
}

// MARK: - Probing one mapping

/// A registry holding one stub read from a mapping file, asked whether requests match it.
private struct Probe {
    let root: TemporaryStubRoot
    let registry: StubRegistry

    /// Whether the stub answers a request to `url` (a path, or an absolute URL).
    func matches(
        _ method: InterceptedRequest.Method = .get,
        url: String = "/",
        headers: HeaderFields = [:],
        body: String? = nil
    ) -> Bool {
        matches(method, url: url, headers: headers, data: body.map { Data($0.utf8) })
    }

    /// Whether the stub answers a request with these body bytes.
    func matches(
        _ method: InterceptedRequest.Method = .get,
        url: String = "/",
        headers: HeaderFields = [:],
        data: Data?
    ) -> Bool {
        let absolute = url.hasPrefix("/") ? "http://localhost:8080\(url)" : url
        let request = InterceptedRequest(method: method, url: URL(string: absolute)!, headers: headers, body: data)
        if case .response = registry.answer(request) { return true }
        return false
    }

    /// Whether the stub answers a request with these header fields (names may repeat).
    func matches(_ method: InterceptedRequest.Method = .get, url: String = "/", headers: [(String, String)]) -> Bool {
        matches(
            method,
            url: url,
            headers: HeaderFields(headers.map { HeaderFields.Field(name: $0.0, value: $0.1) }),
            data: nil
        )
    }
}

/// Loads a mapping whose `request` is the JSON text `request` and which answers 200.
private func probe(_ request: String) throws -> Probe {
    let root = try TemporaryStubRoot(mappings: ["probe.json": #"{"request": \#(request), "response": {"status": 200}}"#]
    )
    return Probe(root: root, registry: try root.registry())
}

/// What a mapping with no request pattern and the JSON text `response` answers to a GET, or
/// `nil` when it fails the request.
private func answer(response: String) throws -> StubbedHTTPResponse? {
    let root = try TemporaryStubRoot(mappings: ["x.json": #"{"request": {}, "response": \#(response)}"#])
    guard case let .response(answer, _) = try root.registry().answer(InterceptedRequest(url: URL(string: "http://h/")!))
    else { return nil }
    return answer
}

/// The delays `count` answers of a mapping with the JSON text `response` report, with random
/// delays seeded by `seed`.
private func delays(_ response: String, seed: UInt64, count: Int) throws -> [Duration] {
    let root = try TemporaryStubRoot(mappings: ["x.json": #"{"request": {}, "response": \#(response)}"#])
    let registry = try root.registry()
    registry.seedRandomDelays(seed)
    return (0..<count).compactMap { _ in
        guard case let .response(answer, _) = registry.answer(InterceptedRequest(url: URL(string: "http://h/")!)) else {
            return nil
        }
        return answer.delay
    }
}

/// The URLError code a `data(for:)` call fails with, or `nil` when it does not fail with one.
private func urlErrorCode(_ session: URLSession, _ url: String) async -> URLError.Code? {
    do {
        _ = try await session.data(for: request("GET", url))
        return nil
    } catch let error as URLError {
        return error.code
    } catch {
        return nil
    }
}
