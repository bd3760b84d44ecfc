import Foundation

extension StubRegistry {
    /// Reseeds the registry's generator, so what it draws next repeats from run to run: random
    /// delays, and the values of response templates' `randomValue`, `randomInt`, `randomDecimal`
    /// and `pickRandom`.
    public func seedRandom(_ seed: UInt64) {
        state.withLock { $0.generator = SeededGenerator(seed: seed) }
    }

    /// Makes response templates' `now` read `date` at this instant of the registry's ``clock``,
    /// then advance as the clock advances: with a ``ManualStubClock``, `{{now}}` moves only when
    /// the test moves the clock.
    ///
    /// Without it, a registry on ``SystemStubClock`` reads the system's calendar time, and a
    /// registry on any other clock starts at the calendar time it was created at.
    public func setTemplateDate(_ date: Date) {
        let mark = clock.now
        state.withLock { $0.templateTime = (date, mark) }
    }

    /// What templates read from a registry with this `state` and `clock`: its calendar time (see
    /// ``setTemplateDate(_:)``) and its seeded generator. Made once, when the registry is; the
    /// closures hold the state and the clock, not the registry, so they keep nothing alive.
    static func templateEnvironment(state: Locked<State>, clock: any StubClock) -> TemplateEnvironment {
        TemplateEnvironment(
            now: {
                guard let time = state.withLock({ $0.templateTime }) else { return Date() }
                let elapsed = (clock.now - time.clockMark).components
                return time.date.addingTimeInterval(Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18)
            },
            random: { bound in
                guard bound > 0 else { return 0 }
                return state.withLock { Int.random(in: 0..<bound, using: &$0.generator) }
            },
            pathTemplate: nil
        )
    }
}
