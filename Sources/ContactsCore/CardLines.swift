import Foundation
import Locales

/// One card's bytes as content lines (a line with its folded continuations and its line ending), edited
/// line by line: lines no edit touches keep their bytes, unknown properties and parameters included.
package struct CardLines {
    /// Each content line's bytes, line ending included.
    package internal(set) var lines: [[UInt8]]
    /// The card's line ending (`\r\n`, or `\n` when its first line ends so); new lines use it.
    package let newline: [UInt8]

    package init(_ bytes: ArraySlice<UInt8>) {
        var lines: [[UInt8]] = []
        var start = bytes.startIndex
        var i = bytes.startIndex
        while i < bytes.endIndex {
            guard bytes[i] == 0x0A else {
                i += 1
                continue
            }
            let next = i + 1
            let continues =
                next < bytes.endIndex && (bytes[next] == 0x20 || bytes[next] == 0x09)
                || Self.quotedPrintableContinues(bytes[start..<i])
            if !continues {
                lines.append(Array(bytes[start..<next]))
                start = next
            }
            i = next
        }
        if start < bytes.endIndex { lines.append(Array(bytes[start...])) }
        self.lines = lines
        let first = lines.first ?? []
        newline = first.count >= 2 && first[first.count - 2] == 0x0D || !first.contains(0x0A) ? [0x0D, 0x0A] : [0x0A]
    }

    /// A vCard 2.1 quoted-printable value whose line ends with `=` (a soft line break) goes on.
    private static func quotedPrintableContinues(_ line: ArraySlice<UInt8>) -> Bool {
        var end = line.endIndex
        if end > line.startIndex && line[end - 1] == 0x0D { end -= 1 }
        guard end > line.startIndex, line[end - 1] == 0x3D else { return false }
        let text = String(decoding: line[line.startIndex..<end], as: UTF8.self).uppercased()
        guard let colon = text.firstIndex(of: ":") else { return false }
        return text[..<colon].contains("QUOTED-PRINTABLE")
    }

    /// The bytes of the card.
    package var bytes: [UInt8] { Array(lines.joined()) }

    /// The unfolded text of line `k`, without its line ending.
    package func unfolded(_ k: Int) -> String {
        var out: [UInt8] = []
        var skipNext = false
        for b in lines[k] {
            if skipNext {
                skipNext = false
                if b == 0x20 || b == 0x09 { continue }
            }
            if b == 0x0D { continue }
            if b == 0x0A {
                skipNext = true
                continue
            }
            out.append(b)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The group (or nil) and upper-cased name of line `k`.
    package func name(_ k: Int) -> (group: String?, name: String) {
        let text = unfolded(k)
        let end = text.firstIndex { $0 == ";" || $0 == ":" } ?? text.endIndex
        let full = text[..<end].uppercased()
        guard let dot = full.lastIndex(of: ".") else { return (nil, full) }
        return (String(full[..<dot]), String(full[full.index(after: dot)...]))
    }

    /// The value of line `k` as written (escapes kept): after the first `:` outside quotes.
    func rawValue(_ k: Int) -> String {
        let text = unfolded(k)
        var quoted = false
        for i in text.indices {
            if text[i] == "\"" { quoted.toggle() }
            if text[i] == ":" && !quoted { return String(text[text.index(after: i)...]) }
        }
        return ""
    }

    /// The value of line `k` with vCard escapes undone.
    package func value(_ k: Int) -> String {
        var out = ""
        var escaped = false
        for c in rawValue(k) {
            if escaped {
                out.append(c == "n" || c == "N" ? "\n" : c)
                escaped = false
            } else if c == "\\" {
                escaped = true
            } else {
                out.append(c)
            }
        }
        return out
    }

    /// The positions of the lines of `name` (and `group`, when given), in order.
    package func positions(of name: String, group: String? = nil) -> [Int] {
        lines.indices.filter { k in
            let n = self.name(k)
            return n.name == name && (group == nil || n.group == group)
        }
    }

    /// The `VERSION` of the card (3.0 when absent or another version).
    var version: VCardWriter.Version {
        positions(of: "VERSION").first.flatMap { VCardWriter.Version(rawValue: value($0)) } ?? .v3
    }

    /// The position of the `END:VCARD` line (new lines go before it).
    private var endPosition: Int { positions(of: "END").last ?? lines.count }

    /// The bytes of a new content line: folded at 75 octets, in the card's line ending.
    private func line(_ name: String, group: String?, parameters: [VCardParameter], value: String) -> [UInt8] {
        var writer = LineWriter()
        writer.property(name, group: group, parameters: parameters, value: value)
        guard newline == [0x0A] else { return writer.bytes }
        return writer.bytes.filter { $0 != 0x0D }
    }

    /// Applies one edit. A removal that matches no line throws ``ContactsCoreError/invalidEdit(field:message:)``.
    mutating func apply(_ edit: PropertyEdit) throws {
        let (group, name) = Self.split(edit.name)
        var matching = positions(of: name, group: group)
        switch edit.action {
        case .add:
            lines.insert(
                line(name, group: group, parameters: edit.parameters, value: edit.encodedValue), at: endPosition)
        case .set:
            let at = matching.first ?? endPosition
            for k in matching.reversed() { lines.remove(at: k) }
            lines.insert(line(name, group: group, parameters: edit.parameters, value: edit.encodedValue), at: at)
        case .remove:
            if let wanted = edit.value { matching = matching.filter { Self.same(value($0), wanted, property: name) } }
            guard !matching.isEmpty else {
                let what = edit.value.map { "\(edit.name)=\($0)" } ?? edit.name
                throw ContactsCoreError.invalidEdit(field: "--remove", message: "the card has no \(what)")
            }
            for k in matching.reversed() { lines.remove(at: k) }
        }
    }

    /// `group.NAME` split.
    static func split(_ name: String) -> (group: String?, name: String) {
        guard let dot = name.lastIndex(of: ".") else { return (nil, name) }
        return (String(name[..<dot]), String(name[name.index(after: dot)...]))
    }

    /// Values compared as the property means them: emails without case, phones by their digits.
    static func same(_ a: String, _ b: String, property: String) -> Bool {
        switch property {
        case "EMAIL": return a.caseInsensitiveCompare(b) == .orderedSame
        case "TEL":
            let x = PhoneNumber.digits(of: a.hasPrefix("tel:") ? String(a.dropFirst(4)) : a)
            return !x.isEmpty && x == PhoneNumber.digits(of: b)
        default: return a == b
        }
    }
}
