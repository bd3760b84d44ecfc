/// How leniently `JSONValue.matches(_:options:)` compares an actual value with an expected one,
/// following WireMock's `equalToJson`.
package struct JSONComparisonOptions: Sendable, Hashable {
    /// Whether arrays match when they hold the same elements in any order.
    package var ignoreArrayOrder: Bool
    /// Whether actual objects, at any depth, may have members the expected objects lack.
    /// Arrays still need the same number of elements.
    package var ignoreExtraMembers: Bool
    /// Whether actual arrays may have more elements than expected ones: after them, or anywhere
    /// when order is ignored. WireMock's `ignoreExtraElements` sets it with `ignoreExtraMembers`.
    package var ignoreExtraArrayElements = false
    /// The JsonUnit placeholders among the expected string values, by their text: set for WireMock's
    /// `equalToJson` only, so that an expected string means itself everywhere else.
    package var placeholders: [String: JSONUnitPlaceholder] = [:]

    /// Creates options; the defaults compare strictly.
    package init(ignoreArrayOrder: Bool = false, ignoreExtraMembers: Bool = false) {
        self.ignoreArrayOrder = ignoreArrayOrder
        self.ignoreExtraMembers = ignoreExtraMembers
    }

    /// The placeholder `expected` is, if it is one.
    func placeholder(_ expected: JSONValue) -> JSONUnitPlaceholder? {
        guard !placeholders.isEmpty, case .string(let text) = expected else { return nil }
        return placeholders[text]
    }

    /// Whether an expected object member that the actual object lacks may be missing.
    func allowsMissing(_ expected: JSONValue) -> Bool {
        placeholder(expected)?.accepts(nil) ?? false
    }

    /// Whether arrays of these lengths can match.
    func admitsLengths(expected: Int, actual: Int) -> Bool {
        ignoreExtraArrayElements ? actual >= expected : actual == expected
    }
}

extension JSONValue {
    /// Whether `actual` matches this expected value.
    ///
    /// Objects compare by key in any order, numbers compare numerically (`1` matches `1.0`),
    /// and `options` relaxes array order and extra object members.
    package func matches(_ actual: JSONValue, options: JSONComparisonOptions = JSONComparisonOptions()) -> Bool {
        if let placeholder = options.placeholder(self) {
            return placeholder.accepts(actual)
        }
        switch (self, actual) {
        case (.array(let expectedElements), .array(let actualElements)):
            guard options.admitsLengths(expected: expectedElements.count, actual: actualElements.count) else {
                return false
            }
            if options.ignoreArrayOrder {
                return Self.pairUnordered(expectedElements, actualElements, options: options).unmatchedExpected.isEmpty
            }
            return zip(expectedElements, actualElements).allSatisfy { $0.matches($1, options: options) }
        case (.object(let expectedObject), .object(let actualObject)):
            let expectedMembers = expectedObject.dictionary
            let actualMembers = actualObject.dictionary
            guard options.ignoreExtraMembers || actualMembers.count <= expectedMembers.count else { return false }
            var present = 0
            for (key, value) in expectedMembers {
                if let actualValue = actualMembers[key] {
                    guard value.matches(actualValue, options: options) else { return false }
                    present += 1
                } else if !options.allowsMissing(value) {
                    return false
                }
            }
            // Every actual member was expected when as many were found as there are.
            return options.ignoreExtraMembers || present == actualMembers.count
        default:
            return self == actual
        }
    }

    /// Up to `limit` human-readable reasons why `actual` does not match this expected value,
    /// such as `$.items[1].id: expected 2, got 3`; empty exactly when it matches.
    package func differences(
        from actual: JSONValue,
        options: JSONComparisonOptions = JSONComparisonOptions(),
        limit: Int = 5
    ) -> [String] {
        var differences: [String] = []
        collectDifferences(from: actual, at: .root, options: options, limit: limit, into: &differences)
        return differences
    }

    /// How far `actual` is from matching this expected value, from 0 (it matches)
    /// to 1 (nothing matches, for example different types at the root): the
    /// fraction of leaf values that differ, missing or extra ones included.
    package func distance(to actual: JSONValue, options: JSONComparisonOptions = JSONComparisonOptions()) -> Double {
        let (differing, total) = weightedDifference(from: actual, options: options)
        return differing / total
    }

