import Foundation
import TestSupport

/// `Benchmarks carddav [--count N] [--server radicale|xandikos]`: `contacts sync` against a local Radicale and
/// a local Xandikos (or the one named) holding N contacts (default 10,000; `scripts/gen-bench-data.py`, fixed
/// seed) beside vdirsyncer on the same collection in the same run, and beside the server's own time: a full
/// `addressbook-query`, a `sync-collection` from no token asking for the cards (Radicale gives them there,
/// Xandikos does not), a `sync-collection` with nothing changed (the least a no-change sync can cost), and
/// the `DAV:sync-token` property (token and query together are the least a first sync that asks them apart
/// can cost). The first sync is run into a folder on disk and into one on tmpfs (`/dev/shm`), since creating
/// 10,000 files costs this disk seconds; then a sync with nothing changed (least of three) and a sync after
/// 10 contacts changed on the server (least of three rounds). The server side is
/// `Benchmarks/Fixtures/carddav_bench_server.py`.
func runCardDAVBench(args: [String]) throws {
    func value(_ name: String) -> String? {
        args.firstIndex(of: name).flatMap { $0 + 1 < args.count ? args[$0 + 1] : nil }
    }
    let count = value("--count").flatMap(Int.init) ?? 10_000
    let kinds = value("--server").map { [$0] } ?? ["radicale", "xandikos"]
    let root = FileManager.default.currentDirectoryPath
    let work = root + "/.build/bench-data/carddav-\(count)-\(getpid())"
    try? FileManager.default.removeItem(atPath: work)
    try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: work) }
    let cards = work + "/cards.vcf"
    guard
        try runChild(["/usr/bin/python3", root + "/scripts/gen-bench-data.py", "vcf", String(count), cards]).status == 0
    else { throw ProcessBenchError("gen-bench-data.py failed") }
    for kind in kinds { try benchCardDAVServer(kind, count: count, cards: cards, work: work + "/" + kind) }
}

