extension ToolSpec {
    /// The tool's manual page in roff (`man -l` shows it; `make install` installs it as
    /// `share/man/man1/<name>.1`): name, synopsis, every command with its usage, discussion, arguments,
    /// options and examples, and the footer. Made from the same model as the help and the completions, so the
    /// three never disagree.
    ///
    /// ```swift
    /// let tool = ToolSpec(
    ///     name: "greet", abstract: "greet — say hello",
    ///     commands: [CommandSpec(name: "hello", summary: "Say hello", options: [.flag("--loud", help: "shout")])],
    ///     groups: [])
    /// let roff = tool.manPage(version: "1.0")   // ".TH GREET 1 …", ".SS greet hello", "\-\-loud"
    /// ```
    public func manPage(section: Int = 1, version: String) -> String {
        var lines: [String] = []
        lines.append(
            ".TH \(roffQuoted(name.uppercased())) \(section) \"\" \(roffQuoted("\(name) \(version)")) \"User Commands\""
        )
        lines.append(".SH NAME")
        let dash = abstract.firstRange(of: " — ").map { String(abstract[$0.upperBound...]) } ?? abstract
        lines.append(roffText("\(name) - \(dash)"))
        lines.append(".SH SYNOPSIS")
        lines.append(".B \(roffText(name))")
        lines.append(".I command")
        lines.append("[options]")
        lines.append(".SH DESCRIPTION")
        lines.append(roffText(abstract))
        lines.append(".SH COMMANDS")
        for command in commands {
            lines.append(".SS \(roffQuoted("\(name) \(command.name)"))")
            lines.append(roffText(command.summary + "."))
            lines.append(".PP")
            lines += roffLiteral(command.usage(tool: name))
            if !command.discussion.isEmpty {
                lines.append(".PP")
                lines += roffLiteral(command.discussion)
            }
            for argument in command.arguments {
                lines.append(".TP")
                lines.append(".I \(roffQuoted(argument.name))")
                lines += command.helpLines(argument.help)
            }
            for option in command.options {
                lines.append(".TP")
                let value = option.kind == .flag ? "" : " \\fI" + roffText(option.placeholder) + "\\fR"
                let repeated = option.kind == .repeatedOption ? " ..." : ""
                lines.append("\\fB" + roffText(option.name) + "\\fR" + value + repeated)
                lines += command.helpLines(option.help + (option.isRequired ? " (required)" : ""))
            }
            if !command.examples.isEmpty {
                lines.append(".PP")
                lines.append("Example\(command.examples.count == 1 ? "" : "s"):")
                lines.append(".RS")
                lines += roffLiteral(command.examples.joined(separator: "\n"))
                lines.append(".RE")
            }
        }
        if !footer.isEmpty {
            lines.append(".SH NOTES")
            lines += roffLiteral(footer)
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

extension CommandSpec {
    /// Help text of an option or argument: its lines as written, each on a line of its own.
    fileprivate func helpLines(_ help: String) -> [String] {
        var out: [String] = []
        for (i, line) in help.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if i > 0 { out.append(".br") }
            out.append(roffText(String(line)))
        }
        return out
    }
}

/// Text for a roff line: backslashes written `\e`, hyphens `\-` (so that options copy as typed), and a
/// leading `.` or `'` (which roff would take for a request) guarded with `\&`.
func roffText(_ text: String) -> String {
    var out = text.replacingAll("\\", with: "\\e").replacingAll("-", with: "\\-")
    if out.hasPrefix(".") || out.hasPrefix("'") { out = "\\&" + out }
    return out
}

/// A roff argument in double quotes (a quote inside is written `\(dq`).
func roffQuoted(_ text: String) -> String {
    "\"" + roffText(text).replacingAll("\"", with: "\\(dq") + "\""
}

/// Lines shown as written (no filling, no adjusting): indentation and line breaks kept.
func roffLiteral(_ text: String) -> [String] {
    [".nf"] + text.split(separator: "\n", omittingEmptySubsequences: false).map { roffText(String($0)) } + [".fi"]
}

extension String {
    fileprivate func replacingAll(_ target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
