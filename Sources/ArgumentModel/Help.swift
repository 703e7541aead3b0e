extension CommandSpec {
    /// The usage line, wrapped at `width` columns: `Usage: contacts sort [--locale L] [--json] [FILE|-]`.
    public func usage(tool: String, width: Int = 100) -> String {
        var parts: [String] = []
        var sections: [String] = []
        for o in options {
            if let section = o.section {
                if !sections.contains(section) { sections.append(section) }
            } else {
                parts.append(o.isRequired ? o.synopsis : "[\(o.synopsis)]")
            }
        }
        parts += sections.map { "[\($0.lowercased()) options]" }
        parts += arguments.map(\.synopsis)
        let head = "Usage: \(tool) \(name)"
        let indent = String(repeating: " ", count: head.count + 1)
        var lines = [head]
        for part in parts {
            if lines[lines.count - 1].count + 1 + part.count > width && lines[lines.count - 1] != head {
                lines.append(indent + part)
            } else {
                lines[lines.count - 1] += " " + part
            }
        }
        return lines.joined(separator: "\n")
    }

    /// The whole help of the command: usage, discussion, arguments, options by section, examples.
    public func help(tool: String, width: Int = 100) -> String {
        var text = usage(tool: tool, width: width) + "\n"
        if !discussion.isEmpty { text += "\n" + discussion + "\n" }
        let helpOption = OptionSpec.flag("-h, --help", help: "show this help")
        var table: [(title: String, rows: [(String, String)])] = []
        if !arguments.isEmpty {
            table.append(("Arguments", arguments.map { ($0.name, $0.help) }))
        }
        table.append(("Options", []))
        for o in options {
            let title = o.section ?? "Options"
            let row = (o.synopsis, o.help + (o.isRequired ? " (required)" : ""))
            if let i = table.firstIndex(where: { $0.title == title }) {
                table[i].rows.append(row)
            } else {
                table.append((title, [row]))
            }
        }
        table[table.firstIndex { $0.title == "Options" }!].rows.append((helpOption.name, helpOption.help))
        let column = min(26, (table.flatMap(\.rows).map(\.0.count).max() ?? 0) + 2)
        for (title, rows) in table where !rows.isEmpty {
            text += "\n\(title):\n"
            for (left, right) in rows {
                let pad = String(repeating: " ", count: column + 2)
                let helpLines = right.split(separator: "\n", omittingEmptySubsequences: false)
                if left.count + 2 <= column {
                    text +=
                        "  " + padded(left, column)
                        + (helpLines.first.map(String.init) ?? "") + "\n"
                } else {
                    text += "  \(left)\n" + pad + (helpLines.first.map(String.init) ?? "") + "\n"
                }
                for line in helpLines.dropFirst() { text += pad + line + "\n" }
            }
        }
        if !examples.isEmpty {
            text += "\nExample\(examples.count == 1 ? "" : "s"):\n"
            for example in examples { text += "  \(example)\n" }
        }
        return String(text.dropLast())
    }
}

extension ToolSpec {
    /// The tool's help: abstract, usage, every command with its summary, footer.
    public func help() -> String {
        var text = "\(abstract)\n\nUsage: \(name) <command> [options]\n\nCommands:\n"
        let width = commands.map(\.name.count).max() ?? 0
        for c in commands {
            text += "  " + padded(c.name, width + 2) + c.summary + "\n"
        }
        return text + (footer.isEmpty ? "" : "\n" + footer)
    }

    /// The help of a command group: its commands with their summaries.
    public func groupHelp(_ word: String) -> String {
        let members = commands(inGroup: word)
        let words = members.map { $0.words.dropFirst().joined(separator: " ") }
        let width = words.map(\.count).max() ?? 0
        var text = "Usage: \(name) \(word) <\(words.joined(separator: "|"))> [options]\n\n"
        if let group = groups.first(where: { $0.word == word }) { text += "\(group.summary)\n\n" }
        for (w, c) in zip(words, members) {
            text += "  " + padded(w, width + 2) + c.summary + "\n"
        }
        return text + "\n'\(name) \(word) <command> --help' describes each."
    }
}

/// `text` followed by spaces up to `width` characters (unchanged when it is already as long).
func padded(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
}
