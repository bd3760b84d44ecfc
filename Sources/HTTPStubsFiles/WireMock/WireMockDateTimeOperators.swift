import Foundation
import HTTPStubs
import HTTPStubsLanguages

/// WireMock 3's date-time operators read from stub files (`before`, `after`, `equalToDateTime` and
/// their modifiers), with the operand checks WireMock makes when it loads a mapping, and a few it
/// does not make (an expected value that is no date-time, which WireMock accepts and never matches).
extension WireMockMappingReader {
    /// The keys that modify a date-time operator.
    static let dateTimeModifiers: Set<String> = [
        "actualFormat", "truncateExpected", "truncateActual", "applyTruncationLast", "expectedOffset",
        "expectedOffsetUnit",
    ]

    /// Reads `{"before" | "after" | "equalToDateTime": …}` and its modifiers.
    func dateTimeTest(_ name: String, in object: JSONObject, at jsonPath: JSONPath) -> ValueTest? {
        let comparison = DateTimePattern.Comparison(rawValue: name)!
        let operandPath = jsonPath.appending(.key(name))
        let operand = object[name] ?? .null
        // WireMock reads the operand as JSON text only: a number (even 2021) fails its load.
        guard let spec = operand.stringValue else {
            error(
                "'\(name)' takes a date-time string such as \"2021-06-14T15:15:15Z\", "
                    + "\"2021-06-14\" or \"now +3 days\", found \(operand.article)",
                at: operandPath
            )
            return nil
        }
        let start = mark
        for key in Self.operatorModifiers.subtracting(Self.dateTimeModifiers).sorted() where object[key] != nil {
            warning(
                key: jsonPath.appending(.key(key)),
                "'\(key)' does not apply to '\(name)' and is ignored, as WireMock ignores it"
            )
        }
        let offsetAmount = offsetAmount(in: object, at: jsonPath)
        let offsetUnit = offsetUnit(in: object, at: jsonPath)
        let truncateExpected = truncation("truncateExpected", in: object, at: jsonPath)
        let truncateActual = truncation("truncateActual", in: object, at: jsonPath)
        let applyTruncationLast = flag("applyTruncationLast", in: object, at: jsonPath)
        let actualFormat = actualFormat(in: object, at: jsonPath)

        let expected: DateTimePattern.Expected
        var expectedText = spec
        if DateTimeOffset.isNowExpression(spec) {
            if let offsetAmount, let offsetUnit {
                let offset = DateTimeOffset(amount: offsetAmount, unit: offsetUnit)
                expected = .now(offset)
                expectedText = offset.amount >= 0 ? "now +\(offset)" : "now \(offset)"
            } else {
                do {
                    let offset = try DateTimeOffset(parsing: spec)
                    expected = .now(offset)
                    if spec.lowercased() != "now" {
                        expectedText = offset.amount >= 0 ? "now +\(offset)" : "now \(offset)"
                    }
                } catch {
                    self.error("\(quoted(spec)) reads as \"now\" with an offset, but \(error.message)", at: operandPath)
                    return nil
                }
                for key in ["expectedOffset", "expectedOffsetUnit"] where object[key] != nil {
                    warning(
                        key: jsonPath.appending(.key(key)),
                        "'\(key)' is ignored without "
                            + "'\(key == "expectedOffset" ? "expectedOffsetUnit" : "expectedOffset")', "
                            + "as WireMock ignores it; give both, as in \"expectedOffset\": "
                            + "3, \"expectedOffsetUnit\": \"days\""
                    )
                }
            }
        } else {
            if let zoned = DateTimeFormat.zonedLayouts.lazy.compactMap({ DateTimePattern.zoned(spec, $0) }).first {
                expected = .zoned(zoned)
            } else if let local = DateTimePattern.defaultLocal(spec) {
                expected = .local(local)
            } else {
                error(
                    "\(quoted(spec)) is not a date-time WireMock can read (WireMock would load it and never match); "
                        + "write ISO 8601 such as \"2021-06-14T15:15:15Z\", "
                        + "\"2021-06-14T15:15:15\" (no zone) or \"2021-06-14\", an HTTP date such as \"Mon, "
                        + "14 Jun 2021 15:15:15 GMT\", or \"now\" with an offset such as \"now +3 days\"",
                    at: operandPath
                )
                return nil
            }
            for key in ["expectedOffset", "expectedOffsetUnit", "truncateExpected"] where object[key] != nil {
                warning(
                    key: jsonPath.appending(.key(key)),
                    "'\(key)' applies only when '\(name)' is \"now\" (or \"now +3 days\"), "
                        + "so it is ignored here, as WireMock ignores it"
                )
            }
        }
        guard !hasErrors(since: start) else { return nil }
        var pattern = DateTimePattern(comparison: comparison, expected: expected, expectedText: expectedText)
        pattern.actualFormat = actualFormat
        pattern.truncateExpected = truncateExpected
        pattern.truncateActual = truncateActual
        pattern.applyTruncationLast = applyTruncationLast
        pattern.clock = wallClock
        let test = pattern
        return ValueTest(test.description) { value in test.test(value) }
    }

