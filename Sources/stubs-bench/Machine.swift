import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// What the benchmark ran on.
struct Machine {
    let cpus: Int
    let cpuModel: String
    /// `cpu family`, `model` and `stepping` from `/proc/cpuinfo`: the model name alone (`AMD EPYC`)
    /// does not tell Zen 3 (family 25, models 0–15), Zen 4 (family 25, models 16–31) and Zen 5
    /// (family 26) hosts apart (see ``microarchitecture``).
    let cpuFamily: Int?
    let cpuModelNumber: Int?
    let cpuStepping: Int?
    /// `vendor_id` from `/proc/cpuinfo` (`AuthenticAMD`).
    let cpuVendor: String?
    let memoryGiB: Double
    let swift: String
    let os: String
    let kernel: String
    /// The 1-minute load average when the run started: other work on the machine shows up here.
    let loadAverage: Double

    static func current() -> Machine {
        Machine(
            cpus: ProcessInfo.processInfo.activeProcessorCount,
            cpuModel: field("model name", in: "/proc/cpuinfo") ?? "unknown",
            cpuFamily: field("cpu family", in: "/proc/cpuinfo").flatMap { Int($0) },
            cpuModelNumber: field("model\t", in: "/proc/cpuinfo").flatMap { Int($0) },
            cpuStepping: field("stepping", in: "/proc/cpuinfo").flatMap { Int($0) },
            cpuVendor: field("vendor_id", in: "/proc/cpuinfo"),
            memoryGiB: (field("MemTotal", in: "/proc/meminfo").flatMap { Double($0.split(separator: " ").first ?? "") }
                ?? 0) / 1024 / 1024,
            swift: compilerVersion,
            os: osName(),
            kernel: kernelRelease(),
            loadAverage: loadAverageNow()
        )
    }

    /// `AMD EPYC (family 25, model 17, stepping 1: Zen 4)`.
    var cpuDescription: String {
        let numbers = [("family", cpuFamily), ("model", cpuModelNumber), ("stepping", cpuStepping)]
            .compactMap { name, value in value.map { "\(name) \($0)" } }
        guard !numbers.isEmpty else { return cpuModel }
        return "\(cpuModel) (\(numbers.joined(separator: ", "))\(microarchitecture.map { ": \($0)" } ?? ""))"
    }

    /// The AMD core generation that `cpu family` and `model` name, after AMD's family 19h and 1Ah
    /// model ranges: family 25 (19h) models 0x00–0x0F (Milan) and 0x20–0x5F (Vermeer, Rembrandt,
    /// Cezanne) are Zen 3, models 0x10–0x1F (Genoa), 0x60–0x7F (Raphael, Phoenix) and 0xA0–0xAF
    /// (Bergamo, Siena) Zen 4; family 26 (1Ah) is Zen 5. `nil` for any other processor.
    var microarchitecture: String? {
        guard cpuVendor == "AuthenticAMD", let family = cpuFamily, let model = cpuModelNumber else { return nil }
        switch (family, model) {
        case (25, 0x00...0x0F), (25, 0x20...0x5F): return "Zen 3"
        case (25, 0x10...0x1F), (25, 0x60...0x7F), (25, 0xA0...0xAF): return "Zen 4"
        case (26, _): return "Zen 5"
        default: return nil
        }
    }

    /// The compiler that built this binary.
    static var compilerVersion: String {
        #if compiler(>=6.4)
        return ">= 6.4"
        #elseif compiler(>=6.3.1)
        return "6.3.1"
        #elseif compiler(>=6.3)
        return "6.3"
        #elseif compiler(>=6.2)
        return "6.2"
        #elseif compiler(>=6.1)
        return "6.1"
        #else
        return "6.0"
        #endif
    }

    private static func field(_ name: String, in path: String) -> String? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(name) {
            guard let colon = line.firstIndex(of: ":") else { continue }
            return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return nil
    }

    /// The 1-minute load average from `/proc/loadavg`.
    static func loadAverageNow() -> Double {
        guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return 0 }
        return Double(text.split(separator: " ").first ?? "") ?? 0
    }

    private static func osName() -> String {
        guard let text = try? String(contentsOfFile: "/etc/os-release", encoding: .utf8) else { return "unknown" }
        for line in text.split(separator: "\n") where line.hasPrefix("PRETTY_NAME=") {
            return line.dropFirst("PRETTY_NAME=".count).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        }
        return "unknown"
    }

    private static func kernelRelease() -> String {
        var name = utsname()
        guard uname(&name) == 0 else { return "unknown" }
        let release = withUnsafeBytes(of: &name.release) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        let machine = withUnsafeBytes(of: &name.machine) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        return "\(release) \(machine)"
    }
}
