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

    /// The calendar time templates read now.
    var templateDate: Date {
        guard let time = state.withLock({ $0.templateTime }) else { return Date() }
        let elapsed = (clock.now - time.clockMark).components
        return time.date.addingTimeInterval(Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18)
    }

    /// What templates read from the registry: its calendar time and its seeded generator.
    var templateEnvironment: TemplateEnvironment {
        TemplateEnvironment(
            now: { [weak self] in self?.templateDate ?? Date() },
            random: { [weak self] bound in
                guard bound > 0 else { return 0 }
                guard let self else { return Int.random(in: 0..<bound) }
                return self.state.withLock { Int.random(in: 0..<bound, using: &$0.generator) }
            },
            pathTemplate: nil
        )
    }
}