    /// Appends the differences between this expected value and `actual`, found at `path`.
    private func collectDifferences(
        from actual: JSONValue,
        at path: JSONPath,
        options: JSONComparisonOptions,
        limit: Int,
        into differences: inout [String]
    ) {
        func report(_ difference: String) {
            if differences.count < limit {
                differences.append(difference)
            }
        }
        if let placeholder = options.placeholder(self) {
            if !placeholder.accepts(actual) {
                report("\(path): expected \(placeholder), got \(actual.typeName) \(actual.abbreviated)")
            }
            return
        }
        switch (self, actual) {
        case (.array(let expectedElements), .array(let actualElements)):
            if !options.admitsLengths(expected: expectedElements.count, actual: actualElements.count) {
                let least = options.ignoreExtraArrayElements ? "at least " : ""
                report("\(path): expected \(least)\(expectedElements.count) elements, got \(actualElements.count)")
            }
            if options.ignoreArrayOrder {
                let pairing = Self.pairUnordered(expectedElements, actualElements, options: options)
                for index in pairing.unmatchedExpected {
                    report("\(path): no element matches \(expectedElements[index].abbreviated)")
                }
                for index in pairing.unmatchedActual where !options.ignoreExtraArrayElements {
                    report("\(path.appending(.index(index))): unexpected element \(actualElements[index].abbreviated)")
                }
            } else {
                for (index, pair) in zip(expectedElements, actualElements).enumerated() where differences.count < limit
                {
                    pair.0.collectDifferences(
                        from: pair.1,
                        at: path.appending(.index(index)),
                        options: options,
                        limit: limit,
                        into: &differences
                    )
                }
            }
        case (.object(let expectedObject), .object(let actualObject)):
            let expectedMembers = expectedObject.dictionary
            let actualMembers = actualObject.dictionary
            for member in expectedObject.uniqueMembers where differences.count < limit {
                let memberPath = path.appending(.key(member.key))
                if let actualValue = actualMembers[member.key] {
                    member.value.collectDifferences(
                        from: actualValue,
                        at: memberPath,
                        options: options,
                        limit: limit,
                        into: &differences
                    )
                } else if !options.allowsMissing(member.value) {
                    report("\(memberPath): missing")
                }
            }
            if !options.ignoreExtraMembers {
                for member in actualObject.uniqueMembers where expectedMembers[member.key] == nil {
                    report("\(path.appending(.key(member.key))): unexpected member")
                }
            }
        default:
            if self == actual {
                return
            }
            if typeName == actual.typeName {
                report("\(path): expected \(abbreviated), got \(actual.abbreviated)")
            } else {
                report("\(path): expected \(typeName) \(abbreviated), got \(actual.typeName) \(actual.abbreviated)")
            }
        }
    }

    /// The weight of the leaves of this expected value that differ in `actual`, and the weight
    /// of all leaves compared; every scalar weighs 1, as does an empty container.
    private func weightedDifference(
        from actual: JSONValue,
        options: JSONComparisonOptions
    ) -> (differing: Double, total: Double) {
        var differing = 0.0
        var total = 0.0
        func add(_ part: (differing: Double, total: Double)) {
            differing += part.differing
            total += part.total
        }
        if let placeholder = options.placeholder(self) {
            return (placeholder.accepts(actual) ? 0 : 1, 1)
        }
        switch (self, actual) {
        case (.array(let expectedElements), .array(let actualElements)) where options.ignoreArrayOrder:
            let pairing = Self.pairUnordered(expectedElements, actualElements, options: options)
            let unmatched = Set(pairing.unmatchedExpected)
            for index in expectedElements.indices where !unmatched.contains(index) {
                add((0, expectedElements[index].leafWeight))
            }
            // Pair the leftover containers greedily with their closest leftover counterparts, each
            // comparison charged to the request's work budget; once it is spent, what is left counts
            // as differing whole.
            var leftoverActual = pairing.unmatchedActual
            let budget = WorkBudget.current
            var spent = false
            for index in pairing.unmatchedExpected {
                let expectedElement = expectedElements[index]
                var closest: (position: Int, part: (differing: Double, total: Double))?
                if expectedElement.isContainer, !spent {
                    for (position, actualIndex) in leftoverActual.enumerated()
                    where actualElements[actualIndex].isContainer {
                        guard
                            budget?.spend(WorkBudget.Cost.comparison, on: "comparing JSON arrays in any order") ?? true
                        else {
                            spent = true
                            break
                        }
                        let part = expectedElement.weightedDifference(
                            from: actualElements[actualIndex],
                            options: options
                        )
                        if closest.map({ part.differing / part.total < $0.part.differing / $0.part.total }) ?? true {
                            closest = (position, part)
                        }
                    }
                }
                if let (position, part) = closest {
                    add(part)
                    leftoverActual.remove(at: position)
                } else {
                    add((expectedElement.leafWeight, expectedElement.leafWeight))
                }
            }
            for index in leftoverActual where !options.ignoreExtraArrayElements {
                add((actualElements[index].leafWeight, actualElements[index].leafWeight))
            }
        case (.array(let expectedElements), .array(let actualElements)):
            for index in 0..<max(expectedElements.count, actualElements.count) {
                if index >= actualElements.count {
                    add((expectedElements[index].leafWeight, expectedElements[index].leafWeight))
                } else if index >= expectedElements.count {
                    if !options.ignoreExtraArrayElements {
                        add((actualElements[index].leafWeight, actualElements[index].leafWeight))
                    }
                } else {
                    add(expectedElements[index].weightedDifference(from: actualElements[index], options: options))
                }
            }
        case (.object(let expectedObject), .object(let actualObject)):
            let expectedMembers = expectedObject.dictionary
            let actualMembers = actualObject.dictionary
            for member in expectedObject.uniqueMembers {
                if let actualValue = actualMembers[member.key] {
                    add(member.value.weightedDifference(from: actualValue, options: options))
                } else if options.allowsMissing(member.value) {
                    add((0, 1))
                } else {
                    add((member.value.leafWeight, member.value.leafWeight))
                }
            }
            if !options.ignoreExtraMembers {
                for member in actualObject.uniqueMembers where expectedMembers[member.key] == nil {
                    add((member.value.leafWeight, member.value.leafWeight))
                }
            }
        default:
            return (self == actual ? 0 : leafWeight, leafWeight)
        }
        return total == 0 ? (0, 1) : (differing, total)
    }

