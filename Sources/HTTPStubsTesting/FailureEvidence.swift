import Foundation
import HTTPStubs

#if canImport(Testing)
import Testing
#endif
#if canImport(XCTest)
import XCTest
#endif

/// What a stub scope reported as failures, kept so that its end can attach the evidence
/// (``FailureAttachment``) to the test: nothing for a scope that reported none, or only failures
/// that Swift Testing's `withKnownIssue` expected (the test passes).
///
/// Under Swift Testing the files are recorded with `Attachment.record`, at the scope's line
/// (`swift test --attachments-path DIR` writes them to `DIR`; Xcode shows them with the test's
/// issues). Under XCTest on Apple platforms they are added to the test case as `XCTAttachment`s
/// (`XCTestCase.makeStubRegistry()`; `withHTTPStubs` in an XCTest has no test case to add them to).
/// swift-corelibs-xctest (Linux, Windows) has no attachments: there the failure messages are the
/// report.
final class FailureEvidence: Sendable {
    private let failures = Locked<[String]>([])

    /// Keeps a failure the scope reported that fails the test.
    func note(_ failure: String) {
        failures.withLock { $0.append(failure) }
    }

    /// Attaches the evidence of the failures noted so far to the running test, from the test's own
    /// task: the text of every failure, the journal of `stubs` as HAR and the files it recorded.
    func attach(
        stubs: StubRegistry,
        testName: String,
        at location: SourceCodeLocation,
        framework: TestFailureReporter.Framework,
        testCase: AnyObject?
    ) {
        let noted = failures.withLock { $0 }
        let attachments = FailureAttachment.evidence(failures: noted, stubs: stubs, testName: testName)
        for attachment in attachments {
            switch framework {
            case .swiftTesting:
                #if canImport(Testing)
                Attachment.record(
                    [UInt8](attachment.contents),
                    named: attachment.name,
                    sourceLocation: location.testingSourceLocation
                )
                #else
                break
                #endif
            case .xcTest:
                #if canImport(XCTest) && canImport(Darwin)
                if let testCase = testCase as? XCTestCase {
                    let file = XCTAttachment(data: attachment.contents)
                    file.name = attachment.name
                    testCase.add(file)
                }
                #else
                break
                #endif
            }
        }
    }
}
