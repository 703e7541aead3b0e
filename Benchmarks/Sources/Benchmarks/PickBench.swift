import ContactsSelection
import Foundation
import PickerModel

/// `Benchmarks pick [--count N] [--runs R] [--repeat K] [--data DIR]` (or `BENCH_PICK_COUNT=N`): the whole
/// `contacts pick` process (release binary) in a pseudo-terminal read by pyte (`scripts/pty_latency.py`), on a
/// generated N-contact book (default 1,000,000): (a) the first screen with a saved index, (b) without one the
/// first progress line and the first screen, (c) keystroke → screen updated over a typed query, beside fzf
/// run interactively in the same way on the same N display lines (`contacts list`'s rows) in the same run.
/// Then the view model alone (``ContactPicker``, in this process, over the saved index): each keystroke's
/// search and screen.
func runPickBench(args: [String]) throws {
    func option(_ name: String) -> String? {
        guard let i = args.firstIndex(of: name), i + 1 < args.count else { return nil }
        return args[i + 1]
    }
    let count =
        option("--count").flatMap(Int.init)
        ?? ProcessInfo.processInfo.environment["BENCH_PICK_COUNT"].flatMap(Int.init) ?? 1_000_000
    let runs = option("--runs").flatMap(Int.init) ?? 3
    let repeats = option("--repeat").flatMap(Int.init) ?? 3
    let root = FileManager.default.currentDirectoryPath
    let dataDir = option("--data") ?? root + "/.build/bench-data"
    let binary = try contactsBinary()
    guard let python = venvPython() else { throw ProcessBenchError("no venv python with pyte (make deps)") }
    let fzf = ["/usr/bin/fzf", "/usr/local/bin/fzf"].first { FileManager.default.isExecutableFile(atPath: $0) }
    try FileManager.default.createDirectory(atPath: dataDir, withIntermediateDirectories: true)

    let label = count % 1_000_000 == 0 ? "\(count / 1_000_000)m" : count % 1000 == 0 ? "\(count / 1000)k" : "\(count)"
    let book = dataDir + "/contacts-\(label).vcf"
    if !FileManager.default.fileExists(atPath: book) {
        print("  generating \(book) …")
        let r = try runChild(["/usr/bin/python3", root + "/scripts/gen-bench-data.py", "vcf", String(count), book])
        guard r.status == 0 else { throw ProcessBenchError("generator failed") }
    }
    let indexDir = dataDir + "/pick-index"
    let queries = ["m", "ma", "mar", "mari", "maria", "maria ", "maria g", "maria ga", "maria gar", "maria garc"]
    if args.contains("--model") {
        // The view model only, over the index of the last full run (saved now when there is none).
        var config = Configuration()
        config.locale = "en"
        let cache = ListingCache(directory: indexDir)
        if try cache.open(book: book, configuration: config).origin != .saved {
            _ = try cache.save(book: book, configuration: config)
        }
        try modelKeystrokes(book: book, indexDir: indexDir, queries: queries, repeats: repeats)
        return
    }
    try? FileManager.default.removeItem(atPath: indexDir)
    setenv("CONTACTS_INDEX_DIR", indexDir, 1)
    setenv("LANG", "C.UTF-8", 1)
    setenv("NO_COLOR", "1", 1)
    setenv("TERM", "xterm-256color", 1)
    unsetenv("LANGUAGE")
    unsetenv("LC_ALL")

    // The rows as `contacts list` shows them ("Name  <value>"): fzf's lines, and the row count N.
    let linesFile = dataDir + "/pick-lines-\(label).txt"
    let listed = try output([binary, "list", "--source", book, "--locale", "en"])
    let rows = listed.split(separator: "\n", omittingEmptySubsequences: false).filter { $0.hasPrefix("  ") }
        .map { $0.dropFirst(2) }
    try Data((rows.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: linesFile))
    let total = rows.count
    var load = ""
    if let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) {
        load = String(text.split(separator: " ").first ?? "")
    }
    print("pick: contacts pick in a pseudo-terminal (100×30, pyte), \(total) rows; load average \(load) at start")

    let pick = [binary, "pick", "--source", book, "--locale", "en"]
    func drive(_ spec: [String: Any], _ argv: [String]) throws -> [String: Any] {
        let specJSON = String(decoding: try JSONSerialization.data(withJSONObject: spec), as: UTF8.self)
        let text = try output([python, root + "/scripts/pty_latency.py", specJSON, "--"] + argv)
        guard let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
            throw ProcessBenchError("pty_latency.py printed \(text)")
        }
        return object
    }
    let base: [String: Any] = ["columns": 100, "lines": 30, "total": total, "typed": [] as [Any], "repeat": 0]
    func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

    // (b) No saved index: the progress line at once, the first screen when the book is read.
    var progressTimes: [Double] = []
    var unreadTimes: [Double] = []
    for _ in 0..<runs {
        var spec = base
        spec["progress"] = "reading and sorting"
        spec["ready"] = ["Search contacts"]
        let r = try drive(spec, pick)
        progressTimes.append(r["progress"] as? Double ?? .nan)
        unreadTimes.append(r["ready"] as? Double ?? .nan)
    }
    let build = try runChild([binary, "index", "build", book, "--locale", "en"])
    guard build.status == 0 else { throw ProcessBenchError("index build failed") }
    // (a) With the saved index.
    var savedTimes: [Double] = []
    for _ in 0..<runs {
        var spec = base
        spec["ready"] = ["Search contacts"]
        savedTimes.append(try drive(spec, pick)["ready"] as? Double ?? .nan)
    }
    print(
        String(
            format: "  (a) first screen, saved index        %7.3f s   (median of %d; target ≤ 0.5 s: %@)",
            median(savedTimes), runs, median(savedTimes) <= 0.5 ? "met" : "NOT met"))
    print(String(format: "  (b) no index: first progress line    %7.3f s", median(progressTimes)))
    print(
        String(
            format: "      no index: first screen (read)    %7.3f s   (index build took %.2f s)",
            median(unreadTimes), build.seconds))

    // (c) Keystrokes. Each program's own count for each query (its non-interactive search) tells when the
    // screen shows the answer.
    var ours: [[Any]] = []
    for q in queries {
        let text = try output([binary, "search", "--source", book, "--locale", "en", q])
        let last = text.split(separator: "\n").last.map(String.init) ?? ""
        let n = last.hasPrefix("No ") ? 0 : Int(last.split(separator: " ").first ?? "") ?? 0
        ours.append([q, n])
    }
    var spec = base
    spec["ready"] = ["Search contacts"]
    spec["typed"] = ours
    spec["repeat"] = repeats
    // The picker draws the query and its count in one frame: every key is timed (fzf echoes the query at
    // once and its count when matched: only keys whose count changes can be timed).
    spec["prompt"] = "> "
    let oursRun = try drive(spec, pick)
    let oursKeys = (oursRun["keys"] as? [[Any]] ?? []).compactMap { $0[1] as? Double }
    print(
        "  (c) keystroke → screen updated, typing \"\(queries.last!)\" \(repeats)× (fzf: the keys whose count changes):"
    )
    print("      contacts pick per key (ms): " + perKey(oursRun))
    print("      contacts pick counts: \(ours.map { "\($0[1])" }.joined(separator: " "))")
    let oursP50 = percentile(oursKeys, 0.5)
    let oursP99 = percentile(oursKeys, 0.99)
    print(
        String(
            format: "      contacts pick  p50 %6.1f ms  p99 %6.1f ms  max %6.1f ms  (%d keys; target p99 ≤ 16 ms: %@)",
            oursP50, oursP99, oursKeys.max() ?? .nan, oursKeys.count, oursP99 <= 16 ? "met" : "NOT met"))
    if let fzf {
        var theirs: [[Any]] = []
        for q in queries {
            let r = try output(["/bin/sh", "-c", "'\(fzf)' --exact --filter \"$1\" < '\(linesFile)' | wc -l", "sh", q])
            theirs.append([q, Int(r.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0])
        }
        var fzfSpec = base
        fzfSpec["ready"] = [] as [String]
        fzfSpec["typed"] = theirs
        fzfSpec["repeat"] = repeats
        let fzfRun = try drive(fzfSpec, ["/bin/sh", "-c", "exec '\(fzf)' --exact < '\(linesFile)'"])
        let fzfKeys = (fzfRun["keys"] as? [[Any]] ?? []).compactMap { $0[1] as? Double }
        print("      fzf per key (ms): " + perKey(fzfRun))
        let fzfP50 = percentile(fzfKeys, 0.5)
        let fzfP99 = percentile(fzfKeys, 0.99)
        print("      fzf --exact counts:   \(theirs.map { "\($0[1])" }.joined(separator: " "))")
        print(
            String(
                format:
                    "      fzf --exact    p50 %6.1f ms  p99 %6.1f ms  max %6.1f ms  (%d keys; all %d lines read in %.2f s)",
                fzfP50, fzfP99, fzfKeys.max() ?? .nan, fzfKeys.count, total, fzfRun["ready"] as? Double ?? .nan))
        print(String(format: "      ratio contacts/fzf: p50 %.2f×, p99 %.2f×", oursP50 / fzfP50, oursP99 / fzfP99))
    } else {
        print("      fzf not installed: no peer (make bench installs it)")
    }

    try modelKeystrokes(book: book, indexDir: indexDir, queries: queries, repeats: repeats)
}

