/// A number of bytes as an option's value: a whole or decimal number with an optional binary unit, `K`/`k`
/// (KiB), `M` (MiB) or `G` (GiB), and an optional `B` or `iB` after it, any case, spaces allowed around the
/// unit (`1048576`, `512K`, `2k`, `25M`, `1.5MB`, `1G`, `64MiB`, `2 kb`). The one size grammar of every
/// command (`--max-output`, `--max-message-size`); each option gives its own range.
///
/// ```swift
/// SizeValue("25M")?.bytes                            // 26214400
/// SizeValue("1G", in: 1024...(1 << 30))?.bytes       // 1073741824
/// SizeValue.describe(in: 1024...(1 << 30))          // "a size in bytes such as 1048576, 512K, 64M or 1G from 1K up to 1G"
/// ```
public struct SizeValue: Sendable, Hashable {
    /// The size in bytes.
    public let bytes: Int

    /// `text` as a size within `range` (bytes); nil when it is not one, or is outside it.
    public init?(_ text: String, in range: ClosedRange<Int> = 1...Int.max) {
        var t = Substring(text.uppercased()).drop { $0 == " " }
        while t.last == " " { t.removeLast() }
        if t.hasSuffix("IB") { t.removeLast(2) } else if t.hasSuffix("B") { t.removeLast() }
        var shift = 0
        if let last = t.last, let s = ["K": 10, "M": 20, "G": 30][String(last)] {
            shift = s
            t.removeLast()
        }
        while t.last == " " { t.removeLast() }
        let number = t
        // Digits and one point only: no signs, exponents, "inf" or "nan".
        guard !number.isEmpty, number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
            let n = Double(number)
        else { return nil }
        let value = (n * Double(1 << shift)).rounded(.down)
        guard value.isFinite, value >= Double(range.lowerBound), value <= Double(range.upperBound) else { return nil }
        bytes = Int(value)
    }

    /// What a value must look like, for an error: "a size in bytes such as 1048576, 512K, 64M or 1G", with
    /// the bounds of `range` when it has some.
    public static func describe(in range: ClosedRange<Int> = 1...Int.max) -> String {
        var text = "a size in bytes such as 1048576, 512K, 64M or 1G"
        if range.lowerBound > 1 { text += " from \(written(range.lowerBound))" }
        if range.upperBound < Int.max { text += " up to \(written(range.upperBound))" }
        return text
    }

    /// `bytes` in the largest binary unit that writes it whole (`2048` → `2K`).
    static func written(_ bytes: Int) -> String {
        for (unit, shift) in [("G", 30), ("M", 20), ("K", 10)] where bytes >= 1 << shift && bytes % (1 << shift) == 0 {
            return "\(bytes >> shift)\(unit)"
        }
        return "\(bytes)"
    }
}
