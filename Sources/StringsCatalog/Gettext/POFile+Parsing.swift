extension POFile {
    /// Reads `.po` text. An entry with a syntax error becomes a ``problems`` diagnostic (file, line,
    /// column, what was expected) and is left out; the entries around it are still read.
    public init(parsing text: String, file: String) {
        self.init()
        var reader = Reader(file: file)
        for (i, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            reader.line(raw.hasSuffix("\r") ? String(raw.dropLast()) : String(raw), number: i + 1)
        }
        reader.finish()
        entries = reader.entries
        problems = reader.problems
    }

    /// Line-by-line reader: comments, keywords (`msgctxt`, `msgid`, `msgid_plural`, `msgstr`, `msgstr[N]`),
    /// continuation strings; `#~` lines are the same for obsolete entries.
    struct Reader {
        let file: String
        var entries: [Entry] = []
        var problems: [Diagnostic] = []
        var comments = Entry(context: nil, msgid: "", msgstr: [])
        var fields: [(keyword: String, value: String, line: Int)] = []
        var obsolete = false
        var broken = false
        var startLine = 0

        init(file: String) { self.file = file }

        mutating func fail(_ line: Int, _ column: Int, _ message: String) {
            if !broken {
                problems.append(
                    Diagnostic(
                        file: file, line: line, column: column, severity: .error, code: "po-syntax", message: message))
            }
            broken = true
        }

        mutating func line(_ text: String, number: Int) {
            let trimmed = text.drop { $0 == " " || $0 == "\t" }
            if trimmed.isEmpty {
                finish()
                return
            }
            var body = Substring(text)
            var column = 1
            var isObsolete = false
            if trimmed.hasPrefix("#~") {
                isObsolete = true
                body = trimmed.dropFirst(2)
                column += text.count - trimmed.count + 2
                if body.hasPrefix("|") { return }  // previous msgid of an obsolete entry
                let spaces = body.prefix { $0 == " " }.count
                body = body.dropFirst(spaces)
                column += spaces
            } else if trimmed.hasPrefix("#") {
                if !fields.isEmpty { finish() }
                let rest = trimmed.dropFirst()
                func content(_ s: Substring) -> String { String(s.first == " " ? s.dropFirst() : s) }
                switch rest.first {
                case ".": comments.extractedComments.append(content(rest.dropFirst()))
                case ",":
                    comments.flags += rest.dropFirst().split(separator: ",").map {
                        $0.trimmingCharacters(in: .whitespaces)
                    }.filter { !$0.isEmpty }
                case ":", "|": break
                default: comments.translatorComments.append(content(rest))
                }
                return
            } else {
                body = trimmed
                column += text.count - trimmed.count
            }
            if broken { return }
            if fields.isEmpty {
                obsolete = isObsolete
                startLine = number
            }
            if body.first == "\"" {
                guard !fields.isEmpty else {
                    return fail(number, column, "expected msgctxt, msgid or a comment before a continuation string")
                }
                guard let s = string(body, line: number, column: column) else { return }
                fields[fields.count - 1].value += s
                return
            }
            let keyword = body.prefix { $0 != " " && $0 != "\t" && $0 != "\"" }
            let known = ["msgctxt", "msgid", "msgid_plural", "msgstr"]
            let isIndexed =
                keyword.hasPrefix("msgstr[") && keyword.hasSuffix("]") && Int(keyword.dropFirst(7).dropLast()) != nil
            guard known.contains(String(keyword)) || isIndexed else {
                return fail(
                    number, column, "expected msgctxt, msgid, msgid_plural, msgstr or msgstr[N], found '\(keyword)'")
            }
            // A new msgctxt or msgid after a msgstr starts the next entry (no blank line between).
            if keyword == "msgctxt" || keyword == "msgid", fields.contains(where: { $0.keyword.hasPrefix("msgstr") }) {
                finish()
                obsolete = isObsolete
                startLine = number
            }
            let after = body.dropFirst(keyword.count)
            let gap = after.prefix { $0 == " " || $0 == "\t" }.count
            let quoted = after.dropFirst(gap)
            guard quoted.first == "\"" else {
                return fail(number, column + keyword.count + gap, "expected a quoted string after \(keyword)")
            }
            guard let s = string(quoted, line: number, column: column + keyword.count + gap) else { return }
            fields.append((String(keyword), s, number))
        }

        /// One `"…"` with C escapes; nil (and a problem) when it is not closed or has an unknown escape.
        mutating func string(_ s: Substring, line: Int, column: Int) -> String? {
            var out = ""
            var scalars = Array(s.unicodeScalars).dropFirst()
            var col = column + 1
            while let u = scalars.first {
                scalars = scalars.dropFirst()
                col += 1
                if u == "\"" {
                    let rest = String(String.UnicodeScalarView(scalars)).trimmingCharacters(in: .whitespaces)
                    if !rest.isEmpty {
                        fail(line, col, "expected the end of the line after the closing '\"'")
                        return nil
                    }
                    return out
                }
                guard u == "\\" else {
                    out.unicodeScalars.append(u)
                    continue
                }
                guard let e = scalars.first else { break }
                scalars = scalars.dropFirst()
                col += 1
                switch e {
                case "n": out += "\n"
                case "t": out += "\t"
                case "r": out += "\r"
                case "a": out += "\u{07}"
                case "b": out += "\u{08}"
                case "f": out += "\u{0C}"
                case "v": out += "\u{0B}"
                case "\\", "\"", "'", "?": out.unicodeScalars.append(e)
                case "0"..."7":
                    var v = e.value - 0x30
                    var n = 1
                    while n < 3, let d = scalars.first, ("0"..."7").contains(d) {
                        v = v * 8 + d.value - 0x30
                        scalars = scalars.dropFirst()
                        n += 1
                        col += 1
                    }
                    out.unicodeScalars.append(Unicode.Scalar(v) ?? "\u{FFFD}")
                default:
                    fail(line, col - 1, "expected an escape (\\n \\t \\\" \\\\ or octal) after '\\', found '\\\(e)'")
                    return nil
                }
            }
            fail(line, col, "expected a closing '\"'")
            return nil
        }

        mutating func finish() {
            defer {
                fields = []
                comments = Entry(context: nil, msgid: "", msgstr: [])
                broken = false
            }
            guard !broken, !fields.isEmpty else { return }
            var e = comments
            e.obsolete = obsolete
            e.line = startLine
            var msgid: String?
            var strs: [Int: String] = [:]
            var plainStr: String?
            for f in fields {
                switch f.keyword {
                case "msgctxt" where e.context == nil && msgid == nil: e.context = f.value
                case "msgid" where msgid == nil: msgid = f.value
                case "msgid_plural" where msgid != nil && e.msgidPlural == nil: e.msgidPlural = f.value
                case "msgstr" where msgid != nil && plainStr == nil && strs.isEmpty: plainStr = f.value
                case let k where k.hasPrefix("msgstr[") && e.msgidPlural != nil:
                    let i = Int(k.dropFirst(7).dropLast())!
                    guard strs[i] == nil else { return fail(f.line, 1, "msgstr[\(i)] given twice") }
                    strs[i] = f.value
                default:
                    return fail(
                        f.line, 1, "unexpected \(f.keyword): expected msgctxt, msgid, msgid_plural, msgstr order")
                }
            }
            guard let msgid else { return fail(startLine, 1, "expected msgid") }
            e.msgid = msgid
            if e.msgidPlural != nil {
                guard !strs.isEmpty, strs.keys.sorted() == Array(0..<strs.count) else {
                    return fail(startLine, 1, "expected msgstr[0], msgstr[1], … after msgid_plural")
                }
                e.msgstr = (0..<strs.count).map { strs[$0]! }
            } else {
                guard let plainStr else { return fail(startLine, 1, "expected msgstr after msgid") }
                e.msgstr = [plainStr]
            }
            entries.append(e)
        }
    }
}
