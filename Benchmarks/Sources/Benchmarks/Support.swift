import Foundation

/// Wall-clock seconds of `body` (monotonic clock).
func measure<T>(_ body: () throws -> T) rethrows -> (seconds: Double, value: T) {
    let start = DispatchTime.now().uptimeNanoseconds
    let value = try body()
    return (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9, value)
}

/// CPU time this thread has used, in seconds (CLOCK_THREAD_CPUTIME_ID).
func threadCPUSeconds() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}

/// Peak resident set size of this process in MiB (VmHWM), or nil where /proc is unavailable.
func peakMemoryMiB() -> Double? {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
    for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
        let kb = line.split(separator: " ").dropFirst().first.flatMap { Double($0) }
        return kb.map { $0 / 1024 }
    }
    return nil
}

/// Resets the peak RSS counter so the next phase reports its own peak (Linux ≥ 4.0).
func resetPeakMemory() {
    try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
}

func format(_ value: Double, _ digits: Int = 2) -> String { String(format: "%.\(digits)f", value) }

/// Median of repeated runs of `body` in seconds.
func medianSeconds(runs: Int, _ body: () throws -> Void) rethrows -> Double {
    var times: [Double] = []
    for _ in 0..<runs { times.append(try measure(body).seconds) }
    times.sort()
    return times[times.count / 2]
}

/// Path of the benchmark venv's python (CONTACTS_VENV or ./.venv), if it exists.
func venvPython() -> String? {
    let venv =
        ProcessInfo.processInfo.environment["CONTACTS_VENV"] ?? FileManager.default.currentDirectoryPath + "/.venv"
    let python = venv + "/bin/python"
    return FileManager.default.isExecutableFile(atPath: python) ? python : nil
}

/// The `contacts` binary built beside the benchmarks (the release one with `make bench`).
func contactsBinary() throws -> String {
    let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        .appendingPathComponent("contacts").path
    guard FileManager.default.isExecutableFile(atPath: binary) else {
        throw ProcessBenchError(
            "no contacts binary beside the benchmarks at \(binary) (swift build -c release --product contacts)")
    }
    return binary
}
