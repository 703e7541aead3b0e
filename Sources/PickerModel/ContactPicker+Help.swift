import ICUKit

/// The keys of the picker's screens as the help screen lists them: each screen's title and, per line, the
/// keys and what they do (English: the keys of ``PickerText``).
public struct PickerKeyList: Sendable, Hashable {
    /// The screen these keys work in ("List", "Value chooser", "Compose sheet").
    public var screen: String
    /// The keys as written on the screen and what they do.
    public var keys: [Entry]

    /// A line of the help screen.
    public struct Entry: Sendable, Hashable {
        public var keys: String
        public var action: String
    }

    init(_ screen: String, _ keys: [(String, String)]) {
        self.screen = screen
        self.keys = keys.map { Entry(keys: $0.0, action: $0.1) }
    }

    /// The list's keys.
    public static let list = PickerKeyList(
        "List",
        [
            ("a–z …", "Search: words in any order"),
            ("'x ^x x$ !x", "Exact, field start, field end, not (as fzf)"),
            ("? F1", "This help (? when the search is empty)"),
            ("↑ ↓ Ctrl-P Ctrl-N", "Move"),
            ("PgUp PgDn Home End", "Page up, page down, first, last"),
            ("Tab Shift-Tab", "Mark and move down, up"),
            ("Enter", "Select (the row under the cursor when none is marked)"),
            ("Esc Ctrl-C", "Cancel"),
            ("Alt-letter", "Jump to that section"),
            ("Ctrl-O", "Open the contact's card: every property"),
            ("Ctrl-T", "Likely duplicates, group by group (again or Esc: back)"),
        ])

    /// The search field's editing keys (as readline's). Where one cannot move or delete (at the start or
    /// the end of the text, or in an empty field), it does the list's action after the slash.
    public static let searchField = PickerKeyList(
        "Search field",
        [
            ("← → Ctrl-B", "Move in the search text (→ at its end: choose a value)"),
            ("Ctrl-F", "Forward a letter (at the end: fuzzy search on, off)"),
            ("Alt-B Alt-F", "Move a word (at the start, at the end: jump to section B, F)"),
            ("Ctrl-A", "Start of the text (at the start: select every row shown)"),
            ("Ctrl-E", "End of the text (at the end: choose a value)"),
            ("Ctrl-D", "Delete the letter under the cursor (at the end: deselect all)"),
            ("Ctrl-K", "Delete to the end (at the end: keyword search on, off)"),
            ("Backspace Ctrl-W", "Delete a letter, a word before the cursor"),
            ("Ctrl-U", "Delete to the start"),
        ])

    /// The value chooser's keys (→ on a row with several phones or emails).
    public static let chooser = PickerKeyList(
        "Value chooser",
        [
            ("↑ ↓ Tab", "Move"),
            ("Enter →", "Reach the contact at this value"),
            ("Esc ←", "Back to the list"),
        ])

    /// The contact card's keys (Ctrl-O on a row).
    public static let card = PickerKeyList(
        "Contact card",
        [
            ("↑ ↓ PgUp PgDn", "Scroll"),
            ("Esc ←", "Back to the list"),
        ])

    /// The compose sheet's keys (Select with a message to send).
    public static let composeSheet = PickerKeyList(
        "Compose sheet",
        [
            ("← →", "Previous, next recipient"),
            ("↑ ↓ PgUp PgDn", "Scroll the message"),
            ("e", "Edit the subject and body in $EDITOR"),
            ("s", "Send"),
            ("Esc", "Back to the list"),
        ])

    /// Every screen's keys, in the order the help screen shows them.
    public static let all: [PickerKeyList] = [list, searchField, chooser, card, composeSheet]
}

extension ContactPicker {
    // MARK: - Hints

