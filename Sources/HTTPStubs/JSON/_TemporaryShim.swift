import Foundation
public enum JSONValue: Sendable, Hashable, CustomStringConvertible {
    case null
    public init(parsing data: Data) throws { self = .null }
    public init(parsing string: String) throws { self = .null }
    public init(encoding value: some Encodable, encoder: JSONEncoder = JSONEncoder()) throws { self = .null }
    public func matches(_ actual: JSONValue, options: JSONComparisonOptions) -> Bool { true }
    public func differences(from actual: JSONValue, options: JSONComparisonOptions) -> [String] { [] }
    public func distance(to actual: JSONValue, options: JSONComparisonOptions) -> Double { 0 }
    public var description: String { "" }
}
public struct JSONComparisonOptions: Sendable, Hashable {
    public var ignoreArrayOrder: Bool
    public var ignoreExtraMembers: Bool
    public init(ignoreArrayOrder: Bool = false, ignoreExtraMembers: Bool = false) { self.ignoreArrayOrder = ignoreArrayOrder; self.ignoreExtraMembers = ignoreExtraMembers }
}