    /// Pairs each expected element with a distinct matching actual element, ignoring order:
    /// scalars by counting equal values, containers and placeholders by a maximum bipartite matching.
    /// - Returns: The indices of the elements of each side that found no partner, ascending.
    private static func pairUnordered(
        _ expected: [JSONValue],
        _ actual: [JSONValue],
        options: JSONComparisonOptions
    ) -> (unmatchedExpected: [Int], unmatchedActual: [Int]) {
        var actualScalarIndices: [JSONValue: [Int]] = [:]
        var actualContainerIndices: [Int] = []
        for (index, element) in actual.enumerated() {
            if element.isContainer {
                actualContainerIndices.append(index)
            } else {
                actualScalarIndices[element, default: []].append(index)
            }
        }
        var unmatchedExpected: [Int] = []
        // Containers and placeholders are paired by `matches`; other scalars by equal values, which
        // are interchangeable, so taking them first never costs a placeholder its partner.
        var expectedMatchedIndices: [Int] = []
        var hasPlaceholders = false
        for (index, element) in expected.enumerated() {
            if element.isContainer {
                expectedMatchedIndices.append(index)
            } else if options.placeholder(element) != nil {
                expectedMatchedIndices.append(index)
                hasPlaceholders = true
            } else if actualScalarIndices[element]?.popLast() == nil {
                unmatchedExpected.append(index)
            }
        }
        let leftoverScalars = actualScalarIndices.values.flatMap { $0 }
        // A placeholder may take a scalar left over, a container only a container.
        let candidates = hasPlaceholders ? (actualContainerIndices + leftoverScalars).sorted() : actualContainerIndices
        var partners = [Int?](repeating: nil, count: expectedMatchedIndices.count)
        var taken = [Bool](repeating: false, count: candidates.count)
        // An expected container equal to an actual one (as values, so without placeholders) is
        // paired with it by a lookup rather than by comparing it with every candidate: what matches
        // it matches whatever it would have been paired with instead, so no other element loses a
        // partner. Arrays in another order pair in linear time this way.
        var equalCandidates: [JSONValue: [Int]] = [:]
        for position in candidates.indices.reversed() where actual[candidates[position]].isContainer {
            equalCandidates[actual[candidates[position]], default: []].append(position)
        }
        for (position, expectedIndex) in expectedMatchedIndices.enumerated() {
            let element = expected[expectedIndex]
            guard element.isContainer, !element.holdsPlaceholder(options),
                let partner = equalCandidates[element]?.popLast()
            else { continue }
            partners[position] = partner
            taken[partner] = true
        }
        // Pair the rest greedily, trying the same position first, which is linear for arrays in the
        // same order; when that leaves one unpaired, only a maximum matching can tell. Each
        // comparison is charged to the request's work budget, which bounds what is quadratic.
        // Once it is spent, the pairing stops where it is.
        let budget = WorkBudget.current
        var spent = false
        func compare(_ expectedIndex: Int, _ candidate: Int) -> Bool {
            guard !spent else { return false }
            guard budget?.spend(WorkBudget.Cost.comparison, on: "comparing JSON arrays in any order") ?? true else {
                spent = true
                return false
            }
            return expected[expectedIndex].matches(actual[candidates[candidate]], options: options)
        }
        for (position, expectedIndex) in expectedMatchedIndices.enumerated() where partners[position] == nil {
            let count = candidates.count
            let partner = (0..<count).lazy.map { (position + $0) % count }.first { right in
                !taken[right] && compare(expectedIndex, right)
            }
            if let partner {
                taken[partner] = true
            }
            partners[position] = partner
            if spent { break }
        }
        if partners.contains(nil), !spent {
            var edges = [[Int]?](repeating: nil, count: expectedMatchedIndices.count)
            partners = maximumMatching(from: partners, rightCount: candidates.count) { left in
                if let known = edges[left] { return known }
                let found = spent ? [] : candidates.indices.filter { compare(expectedMatchedIndices[left], $0) }
                edges[left] = found
                return found
            }
        }
        var matchedCandidates: Set<Int> = []
        for (position, partner) in partners.enumerated() {
            if let partner {
                matchedCandidates.insert(partner)
            } else {
                unmatchedExpected.append(expectedMatchedIndices[position])
            }
        }
        var unmatchedActual = hasPlaceholders ? [] : leftoverScalars
        for (position, index) in candidates.enumerated() where !matchedCandidates.contains(position) {
            unmatchedActual.append(index)
        }
        return (unmatchedExpected.sorted(), unmatchedActual.sorted())
    }

