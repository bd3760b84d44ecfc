import Foundation
import HTTPStubs

#if canImport(Testing)
import Testing
#endif
#if canImport(XCTest)
import XCTest
#endif

/// Reports test failures to the framework that runs the current test.
///
/// The framework is decided on the test's own task, when a stub scope starts: Swift Testing
/// attributes an issue only when it is recorded from the test's task (from URLSession's threads it
/// shows as an unknown test), and it ignores `XCTFail`. Scopes therefore collect problems and
/// report them from the test's task when they end.
package enum TestFailureReporter {
    /// The framework running the current test.
    enum Framework: Sendable {
        case swiftTesting
        case xcTest
    }

    /// The framework running the calling task's test: Swift Testing when it has a current test.
    static var current: Framework {
        #if canImport(Testing)
        if Test.current != nil { return .swiftTesting }
        #endif
        return .xcTest
    }

    /// The running test as its framework names it: `Suite/test()` under Swift Testing, the test
    /// case's name under XCTest; `nil` when neither knows.
    static func currentTestName(testCase: AnyObject?) -> String? {
        #if canImport(Testing)
        if let test = Test.current { return test.id.nameComponents.joined(separator: "/") }
        #endif
        #if canImport(XCTest)
        if let testCase = testCase as? XCTestCase { return testCase.name }
        #endif
        return nil
    }

    /// Records a failure at `location`; for XCTest, `testCase` lets a failure point into any file.
    ///
    /// Under Swift Testing the message's first line is recorded as the issue's error (see
    /// ``FailureHeadline``) and the rest as its comment; XCTest gets the message as it is.
    /// - Returns: Whether it fails the test: not an issue Swift Testing's `withKnownIssue` expected.
    @discardableResult
    static func fail(
        _ message: String,
        at location: SourceCodeLocation,
        framework: Framework,
        testCase: AnyObject? = nil
    ) -> Bool {
        switch framework {
        case .swiftTesting:
            #if canImport(Testing)
            // The first line as the issue's error, so that it is what the console prints first.
            let (headline, details) = FailureHeadline.split(message)
            return Issue.record(
                headline,
                details.map { Comment(rawValue: $0) },
                sourceLocation: location.testingSourceLocation
            ).isFailure
            #endif
        case .xcTest:
            #if canImport(XCTest)
            if let testCase = testCase as? XCTestCase {
                testCase.recordFailure(
                    withDescription: message,
                    inFile: location.filePath,
                    atLine: location.line,
                    expected: true
                )
            } else if let file = location.staticFilePath {
                XCTFail(message, file: file, line: UInt(location.line))
            } else {
                XCTFail("\(location): \(message)")
            }
            #endif
        }
        return true
    }

    /// Where XCTest's warnings go: standard error (package-visible so that tests can read them).
    package static let xcTestWarnings = Locked<@Sendable (String) -> Void>({ line in
        FileHandle.standardError.write(Data("\(line)\n".utf8))
    })

    /// Reports something that does not fail the test: a Swift Testing warning at `location`; under
    /// XCTest, which has no such severity, a notice on standard error naming the test and the place,
    /// worded so that no tool reads it as a compiler's error or warning.
    static func warn(_ message: String, at location: SourceCodeLocation, framework: Framework, testName: String) {
        switch framework {
        case .swiftTesting:
            #if canImport(Testing)
            Issue.record(Comment(rawValue: message), severity: .warning, sourceLocation: location.testingSourceLocation)
            #endif
        case .xcTest:
            let output = xcTestWarnings.withLock { $0 }
            output("swift-http-stubs notice for \(testName) (\(location)): \(message)")
        }
    }
}
