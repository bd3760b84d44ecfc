import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// What the benchmark ran on.
struct Machine {
    let cpus: Int
    let cpuModel: String
    /// `cpu family`, `model` and `stepping` from `/proc/cpuinfo`: the model name alone (`AMD EPYC`)
    /// does not tell a Zen 3 host (family 25) from a Zen 5 one (family 26).
    let cpuFamily: Int?
    let cpuModelNumber: Int?
    let cpuStepping: Int?
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
            memoryGiB: (field("MemTotal", in: "/proc/meminfo").flatMap { Double($0.split(separator: " ").first ?? "") }
                ?? 0) / 1024 / 1024,
            swift: compilerVersion,
            os: osName(),
            kernel: kernelRelease(),
            loadAverage: loadAverageNow()
        )
    }

    /// `AMD EPYC (family 25, model 17, stepping 1)`.
    var cpuDescription: String {
        let numbers = [("family", cpuFamily), ("model", cpuModelNumber), ("stepping", cpuStepping)]
            .compactMap { name, value in value.map { "\(name) \($0)" } }
        return numbers.isEmpty ? cpuModel : "\(cpuModel) (\(numbers.joined(separator: ", ")))"
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
