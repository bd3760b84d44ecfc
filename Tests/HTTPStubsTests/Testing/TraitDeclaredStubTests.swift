import Foundation
import HTTPStubs
import HTTPStubsTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// Stubs declared inside a real `@Test(.httpStubs { stubs in … })` or `@Suite(.httpStubs { … })`
// attribute. Swift 6.3 gives every `#line` and `#column` written inside an attribute the place of
// the declaration the attribute is attached to (the `func` keyword, or the `struct` keyword of a
// suite), not the line it is written on; `#fileID` and `#filePath` are right. Such a stub cannot be
// reported at its own line, so its failures name the stub, the trait and the test instead.
//
// The trait reports after the test body returns, so no `withKnownIssue` in the body can see those
// issues: `.issuesAfterScope`, listed before `.httpStubs` (Swift Testing runs the first trait's
// scope outermost), catches them and checks them.
extension HTTPStubsTraitTests {
    @Suite("Stubs declared inside the .httpStubs attribute")
    struct TraitDeclaredStubs {
        /// The line of each test's `func`, recorded by its body.
        static let functionLine = Locked<[String: Int]>([:])
        /// The line of a stub declared in a test's body, recorded by the body.
        static let bodyStubLine = Locked(0)

        static let trait = "declared in the `.httpStubs` trait of `HTTPStubsTraitTests/TraitDeclaredStubs/"

        @Test(
            .issuesAfterScope { issues in
                #expect(issues.count == 1, "\(issues.map(\.description))")
                let text = issues.first?.description ?? ""
                #expect(text.contains("Unmet expectation: the stub"))
                #expect(text.contains(#"path = "/v1/feed""#), "the stub's pattern identifies it")
                #expect(!text.contains(#"path = "/v1/other""#), "only the unmet stub is named")
                #expect(text.contains("was expected to answer exactly 2 times, but answered 1 request"))
                #expect(text.contains(trait + "unmetExpectationNamesTheTraitAndTest()`"))
                #expect(
                    text.contains(
                        "declare the stub in the test body, in a function passed to `.httpStubs`, or in `withHTTPStubs`"
                    )
                )
                // The best place there is: the `func` line, where Swift put the stub.
                #expect(issues.first?.sourceLocation?.fileID == #fileID)
                #expect(issues.first?.sourceLocation?.line == functionLine.value["unmet"])
            },
            .httpStubs { stubs in
                stubs.stub(.get("https://api.example.com/v1/feed"), .text("feed"), expecting: .exactly(2))
                stubs.stub(.get("https://api.example.com/v1/other"), .text("other"), expecting: .once)
            }
        )
        func unmetExpectationNamesTheTraitAndTest() async {
            Self.functionLine.withLock { $0["unmet"] = #line - 1 }
            let session = StubRegistry.current().makeSession()
            _ = await fetch(session, "https://api.example.com/v1/feed")
            _ = await fetch(session, "https://api.example.com/v1/other")
        }

        @Test(
            .issuesAfterScope { issues in
                #expect(issues.count == 1, "\(issues.map(\.description))")
                let text = issues.first?.description ?? ""
                #expect(text.contains("Broken stub:"))
                #expect(text.contains("([0-9+"), "the broken pattern identifies the stub")
                #expect(text.contains(trait + "brokenStubNamesTheTraitAndTest()`"))
                #expect(issues.first?.sourceLocation?.line == functionLine.value["broken"])
            },
            .httpStubs { stubs in stubs.stub(.get(.pathMatching("/users/([0-9+")), .text("never")) }
        )
        func brokenStubNamesTheTraitAndTest() {
            Self.functionLine.withLock { $0["broken"] = #line - 1 }
        }

        @Test(
            .issuesAfterScope { issues in
                #expect(issues.count == 1, "\(issues.map(\.description))")
                let text = issues.first?.description ?? ""
                #expect(text.contains(#"path = "/in-the-body""#))
                #expect(!text.contains("declared in the `.httpStubs` trait"), "the line is right, so no note")
                #expect(issues.first?.sourceLocation?.fileID == #fileID)
                #expect(issues.first?.sourceLocation?.line == bodyStubLine.value)
            },
            .httpStubs
        )
        func stubInTheBodyReportsItsOwnLine() {
            Self.bodyStubLine.value = #line + 1
            StubRegistry.current().stub(.get("https://api.example.com/in-the-body"), .text("body"), expecting: .once)
        }

        @Test(
            .issuesAfterScope { issues in
                #expect(issues.count == 1, "\(issues.map(\.description))")
                let text = issues.first?.description ?? ""
                #expect(text.contains(#"path = "/from-a-function""#))
                #expect(!text.contains("declared in the `.httpStubs` trait"), "the line is right, so no note")
                #expect(issues.first?.sourceLocation?.fileID == #fileID)
                #expect(issues.first?.sourceLocation?.line == traitDeclaredStubsFunctionStubLine)
            },
            .httpStubs(traitDeclaredStubsConfigure)
        )
        func stubFromAFunctionReportsItsOwnLine() {}
    }

    /// `@Suite(.httpStubs { … })`: a stub declared in the suite's attribute gets the line of the
    /// suite's `struct`.
    @Suite(
        "Stubs declared inside a suite's .httpStubs attribute",
        .issuesAfterScope { issues in
            #expect(issues.count == 1, "\(issues.map(\.description))")
            let text = issues.first?.description ?? ""
            #expect(text.contains(#"path = "/suite-wide""#))
            #expect(text.contains("was expected to answer exactly once, but answered 0 requests"))
            #expect(
                text.contains(
                    "declared in the `.httpStubs` trait of `HTTPStubsTraitTests/SuiteTraitDeclaredStubs/unusedSuiteStub()`"
                )
            )
            #expect(issues.first?.sourceLocation?.fileID == #fileID)
        },
        .httpStubs { stubs in stubs.stub(.get("https://api.example.com/suite-wide"), .text("suite"), expecting: .once) }
    )
    struct SuiteTraitDeclaredStubs {
        @Test func unusedSuiteStub() {
            #expect(StubRegistry.current().stubs.count == 1)
        }
    }
}