    /// A maximum matching of a bipartite graph, grown from `initial` (a matching already: for each
    /// left vertex, its partner or `nil`) with breadth-first augmenting paths from each left vertex
    /// without a partner (no recursion, polynomial time). A vertex's edges are asked for only when
    /// a search reaches it: one element without a partner among thousands paired already costs one
    /// comparison with each candidate, not every element's.
    /// - Parameters:
    ///   - initial: The matching to grow.
    ///   - rightCount: The number of right vertices.
    ///   - candidates: For a left vertex, the right vertices it may be paired with.
    /// - Returns: For each left vertex, its partner, or `nil`.
    private static func maximumMatching(
        from initial: [Int?],
        rightCount: Int,
        candidates: (Int) -> [Int]
    ) -> [Int?] {
        var partnerOfLeft = initial
        var partnerOfRight = [Int?](repeating: nil, count: rightCount)
        for (left, right) in initial.enumerated() {
            if let right { partnerOfRight[right] = left }
        }
        for start in initial.indices where partnerOfLeft[start] == nil {
            var reachedFrom = [Int?](repeating: nil, count: rightCount)
            var queue = [start]
            var head = 0
            var freeRight: Int?
            search: while head < queue.count {
                let left = queue[head]
                head += 1
                for right in candidates(left) where reachedFrom[right] == nil {
                    reachedFrom[right] = left
                    guard let partner = partnerOfRight[right] else {
                        freeRight = right
                        break search
                    }
                    queue.append(partner)
                }
            }
            // Flip the alternating path that ends at the free right vertex.
            var right = freeRight
            while let currentRight = right, let left = reachedFrom[currentRight] {
                right = partnerOfLeft[left]
                partnerOfLeft[left] = currentRight
                partnerOfRight[currentRight] = left
            }
        }
        return partnerOfLeft
    }

    /// Whether this value, or a value in it, is one of `options`' placeholders.
    private func holdsPlaceholder(_ options: JSONComparisonOptions) -> Bool {
        guard !options.placeholders.isEmpty else { return false }
        var pending = [self]
        while let value = pending.popLast() {
            switch value {
            case .string: if options.placeholder(value) != nil { return true }
            case .array(let elements): pending += elements
            case .object(let object): pending += object.uniqueMembers.map(\.value)
            default: break
            }
        }
        return false
    }

    /// Whether this is an array or an object.
    private var isContainer: Bool {
        switch self {
        case .array, .object: true
        default: false
        }
    }

    /// The number of scalars in this value; an empty container counts as one.
    private var leafWeight: Double {
        switch self {
        case .array(let elements):
            max(1, elements.reduce(0) { $0 + $1.leafWeight })
        case .object(let object):
            max(1, object.uniqueMembers.reduce(0) { $0 + $1.value.leafWeight })
        default:
            1
        }
    }

    /// Compact JSON text shortened to about 40 characters, for messages.
    private var abbreviated: String {
        // Masked first while a report is built: a cut would leave half a secret readable.
        let text = LogMasking.beforeCutting(serialized())
        return text.count <= 40 ? text : text.prefix(37) + "..."
    }
}
