import Foundation

/// A registry's journal: every request it intercepted, oldest first, numbered from 1, each with
/// what became of it and, once answered, the response its caller received.
///
/// Not thread-safe: it lives in the registry's state, under its lock.
struct Journal {
    /// The entries, oldest first; an entry's ``JournalEntry/id`` is its position from 1.
    private(set) var entries: [JournalEntry] = []

    /// Journals a request and what became of it; returns the entry's id.
    @discardableResult
    mutating func append(_ request: InterceptedRequest, _ outcome: JournalEntry.Outcome) -> Int {
        let id = entries.count + 1
        entries.append(JournalEntry(id: id, date: Date(), request: request, outcome: outcome))
        return id
    }

    /// Remembers the response the request of entry `id` received; nothing when the journal was
    /// cleared since.
    mutating func attach(_ response: RecordedResponse, toEntry id: Int) {
        guard entries.indices.contains(id - 1) else { return }
        entries[id - 1].response = response
    }

    /// Forgets every entry.
    mutating func removeAll() {
        entries.removeAll()
    }
}
