import Foundation
import HTTPStubs

/// A test on one text value read from a stub file: WireMock's `StringValuePattern` and
/// `ContentPattern` (`{"equalTo": "x"}`, `{"matchesJsonPath": "$.id"}`, …).
///
/// `nil` stands for an absent value (a missing header, an empty body), which only `absent`,
/// `anything` and negations accept.
struct ValueTest: Sendable {
    /// What the test requires, such as `= "x"` or `matches JSON path $.id`.
    let description: String
    /// Tests a value.
    let test: @Sendable (String?) -> MatchVerdict
    /// Tests raw bytes instead of text, for `binaryEqualTo` on bodies.
    var bytesTest: (@Sendable (Data) -> MatchVerdict)?

    init(
        _ description: String,
        bytesTest: (@Sendable (Data) -> MatchVerdict)? = nil,
        test: @escaping @Sendable (String?) -> MatchVerdict
    ) {
        self.description = description
        self.test = test
        self.bytesTest = bytesTest
    }

    /// A test that is a plain yes or no on present values; absent values fail it.
    static func predicate(_ description: String, _ predicate: @escaping @Sendable (String) -> Bool) -> ValueTest {
        ValueTest(description) { value in
            guard let value else {
                return MatchVerdict(isMatch: false, detail: "expected \(description), but it is absent")
            }
            return predicate(value)
                ? MatchVerdict(isMatch: true, detail: quoted(value))
                : MatchVerdict(isMatch: false, detail: "expected \(description), got \(quoted(value))")
        }
    }

    /// Tests a body: bytes when the test wants them, else its UTF-8 text (`nil` when empty).
    func testBody(_ body: Data?) -> MatchVerdict {
        if let bytesTest { return bytesTest(body ?? Data()) }
        guard let body, !body.isEmpty else { return test(nil) }
        return test(String(decoding: body, as: UTF8.self))
    }

    /// Tests a request's body, reusing its decoded text (decoded once for all the stubs tried).
    func testBody(of request: InterceptedRequest) -> MatchVerdict {
        guard bytesTest == nil, let body = request.body, !body.isEmpty, let text = request.bodyText else {
            return testBody(request.body)
        }
        return test(text)
    }

    /// Tests several values of one name (a repeated header or query parameter): some value must
    /// pass; with no values, the test sees an absent value.
    func testAny(_ values: [String]) -> MatchVerdict {
        guard !values.isEmpty else { return test(nil) }
        var closest: MatchVerdict?
        for value in values {
            let verdict = test(value)
            if verdict.isMatch { return verdict }
            if closest == nil || verdict.distance < closest!.distance { closest = verdict }
        }
        return closest!
    }
}

/// A test on every value of one name: a single ``ValueTest`` any value may pass, or WireMock's
/// multi-value operators `hasExactly` and `includes`.
struct MultiValueTest: Sendable {
    let description: String
    let test: @Sendable ([String]) -> MatchVerdict

    /// Any value passing `single`.
    init(_ single: ValueTest) {
        self.description = single.description
        self.test = { single.testAny($0) }
    }

    /// `hasExactly` (every value passes a distinct test, and there are as many values as tests)
    /// or `includes` (every test is passed by some value).
    init(tests: [ValueTest], exactly: Bool) {
        let list = tests.map(\.description).joined(separator: ", ")
        self.description = exactly ? "has exactly [\(list)]" : "includes [\(list)]"
        let description = self.description
        self.test = { values in
            let satisfied =
                exactly
                ? Self.matchExactly(tests, values)
                : tests.allSatisfy { test in values.contains { test.test($0).isMatch } }
            return satisfied
                ? MatchVerdict(isMatch: true, detail: values.map(quoted).joined(separator: ", "))
                : MatchVerdict(
                    isMatch: false,
                    detail: "expected \(description), got [\(values.map(quoted).joined(separator: ", "))]"
                )
        }
    }

    /// Whether values and tests pair up one to one (a small bipartite matching).
    private static func matchExactly(_ tests: [ValueTest], _ values: [String]) -> Bool {
        guard tests.count == values.count else { return false }
        var usedValues = Set<Int>()
        func assign(_ testIndex: Int) -> Bool {
            if testIndex == tests.count { return true }
            for (valueIndex, value) in values.enumerated()
            where !usedValues.contains(valueIndex) && tests[testIndex].test(value).isMatch {
                usedValues.insert(valueIndex)
                if assign(testIndex + 1) { return true }
                usedValues.remove(valueIndex)
            }
            return false
        }
        return assign(0)
    }
}
