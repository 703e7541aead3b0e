/// File names made safe to create inside a folder the user named, whatever text they come from (a server's
/// href or UID, a contact's name): no `/`, NUL or control character (each becomes `_`), no leading dot
/// (hidden files, `.` and `..`), never empty, and at most `maxBytes` UTF-8 bytes — a longer name keeps its
/// beginning and ends with a stable hash of the whole (``Swift/String/fnv1a64``), so two long names stay
/// apart and the same name gives the same result in every run.
///
/// ```swift
/// print(SafeFileName.make("../../x/PWNED", suffix: ".vcf"))   // _._.._x_PWNED.vcf
/// ```
package enum SafeFileName {
    /// The longest file name most file systems take (ext4, XFS, btrfs: 255 bytes).
    package static let maxBytes = 255

    /// `text` as a safe file name ending in `suffix` (itself assumed safe), at most `maxBytes` bytes.
    package static func make(_ text: String, suffix: String = "", maxBytes: Int = maxBytes) -> String {
        var scalars = String.UnicodeScalarView()
        for s in text.unicodeScalars {
            let unsafe =
                s == "/" || s.value < 0x20 || (0x7F...0x9F).contains(s.value) || s == "\u{2028}"
                || s == "\u{2029}"
            scalars.append(unsafe ? "_" : s)
        }
        var name = String(scalars)
        if name.isEmpty { name = "_" }
        if name.hasPrefix(".") { name = "_" + name.dropFirst() }
        let room = maxBytes - suffix.utf8.count
        guard name.utf8.count > room else { return name + suffix }
        // The beginning that fits beside "-" and 16 hex digits, cut at a character boundary.
        let hash = String(text.fnv1a64, radix: 16)
        let tag = "-" + String(repeating: "0", count: 16 - hash.count) + hash
        var kept = ""
        var bytes = 0
        for c in name {
            let n = c.utf8.count
            guard bytes + n <= room - tag.utf8.count else { break }
            kept.append(c)
            bytes += n
        }
        return kept + tag + suffix
    }

    /// Whether `name` is already safe (``make(_:suffix:maxBytes:)`` leaves it as it is).
    package static func isSafe(_ name: String) -> Bool { make(name) == name }
}
