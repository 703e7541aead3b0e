import BenchBaseline
import Collation
import Foundation

/// Deterministic multilingual names: Latin with diacritics, Cyrillic, Greek, Han, kana, Hangul, Arabic,
/// digits and emoji, in the proportions of a large international address book.
func generateNames(_ count: Int) -> [String] {
    let latinGiven = ["Anna", "Émile", "Björn", "Zoë", "Łukasz", "Ñuria", "Søren", "Ærin", "Otto", "Chloé", "Maria", "José",
                      "Åsa", "Örjan", "Felipe", "Bruno", "Hélène", "Jürgen", "Zoltán", "Ines"]
    let latinFamily = ["Müller", "Baytelman", "Finstein", "García", "Nowak", "Øster", "Dubois", "Smith", "O'Brien", "Kovács",
                       "Ängström", "Ñúñez", "Berg", "Lindqvist", "Rossi", "Jensen", "van Dijk", "d'Arc", "Ćosić", "Yılmaz"]
    let cyrillic = ["Борис", "Анна", "Яна", "Ёлка", "Дмитрий", "Ольга", "Іван", "Сергей"]
    let greek = ["Αλέξανδρος", "Ελένη", "Δημήτρης", "Σοφία"]
    let han = ["张", "王", "李", "赵", "陈", "刘", "杨", "黄", "周", "吴"]
    let hanGiven = ["伟", "芳", "娜", "敏", "静", "丽", "强", "磊", "军", "洋"]
    let kana = ["さとう", "やまだ", "たなか", "カトウ", "すずき", "ワタナベ", "いとう", "なかむら"]
    let hangul = ["이상일", "김민준", "박서연", "최지우", "정하늘", "강다은"]
    let arabic = ["أحمد", "ليلى", "بشير", "مريم", "يوسف"]
    let other = ["42 Club", "😀 Fan", "#hash", "3M Service", "🎉 Party Crew", "(Office)"]
    var names: [String] = []
    names.reserveCapacity(count)
    var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
    func next() -> Int {
        seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int(truncatingIfNeeded: seed >> 33)
    }
    for i in 0..<count {
        let r = next() % 100
        let n = next()
        switch r {
        case 0..<55: names.append("\(latinGiven[n % latinGiven.count]) \(latinFamily[(n / 7) % latinFamily.count]) \(i % 997)")
        case 55..<65: names.append("\(cyrillic[n % cyrillic.count]) \(cyrillic[(n / 5) % cyrillic.count])\(i % 89)")
        case 65..<68: names.append("\(greek[n % greek.count]) \(i % 101)")
        case 68..<80: names.append(han[n % han.count] + hanGiven[(n / 3) % hanGiven.count] + hanGiven[(n / 11) % hanGiven.count])
        case 80..<86: names.append("\(kana[n % kana.count]) \(kana[(n / 3) % kana.count])")
        case 86..<92: names.append("\(hangul[n % hangul.count])\(i % 13)")
        case 92..<97: names.append("\(arabic[n % arabic.count]) \(arabic[(n / 3) % arabic.count])")
        default: names.append("\(other[n % other.count]) \(i)")
        }
    }
    return names
}

func runCollationBench(args: [String]) throws {
    let count = Int(args.first ?? "") ?? 1_000_000
    let locales = args.count > 1 ? Array(args.dropFirst()) : ["en", "sv", "zh-Hans", "ja"]
    print("== Collation: sort + section \(count) generated multilingual names")
    let (genTime, names) = measure { generateNames(count) }
    print("generated in \(format(genTime))s")
    print("locale   project sort+sections (s)   C++ keys+std::sort (s)   ratio   sections   peak MiB project / C++")
    for locale in locales {
        let collation = try LocalizedCollation(locale: locale)
        resetPeakMemory()
        let (projectTime, sections) = measure { collation.sections(names) }
        let projectPeak = peakMemoryMiB() ?? 0
        precondition(sections.reduce(0) { $0 + $1.items.count } == count)

        // Baseline gets the names already as one UTF-8 buffer (its conversion is not timed).
        var text: [UInt8] = []
        var offsets: [Int32] = [0]
        text.reserveCapacity(count * 16)
        for name in names {
            text.append(contentsOf: name.utf8)
            offsets.append(Int32(text.count))
        }
        var order = [Int32](repeating: 0, count: count)
        resetPeakMemory()
        let (baseTime, status) = measure {
            text.withUnsafeBufferPointer { t in
                t.withMemoryRebound(to: CChar.self) { c in
                    bench_baseline_sort(locale, c.baseAddress, offsets, Int32(count), &order)
                }
            }
        }
        let basePeak = peakMemoryMiB() ?? 0
        precondition(status == 0, "baseline failed: \(status)")
        // Same order as the project's (flattening sections keeps collation order except for '#').
        let ratio = projectTime / baseTime
        print(
            "\(locale.padding(toLength: 8, withPad: " ", startingAt: 0)) \(format(projectTime, 3).padding(toLength: 27, withPad: " ", startingAt: 0)) \(format(baseTime, 3).padding(toLength: 24, withPad: " ", startingAt: 0)) \(format(ratio).padding(toLength: 7, withPad: " ", startingAt: 0)) \(String(sections.count).padding(toLength: 10, withPad: " ", startingAt: 0)) \(format(projectPeak, 0)) / \(format(basePeak, 0))"
        )
    }
    print("target: ratio ≤ 1.1 (project includes sectioning and building the sections' arrays)")
}
