import Foundation
import HTTPStubs

/// Where WireMock's date-time operators get "now" (`"before": "now +3 days"`).
///
/// A registry's ``StubClock`` measures durations from an arbitrary origin and cannot say what day
/// it is, so "now" is the system's calendar time (`Date()`), read when a request is matched. This is
/// the one place that reads it; tests load stub files with a fixed wall clock instead.
package struct WallClock: Sendable {
    /// The current calendar time.
    let now: @Sendable () -> Date

    /// The system's calendar time.
    package static let system = WallClock { Date() }

    /// A clock that always says `date`.
    static func fixed(_ date: Date) -> WallClock {
        WallClock { date }
    }
}
