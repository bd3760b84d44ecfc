import Foundation

/// The shared corpus of real stub files (`<repository>/../shared/corpus`), or an error saying
/// where it was looked for; `subpath` names a folder or file inside it, such as `"har"`.
func corpusURL(_ subpath: String? = nil) throws -> URL {
    // This file is <repository>/Tests/HTTPStubsTests/Support/Corpus.swift.
    let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent()
    var url = repository.deletingLastPathComponent().appendingPathComponent("shared/corpus")
    if let subpath { url.appendPathComponent(subpath) }
    guard FileManager.default.fileExists(atPath: url.path) else {
        throw CorpusMissing(url: url)
    }
    return url
}

/// The corpus of real stub files is not where the tests expect it.
struct CorpusMissing: Error, CustomStringConvertible {
    /// Where it was looked for.
    let url: URL

    /// What is missing, and where it should be.
    var description: String {
        "the stub-file corpus is missing: expected \(url.standardizedFileURL.path) (beside the repository, at <repository>/../shared/corpus); restore it before running the corpus tests"
    }
}