/// The view model alone over the saved index of `book` (``ContactPicker`` in this process): each keystroke's
/// search and screen, without the terminal (`BENCH_VERBOSE=1`: each one).
func modelKeystrokes(book: String, indexDir: String, queries: [String], repeats: Int) throws {
    let cache = ListingCache(directory: indexDir)
    var config = Configuration()
    config.locale = "en"
    let opened = try cache.open(book: book, configuration: config)
    let selection = SelectionController(listing: opened.listing, configuration: config, contacts: opened.contacts)
    let picker = ContactPicker(selection: selection, options: PickerOptions(locale: "en"), columns: 100, lines: 30)
    var modelKeys: [Double] = []
    for _ in 0..<max(repeats, 3) {
        var typed = ""
        for q in queries {
            let key = String(q.dropFirst(typed.count))
            typed = q
            let search = measure { picker.handle(.text(key)) }.seconds * 1000
            let screen = measure { picker.screen().lines.count }.seconds * 1000
            modelKeys.append(search + screen)
            if ProcessInfo.processInfo.environment["BENCH_VERBOSE"] != nil {
                print(
                    String(
                        format: "    %@: search %.2f ms, screen %.2f ms, %d rows", q, search, screen,
                        picker.result.count))
            }
        }
        picker.handle(.control("u"))
    }
    print(
        String(
            format: "  view model (in process, %@ listing): per keystroke search + screen p50 %.2f ms, p99 %.2f ms",
            opened.origin == .saved ? "saved" : "read", percentile(modelKeys, 0.5), percentile(modelKeys, 0.99)))
    // Three picked contacts resolved by id (what →, `--output vcard` and the compose sheet need).
    let ids = [0, opened.listing.rowCount / 2, opened.listing.rowCount - 1].map { opened.listing.listedRow($0).id }
    var resolved = 0
    let lookup = measure { resolved = (try? opened.contacts.contacts(ids: ids).count) ?? -1 }.seconds * 1000
    let others = [1, opened.listing.rowCount / 3, opened.listing.rowCount - 2].map { opened.listing.listedRow($0).id }
    let again = measure { _ = try? opened.contacts.contacts(ids: others) }.seconds * 1000
    print(
        String(
            format: "  %d of 3 picked contacts resolved by id: %.1f ms (3 others after them: %.1f ms)", resolved,
            lookup, again))
}

/// Each timed keystroke of a driven run, "query time" in typing order.
private func perKey(_ run: [String: Any]) -> String {
    (run["keys"] as? [[Any]] ?? []).map { key in
        "\"\(key[0] as? String ?? "")\" " + String(format: "%.1f", key[1] as? Double ?? .nan)
    }.joined(separator: ", ")
}

/// The value below which a share `p` of `values` lies.
func percentile(_ values: [Double], _ p: Double) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? .nan : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
}

/// Standard output of a child process (its standard error passed through); throws when it fails.
private func output(_ argv: [String]) throws -> String {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: argv[0])
    p.arguments = Array(argv.dropFirst())
    let pipe = Pipe()
    p.standardOutput = pipe
    p.standardInput = FileHandle.nullDevice
    try p.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    guard p.terminationStatus == 0 else {
        throw ProcessBenchError("\(argv.prefix(3).joined(separator: " ")) … exited \(p.terminationStatus)")
    }
    return String(decoding: data, as: UTF8.self)
}
