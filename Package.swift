// swift-tools-version:6.0

import PackageDescription

let package = Package(
    name: "swift-http-stubs",
    products: [
        .library(name: "HTTPStubs", targets: ["HTTPStubs"]),
        .executable(name: "stubs", targets: ["stubs"]),
    ],
    targets: [
        .target(name: "HTTPStubs"),
        .target(name: "ExampleClients"),
        .target(name: "StubsTool", dependencies: ["HTTPStubs"]),
        .executableTarget(name: "stubs", dependencies: ["StubsTool"]),
        .testTarget(
            name: "HTTPStubsTests",
            dependencies: ["HTTPStubs", "ExampleClients", "StubsTool", "stubs"]
        ),
        .testTarget(
            name: "HTTPStubsXCTests",
            dependencies: ["HTTPStubs", "ExampleClients"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
