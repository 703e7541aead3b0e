import ContactsCore
import Foundation

/// The three-way merge of one card, property by property, against the version both sides last agreed on:
/// a property changed on one side only takes that side's lines; changed on both sides to the same lines is
/// no conflict; changed on both sides differently is a conflict on that property. `REV` and `PRODID`
/// (bumped by every writer) follow the server.
///
/// ```swift no-compile
/// let outcome = CardMerge.merge(base: base, local: local, server: server)
/// if outcome.conflicts.isEmpty { write(outcome.card) }
/// ```
enum CardMerge {
    struct Outcome {
        /// The server's card with the local side's changes in place of its lines (when no conflict).
        var card: [UInt8]
        /// The properties changed differently on both sides.
        var conflicts: [String]
    }

    static let ignored: Set<String> = ["REV", "PRODID", "BEGIN", "END"]

    /// The lines of each property (unfolded, group and parameters included), sorted: what is compared.
    static func properties(_ card: CardLines) -> [String: [String]] {
        var result: [String: [String]] = [:]
        for k in card.lines.indices {
            let name = card.name(k).name
            guard !name.isEmpty, !ignored.contains(name) else { continue }
            result[name, default: []].append(card.unfolded(k))
        }
        return result.mapValues { $0.sorted() }
    }

    static func merge(base: [UInt8]?, local: [UInt8], server: [UInt8]) -> Outcome {
        let l = CardLines(local[...])
        let s = CardLines(server[...])
        let b = base.map { properties(CardLines($0[...])) } ?? [:]
        let lp = properties(l)
        let sp = properties(s)
        var fromLocal: Set<String> = []
        var conflicts: [String] = []
        for name in Set(lp.keys).union(sp.keys).union(b.keys).sorted() {
            let (bv, lv, sv) = (b[name] ?? [], lp[name] ?? [], sp[name] ?? [])
            if lv == sv || lv == bv { continue }
            if sv == bv { fromLocal.insert(name) } else { conflicts.append(name) }
        }
        guard conflicts.isEmpty, !fromLocal.isEmpty else { return Outcome(card: server, conflicts: conflicts) }
        var out: [UInt8] = []
        var placed: Set<String> = []
        func localLines(_ name: String) -> [UInt8] {
            Array(l.lines.indices.filter { l.name($0).name == name }.map { l.lines[$0] }.joined())
        }
        for k in s.lines.indices {
            let name = s.name(k).name
            if name == "END" {
                for missing in fromLocal.subtracting(placed).sorted() { out += localLines(missing) }
                placed = fromLocal
            }
            guard fromLocal.contains(name) else {
                out += s.lines[k]
                continue
            }
            if placed.insert(name).inserted { out += localLines(name) }
        }
        return Outcome(card: out, conflicts: [])
    }
}
