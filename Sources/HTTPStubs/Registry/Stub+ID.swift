extension Stub {
    /// A stub's identity, named by where the stub was written: `MyAppTests/UserTests.swift:12:9` for a
    /// stub in code, `mappings/users.json[2]` for a stub file's entry.
    ///
    /// The name means something in any run, parallel or not; the identity is unique in the process all
    /// the same (two stubs made on one line, in a loop or a helper, have the same name but different
    /// identities), so it can be kept to look a stub up.
    /// ``StubRegistry/stub(_:_:priority:expecting:fileID:filePath:line:column:)``, ``StubRegistry/add(_:)``
    /// and `StubRegistry.load(_:templating:)` (HTTPStubsFiles) return it; ``StubRegistry/remove(_:)`` and
    /// ``StubRegistry/useCount(of:)`` take it, and ``StubSummary/id`` names the stub that answered a request.
    public struct ID: Hashable, Sendable, CustomStringConvertible {
        /// The stub's source, as reports print it.
        public let description: String
        /// What makes the identity unique in the process.
        private let serial: Int

        /// An identity named `text`, equal to no other.
        package init(_ text: String) {
            self.description = text
            self.serial = Self.counter.withLock { value -> Int in
                value += 1
                return value
            }
        }

        private static let counter = Locked(0)
    }
}
