import ContactsCore
import Foundation

/// The three-way merge of one card, property by property, against the version both sides last agreed on.
/// Lines are compared by normalized value (``normalized(_:)``: the name and parameter names in capitals,
/// parameters sorted, `TYPE` values as a set), so a server that rewrites a card it was sent does not make
/// its properties look changed. A property changed on one side only takes that side's lines; changed on
/// both sides to the same lines is no conflict. Properties that hold several values (`EMAIL`, `TEL`,
/// `ADR`, `MEMBER`…) merge value by value: what each side added is added, what each side removed is
/// removed; only a value both sides replaced differently is a conflict. Other properties changed
/// differently on both sides are a conflict on that property, whose lines then follow the server, while
/// every other change of both sides is still merged. `REV` and `PRODID` (bumped by every writer) follow the
/// server.
///
/// ```swift no-compile
/// let outcome = CardMerge.merge(base: base, local: local, server: server)
/// if outcome.conflicts.isEmpty { write(outcome.card) }
/// ```
enum CardMerge {
    struct Outcome {
        /// The server's card with the local side's changes in place of its lines (the conflicting
        /// properties as the server has them).
        var card: [UInt8]
        /// The properties changed differently on both sides.
        var conflicts: [String]
    }

    static let ignored: Set<String> = ["REV", "PRODID", "BEGIN", "END"]

    /// The properties that may hold several values, merged value by value.
    static let multiValued: Set<String> = [
        "EMAIL", "TEL", "ADR", "URL", "IMPP", "MEMBER", "RELATED", "CATEGORIES", "NICKNAME", "LABEL",
        "X-SOCIALPROFILE", "X-ABRELATEDNAMES", "X-ADDRESSBOOKSERVER-MEMBER",
    ]

    /// Each property's lines: normalized text → the line's bytes.
    typealias Lines = [String: [(key: String, raw: [UInt8])]]

    static func lines(_ card: CardLines) -> Lines {
        var result: Lines = [:]
        for k in card.lines.indices {
            let name = card.name(k).name
            guard !name.isEmpty, !ignored.contains(name) else { continue }
            result[name, default: []].append((normalized(card.unfolded(k)), card.lines[k]))
        }
        return result
    }

    /// The sorted normalized lines of each property: what is compared.
    static func properties(_ card: CardLines) -> [String: [String]] {
        lines(card).mapValues { $0.map(\.key).sorted() }
    }

    /// A content line compared by meaning rather than spelling: without its group, the name and parameter
    /// names in capitals, parameters sorted, `TYPE` values lower-cased as a sorted set (`TYPE=a;TYPE=b` is
    /// `TYPE=a,b`), quotes around parameter values removed, white space at the end of the value dropped.
    static func normalized(_ line: String) -> String {
        var quoted = false
        var colon = line.endIndex
        for i in line.indices {
            if line[i] == "\"" { quoted.toggle() }
            if line[i] == ":" && !quoted {
                colon = i
                break
            }
        }
        let head = line[..<colon]
        var value = colon < line.endIndex ? line[line.index(after: colon)...] : ""
        while let last = value.last, last == " " || last == "\t" { value = value.dropLast() }
        var parts: [Substring] = []
        var start = head.startIndex
        quoted = false
        for i in head.indices {
            if head[i] == "\"" { quoted.toggle() }
            if head[i] == ";" && !quoted {
                parts.append(head[start..<i])
                start = head.index(after: i)
            }
        }
        parts.append(head[start...])
        var name = parts.removeFirst().uppercased()
        if let dot = name.lastIndex(of: ".") { name = String(name[name.index(after: dot)...]) }
        var types: Set<String> = []
        var params: [String] = []
        for p in parts where !p.isEmpty {
            let eq = p.firstIndex(of: "=")
            let pname = (eq.map { p[..<$0] } ?? "TYPE").uppercased()
            let pvalue = eq.map { String(p[p.index(after: $0)...]) } ?? String(p)
            let unquoted = pvalue.replacingOccurrences(of: "\"", with: "")
            if pname == "TYPE" {
                for t in unquoted.split(separator: ",") { types.insert(t.lowercased()) }
            } else {
                params.append(pname + "=" + unquoted)
            }
        }
        if !types.isEmpty { params.append("TYPE=" + types.sorted().joined(separator: ",")) }
        return ([name] + params.sorted()).joined(separator: ";") + ":" + value
    }

