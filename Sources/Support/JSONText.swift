import Foundation

/// The package's one JSON string escaper, for JSON text written piece by piece (output streamed instead of
/// encoded in one go), spelled as ``encoded(_:)`` (JSONEncoder with `.withoutEscapingSlashes`) spells it.
package enum JSONText {
    /// `s` as a JSON string literal: `"` and `\` escaped, `\b \f \n \r \t`, other controls as `\u00xx`.
    package static func quoted(_ s: String) -> String { quoted(s, shortBackspaceAndFormFeed: true) }

    /// ``quoted(_:)``; `shortBackspaceAndFormFeed: false` writes backspace and form feed as `\u0008` and
    /// `\u000c`, as Xcode's string catalogs do.
    package static func quoted(_ s: String, shortBackspaceAndFormFeed: Bool) -> String {
        var needsEscape = false
        for b in s.utf8 where b < 0x20 || b == 0x22 || b == 0x5C {
            needsEscape = true
            break
        }
        if !needsEscape { return "\"" + s + "\"" }
        var out: [UInt8] = [0x22]
        out.reserveCapacity(s.utf8.count + 8)
        let hex = Array("0123456789abcdef".utf8)
        for b in s.utf8 {
            switch b {
            case 0x22: out += [0x5C, 0x22]
            case 0x5C: out += [0x5C, 0x5C]
            case 0x08 where shortBackspaceAndFormFeed: out += [0x5C, UInt8(ascii: "b")]
            case 0x0C where shortBackspaceAndFormFeed: out += [0x5C, UInt8(ascii: "f")]
            case 0x0A: out += [0x5C, UInt8(ascii: "n")]
            case 0x0D: out += [0x5C, UInt8(ascii: "r")]
            case 0x09: out += [0x5C, UInt8(ascii: "t")]
            case 0..<0x20: out += [0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(b >> 4)], hex[Int(b & 0xF)]]
            default: out.append(b)
            }
        }
        out.append(0x22)
        return String(decoding: out, as: UTF8.self)
    }
}

extension JSONText {
    /// `value` as JSON text spelled as ``encoded(_:)`` (JSONEncoder, pretty-printed) spells it: two spaces of
    /// indent a level, `"key" : value`, members in the order given (give them sorted for sorted keys),
    /// an empty array or object as `[\n\n]` / `{\n\n}`; strings through ``quoted(_:)``, numbers as written.
    ///
    /// ```swift
    /// JSONText.written(.array([.object([JSONMember(key: "pin", value: .string("me"))])]))
    /// // "[\n  {\n    \"pin\" : \"me\"\n  }\n]"
    /// ```
    package static func written(_ value: JSONValue, indent: Int = 0) -> String {
        let inner = String(repeating: " ", count: indent + 2)
        let close = String(repeating: " ", count: indent)
        switch value {
        case .string(let s, _): return quoted(s)
        case .number(let n): return n
        case .bool(let b): return b ? "true" : "false"
        case .null: return "null"
        case .array(let items):
            if items.isEmpty { return "[\n\n" + close + "]" }
            return "[\n" + items.map { inner + written($0, indent: indent + 2) }.joined(separator: ",\n") + "\n"
                + close + "]"
        case .object(let members):
            if members.isEmpty { return "{\n\n" + close + "}" }
            return "{\n"
                + members.map { inner + quoted($0.key) + " : " + written($0.value, indent: indent + 2) }
                .joined(separator: ",\n") + "\n" + close + "}"
        }
    }
}

extension JSONText {
    /// `value` encoded as the package writes JSON for people and scripts: pretty-printed, keys sorted,
    /// slashes unescaped (the layout ``written(_:indent:)`` and ``quoted(_:)`` spell piece by piece).
    ///
    /// ```swift
    /// try JSONText.encoded(["b": 1, "a": 2])   // "{\n  \"a\" : 2,\n  \"b\" : 1\n}"
    /// ```
    package static func encoded<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
