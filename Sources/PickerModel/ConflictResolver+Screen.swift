import ICUKit

extension ConflictResolver {
    /// Lines above the list: the title and the column headings.
    static let headerLines = 2

    /// One line of the list: the property it belongs to and its line number within it.
    struct Row {
        var property: Int
        var line: Int
    }

    /// Every line of the list: as many per property as its longer side has lines (one at least).
    var rows: [Row] {
        properties.indices.flatMap { p in
            (0..<max(1, properties[p].mine.count, properties[p].theirs.count)).map { Row(property: p, line: $0) }
        }
    }

    /// How many lines of the list fit between the headings and the status line.
    var listHeight: Int { max(1, lines - Self.headerLines - 1) }

    /// The columns: the property's name, then yours and the server's in two halves.
    var layout: (nameWidth: Int, mineStart: Int, sideWidth: Int, theirsStart: Int) {
        let longest = properties.map { DisplayWidth.measure($0.name) }.max() ?? 4
        let nameWidth = min(max(longest, 8) + 2, max(1, columns / 4))
        let sideWidth = max(1, (columns - nameWidth) / 2)
        return (nameWidth, nameWidth, sideWidth, nameWidth + sideWidth)
    }

    func scrollToCursor() {
        let rows = self.rows
        guard let first = rows.firstIndex(where: { $0.property == cursor }) else { return }
        let last = rows.lastIndex(where: { $0.property == cursor }) ?? first
        if first < top { top = first }
        if last >= top + listHeight { top = min(first, last - listHeight + 1) }
        top = max(0, min(top, max(0, rows.count - listHeight)))
    }

    /// The screen: a title naming the file, headings ("yours", "server's"), each property's lines side by
    /// side with the chosen side marked `●`, and the keys on the last line.
    public func screen() -> PickerScreen {
        let layout = self.layout
        let count = properties.count
        var out: [[PickerSpan]] = [
            [
                PickerSpan.centred(
                    "\(file): \(count) propert\(count == 1 ? "y" : "ies") changed on both sides", width: columns,
                    role: .titleBar)
            ],
            [
                PickerSpan("", width: layout.nameWidth, role: .sectionHeader),
                PickerSpan("yours", width: layout.sideWidth, role: .sectionHeader),
                PickerSpan("server's", width: columns - layout.theirsStart, role: .sectionHeader),
            ],
        ]
        let rows = self.rows
        for row in rows.dropFirst(top).prefix(listHeight) {
            let property = properties[row.property]
            let choice = choices[row.property]
            let current = row.property == cursor
            let mark = { (taken: Bool) in row.line == 0 ? (taken ? "● " : "○ ") : "  " }
            let mine = row.line < property.mine.count ? property.mine[row.line] : (row.line == 0 ? "(none)" : "")
            let theirs =
                row.line < property.theirs.count ? property.theirs[row.line] : (row.line == 0 ? "(none)" : "")
            out.append([
                PickerSpan(
                    row.line == 0 ? property.name + (property.multiValued ? " *" : "") : "", width: layout.nameWidth,
                    role: .label, highlighted: current),
                PickerSpan(
                    mark(choice != .theirs) + mine, width: layout.sideWidth,
                    role: choice == .theirs ? .disabledRow : .row, highlighted: current),
                PickerSpan(
                    mark(choice != .mine) + theirs, width: columns - layout.theirsStart,
                    role: choice == .mine ? .disabledRow : .row, highlighted: current),
            ])
        }
        while out.count < lines - 1 { out.append([PickerSpan("", width: columns, role: .empty)]) }
        let help =
            "←/m yours  →/t server's" + (properties.contains(where: \.multiValued) ? "  b both (*)" : "")
            + "  Enter save  Esc cancel"
        if lines > out.count { out.append([PickerSpan(help, width: columns, role: .status)]) }
        return PickerScreen(columns: columns, lines: Array(out.prefix(lines)), cursor: (Self.headerLines, 0))
    }
}
