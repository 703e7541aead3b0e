import Foundation

extension CardLines {
    /// Properties a card has once: a second, different value is a conflict (kept in a `NOTE`).
    static let singleValued: Set<String> = [
        "FN", "N", "BDAY", "ANNIVERSARY", "GENDER", "KIND", "SORT-STRING", "X-ADDRESSBOOKSERVER-KIND",
    ]

    /// Properties that frame, identify or stamp a card: never carried from one card into another.
    static let notMerged: Set<String> = ["BEGIN", "END", "VERSION", "UID", "REV", "PRODID"]

    /// How two values of a property are the same value: emails without case, phones by their digits, others
    /// as written (escapes and all).
    private func valueKey(_ k: Int, name: String) -> String {
        switch name {
        case "EMAIL": return "EMAIL:" + value(k).lowercased()
        case "TEL":
            let v = value(k)
            let digits = PhoneNumber.digits(of: v.lowercased().hasPrefix("tel:") ? String(v.dropFirst(4)) : v)
            return "TEL:" + (digits.isEmpty ? v : digits)
        default: return name + ":" + rawValue(k)
        }
    }

    /// Merges the lines of `other` (the card of contact `otherID`, shown as `otherName`) into this card
    /// without losing a value: a multi-valued property (`EMAIL`, `TEL`, `ADR`, `CATEGORIES`, `X-…`) gets the
    /// other card's values it lacks; a single-valued one (``singleValued``) is taken when this card has none,
    /// and a different value is kept as a `NOTE` line naming the property and where it came from. Lines of a
    /// group (`item1.EMAIL` with its `item1.X-ABLabel`) travel together, renamed when the group name is taken.
    /// Lines this card has keep their bytes; new lines go before `END:VCARD` in this card's line ending.
    mutating func merge(_ other: CardLines, otherID: String, otherName: String) throws {
        var have = Set(lines.indices.map { k in valueKey(k, name: name(k).name) })
        var groupsTaken = Set(lines.indices.compactMap { name($0).group })
        var singles: [String: String] = [:]
        for k in lines.indices {
            let n = name(k).name
            if Self.singleValued.contains(n), singles[n] == nil { singles[n] = rawValue(k) }
        }
        // The other card's lines by group (ungrouped lines each on their own), in order.
        var units: [[Int]] = []
        var unitOfGroup: [String: Int] = [:]
        for k in other.lines.indices {
            let (group, n) = other.name(k)
            guard !n.isEmpty, !Self.notMerged.contains(n) else { continue }
            if let group {
                if let u = unitOfGroup[group] {
                    units[u].append(k)
                    continue
                }
                unitOfGroup[group] = units.count
            }
            units.append([k])
        }
        var added: [[UInt8]] = []
        var notes: [String] = []
        for unit in units {
            let main = unit.first { !other.name($0).name.hasPrefix("X-AB") } ?? unit[0]
            let n = other.name(main).name
            if Self.singleValued.contains(n) {
                let raw = other.rawValue(main)
                if let mine = singles[n] {
                    if mine != raw { notes.append("\(n) \(other.value(main))") }
                    continue
                }
                singles[n] = raw
            }
            let key = other.valueKey(main, name: n)
            guard !have.contains(key) else { continue }
            have.insert(key)
            var rename: [UInt8]?
            if let group = other.name(main).group, groupsTaken.contains(group) {
                var i = 1
                while groupsTaken.contains("ITEM\(i)") { i += 1 }
                rename = Array("item\(i)".utf8)
                groupsTaken.insert("ITEM\(i)")
            } else if let group = other.name(main).group {
                groupsTaken.insert(group)
            }
            for k in unit { added.append(carried(other.lines[k], renamingGroupTo: rename)) }
        }
        lines.insert(contentsOf: added, at: positions(of: "END").last ?? lines.count)
        if !notes.isEmpty {
            let from = otherName.isEmpty ? otherID : "\(otherName) (\(otherID))"
            try apply(PropertyEdit(.add, name: "NOTE", value: "Merged from \(from): " + notes.joined(separator: "; ")))
        }
    }

    /// A line of another card in this card's line ending, its group name replaced by `group` when given.
    private func carried(_ line: [UInt8], renamingGroupTo group: [UInt8]?) -> [UInt8] {
        var bytes = line.filter { $0 != 0x0D }
        if let group, let dot = bytes.firstIndex(of: UInt8(ascii: ".")) {
            bytes.replaceSubrange(0..<dot, with: group)
        }
        guard newline == [0x0D, 0x0A] else { return bytes }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 4)
        for b in bytes {
            if b == 0x0A { out.append(0x0D) }
            out.append(b)
        }
        return out
    }
}
