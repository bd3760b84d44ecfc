import Foundation
import Testing

@testable import HTTPStubs
@testable import HTTPStubsFiles
@testable import HTTPStubsLanguages
@testable import HTTPStubsTemplates

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// WireMock 3's `request.multipart` and `request.parts` in templates, posted through URLSession to a
/// `.template` stub and to a stub file with `"transformers": ["response-template"]`. The expected
/// bytes are those of WireMock 3.13.2's `MultipartTemplatingAcceptanceTest` (the same parts: a text
/// `hello` and a file `ABCD`), with `{{{ }}}` where a value holds `=` or `"`, which the toolkit
/// escapes in `{{ }}` as WireMock 2.35.1 does. WireMock 2.35.1 has no `request.parts`.
@Suite("Templating: multipart request parts")
struct TemplateMultipartTests {
    /// The multipart body Apache's `MultipartEntityBuilder` sends for the acceptance test's parts.
    static let multipart = request(
        "POST",
        "http://localhost/templated",
        body: [
            "--B0UNDARY", #"Content-Disposition: form-data; name="text""#, "Content-Type: text/plain; charset=UTF-8",
            "",
            "hello", "--B0UNDARY", #"Content-Disposition: form-data; name="file"; filename="abcd.bin""#,
            "Content-Type: application/octet-stream", "", "ABCD", "--B0UNDARY--", "",
        ].joined(separator: "\r\n"),
        headers: ["Content-Type": "multipart/form-data; boundary=B0UNDARY"]
    )

    /// The answer of a `.template(template)` stub to `posted`, the same by completion handler and `async`.
    static func answer(_ template: String, to posted: URLRequest = multipart) async throws -> String {
        try await templateAnswer(template, stubbing: .post("http://localhost/templated"), to: posted)
    }

    @Test("parts answer their headers, body, base64 body and whether they are binary")
    func partsAreAvailable() async throws {
        let answer = try await Self.answer(
            """
            multipart:{{request.multipart}}
            text:binary={{request.parts.text.binary}}:{{{request.parts.text.headers.content-type}}}:\
            {{request.parts.text.body}}
            file:binary={{request.parts.file.binary}}:{{{request.parts.file.headers.content-type}}}:\
            {{request.parts.file.bodyAsBase64}}
            """
        )
        #expect(
            answer
                == """
                multipart:true
                text:binary=false:text/plain; charset=UTF-8:hello
                file:binary=true:application/octet-stream:QUJDRA==
                """
        )
    }

    @Test("part header names are read ignoring case")
    func headersIgnoreCase() async throws {
        let answer = try await Self.answer(
            "{{{request.parts.text.headers.CoNtEnT-TyPe}}}|{{{request.parts.file.headers.cOnTeNt-tYpE}}}"
        )
        #expect(answer == "text/plain; charset=UTF-8|application/octet-stream")
    }

    @Test("a request that is not multipart has no parts")
    func notMultipart() async throws {
        let json = request(
            "POST",
            "http://localhost/templated",
            body: "{}",
            headers: ["Content-Type": "application/json"]
        )
        let answer = try await Self.answer(
            "multipart:{{request.multipart}}\n"
                + "text:{{request.parts.text.headers.content-type}}:{{request.parts.text.body}}"
                + "|{{size request.parts}}",
            to: json
        )
        #expect(answer == "multipart:false\ntext::|0")
    }

    /// WireMock 3.13.2 collects the parts in a `HashMap`: `file` comes before `text`.
    @Test("the parts can be counted, iterated in WireMock's order and printed")
    func countIterateAndPrint() async throws {
        #expect(try await Self.answer("part count = {{size request.parts}}") == "part count = 2")
        #expect(
            try await Self.answer(
                "{{#each request.parts as |part|}}"
                    + "{{part.name}}:{{{part.headers.content-type}}}:{{part.body}}/\n{{/each}}"
            ) == "file:application/octet-stream:ABCD/\ntext:text/plain; charset=UTF-8:hello/\n"
        )
        #expect(
            try await Self.answer("{{#each request.parts as |part|}}{{{part}}}\n{{/each}}")
                == "[name='file', headers={content-disposition=form-data; name=\"file\"; filename=\"abcd.bin\", "
                + "content-type=application/octet-stream}, body=ABCD]\n"
                + "[name='text', headers={content-disposition=form-data; name=\"text\", "
                + "content-type=text/plain; charset=UTF-8}, body=hello]\n"
        )
    }

    @Test("a stub file with the response-template transformer reads the parts too")
    func stubFile() async throws {
        let root = try TemporaryStubRoot(mappings: [
            "parts.json": #"""
            {"request": {"url": "/templated", "method": "POST"},
             "response": {"status": 200, "transformers": ["response-template"],
                          "body": "{{request.parts.text.body}}:{{request.parts.file.bodyAsBase64}}:\#
            {{size request.parts}}"}}
            """#
        ])
        let registry = try root.registry()
        let session = registry.makeSession()
        let (data, _) = try await session.data(for: Self.multipart)
        withExtendedLifetime(registry) {}
        #expect(String(decoding: data, as: UTF8.self) == "hello:QUJDRA==:2")
    }
}