    static func merge(base: [UInt8]?, local: [UInt8], server: [UInt8]) -> Outcome {
        let l = lines(CardLines(local[...]))
        let s = lines(CardLines(server[...]))
        let b = base.map { lines(CardLines($0[...])) } ?? [:]
        var replacements: [String: [[UInt8]]] = [:]
        var conflicts: [String] = []
        for name in Set(l.keys).union(s.keys).union(b.keys).sorted() {
            let (bl, ll, sl) = (b[name] ?? [], l[name] ?? [], s[name] ?? [])
            let (bv, lv, sv) = (bl.map(\.key).sorted(), ll.map(\.key).sorted(), sl.map(\.key).sorted())
            if lv == sv || lv == bv { continue }
            if sv == bv {
                replacements[name] = ll.map(\.raw)
                continue
            }
            guard multiValued.contains(name) else {
                conflicts.append(name)
                continue
            }
            // Value by value: each side's additions and removals.
            let (bs, ls, ss) = (Set(bv), Set(lv), Set(sv))
            let addedL = ls.subtracting(bs)
            let addedS = ss.subtracting(bs)
            let replacedByBoth = !bs.subtracting(ls).intersection(bs.subtracting(ss)).isEmpty
            if replacedByBoth && !addedL.isEmpty && !addedS.isEmpty && addedL != addedS {
                conflicts.append(name)
                continue
            }
            let removedL = bs.subtracting(ls)
            var merged = sl.filter { !removedL.contains($0.key) }.map(\.raw)
            var present = Set(sl.map(\.key))
            for line in ll where addedL.contains(line.key) && present.insert(line.key).inserted {
                merged.append(line.raw)
            }
            replacements[name] = merged
        }
        guard !replacements.isEmpty else { return Outcome(card: server, conflicts: conflicts) }
        return Outcome(card: replacing(replacements, in: server), conflicts: conflicts)
    }

    /// `card` with the lines of each property of `replacements` replaced by the lines given (at the place of
    /// the property's first line, else before `END`).
    static func replacing(_ replacements: [String: [[UInt8]]], in card: [UInt8]) -> [UInt8] {
        let c = CardLines(card[...])
        var out: [UInt8] = []
        var placed: Set<String> = []
        for k in c.lines.indices {
            let name = c.name(k).name
            if name == "END" {
                for missing in Set(replacements.keys).subtracting(placed).sorted() {
                    for line in replacements[missing]! { out += line }
                }
                placed = Set(replacements.keys)
            }
            guard let lines = replacements[name] else {
                out += c.lines[k]
                continue
            }
            if placed.insert(name).inserted { for line in lines { out += line } }
        }
        return out
    }

    /// `card` with the lines of each property of `choices` as chosen: `other`'s (mine), `card`'s own
    /// (theirs), or `card`'s followed by each of `other`'s whose normalized value it lacks (both).
    static func choosing(_ choices: [String: PropertyChoice], from other: [UInt8], into card: [UInt8]) -> [UInt8] {
        let o = lines(CardLines(other[...]))
        let c = lines(CardLines(card[...]))
        var replacements: [String: [[UInt8]]] = [:]
        for (name, choice) in choices {
            switch choice {
            case .theirs: continue
            case .mine: replacements[name] = (o[name] ?? []).map(\.raw)
            case .both:
                let own = c[name] ?? []
                let present = Set(own.map(\.key))
                replacements[name] = own.map(\.raw) + (o[name] ?? []).filter { !present.contains($0.key) }.map(\.raw)
            }
        }
        return replacing(replacements, in: card)
    }
}
