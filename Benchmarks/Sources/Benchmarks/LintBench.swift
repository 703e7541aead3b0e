import Foundation
import StringsCatalog
import TestSupport

/// `Benchmarks lint [MB]`: `strings lint` on every catalog under Tests/ (with the hand-made project of one
/// key per check), on the package's shipped catalogs, and on a generated project of about MB megabytes
/// (default 50) in 20 languages whose translations are right except for faults planted at known rates. Prints
/// the time and the findings per check; on the generated project, planted against found, so any finding
/// beyond the planted ones is a false one.
func runLintBench(args: [String]) throws {
    let megabytes = args.first.flatMap(Double.init) ?? 50
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    func report(_ title: String, _ dir: URL, planted: [String: Int]? = nil) throws {
        let (tLoad, folder) = try measure { try LocalizationFolder(directory: dir) }
        let (tLint, findings) = measure { folder.lint() }
        let bytes = folderBytes(dir)
        print(
            "  \(title): \(format(Double(bytes) / 1e6, 1)) MB, load \(format(tLoad)) s, lint \(format(tLint)) s"
                + " (\(format(Double(bytes) / 1e6 / max(tLint, 1e-9), 1)) MB/s), \(findings.count) findings")
        let counts = LintReport.counts(findings)
        for check in LintCheck.all where counts[check.id] != nil || planted?[check.id] != nil {
            let found = counts[check.id] ?? 0
            let label = check.id.padding(toLength: 20, withPad: " ", startingAt: 0)
            if let planted {
                let p = planted[check.id] ?? 0
                print(
                    "    \(label) \(String(format: "%8d", found))  planted \(String(format: "%8d", p))  false \(found - p)"
                )
            } else {
                print("    \(label) \(String(format: "%8d", found))  (\(check.severity.rawValue))")
            }
        }
    }
    print("lint: findings per check (strings lint, default severities)")
    try report("Tests/ catalogs", root.appendingPathComponent("Tests"))
    try report("Tests/ hand-made project (one key per check)", LintChecksProject.make())
    try report(
        "shipped catalogs (Sources/StringsCatalog/Localizations)",
        root.appendingPathComponent(
            "Sources/StringsCatalog/Localizations"))
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lint-bench-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: dir) }
    let planted = try LintBenchProject.write(dir, bytes: Int(megabytes * 1e6))
    try report("generated project", dir, planted: planted)
    if let peak = peakMemoryMiB() { print("  peak memory \(format(peak, 0)) MiB") }
}

func folderBytes(_ dir: URL) -> Int {
    var total = 0
    let files = FileManager.default.enumerator(at: dir, includingPropertiesForKeys: [.fileSizeKey])
    while let url = files?.nextObject() as? URL {
        let name = url.lastPathComponent
        guard name.hasSuffix(".strings") || name.hasSuffix(".stringsdict") || name.hasSuffix(".xcstrings") else {
            continue
        }
        total += (try? url.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0
    }
    return total
}
