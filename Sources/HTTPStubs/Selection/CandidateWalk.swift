/// The candidates for a request, in the order tried, yielding those that could answer when
/// they were judged. They are judged under the registry's lock 64 at a time (one bit each, so
/// nothing is allocated), while their matchers run outside it.
struct CandidateWalk {
    private let candidates: [StubIndex.Entry]
    /// Bit `n` is set when `candidates[judged + n]` could answer.
    private var eligible: UInt64 = 0
    /// The position of the first candidate `eligible` describes.
    private var judged = 0
    private var position = 0

    /// Takes the candidates and judges the first 64; call under the lock.
    init(_ candidates: [StubIndex.Entry], scenarios: [String: String]) {
        self.candidates = candidates
        judge(from: 0, scenarios: scenarios)
    }

    /// The next candidate that could answer when judged, or `nil` after the last. Takes the
    /// lock to judge the next 64 when it gets to them; call without it.
    mutating func next(in lock: Locked<StubRegistry.State>) -> StubIndex.Entry? {
        while position < candidates.count {
            if position - judged == 64 {
                lock.withLock { judge(from: position, scenarios: $0.scenarios) }
            }
            let candidate = candidates[position]
            let isEligible = eligible & (1 << UInt64(position - judged)) != 0
            position += 1
            if isEligible { return candidate }
        }
        return nil
    }

    private mutating func judge(from start: Int, scenarios: [String: String]) {
        judged = start
        eligible = 0
        for offset in 0..<min(64, candidates.count - start)
        where StubBlocker.isEligible(candidates[start + offset], scenarios: scenarios) {
            eligible |= 1 << UInt64(offset)
        }
    }
}
