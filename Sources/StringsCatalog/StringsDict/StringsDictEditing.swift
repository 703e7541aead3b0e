import Foundation

/// A minimal element tree over XML property-list bytes, with byte ranges, used to edit a `.stringsdict`
/// in place (so every other byte, comments and indentation included, stays as the translator wrote it).
struct PlistXMLNode {
    var name: String
    /// From `<` of the start tag to `>` of the end tag.
    var range: Range<Int>
    /// Between the start and end tags (empty for `<x/>`).
    var content: Range<Int>
    var children: [PlistXMLNode]

    static func parse(_ b: [UInt8]) -> PlistXMLNode? {
        var i = 0
        var stack: [PlistXMLNode] = [
            PlistXMLNode(name: "#document", range: 0..<b.count, content: 0..<b.count, children: [])
        ]
        func starts(_ s: String, at k: Int) -> Bool {
            let u = Array(s.utf8)
            return k + u.count <= b.count && Array(b[k..<k + u.count]) == u
        }
        func find(_ s: String, from k: Int) -> Int? {
            let u = Array(s.utf8)
            var j = k
            while j + u.count <= b.count {
                if b[j] == u[0] && Array(b[j..<j + u.count]) == u { return j }
                j += 1
            }
            return nil
        }
        while i < b.count {
            guard b[i] == UInt8(ascii: "<") else {
                i += 1
                continue
            }
            if starts("<!--", at: i) {
                guard let e = find("-->", from: i + 4) else { return nil }
                i = e + 3
                continue
            }
            if starts("<?", at: i) || starts("<!", at: i) {
                guard let e = find(">", from: i) else { return nil }
                i = e + 1
                continue
            }
            guard let close = find(">", from: i) else { return nil }
            let tag = String(decoding: b[(i + 1)..<close], as: UTF8.self)
            if tag.hasPrefix("/") {
                guard stack.count > 1 else { return nil }
                var node = stack.removeLast()
                guard node.name == tag.dropFirst().trimmingCharacters(in: .whitespaces) else { return nil }
                node.content = node.content.lowerBound..<i
                node.range = node.range.lowerBound..<(close + 1)
                stack[stack.count - 1].children.append(node)
            } else if tag.hasSuffix("/") {
                let name = String(tag.dropLast().split(separator: " ").first ?? "")
                stack[stack.count - 1].children.append(
                    PlistXMLNode(name: name, range: i..<(close + 1), content: (close + 1)..<(close + 1), children: []))
            } else {
                let name = String(tag.split(separator: " ").first ?? "")
                stack.append(
                    PlistXMLNode(name: name, range: i..<(close + 1), content: (close + 1)..<(close + 1), children: []))
            }
            i = close + 1
        }
        guard stack.count == 1 else { return nil }
        return stack[0].children.first { $0.name == "plist" }
    }

    /// In a `<dict>`: the value node of `<key>name</key>`.
    func value(forKey name: String, in bytes: [UInt8]) -> (key: PlistXMLNode, value: PlistXMLNode)? {
        guard self.name == "dict" else { return nil }
        var k = 0
        while k + 1 < children.count {
            let key = children[k]
            if key.name == "key", PlistXMLNode.unescape(String(decoding: bytes[key.content], as: UTF8.self)) == name {
                return (key, children[k + 1])
            }
            k += 1
        }
        return nil
    }

    static func unescape(_ s: String) -> String {
        s.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
    }
}

extension StringsDictDocument {
    /// True when an edit changed the bytes since reading.
    public var isEdited: Bool { edited }

    /// The file's bytes (as read, with any edits applied in place).
    public func data() -> Data { Data(bytes) }

    func rootDict() -> PlistXMLNode? {
        PlistXMLNode.parse(bytes)?.children.first { $0.name == "dict" }
    }

    /// The start of the line containing `offset`, and the whitespace that indents it.
    func lineStart(_ offset: Int) -> (start: Int, indent: String) {
        var s = offset
        while s > 0, bytes[s - 1] != 0x0A { s -= 1 }
        var e = s
        while e < bytes.count, bytes[e] == 0x20 || bytes[e] == 0x09 { e += 1 }
        return (s, String(decoding: bytes[s..<e], as: UTF8.self))
    }

    mutating func replace(_ range: Range<Int>, with text: String) {
        bytes.replaceSubrange(range, with: Array(text.utf8))
        edited = true
        let reparsed = StringsDictDocument(parsing: Data(bytes), file: file)
        entries = reparsed.entries
    }

    /// Sets one plural form (`variable`.`category`) of an existing entry, in place. Returns false when
    /// the entry or variable does not exist (or the file is not an editable XML plist).
    @discardableResult
    public mutating func setForm(_ value: String, key: String, variable: String, category: String) -> Bool {
        guard let root = rootDict(), let entry = root.value(forKey: key, in: bytes)?.value,
            let variableDict = entry.value(forKey: variable, in: bytes)?.value, variableDict.name == "dict"
        else { return false }
        let escaped = StringsDictDocument.xmlEscape(value)
        if let form = variableDict.value(forKey: category, in: bytes)?.value, form.name == "string" {
            if PlistXMLNode.unescape(String(decoding: bytes[form.content], as: UTF8.self)) == value { return true }
            replace(form.content, with: escaped)
            return true
        }
        // Insert the new category before the closing </dict>, indented like its siblings.
        let indent = variableDict.children.last.map { lineStart($0.range.lowerBound).indent } ?? "\t\t\t"
        let close = variableDict.content.upperBound
        let (closeLine, _) = lineStart(close)
        let insertAt = closeLine
        replace(insertAt..<insertAt, with: "\(indent)<key>\(category)</key>\n\(indent)<string>\(escaped)</string>\n")
        return true
    }

