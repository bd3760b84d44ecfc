import Foundation
import HTTPStubs
import HTTPStubsTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Stub roots shipped as resources of the test target (`resources: [.copy("Resources/BundledStubs")]`
/// in Package.swift) load from `Bundle.module`, in a trait or a closure scope.
@Suite("Stubs from Bundle.module")
struct BundleResourceTests {
    @Test(
        "a stub root copied into the test bundle loads with load(_:in: .module) and serves its body file",
        .httpStubs { stubs in try stubs.load("BundledStubs", in: .module) }
    )
    func loadsFromTheModuleBundle() async throws {
        let stubs = StubRegistry.current()
        let (data, response) = try await stubs.makeSession().data(
            from: URL(string: "https://api.example.com/bundled/greeting")!
        )
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(String(decoding: data, as: UTF8.self) == "hello from Bundle.module")
        #expect(stubs.stubs.first?.source.description.contains("BundledStubs/mappings/greeting.json") == true)
    }

    @Test("a name the bundle does not hold is an error that says how to declare it, and adds nothing")
    func missingResource() throws {
        let stubs = StubRegistry()
        let error = try #require(throws: StubFileError.self) { try stubs.load("BundledStubs", "NotThere", in: .module) }
        #expect(error.diagnostics.count == 1)
        #expect(error.description.contains("no resource \"NotThere\" in the bundle"))
        #expect(error.description.contains("resources: [.copy(\"Fixtures/NotThere\")]"))
        #expect(error.description.contains(#"load it as load("NotThere", in: .module)"#))
        #expect(stubs.stubs.isEmpty)
    }

    @Test(
        "a copied folder named by its path in the target's folder: the hint says to load it by its last component, which works"
    )
    func resourceNamedByItsSourcePath() throws {
        let error = try #require(throws: StubFileError.self) {
            try StubRegistry().load("Resources/BundledStubs", in: .module)
        }
        #expect(
            error.description.contains(
                #"a copied resource keeps only its last path component in the bundle: load it as load("BundledStubs", in: .module)"#
            ),
            "\(error)"
        )
        #expect(!error.description.contains(".copy("), "the resource is declared already: \(error)")
        let stubs = StubRegistry()
        try stubs.load("BundledStubs", in: .module)
        #expect(!stubs.stubs.isEmpty, "the suggested call loads the stubs")
    }

    @Test("a folder path the bundle lacks: declare it with that path (not doubled), load it by its last component")
    func undeclaredFolderPath() throws {
        let error = try #require(throws: StubFileError.self) {
            try StubRegistry().load("Fixtures/WeatherStubs", in: .module)
        }
        #expect(error.description.contains(#"resources: [.copy("Fixtures/WeatherStubs")]"#), "\(error)")
        #expect(error.description.contains(#"load it by its last path component: load("WeatherStubs", in: .module)"#))
        #expect(!error.description.contains("Fixtures/Fixtures"), "\(error)")
    }
}
