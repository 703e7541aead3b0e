import Foundation
import ICUKit
import MessageFormat2

/// `Benchmarks messageformat2 [COUNT]`: formats COUNT (default 1,000,000) messages with a plural `.match` on
/// two variables and a `:number`, beside the project's ICU MessageFormat 1 path (ICUKit.MessageFormat) on
/// the same message in the same run; then parses messages of 250 KB to 1 MB (up to 10,000 variants) to show
/// that parsing grows linearly with the size.
func runMessageFormat2Bench(args: [String]) throws {
    let count = args.first.flatMap { Int($0) } ?? 1_000_000
    let mf2 = try MessageFormatter(
        ".input {$count :number} .match $count one {{{$name} has {$count} new message}} * {{{$name} has {$count} new messages}}",
        locale: "en", bidiIsolation: .none)
    let mf1 = try ICUKit.MessageFormat(
        "{name} has {count, plural, one {# new message} other {# new messages}}", locale: "en")
    for n in [0, 1, 2, 1234] {
        let a = mf2.format(["name": "Ada", "count": .integer(n)]).text
        let b = try mf1.format(["name": .string("Ada"), "count": .int(Int64(n))])
        guard a == b else { throw BenchFailure("MF2 and MF1 differ for \(n): \(a) / \(b)") }
    }
    // The two paths run in alternating rounds, so that a busy machine slows both alike; each round's
    // thread CPU time is summed beside its wall time (CPU time is what other processes disturb least).
    var sink = 0
    var mf1Time = (wall: 0.0, cpu: 0.0)
    var mf2Time = (wall: 0.0, cpu: 0.0)
    let rounds = 10
    for round in 0..<rounds {
        let range = (count * round / rounds)..<(count * (round + 1) / rounds)
        let cpu1 = threadCPUSeconds()
        mf1Time.wall += try measure {
            for i in range {
                sink &+= try mf1.format(["name": .string("Ada"), "count": .int(Int64(i % 100))]).utf8.count
            }
        }.seconds
        let cpu2 = threadCPUSeconds()
        mf2Time.wall +=
            measure {
                for i in range { sink &+= mf2.format(["name": "Ada", "count": .integer(i % 100)]).text.utf8.count }
            }.seconds
        let cpu3 = threadCPUSeconds()
        mf1Time.cpu += cpu2 - cpu1
        mf2Time.cpu += cpu3 - cpu2
    }
    print("messageformat2: \(count) messages (plural .match, two variables, :number), en, \(rounds) alternating rounds")
    print(
        "  ICU MessageFormat 1 (ICUKit) \(format(mf1Time.wall)) s wall, \(format(mf1Time.cpu)) s CPU   "
            + "\(format(Double(count) / mf1Time.cpu, 0)) msg/s")
    print(
        "  MessageFormat2               \(format(mf2Time.wall)) s wall, \(format(mf2Time.cpu)) s CPU   "
            + "\(format(Double(count) / mf2Time.cpu, 0)) msg/s")
    print(
        "  MF2 / MF1: \(format(mf2Time.cpu / mf1Time.cpu))× CPU time, \(format(mf2Time.wall / mf1Time.wall))× wall time"
            + "   (checksum \(sink))")

    print("  parsing (n variants of ~105 bytes each):")
    var perMB: [Double] = []
    for variants in [2_500, 5_000, 10_000] {
        var source = ".input {$n :number}\n.match $n\n"
        for v in 0..<variants {
            source += "\(v) {{Variant \(v): {$n} items in the basket, \(String(repeating: "x", count: 50)) done}}\n"
        }
        source += "* {{other}}\n"
        let bytes = source.utf8.count
        let seconds = try medianSeconds(runs: 3) { _ = try Message(parsing: source) }
        let mb = Double(bytes) / 1_048_576
        perMB.append(seconds / mb)
        print(
            "    \(variants) variants, \(format(mb)) MB: \(format(seconds * 1000, 1)) ms (\(format(seconds / mb * 1000, 1)) ms/MB)"
        )
    }
    print("  linear: ms/MB at 1 MB is \(format(perMB.last! / perMB.first!))× that at 250 KB")
}

struct BenchFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