    /// `expectedOffset`, if present: a number, as WireMock reads any other JSON (`"3"` too) as 0.
    private func offsetAmount(in object: JSONObject, at jsonPath: JSONPath) -> Int? {
        guard let value = object["expectedOffset"] else { return nil }
        guard let number = value.numberValue?.int64Value, Int64(Int32.min)...Int64(Int32.max) ~= number else {
            error(
                "'expectedOffset' must be a whole number of units from \(Int32.min) to \(Int32.max), "
                    + "written as a JSON number (WireMock reads a string here as 0), found \(value.article)",
                at: jsonPath.appending(.key("expectedOffset"))
            )
            return nil
        }
        return Int(number)
    }

    /// `expectedOffsetUnit`, if present: one of WireMock's units, in any case.
    private func offsetUnit(in object: JSONObject, at jsonPath: JSONPath) -> DateTimeOffset.Unit? {
        guard let value = object["expectedOffsetUnit"] else { return nil }
        guard let text = value.stringValue, let unit = DateTimeOffset.Unit(named: text) else {
            error(
                "'expectedOffsetUnit' must be one of \(DateTimeOffset.Unit.list), found \(value.article)",
                at: jsonPath.appending(.key("expectedOffsetUnit"))
            )
            return nil
        }
        return unit
    }

    /// `truncateExpected` or `truncateActual`, if present.
    private func truncation(_ key: String, in object: JSONObject, at jsonPath: JSONPath) -> DateTimeTruncation? {
        guard let value = object[key] else { return nil }
        guard let text = value.stringValue, let truncation = DateTimeTruncation(named: text) else {
            error(
                "'\(key)' must be one of \(DateTimeTruncation.list), found \(value.article)",
                at: jsonPath.appending(.key(key))
            )
            return nil
        }
        return truncation
    }

    /// `actualFormat`, if present: `unix`, `epoch` or a `DateTimeFormatter` pattern.
    private func actualFormat(in object: JSONObject, at jsonPath: JSONPath) -> DateTimePattern.ActualFormat? {
        guard let value = object["actualFormat"] else { return nil }
        let path = jsonPath.appending(.key("actualFormat"))
        guard let text = value.stringValue else {
            error(
                "'actualFormat' takes a DateTimeFormatter pattern such as \"dd/MM/yyyy\", "
                    + "\"unix\" or \"epoch\", found \(value.article)",
                at: path
            )
            return nil
        }
        switch text.lowercased() {
        case "unix": return .unixSeconds
        case "epoch": return .epochMilliseconds
        default:
            do {
                return .pattern(try DateTimeFormat(pattern: text), text)
            } catch {
                self.error("the actualFormat \(quoted(text)) cannot be used: \(error.message)", at: path)
                return nil
            }
        }
    }
}
