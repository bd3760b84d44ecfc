import Foundation
import HTTPStubs

extension StubRegistry {
    /// Loads stub files (WireMock stub roots, mapping files, HAR captures) and adds their stubs,
    /// which then behave like stubs written in code.
    ///
    /// When any file has an error, nothing is added and the error lists every diagnostic
    /// (`path:line:column: error: $.json.path: message`). Warnings of a successful load go to the
    /// issue handler (see `onDiagnostic(_:)`).
    /// - Parameters:
    ///   - paths: Stub roots, folders of mapping files, mapping files or `.har` files.
    ///   - templating: Which stubs render their responses as templates: those that ask with
    ///     `"transformers": ["response-template"]` (the default), or all (``StubTemplating/global``).
    /// - Returns: The identities of the added stubs, in load order.
    @discardableResult
    public func load(_ paths: String..., templating: StubTemplating = .perStub) throws(StubFileError) -> [Stub.ID] {
        try load(paths, templating: templating)
    }

    /// Loads stub files (see ``load(_:templating:)-(String...,StubTemplating)``).
    @discardableResult
    public func load(_ paths: [String], templating: StubTemplating = .perStub) throws(StubFileError) -> [Stub.ID] {
        let result = StubFiles.load(paths, templating: templating)
        guard result.refusals.isEmpty else { throw StubFileError(diagnostics: result.diagnostics) }
        for warning in result.reportedOnLoad {
            report(warning)
        }
        return add(contentsOf: result.stubs)
    }
}

extension StubRegistry {
    /// Loads stub files whose paths are relative to the folder of a source file: pass `#filePath`
    /// to keep fixtures beside the test that uses them. An absolute path is used as it is.
    ///
    /// ```swift
    /// try stubs.load("Fixtures/Checkout", relativeTo: #filePath)
    /// ```
    /// (For resources bundled with a test target, pass `Bundle.module` paths to
    /// ``load(_:templating:)-(String...,StubTemplating)``.)
    @discardableResult
    public func load(
        _ paths: String...,
        relativeTo file: StaticString,
        templating: StubTemplating = .perStub
    ) throws(StubFileError) -> [Stub.ID] {
        try load(paths.map { StubRootPath.resolving($0, relativeTo: file) }, templating: templating)
    }
}

extension StubRegistry {
    /// Loads stub files bundled as resources, such as a test target's `Bundle.module`: for a stub
    /// root declared with `resources: [.copy("Fixtures/Feed")]`, call
    /// `try stubs.load("Feed", in: .module)` (a copied folder keeps its last path component).
    ///
    /// A name the bundle does not hold is an error that says how to declare it.
    @discardableResult
    public func load(
        _ names: String...,
        in bundle: Bundle,
        templating: StubTemplating = .perStub
    ) throws(StubFileError) -> [Stub.ID] {
        var paths: [String] = []
        var missing: [StubDiagnostic] = []
        let resources = bundle.resourceURL ?? bundle.bundleURL
        for name in names {
            let candidate = resources.appendingPathComponent(name)
            if FileManager.default.fileExists(atPath: candidate.path) {
                paths.append(candidate.path)
            } else {
                missing.append(
                    StubDiagnostic(
                        severity: .error,
                        path: candidate.path,
                        message: "no resource \(quoted(name)) in the bundle at \(bundle.bundlePath); "
                            + Self.missingResourceFix(name, in: resources)
                    )
                )
            }
        }
        guard missing.isEmpty else { throw StubFileError(diagnostics: missing) }
        return try load(paths, templating: templating)
    }

    /// How to reach the resource `name` that `resources` lacks. `.copy("Fixtures/Feed")` puts the
    /// folder in the bundle under its last path component, `Feed`: a name with a folder before it
    /// whose last component the bundle holds was declared already, and is loaded by that component.
    private static func missingResourceFix(_ name: String, in resources: URL) -> String {
        let components = name.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        let last = components.last ?? name
        let call = "load(\(quoted(last)), in: .module)"
        if components.count > 1 {
            if FileManager.default.fileExists(atPath: resources.appendingPathComponent(last).path) {
                return "a copied resource keeps only its last path component in the bundle: load it as \(call)"
            }
            return "declare it in the target's resources in Package.swift, with its path in the target's folder: "
                + "resources: [.copy(\(quoted(name)))], and load it by its last path component: \(call)"
        }
        return "declare it in the target's resources in Package.swift with its path in the target's folder, "
            + "for example resources: [.copy(\(quoted("Fixtures/" + name)))], and load it as \(call)"
    }
}
