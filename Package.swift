// swift-tools-version:6.0

import PackageDescription

let package = Package(
    name: "swift-http-stubs",
    // The public API uses `Duration` and `Clock` (Swift 5.7 runtime): macOS 13, iOS 16, tvOS 16, watchOS 9. Mac Catalyst
    // follows iOS. Narrower parts check `#available` (see Sources/HTTPStubs/HTTPStubs.docc/Platforms.md).
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "HTTPStubs", targets: ["HTTPStubs"]),
        .library(name: "HTTPStubsTesting", targets: ["HTTPStubsTesting"]),
        .executable(name: "stubs", targets: ["stubs"]),
    ],
    targets: [
        .target(name: "HTTPStubs"),
        .target(name: "HTTPStubsTesting", dependencies: ["HTTPStubs"]),
        .target(name: "ExampleClients"),
        .target(name: "StubsTool", dependencies: ["HTTPStubs"]),
        .executableTarget(name: "stubs", dependencies: ["StubsTool"]),
        // A small HTTP server on 127.0.0.1 for the benchmark and the recording tests (not a product).
        .target(name: "LoopbackHTTP"),
        .executableTarget(name: "stubs-bench", dependencies: ["HTTPStubs", "LoopbackHTTP"]),
        // Run by SharedSessionTests in a process of its own, where no URLSession exists yet.
        .executableTarget(name: "shared-session-probe", dependencies: ["HTTPStubs"], path: "Tests/SharedSessionProbe"),
        .testTarget(
            name: "HTTPStubsTests",
            dependencies: [
                "HTTPStubs", "HTTPStubsTesting", "ExampleClients", "StubsTool", "LoopbackHTTP",
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
            dependencies: ["HTTPStubs", "HTTPStubsTesting", "ExampleClients", "LoopbackHTTP"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