/// The line of the stub `traitDeclaredStubsConfigure` declares, recorded when it runs.
private let traitDeclaredStubsFunctionStubLineBox = Locked(0)
private var traitDeclaredStubsFunctionStubLine: Int { traitDeclaredStubsFunctionStubLineBox.value }

/// A configure function declared outside the attribute: its stubs keep their own lines.
@Sendable private func traitDeclaredStubsConfigure(_ stubs: StubRegistry) {
    traitDeclaredStubsFunctionStubLineBox.value = #line + 1
    stubs.stub(.get("https://api.example.com/from-a-function"), .text("function"), expecting: .once)
}

/// Sends a GET and waits for it; the result is not needed.
private func fetch(_ session: URLSession, _ url: String) async -> Data? {
    try? await session.data(from: URL(string: url)!).0
}

/// Catches every issue the test records as a known issue (including those the `.httpStubs` trait
/// records after the body returns), then hands them to `check`, whose own expectations are real.
/// List it before `.httpStubs`: the first trait's scope is the outermost.
struct IssuesAfterScopeTrait: TestTrait, SuiteTrait, TestScoping {
    let check: @Sendable ([Issue]) -> Void

    /// On a suite, every test is checked on its own.
    var isRecursive: Bool { true }

    func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        let issues = Collected<Issue>()
        try await withKnownIssue {
            try await function()
        } matching: { issue in
            issues.append(issue)
            return true
        }
        check(issues.all)
    }

    /// A scope for each test case, never for a suite as a whole.
    func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }
}

extension Trait where Self == IssuesAfterScopeTrait {
    /// Catches the test's issues, including those recorded when the `.httpStubs` scope ends, and checks them.
    static func issuesAfterScope(_ check: @escaping @Sendable ([Issue]) -> Void) -> Self {
        IssuesAfterScopeTrait(check: check)
    }
}
