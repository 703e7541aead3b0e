import Foundation

extension StringsDictDocument {
    /// The 1-based line of an entry's `<key>`.
    public func line(ofKey key: String) -> Int {
        keyLines()[Self.xmlEscape(key)] ?? 1
    }

    /// The 1-based line of the first `<key>` element holding each text (as written, escaped), found in one
    /// pass over the file: what ``line(ofKey:)`` answers, for every key at once.
    func keyLines() -> [String: Int] {
        var lines: [String: Int] = [:]
        let open = Array("<key>".utf8)
        let close = Array("</key>".utf8)
        var line = 1
        var i = 0
        while i < bytes.count {
            if bytes[i] == 0x0A {
                line += 1
            } else if bytes[i] == 0x3C, bytes[i...].starts(with: open) {
                var j = i + open.count
                while j < bytes.count, bytes[j] != 0x3C { j += 1 }
                if bytes[j...].starts(with: close) {
                    let text = String(decoding: bytes[(i + open.count)..<j], as: UTF8.self)
                    if lines[text] == nil { lines[text] = line }
                }
            }
            i += 1
        }
        return lines
    }
}

extension XCStringsDocument {
    /// The 1-based line of a key in the catalog file.
    public func line(ofKey key: String) -> Int {
        if let keyLines { return keyLines[XcodeJSONWriter.quote(key)] ?? 1 }
        let text = String(decoding: data(), as: UTF8.self)
        let needle = "\n    " + XcodeJSONWriter.quote(key) + " : "
        guard let r = text.range(of: needle) else { return 1 }
        return text[..<r.lowerBound].filter { $0 == "\n" }.count + 2
    }
}
