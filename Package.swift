// swift-tools-version:6.0

import PackageDescription

let package = Package(
    name: "swift-http-stubs",
    products: [
        .library(name: "HTTPStubs", targets: ["HTTPStubs"]),
    ],
    targets: [
        .target(name: "HTTPStubs"),
        .target(name: "ExampleClients"),
        .testTarget(
            name: "HTTPStubsTests",
            dependencies: ["HTTPStubs", "ExampleClients"]
        ),
        .testTarget(
            name: "HTTPStubsXCTests",
            dependencies: ["HTTPStubs", "ExampleClients"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
