import Foundation

/// The corpus of real stub files kept in the repository (`Tests/Fixtures/Corpus`, copied verbatim
/// from the projects `Tests/Fixtures/THIRD_PARTY_NOTICES.md` names), or an error saying where it
/// was looked for; `subpath` names a folder or file inside it, such as `"har"`.
func corpusURL(_ subpath: String? = nil) throws -> URL {
    var url = repositoryRoot.appendingPathComponent("Tests/Fixtures/Corpus")
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
        "the stub-file corpus is missing: expected \(url.standardizedFileURL.path) (in the repository, under Tests/Fixtures/Corpus); restore it from git before running the corpus tests"
    }
}