/// One server's figures (``runCardDAVBench(args:)``).
private func benchCardDAVServer(_ kind: String, count: Int, cards: String, work: String) throws {
    let root = FileManager.default.currentDirectoryPath
    let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        .appendingPathComponent("contacts").path
    guard FileManager.default.isExecutableFile(atPath: binary) else {
        throw ProcessBenchError("no contacts binary beside the benchmarks at \(binary)")
    }
    guard let python = venvPython() else { throw ProcessBenchError("no venv python (make deps)") }
    let vdirsyncer = (python as NSString).deletingLastPathComponent + "/vdirsyncer"
    try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
    // The same first sync into tmpfs, beside the one on disk.
    let shm = "/dev/shm/contacts-carddav-bench-\(getpid())-\(kind)"
    try? FileManager.default.removeItem(atPath: shm)
    defer { try? FileManager.default.removeItem(atPath: shm) }

    let server = try ScriptServer(
        python: URL(fileURLWithPath: python),
        script: URL(fileURLWithPath: root + "/Benchmarks/Fixtures/carddav_bench_server.py"),
        arguments: ["--kind", kind, "--cards", cards, "--root", work + "/server"])
    defer { server.stop(grace: 30) }
    func ask(_ command: String) -> String {
        server.send(command)
        return server.readLine()
    }
    let url = "http://127.0.0.1:\(server.port)" + ask("path")
    func serverSeconds(_ command: String) throws -> Double {
        let answer = ask(command)
        guard let seconds = Double(answer.split(separator: " ").first ?? "") else {
            throw ProcessBenchError("bench server: \(command): \(answer)")
        }
        return seconds
    }
    // Each step starts with nothing waiting to be written to disk (the files the step before wrote would
    // otherwise be flushed during it), and the server's own times are taken just before the syncs they
    // are compared with (Radicale's times drift as its caches and token files grow).
    func settled<T>(_ step: () throws -> T) rethrows -> T {
        sync()
        return try step()
    }
    /// The least time of three runs of a step that can be repeated.
    func leastOfThree(_ step: () throws -> Double) rethrows -> Double {
        try (0..<3).map { _ in try settled(step) }.min() ?? 0
    }
    func serverTime(_ command: String) throws -> Double { try leastOfThree { try serverSeconds(command) } }
    let query = try serverTime("query")
    let tokenProperty = try serverTime("tokenprop")
    // A sync-collection from no token with the cards: how many it gave a card for (Xandikos 0.4: none).
    let cardsGiven = ask("synccards").split(separator: " ").last.flatMap { Int($0) } ?? 0
    let syncCards = try serverTime("synccards")
    // The server's cheapest complete listing with data: that sync-collection when it gives every card,
    // else the query; and what a first sync asking the token apart must cost (token, then the query).
    let listing = cardsGiven >= count ? min(syncCards, query) : query
    let floor = tokenProperty + query

    let folder = work + "/ours"
    func contactsSync(_ folder: String) throws -> Double {
        let r = try runChild([binary, "sync", url, "--into", folder, "--user", "bench", "--password-command", "echo x"])
        guard r.status == 0 else { throw ProcessBenchError("contacts sync exited \(r.status)") }
        return r.seconds
    }
    let config = work + "/vdirsyncer.conf"
    try """
    [general]
    status_path = "\(work)/vdirsyncer-status"

    [pair bench]
    a = "bench_local"
    b = "bench_remote"
    collections = null

    [storage bench_local]
    type = "filesystem"
    path = "\(work)/vdirsyncer"
    fileext = ".vcf"

    [storage bench_remote]
    type = "carddav"
    url = "\(url)"
    username = "bench"
    password = "x"

    """.write(toFile: config, atomically: true, encoding: .utf8)
    try FileManager.default.createDirectory(atPath: work + "/vdirsyncer", withIntermediateDirectories: true)
    guard try runChild(["/bin/sh", "-c", "yes | '\(vdirsyncer)' -c '\(config)' discover bench"]).status == 0 else {
        throw ProcessBenchError("vdirsyncer discover failed")
    }
    func vdirsyncerSync() throws -> Double {
        let r = try runChild([vdirsyncer, "-c", config, "sync"])
        guard r.status == 0 else { throw ProcessBenchError("vdirsyncer sync exited \(r.status)") }
        return r.seconds
    }

    let ourFirst = try settled { try contactsSync(folder) }
    let ourFirstTmpfs = try settled { try contactsSync(shm) }
    let theirFirst = try settled(vdirsyncerSync)
    let token = try serverTime("token")
    // The syncs that can be repeated are run three times and the least time taken, as for the server's.
    let ourIdle = try leastOfThree { try contactsSync(folder) }
    let theirIdle = try leastOfThree(vdirsyncerSync)
    // Three rounds of 10 changes, each synced by both. After each, the server's own time for the request a
    // sync after the change starts with (taken after both syncs: Radicale then has the new token's state on
    // disk already, so this is the least it can cost).
    var ten: [(ours: Double, theirs: Double, server: Double)] = []
    for _ in 0..<3 {
        guard ask("change 10") == "ok" else { throw ProcessBenchError("bench server: change failed") }
        let ours = try settled { try contactsSync(folder) }
        let theirs = try settled(vdirsyncerSync)
        ten.append((ours, theirs, try serverTime("changed")))
    }
    let ourTen = ten.map(\.ours).min() ?? 0
    let theirTen = ten.map(\.theirs).min() ?? 0
    let afterChange = ten.map(\.server).min() ?? 0

    print("carddav: \(count) contacts on a local \(kind), wall time of each sync process (s)")
    print(
        "  server's own time: full addressbook-query \(format(query, 3)), sync-collection with address-data "
            + "\(format(syncCards, 3)) (cards given: \(cardsGiven)), no-change sync-collection \(format(token, 3)),"
            + " sync-token property \(format(tokenProperty, 3))")
    print("  step                     contacts sync   vdirsyncer   contacts/server   vdirsyncer/server")
    print(
        "  first sync (disk)        \(pad(ourFirst))   \(pad(theirFirst))   \(ratio(ourFirst, listing))× listing"
            + "    \(ratio(theirFirst, listing))× listing")
    print("  first sync (tmpfs)       \(pad(ourFirstTmpfs))                \(ratio(ourFirstTmpfs, listing))× listing")
    print(
        "  nothing changed          \(pad(ourIdle))   \(pad(theirIdle))   \(ratio(ourIdle, token))× sync-coll."
            + " \(ratio(theirIdle, token))× sync-coll.")
    print(
        "  10 changed on the server \(pad(ourTen))   \(pad(theirTen))   (the server's sync-collection after the "
            + "change \(format(afterChange, 3)) s; contacts sync adds \(format(ourTen - afterChange, 3)) s)")
    print(
        "  first sync against the server's cheapest complete listing with data (\(format(listing, 3)) s, "
            + (listing < query ? "the sync-collection with the cards" : "the query") + "): disk "
            + "\(format(ourFirst / listing))×, tmpfs \(format(ourFirstTmpfs / listing))×; against token + query "
            + "(\(format(floor, 3)) s): disk \(format(ourFirst / floor))×, tmpfs \(format(ourFirstTmpfs / floor))×;"
            + " vdirsyncer \(format(theirFirst / listing))× the listing")
    print(
        "  contacts sync / vdirsyncer: first \(format(ourFirst / theirFirst)), nothing changed "
            + "\(format(ourIdle / theirIdle)), 10 changed \(format(ourTen / theirTen))")
}

private func ratio(_ seconds: Double, _ base: Double) -> String {
    let text = format(seconds / base)
    return String(repeating: " ", count: max(0, 6 - text.count)) + text
}

private func pad(_ seconds: Double) -> String {
    let text = format(seconds, 3)
    return String(repeating: " ", count: max(0, 13 - text.count)) + text
}
