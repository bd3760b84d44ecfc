import HTTPStubs

/// Values collected from any thread (issues a handler saw, requests an observer saw), in order.
final class Collected<Element>: Sendable {
    private let elements = Locked<[Element]>([])

    init() {}

    /// Adds a value.
    func append(_ element: Element) {
        elements.withLock { $0.append(element) }
    }

    /// The values so far.
    var all: [Element] { elements.value }
}
