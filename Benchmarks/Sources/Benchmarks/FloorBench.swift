import Foundation

/// `Benchmarks floor [--quick] [--data DIR] [--runs N]` (also run by `Benchmarks process`): the whole
/// `contacts` process against floors measured in the same run, each the least of N runs (default 3) of wall
/// time and, apart, of CPU time (user + system), since the machine is shared:
/// - a first `list` / `search` of the 1M-contact book (no saved index) against a minimal single-threaded C
///   program (`Benchmarks/Fixtures/list-floor.c`, built here with the system `cc` and Debian's ICU) that maps
///   the file, takes FN and EMAIL lines and sorts them by ICU sort keys; target ≤ 3× its wall time, peak
///   memory ≤ the file's size;
/// - `query` (a mail client's lookup) of the 100k book from its saved index (`index build --mode email`)
///   against the process start of `contacts --version` and `grep -m 1` on the book; target ≤ 50 ms.
func runFloorBench(args: [String]) throws {
    func option(_ name: String) -> String? {
        guard let i = args.firstIndex(of: name), i + 1 < args.count else { return nil }
        return args[i + 1]
    }
    let root = FileManager.default.currentDirectoryPath
    let dataDir = option("--data") ?? root + "/.build/bench-data"
    let runs = max(1, option("--runs").flatMap(Int.init) ?? 3)
    try runFloorComparison(
        binary: try contactsBinary(), dataDir: dataDir, root: root, runs: runs, quick: args.contains("--quick"))
}

/// The comparisons of ``runFloorBench(args:)`` on the books in `dataDir` (generated when missing).
func runFloorComparison(binary: String, dataDir: String, root: String, runs: Int, quick: Bool) throws {
    let vcf100k = dataDir + "/contacts-100k.vcf"
    let vcf1M = dataDir + "/contacts-1m.vcf"
    for (path, count) in [(vcf100k, "100000"), (vcf1M, "1000000")]
    where !FileManager.default.fileExists(atPath: path) && !(quick && count == "1000000") {
        print("  generating \(path) …")
        let r = try runChild(["/usr/bin/python3", root + "/scripts/gen-bench-data.py", "vcf", count, path])
        guard r.status == 0 else { throw ProcessBenchError("generator failed for \(path)") }
    }
    let floor = dataDir + "/list-floor"
    let built = try runChild([
        "/usr/bin/cc", "-O2", "-o", floor, root + "/Benchmarks/Fixtures/list-floor.c", "-licui18n", "-licuuc",
    ])
    guard built.status == 0 else { throw ProcessBenchError("cc could not build the C floor (libicu-dev missing?)") }
    let indexDir = dataDir + "/floor-index"
    try? FileManager.default.removeItem(atPath: indexDir)
    try FileManager.default.createDirectory(atPath: indexDir, withIntermediateDirectories: true)
    setenv("CONTACTS_INDEX_DIR", indexDir, 1)
    defer { try? FileManager.default.removeItem(atPath: indexDir) }

    /// The least wall time and, apart, the least CPU time and peak memory of `runs` runs.
    func least(_ argv: [String], times: Int = runs) throws -> ChildResult {
        var best: ChildResult?
        for _ in 0..<times {
            let r = try runChild(argv)
            guard r.status == 0 || r.status == 1 else { throw ProcessBenchError("exit \(r.status): \(argv)") }
            guard var b = best else {
                best = r
                continue
            }
            b.seconds = min(b.seconds, r.seconds)
            b.cpuSeconds = min(b.cpuSeconds, r.cpuSeconds)
            b.maxRSSKB = min(b.maxRSSKB, r.maxRSSKB)
            best = b
        }
        return best!
    }
    func show(_ what: String, _ r: ChildResult, _ against: ChildResult?, _ verdict: String = "") {
        var line =
            "  \(what.padding(toLength: 44, withPad: " ", startingAt: 0))"
            + String(
                format: " wall %7.3f s  CPU %7.3f s  %5.0f MiB", r.seconds, r.cpuSeconds, Double(r.maxRSSKB) / 1024)
        if let against {
            line += String(
                format: "  %5.2f× wall, %5.2f× CPU", r.seconds / against.seconds, r.cpuSeconds / against.cpuSeconds)
        }
        print(line + (verdict.isEmpty ? "" : "  " + verdict))
    }
    let cores = ProcessInfo.processInfo.activeProcessorCount
    let load = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").first ?? "?"
    print("floor: least of \(runs) runs each (wall and CPU apart); \(cores) cores, load average \(load) at start")

    if !quick {
        let size = (try FileManager.default.attributesOfItem(atPath: vcf1M)[.size] as? Int) ?? 0
        print(String(format: "\n  1M contacts (%.0f MB), first run (no saved index):", Double(size) / 1e6))
        let c = try least([floor, vcf1M, "en"])
        show("C floor: mmap, FN + EMAIL, ICU sort keys", c, nil)
        for (what, argv) in [
            ("list --locale en", ["list", "--source", vcf1M, "--locale", "en"]),
            ("search anna", ["search", "--source", vcf1M, "--locale", "en", "anna"]),
        ] {
            let r = try least([binary] + argv)
            let met = r.seconds <= 3 * c.seconds && Double(r.maxRSSKB) * 1024 <= Double(size)
            show(what, r, c, "target ≤ 3× wall, ≤ file size: " + (met ? "met" : "NOT met"))
        }
    }

    print("\n  query from the saved index (index build --mode email), 100k contacts:")
    let build = try runChild([binary, "index", "build", vcf100k, "--mode", "email", "--locale", "en"])
    guard build.status == 0 else { throw ProcessBenchError("index build --mode email failed") }
    let start = try least([binary, "--version"], times: max(runs, 10))
    show("floor: contacts --version (process start)", start, nil)
    let grep = try least(["/usr/bin/grep", "-m", "1", "-i", "maria", vcf100k], times: max(runs, 10))
    show("peer: grep -m 1 -i maria on the book", grep, nil)
    for query in ["maria", "maria gar", "zz"] {
        let r = try least(
            [binary, "query", "--source", vcf100k, "--locale", "en", "--format", "mutt", query], times: max(runs, 10))
        show("query \(query)", r, start, "target ≤ 50 ms: " + (r.seconds <= 0.05 ? "met" : "NOT met"))
    }
}