    /// The key hints' line: as many of the list's (or the open chooser's, or the help screen's) hints as
    /// fit, each "KEY Label".
    func hintLine() -> [PickerSpan] {
        let locale = options.locale
        var hints: [(String, String)]
        if helpTop != nil || card != nil {
            hints = [
                ("Esc", PickerText.string("Back", locale: locale)),
                ("↑ ↓", PickerText.string("Scroll", locale: locale)),
            ]
        } else if chooser != nil {
            hints = [
                ("Enter", PickerText.string("Choose", locale: locale)),
                ("Esc", PickerText.string("Back", locale: locale)),
            ]
        } else {
            hints = [("?", PickerText.string("Help", locale: locale))]
            if duplicates { hints.insert(("Esc", PickerText.string("Back", locale: locale)), at: 0) }
            if !options.single { hints.append(("Tab", PickerText.string("Mark", locale: locale))) }
            hints.append(("Enter", selectButtonTitle))
            if !duplicates { hints.append(("Esc", cancelButton)) }
            hints.append(("→", PickerText.string("Values", locale: locale)))
        }
        var text = ""
        for (key, label) in hints {
            let entry = (text.isEmpty ? "" : "  ") + key + " " + label
            if !text.isEmpty && DisplayWidth.measure(text + entry) > columns { break }
            text += entry
        }
        return [PickerSpan(text, width: columns, role: .status)]
    }

    // MARK: - Help screen

    /// The help screen's lines below its title: each screen's title, then its keys and what they do.
    func helpContent() -> [[PickerSpan]] {
        let locale = options.locale
        let lists = PickerKeyList.all
        let keyWidth = min(
            lists.flatMap(\.keys).map { DisplayWidth.measure($0.keys) }.max() ?? 0, max(1, columns * 2 / 5))
        var out: [[PickerSpan]] = []
        for list in lists {
            out.append([
                PickerSpan(PickerText.string(list.screen, locale: locale), width: columns, role: .sectionHeader)
            ])
            for entry in list.keys {
                out.append([
                    PickerSpan(entry.keys, width: keyWidth, role: .label),
                    PickerSpan("  ", width: min(2, max(0, columns - keyWidth)), role: .row),
                    PickerSpan(
                        PickerText.string(entry.action, locale: locale), width: max(0, columns - keyWidth - 2),
                        role: .row),
                ])
            }
        }
        return out
    }

    /// Lines of the help screen's content on screen (below the title, above its hints).
    var helpHeight: Int { max(1, lines - 2) }

    /// The help screen: its title, as much of its content as fits from ``helpTop``, its hints.
    func helpScreen() -> PickerScreen {
        let content = helpContent()
        let first = min(helpTop ?? 0, max(0, content.count - helpHeight))
        var out: [[PickerSpan]] = [
            [.centred(PickerText.string("Keys", locale: options.locale), width: columns, role: .title)]
        ]
        for n in 0..<helpHeight {
            out.append(first + n < content.count ? content[first + n] : [PickerSpan("", width: columns, role: .row)])
        }
        out.append(hintLine())
        let shown = Array(out.prefix(lines))
        return PickerScreen(columns: columns, lines: rightToLeft ? shown.map(Self.mirror) : shown, cursor: (0, 0))
    }

    /// Opens the help screen (? or F1).
    func openHelp() { helpTop = 0 }

    /// Keys while the help screen is open: ↑ ↓ PgUp PgDn Home End scroll it, any other key closes it (a
    /// resize keeps it open).
    func handleHelp(_ input: PickerInput) {
        let last = max(0, helpContent().count - helpHeight)
        let top = helpTop ?? 0
        switch input {
        case .up, .wheelUp, .control("p"): helpTop = max(0, min(top, last) - 1)
        case .down, .wheelDown, .control("n"): helpTop = min(last, top + 1)
        case .pageUp: helpTop = max(0, min(top, last) - helpHeight)
        case .pageDown: helpTop = min(last, top + helpHeight)
        case .home: helpTop = 0
        case .end: helpTop = last
        case .resize(let columns, let lines): resize(columns: columns, lines: lines)
        default: helpTop = nil
        }
    }
}
