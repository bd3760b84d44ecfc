import Foundation

/// The repository's root folder, found from this file's place in it
/// (`<repository>/Tests/HTTPStubsTests/Support/RepositoryRoot.swift`): the fixtures under `Tests/Fixtures`
/// and the `Stubs/` folder are read from the source tree.
let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // Support
    .deletingLastPathComponent()  // HTTPStubsTests
    .deletingLastPathComponent()  // Tests
    .deletingLastPathComponent()
