import Foundation
import Testing

@testable import HTTPStubs
@testable import HTTPStubsFiles
@testable import HTTPStubsLanguages
@testable import HTTPStubsTemplates

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The request model as templates read it now that it is built lazily (a field when a template
/// first reads it) and jsonPath's literal paths are compiled when the template is parsed: whole-map
/// reads still list every field in WireMock's order, and repeated or invalid paths answer as before.
@Suite("Templating: the lazy request model")
struct TemplateRequestModelTests {
    /// A registry answering `POST http://localhost/items/42` with `template`, and the answer to a
    /// POST of `{"name":"Ada","age":36}` there, by completion handler and by `async` (the same).
    static func answer(_ template: String) async throws -> String {
        let post = request("POST", "http://localhost/items/42?a=1&a=2", body: #"{"name":"Ada","age":36}"#)
        return try await templateAnswer(template, stubbing: .post("http://localhost/items/{id}"), to: post)
    }

    @Test("iterating the request map lists every field in WireMock's order; requestLine prints whole")
    func wholeModel() async throws {
        #expect(
            try await Self.answer("{{#each request}}{{@key}};{{/each}}")
                == "url;path;pathSegments;query;method;scheme;host;port;baseUrl;headers;cookies;clientIp;id;"
                + "body;bodyAsBase64;multipart;parts;requestLine;"
        )
        #expect(
            try await Self.answer("{{{request.requestLine}}}")
                == "{method=POST, scheme=http, host=localhost, port=80, baseUrl=http://localhost, path=/items/42, "
                + "pathSegments=/items/42, query={a=1}, url=/items/42?a=1&a=2}"
        )
        #expect(
            try await Self.answer("{{request.path.[1]}} {{request.path.id}} {{request.query.a.[1]}} {{size request}}")
                == "42 42 2 18"
        )
    }

    @Test("jsonPath tags on the same body each answer; a literal path that does not compile is WireMock's error")
    func jsonPaths() async throws {
        #expect(
            try await Self.answer(
                "{{jsonPath request.body '$.name'}}/{{jsonPath request.body '$.age'}}/"
                    + "{{jsonPath request.body '$.name'}}"
            ) == "Ada/36/Ada"
        )
        #expect(
            try await Self.answer("{{{jsonPath request.body '$.['}}}")
                == "[ERROR: $.[ is not a valid JSONPath expression]"
        )
    }

    @Test("a map of more than 8 entries is indexed: a repeated key keeps its first place and its last value")
    func indexedMap() {
        var object = TemplateObject((0..<12).map { ("k\($0)", TemplateValue.integer($0)) } + [("k3", .integer(99))])
        #expect(object.count == 12)
        #expect(object["k3"] == .integer(99))
        #expect(object["k11"] == .integer(11))
        #expect(object.entries.map(\.key)[3] == "k3")
        object["k12"] = .integer(12)
        #expect(object["k12"] == .integer(12))
        #expect(object["k13"] == nil)
    }

    @Test("setting a key of a lazy map stores its fields first, in order")
    func settingALazyMap() throws {
        let request = InterceptedRequest(url: URL(string: "http://h/a/b?q=1")!)
        let root = TemplateRequestModel.context(for: request, environment: .system, includeID: false)
        guard case .object(let context) = root, case .object(var object)? = context["request"] else {
            Issue.record("the context has no request map")
            return
        }
        let keys = object.entries.map(\.key)
        #expect(object["url"] == .string("/a/b?q=1"))
        #expect(object["nope"] == nil)
        object["nope"] = .string("c")
        object["url"] = .string("U")
        #expect(object.entries.map(\.key) == keys + ["nope"])
        #expect(object["url"] == .string("U"))
        #expect(object["clientIp"] == .string("127.0.0.1"))
    }
}
