import Foundation

/// A registry's journal: every request it intercepted, oldest first, numbered from 1, each with
/// what became of it and, once answered, the response its caller received.
///
/// Not thread-safe: it lives in the registry's state, under its lock.
struct Journal {
    /// The entries, oldest first; an entry's ``JournalEntry/id`` is its position plus ``firstID``.
    private(set) var entries: [JournalEntry] = []
    /// The id of the first entry: 1, and past the last entry forgotten when the journal is
    /// cleared, so that an answer that ends after a clear (a stream, a delayed response) never
    /// lands on a newer request's entry.
    private var firstID = 1

    /// Journals a request and what became of it; returns the entry's id.
    @discardableResult
    mutating func append(_ request: InterceptedRequest, _ outcome: JournalEntry.Outcome) -> Int {
        let id = firstID + entries.count
        entries.append(JournalEntry(id: id, date: Date(), request: request, outcome: outcome))
        return id
    }

    /// Remembers the response the request of entry `id` received; nothing when the journal was
    /// cleared since.
    mutating func attach(_ response: RecordedResponse, toEntry id: Int) {
        guard entries.indices.contains(id - firstID) else { return }
        entries[id - firstID].response = response
    }

    /// Records how the response of entry `id` ended, and the body sent before: nothing when the
    /// entry has no response, or the journal was cleared since.
    mutating func endResponse(_ id: Int, body: Data, ending: ResponseEnding) {
        let index = id - firstID
        guard entries.indices.contains(index), entries[index].response != nil else { return }
        entries[index].response?.body = body
        entries[index].response?.ending = ending
    }

    /// Forgets every entry; the next one is numbered after the last one forgotten.
    mutating func removeAll() {
        firstID += entries.count
        entries.removeAll()
    }
}
