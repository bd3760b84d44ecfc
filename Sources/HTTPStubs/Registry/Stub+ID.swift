extension Stub {
    /// A stub's identity, such as `stub-7`: unique in the process and numbered in order of creation.
    ///
    /// ``StubRegistry/stub(_:_:priority:expecting:fileID:filePath:line:column:)``, ``StubRegistry/add(_:)``
    /// and ``StubRegistry/load(_:templating:)-(String...,StubTemplating)`` return it; ``StubRegistry/remove(_:)`` and
    /// ``StubRegistry/useCount(of:)`` take it, and ``StubSummary/id`` names the stub that answered a request.
    public struct ID: Hashable, Sendable, CustomStringConvertible {
        /// The identity's text, as reports print it.
        public let description: String

        package init(_ text: String) {
            self.description = text
        }

        private static let counter = Locked(0)

        /// The next identity in the process.
        static func next() -> ID {
            let number = counter.withLock { value -> Int in
                value += 1
                return value
            }
            return ID("stub-\(number)")
        }
    }
}
