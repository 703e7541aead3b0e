import ContactsCore
import ContactsSelection
import ICUKit

extension ContactPicker {
    /// Takes one input event; returns the outcome when it ends the picker (Enter, Esc, Ctrl-C), else nil.
    @discardableResult
    public func handle(_ input: PickerInput) -> PickerOutcome? {
        if helpTop != nil {
            handleHelp(input)
            return nil
        }
        if input == .function(1) || (input == .text("?") && query.isEmpty) {
            openHelp()
            return nil
        }
        if card != nil {
            handleCard(input)
            return nil
        }
        if chooser != nil { return handleChooser(input) }
        if duplicates && (input == .escape || input == .control("t")) {
            hideDuplicates()
            return nil
        }
        switch input {
        case .text(let text):
            insert(text.filter { !$0.isNewline })
        case .backspace:
            deleteBackward()
        case .up, .control("p"): move(by: -1)
        case .down, .control("n"): move(by: 1)
        case .pageUp: move(by: -max(1, listHeight - 2))
        case .pageDown: move(by: max(1, listHeight - 2))
        case .home: move(to: 0)
        case .end: move(to: itemCount - 1)
        case .tab:
            toggleCurrent()
            move(by: 1)
        case .backTab:
            toggleCurrent()
            move(by: -1)
        case .left, .right, .control("a"), .control("b"), .control("d"), .control("e"), .control("f"),
            .control("k"), .control("u"), .control("w"), .alt("b"), .alt("f"), .alt("B"), .alt("F"):
            edit(input)
        case .control("o"):
            openCard()
        case .control("t"):
            showDuplicates()
        case .alt(let letter):
            jump(toIndexTitle: String(letter))
        case .click(let line, let column):
            return click(line: line, column: column)
        case .wheelUp: scroll(by: -3)
        case .wheelDown: scroll(by: 3)
        case .resize(let columns, let lines):
            resize(columns: columns, lines: lines)
        case .enter:
            return accept()
        case .escape, .control("c"), .control("g"), .control("q"):
            return .cancelled
        case .control, .function: break
        }
        return nil
    }

    /// The picker's size changed: the cursor stays on screen.
    public func resize(columns: Int, lines: Int) {
        self.columns = max(1, columns)
        self.lines = max(1, lines)
        scrollToCursor()
    }

    // MARK: - Search

    func setQuery(_ text: String) {
        query = text
        research()
    }

    func research(refining: Bool = true) {
        duplicates = false
        result = listing.search(query, keywords: keywords, fuzzy: fuzzy, refining: refining ? result : nil)
        cursor = 0
        top = 0
        scrollToCursor()
    }

    // MARK: - Moving

    func move(by delta: Int) {
        move(to: cursor + delta)
    }

    func move(to index: Int) {
        guard itemCount > 0 else { return }
        cursor = max(0, min(itemCount - 1, index))
        scrollToCursor()
    }

    func scroll(by delta: Int) {
        top += delta
        clampTop()
        // The cursor follows when it would leave the screen.
        let first = top + 1
        let last = top + listHeight - 2
        let cursorLine = line(ofItem: cursor)
        if cursorLine < first || cursorLine > last {
            let target = cursorLine < first ? first : last
            if let content = content(atLine: target) ?? content(atLine: target - 1) {
                switch content {
                case .item(let index): cursor = index
                case .header(let s): cursor = pinned.count + result.sections[s].range.lowerBound
                }
            }
        }
    }

