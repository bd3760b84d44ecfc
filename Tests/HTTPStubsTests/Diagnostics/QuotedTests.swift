import Testing

@testable import HTTPStubs
@testable import HTTPStubsFiles
@testable import HTTPStubsLanguages
@testable import HTTPStubsTemplates

/// How messages quote a value: the plain text most values are, and everything that must be escaped or cut.
@Suite struct QuotedTests {
    @Test(
        "text is quoted with quotes, backslashes and control characters escaped, and cut after the limit",
        arguments: [
            ("/users/42?page=2", nil, #""/users/42?page=2""#),
            ("", nil, #""""#),
            (#"say "hi" \ bye"#, nil, #""say \"hi\" \\ bye""#),
            ("a\tb\r\nc\u{7F}", nil, #""a\tb\r\nc\u{7F}""#),
            ("é 😀", nil, #""é 😀""#),
            ("abcde", 5, #""abcde""#),
            ("abcdef", 5, #""abcde"… (6 bytes)"#),
            ("ééééé", 5, #""ééééé""#),
            ("éééééé", 5, #""ééééé"… (12 bytes)"#),
        ] as [(String, Int?, String)]
    )
    func quotes(_ text: String, limit: Int?, expected: String) {
        #expect(quoted(text, limit: limit) == expected)
    }
}
