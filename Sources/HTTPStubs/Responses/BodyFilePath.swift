import Foundation

/// Where a `bodyFileName` leads in a stub root's `__files` folder, checked the one way both its
/// readers use: the literal name when the mapping loads, and a templated name for each request.
/// A leading `/` is read relative to the folder, as WireMock 3 reads it; `..` and symbolic links
/// that lead out of the folder are refused.
package enum BodyFilePath {
    case inside(URL)
    /// The name has a `..` component.
    case parentReference
    /// The name resolves to the `__files` folder itself.
    case folderItself
    /// A symbolic link leads out of the folder.
    case outside

    /// Resolves `name` against `filesRoot`.
    package init(_ name: String, in filesRoot: URL) {
        let relative = String(name.drop { $0 == "/" })
        guard !relative.split(separator: "/").contains("..") else {
            self = .parentReference
            return
        }
        let root = filesRoot.resolvingSymlinksInPath().standardizedFileURL.path
        let resolved = filesRoot.appendingPathComponent(relative).resolvingSymlinksInPath().standardizedFileURL.path
        if resolved.hasPrefix(root + "/") {
            self = .inside(URL(fileURLWithPath: resolved))
        } else {
            self = resolved == root ? .folderItself : .outside
        }
    }
}
