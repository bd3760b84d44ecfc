import Foundation

/// The ```text blocks of a document of the repository (`README.md`,
/// `Sources/HTTPStubs/HTTPStubs.docc/UnmatchedRequests.md`), in order, each without its fences.
func textBlocks(of document: String) throws -> [String] {
    let text = try String(contentsOf: repositoryRoot.appendingPathComponent(document), encoding: .utf8)
    var blocks: [String] = []
    var current: [Substring]?
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
        if current == nil, line == "```text" {
            current = []
        } else if let lines = current, line == "```" {
            blocks.append(lines.joined(separator: "\n"))
            current = nil
        } else {
            current?.append(line)
        }
    }
    return blocks
}