    /// Renames the one variable of an entry that neither its format nor another variable's forms use
    /// (left by a format set to name another variable) to `name`, in place. Returns false when there is not
    /// exactly one such variable.
    @discardableResult
    mutating func renameUnusedVariable(key: String, to name: String) -> Bool {
        guard let entry = entries[key], entry.variables[name] == nil else { return false }
        var used = Set<String>()
        for text in [entry.formatKey ?? ""] + entry.variables.values.flatMap({ $0.forms.values }) {
            for (_, spec) in (try? PrintfFormat.arguments(of: text)) ?? [] {
                if let v = spec.variable { used.insert(v) }
            }
        }
        let unused = entry.variables.keys.filter { !used.contains($0) }
        guard unused.count == 1, let old = unused.first, let root = rootDict(),
            let dict = root.value(forKey: key, in: bytes)?.value, let pair = dict.value(forKey: old, in: bytes)
        else { return false }
        replace(pair.key.content, with: StringsDictDocument.xmlEscape(name))
        return true
    }

    /// Sets `NSStringLocalizedFormatKey` of an existing entry, in place.
    @discardableResult
    public mutating func setFormatKey(_ value: String, key: String) -> Bool {
        guard let root = rootDict(), let entry = root.value(forKey: key, in: bytes)?.value,
            let format = entry.value(forKey: "NSStringLocalizedFormatKey", in: bytes)?.value, format.name == "string"
        else { return false }
        if PlistXMLNode.unescape(String(decoding: bytes[format.content], as: UTF8.self)) == value { return true }
        replace(format.content, with: StringsDictDocument.xmlEscape(value))
        return true
    }

    /// Appends a copy of `entry` (as XML, with its comment) before the root's closing `</dict>`.
    /// Returns false when the key exists already or the file is not an XML property list (binary
    /// `.stringsdict` files are read-only here).
    @discardableResult
    public mutating func addEntry(_ entry: StringsDictEntry, comment: String? = nil) -> Bool {
        guard entries[entry.key] == nil, let root = rootDict() else { return false }
        let close = root.content.upperBound
        let (closeLine, _) = lineStart(close)
        replace(closeLine..<closeLine, with: Self.xml(for: entry, comment: comment, indent: "\t"))
        return true
    }

    /// Removes an entry (and the XML comment right before it). Returns whether it existed.
    @discardableResult
    public mutating func removeEntry(_ key: String) -> Bool {
        guard let root = rootDict(), let pair = root.value(forKey: key, in: bytes) else { return false }
        var start = lineStart(pair.key.range.lowerBound).start
        // A comment directly above.
        let before = String(decoding: bytes[..<start], as: UTF8.self)
        let trimmed = before.reversed().drop(while: { $0 == " " || $0 == "\t" || $0 == "\n" })
        if String(trimmed.prefix(3).reversed()) == "-->", let open = before.range(of: "<!--", options: .backwards) {
            start = lineStart(before.utf8.distance(from: before.startIndex, to: open.lowerBound)).start
        }
        var end = pair.value.range.upperBound
        while end < bytes.count, bytes[end] == 0x20 || bytes[end] == 0x09 { end += 1 }
        if end < bytes.count, bytes[end] == 0x0A { end += 1 }
        replace(start..<end, with: "")
        return true
    }

    /// A new `.stringsdict` holding `entries`.
    public static func xmlDocument(_ entries: [StringsDictEntry], comments: [String: String] = [:]) -> String {
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>

            """
        for e in entries { out += xml(for: e, comment: comments[e.key] ?? e.comment, indent: "\t") }
        return out + "</dict>\n</plist>\n"
    }

    static func xml(for entry: StringsDictEntry, comment: String?, indent t: String) -> String {
        var out = ""
        if let comment { out += "\(t)<!-- \(comment.replacingOccurrences(of: "--", with: "- -")) -->\n" }
        out += "\(t)<key>\(xmlEscape(entry.key))</key>\n\(t)<dict>\n"
        if let f = entry.formatKey {
            out += "\(t)\t<key>NSStringLocalizedFormatKey</key>\n\(t)\t<string>\(xmlEscape(f))</string>\n"
        }
        if !entry.widthVariants.isEmpty {
            out += "\(t)\t<key>NSStringVariableWidthRuleType</key>\n\(t)\t<dict>\n"
            for w in entry.widthVariants.keys.sorted() {
                out += "\(t)\t\t<key>\(w)</key>\n\(t)\t\t<string>\(xmlEscape(entry.widthVariants[w]!))</string>\n"
            }
            out += "\(t)\t</dict>\n"
        }
        for name in entry.variables.keys.sorted() {
            let v = entry.variables[name]!
            out += "\(t)\t<key>\(xmlEscape(name))</key>\n\(t)\t<dict>\n"
            out += "\(t)\t\t<key>NSStringFormatSpecTypeKey</key>\n\(t)\t\t<string>\(v.specType)</string>\n"
            if let vt = v.valueType {
                out += "\(t)\t\t<key>NSStringFormatValueTypeKey</key>\n\(t)\t\t<string>\(xmlEscape(vt))</string>\n"
            }
            for c in pluralCategoryNames {
                if let f = v.forms[c] { out += "\(t)\t\t<key>\(c)</key>\n\(t)\t\t<string>\(xmlEscape(f))</string>\n" }
            }
            out += "\(t)\t</dict>\n"
        }
        return out + "\(t)</dict>\n"
    }
}
