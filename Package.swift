// swift-tools-version:6.0

import Foundation
import PackageDescription

// The modules, from the bottom up; each depends only on those above it:
// - HTTPStubs, the core: interception, matching, responses, delivery, the journal, the registry, clocks.
// - HTTPStubsLanguages: what stub files' operators read and compare (JSONPath, XPath and XML, JSON Schema, dates).
// - HTTPStubsTemplates: the response template engine (Handlebars, with WireMock's helpers).
// - HTTPStubsFiles: WireMock mappings, HAR captures, stub roots, record and replay, response templates in code.
// - HTTPStubsTesting: the Swift Testing and XCTest integration (the core only).
// A team that stubs in code adds HTTPStubs and HTTPStubsTesting and compiles nothing else.
var targets: [Target] = [
    .target(name: "HTTPStubs"),
    .target(name: "HTTPStubsLanguages", dependencies: ["HTTPStubs"]),
    .target(name: "HTTPStubsTemplates", dependencies: ["HTTPStubs", "HTTPStubsLanguages"]),
    .target(name: "HTTPStubsFiles", dependencies: ["HTTPStubs", "HTTPStubsLanguages", "HTTPStubsTemplates"]),
    .target(name: "HTTPStubsTesting", dependencies: ["HTTPStubs"]),
    .target(name: "ExampleClients"),
    .target(name: "StubsTool", dependencies: ["HTTPStubs", "HTTPStubsFiles"]),
    .executableTarget(name: "stubs", dependencies: ["StubsTool"]),
    // A small HTTP server on 127.0.0.1 for the recording tests and the benchmark (not a product).
    .target(name: "LoopbackHTTP"),
    // Run by SharedSessionTests in a process of its own, where no URLSession exists yet.
    .executableTarget(name: "shared-session-probe", dependencies: ["HTTPStubs"], path: "Tests/SharedSessionProbe"),
    .testTarget(
        name: "HTTPStubsTests",
        dependencies: [
            "HTTPStubs", "HTTPStubsLanguages", "HTTPStubsTemplates", "HTTPStubsFiles", "HTTPStubsTesting",
            "ExampleClients", "StubsTool", "LoopbackHTTP",
            // Run as child processes, which only macOS and Linux can start (`Process`).
            .target(name: "stubs", condition: .when(platforms: [.macOS, .linux])),
            .target(name: "shared-session-probe", condition: .when(platforms: [.macOS, .linux])),
        ],
        // A recording the documentation's record-and-replay example replays, read from the
        // source tree (`replay(_:relativeTo: #filePath)`), as a user's test reads its own.
        exclude: ["Documentation/HTTPStubs/Recordings"],
        resources: [.copy("Resources/BundledStubs")]
    ),
    .testTarget(
        name: "HTTPStubsXCTests",
        dependencies: ["HTTPStubs", "HTTPStubsFiles", "HTTPStubsTesting", "ExampleClients", "LoopbackHTTP"]
    ),
]

// The benchmark is built only on request (`HTTPSTUBS_BENCHMARKS=1 swift run -c release stubs-bench`), so that
// `swift test` and the products never build it; see BENCHMARKS.md.
if ProcessInfo.processInfo.environment["HTTPSTUBS_BENCHMARKS"] == "1" {
    targets.append(
        .executableTarget(name: "stubs-bench", dependencies: ["HTTPStubs", "HTTPStubsFiles", "LoopbackHTTP"])
    )
}

let package = Package(
    name: "swift-http-stubs",
    // The public API uses `Duration` and `Clock` (Swift 5.7 runtime): macOS 13, iOS 16, tvOS 16, watchOS 9. Mac Catalyst
    // follows iOS. Narrower parts check `#available` (see Sources/HTTPStubs/HTTPStubs.docc/Platforms.md).
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "HTTPStubs", targets: ["HTTPStubs"]),
        .library(name: "HTTPStubsFiles", targets: ["HTTPStubsFiles"]),
        .library(name: "HTTPStubsTesting", targets: ["HTTPStubsTesting"]),
        .executable(name: "stubs", targets: ["stubs"]),
    ],
    targets: targets,
    swiftLanguageModes: [.v6]
)