    /// Moves to the first row of the section of the index titled `title` (its letter in any case), or of
    /// the next section the search shows when that one shows no row.
    func jump(toIndexTitle title: String) {
        let titles = listing.indexTitles
        guard
            let wanted = titles.firstIndex(of: title)
                ?? titles.firstIndex(where: { $0.lowercased() == title.lowercased() })
        else { return }
        let order = Dictionary(titles.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        guard let target = result.sections.first(where: { (order[$0.title] ?? Int.max) >= wanted }) else { return }
        cursor = pinned.count + target.range.lowerBound
        top = line(ofItem: cursor) - 1
        clampTop()
        scrollToCursor()
    }

    // MARK: - Selection

    /// Toggles the row under the cursor (disabled rows and pinned rows cannot be selected).
    func toggleCurrent() {
        guard !options.single, case .row(_, let number) = item(cursor), selection.isEnabled(listing.listedRow(number))
        else { return }
        _ = try? selection.toggle(row: number)
    }

    /// What Enter gives for row `number` (by number: no lookup of a million ids).
    func picked(_ number: Int) -> FormattedContact {
        let row = listing.listedRow(number)
        let reach = selection.value(forRow: number)
        return FormattedContact(id: row.id, name: row.displayName, value: reach.value, channel: reach.channel)
    }

    /// Ctrl-A: every enabled row the search shows.
    func selectAllShown() {
        guard !options.single else { return }
        for number in result.rowNumbers {
            let row = listing.listedRow(Int(number))
            if selection.isEnabled(row) { try? selection.select(row: Int(number)) }
        }
    }

    /// Enter (and the Select button): the toggled contacts in the order they were toggled (as fzf), else
    /// the row under the cursor — a pinned row
    /// gives its id. Toggled contacts win over a pinned row under the cursor: the cursor goes back to the
    /// first line, a pinned one, whenever the search changes, and the title bar then says "Select (n)".
    func accept() -> PickerOutcome? {
        if !options.single {
            let chosen = selection.selectedRowNumbersInSelectionOrder.map { picked($0) }
            if !chosen.isEmpty { return .selected(chosen) }
        }
        if case .pinned(let row) = item(cursor) { return .pinned(id: row.id) }
        guard case .row(_, let number) = item(cursor), selection.isEnabled(listing.listedRow(number)) else {
            return nil
        }
        return .selected([picked(number)])
    }

    // MARK: - Mouse

    func click(line: Int, column: Int) -> PickerOutcome? {
        let x = rightToLeft ? columns - 1 - column : column
        if options.showsTitleBar && line == 0 {
            let cancelWidth = min(DisplayWidth.measure(cancelButton), columns / 3)
            let selectWidth = min(DisplayWidth.measure(selectButton), columns / 3)
            if x < cancelWidth { return .cancelled }
            if x >= columns - selectWidth { return accept() }
            return nil
        }
        let listLine = line - listTop
        guard listLine >= 0, listLine < listHeight, chooser == nil else { return nil }
        if indexWidth > 0 && x >= columns - indexWidth {
            if let title = indexTitle(atListLine: listLine) { jump(toIndexTitle: title) }
            return nil
        }
        // The first list line is the sticky header when the list starts inside a section.
        var contentLine = top + listLine
        if case .item(let index) = content(atLine: top), index >= pinned.count {
            contentLine -= 1
        }
        guard listLine > 0 || contentLine == top, case .item(let index) = content(atLine: contentLine) else {
            return nil
        }
        cursor = index
        toggleCurrent()
        scrollToCursor()
        return nil
    }

    // MARK: - Choosing a value

    func openChooser() {
        guard let row = currentRow, let values = try? selection.availableValues(id: row.id), values.count > 1 else {
            return
        }
        let marked = try? selection.currentValueIndex(id: row.id)
        chooser = (row.id, values, marked ?? 0, marked)
    }

    func handleChooser(_ input: PickerInput) -> PickerOutcome? {
        guard var open = chooser else { return nil }
        switch input {
        case .up: open.cursor = max(0, open.cursor - 1)
        case .down, .tab: open.cursor = min(open.values.count - 1, open.cursor + 1)
        case .enter, .right:
            try? selection.choose(value: open.values[open.cursor].value, for: open.id)
            chooser = nil
            return nil
        case .escape, .left, .control("c"):
            chooser = nil
            return nil
        case .resize(let columns, let lines):
            resize(columns: columns, lines: lines)
        default: break
        }
        chooser = open
        return nil
    }
}
