import ContactsCore
import ContactsSelection
import ICUKit
import StringsCatalog

extension ContactPicker {
    /// The title shown in the title bar.
    var title: String {
        options.title ?? selection.configuration.title ?? Strings.searchContacts(locale: options.locale)
    }

    /// "Select (n)" (the configured title instead of "Select" when there is one).
    var selectButton: String {
        let name = selectButtonTitle
        let count = selection.selectedCount
        return options.single || count == 0 ? name : "\(name) (\(count))"
    }

    /// "Select", or the configured title of the select button.
    var selectButtonTitle: String {
        options.selectTitle ?? selection.configuration.selectButtonTitle ?? Strings.select(locale: options.locale)
    }

    var cancelButton: String { Strings.cancel(locale: options.locale) }

    /// The section index down the edge: every title of the list's index when they fit, else the titles of
    /// the sections the list has (an English list has no use for the Thai letters of its index), evenly
    /// spaced when even those do not fit (the first and the last always among them).
    var indexShown: [String] {
        let titles = listing.indexTitles
        if titles.count <= listHeight { return titles }
        let present = sectionTitles
        if present.count <= listHeight { return present }
        guard listHeight > 1 else { return [present[0]] }
        return (0..<listHeight).map { present[$0 * (present.count - 1) / (listHeight - 1)] }
    }

    /// The width of the index column (with the space before it); none on a very narrow screen.
    var indexWidth: Int {
        guard !listing.indexTitles.isEmpty, columns >= 20 else { return 0 }
        return max(1, indexTitlesWidth) + 1
    }

    func indexTitle(atListLine line: Int) -> String? {
        let shown = indexShown
        return line >= 0 && line < shown.count ? shown[line] : nil
    }

    /// A section's header: its title, or for the untitled one of a fuzzy search's ranked rows, "Best matches".
    func sectionTitle(_ section: RowSection) -> String {
        section.title.isEmpty ? PickerText.string("Best matches", locale: options.locale) : section.title
    }

    /// The title of the section the cursor is in.
    var currentSectionTitle: String? {
        guard case .row(let position, _) = item(cursor), !result.sections.isEmpty else { return nil }
        return result.sections[section(ofPosition: position)].title
    }

    /// What the screen shows now.
    public func screen() -> PickerScreen {
        if helpTop != nil { return helpScreen() }
        if let card { return cardScreen(card.card, top: card.top) }
        var out: [[PickerSpan]] = []
        var cursorColumn = 0
        if options.showsTitleBar { out.append(titleBar()) }
        if let info = options.info { out.append([PickerSpan(info, width: columns, role: .info)]) }
        let (searchLine, column) = searchField()
        out.append(searchLine)
        cursorColumn = column
        out += listLines()
        out.append(statusLine())
        if options.showsHints { out.append(hintLine()) }
        let mirrored = rightToLeft ? out.map(Self.mirror) : out
        return PickerScreen(
            columns: columns, lines: mirrored,
            cursor: (titleBarLines + infoLines, rightToLeft ? max(0, columns - 1 - cursorColumn) : cursorColumn))
    }

    /// A line for a right-to-left language: its spans in the other order and the other alignment (the text
    /// of each stays in logical order: the terminal or the reader's eye orders the letters).
    static func mirror(_ line: [PickerSpan]) -> [PickerSpan] {
        line.reversed().map { span in
            var span = span
            span.alignment = span.alignment == .leading ? .trailing : .leading
            return span
        }
    }

    func titleBar() -> [PickerSpan] {
        let cancel = cancelButton
        let select = selectButton
        let cancelWidth = min(DisplayWidth.measure(cancel), columns / 3)
        let selectWidth = min(DisplayWidth.measure(select), columns / 3)
        let middle = max(0, columns - cancelWidth - selectWidth - 2)
        return [
            PickerSpan(cancel, width: cancelWidth, role: .button),
            PickerSpan(" ", width: 1, role: .titleBar),
            .centred(title, width: middle, role: .title),
            PickerSpan(" ", width: 1, role: .titleBar),
            PickerSpan(select, width: selectWidth, role: .button, alignment: .trailing),
        ]
    }

    /// The search field and the column after its text (where the cursor stands).
    func searchField() -> ([PickerSpan], Int) {
        // The prompt points at the text: to the right in left-to-right languages, to the left when mirrored.
        let mark = fuzzy ? "~" : keywords ? (rightToLeft ? "«" : "»") : (rightToLeft ? "<" : ">")
        let prompt = rightToLeft ? " " + mark : mark + " "
        let counts = "\(result.count)/\(listing.rowCount)"
        let countsWidth = DisplayWidth.measure(counts)
        let fieldWidth = max(0, columns - 2 - countsWidth - 1)
        let queryWidth = DisplayWidth.measure(query)
        var line = [PickerSpan(prompt, width: 2, role: .prompt)]
        // The columns of the query as shown: the cursor stands right after them.
        var shown = DisplayWidth.measure(String(query.prefix(queryCursor)))
        if query.isEmpty {
            line.append(
                PickerSpan(
                    duplicates
                        ? PickerText.string("Duplicates", locale: options.locale)
                        : Strings.searchContacts(locale: options.locale), width: fieldWidth, role: .placeholder))
        } else if queryWidth < fieldWidth {
            line.append(PickerSpan(query, width: fieldWidth, role: .query))
        } else if !atEnd {
            // A long query edited inside: the text from a little before the cursor.
            var head = ""
            var used = 0
            for cluster in query.prefix(queryCursor).reversed() {
                let w = DisplayWidth.measure(cluster)
                if used + w > (fieldWidth - 2) / 2 { break }
                head.insert(cluster, at: head.startIndex)
                used += w
            }
            let cut = queryCursor - head.count
            line.append(
                PickerSpan((cut > 0 ? "…" : "") + String(query.dropFirst(cut)), width: fieldWidth, role: .query))
            shown = (cut > 0 ? 1 : 0) + used
        } else {
            // The end of a long query stays visible.
            var tail = ""
            var used = 0
            for cluster in query.reversed() {
                let w = DisplayWidth.measure(cluster)
                if used + w > fieldWidth - 2 { break }
                tail.insert(cluster, at: tail.startIndex)
                used += w
            }
            line.append(PickerSpan("…" + tail, width: fieldWidth, role: .query))
            shown = 1 + used
        }
        line.append(PickerSpan(" ", width: 1, role: .prompt))
        line.append(PickerSpan(counts, width: countsWidth, role: .status, alignment: .trailing))
        return (line, 2 + min(shown, max(0, fieldWidth - 1)))
    }

    func listLines() -> [[PickerSpan]] {
        let indexWidth = self.indexWidth
        let width = columns - indexWidth
        var body: [[PickerSpan]] = []
        if let chooser {
            body = chooserLines(chooser, width: width)
        } else if itemCount == 0 {
            body = [[PickerSpan(Strings.noContacts(locale: options.locale), width: width, role: .empty)]]
        } else {
            var line = top
            if case .item(let index) = content(atLine: top), index >= pinned.count,
                case .row(let position, _) = item(index)
            {
                let section = result.sections[section(ofPosition: position)]
                body.append([PickerSpan(sectionTitle(section), width: width, role: .sectionHeader)])
            }
            while body.count < listHeight, let content = content(atLine: line) {
                switch content {
                case .header(let s):
                    body.append([PickerSpan(sectionTitle(result.sections[s]), width: width, role: .sectionHeader)])
                case .item(let index):
                    body.append(itemLine(index, width: width))
                }
                line += 1
            }
        }
        let current = currentSectionTitle
        let shown = indexWidth > 0 ? indexShown : []
        return (0..<listHeight).map { n in
            var spans = n < body.count ? body[n] : [PickerSpan("", width: width, role: .row)]
            if indexWidth > 0 {
                let title = n < shown.count ? shown[n] : ""
                spans.append(
                    PickerSpan(
                        title, width: indexWidth, role: title == current ? .currentIndex : .index,
                        alignment: .trailing))
            }
            return spans
        }
    }

    func itemLine(_ index: Int, width: Int) -> [PickerSpan] {
        let highlighted = index == cursor
        switch item(index) {
        case .pinned(let row):
            let text = row.subtitle.map { "\(row.title) · \($0)" } ?? row.title
            return [PickerSpan("  " + text, width: width, role: .pinned, highlighted: highlighted)]
        case .row(_, let number):
            let row = listing.listedRow(number)
            let enabled = selection.isEnabled(row)
            let markWidth = options.single ? 2 : 4
            let mark: String =
                options.single ? "" : !enabled ? "" : selection.isSelected(row: number) ? "[x]" : "[ ]"
            let value = selection.value(forRow: number).value
            let room = max(0, width - markWidth - 1)
            let valueWidth = min(DisplayWidth.measure(value), room / 2)
            let nameWidth = max(0, room - valueWidth)
            let role: PickerRole = enabled ? .row : .disabledRow
            return [
                PickerSpan(mark, width: markWidth, role: .mark, highlighted: highlighted),
                PickerSpan(row.displayName, width: nameWidth, role: role, highlighted: highlighted),
                PickerSpan(" ", width: 1, role: role, highlighted: highlighted),
                PickerSpan(
                    value, width: valueWidth, role: enabled ? .value : .disabledRow, alignment: .trailing,
                    highlighted: highlighted),
            ]
        case nil:
            return [PickerSpan("", width: width, role: .row)]
        }
    }

    func chooserLines(_ chooser: (id: String, values: [LabeledValue], cursor: Int, marked: Int?), width: Int)
        -> [[PickerSpan]]
    {
        let name = listing.listedRow(listing.rowNumber(id: chooser.id) ?? 0).displayName
        var body = [[PickerSpan(name, width: width, role: .sectionHeader)]]
        let first = max(0, chooser.cursor - (listHeight - 2))
        for (n, value) in chooser.values.enumerated().dropFirst(first).prefix(listHeight - 1) {
            let label = Self.labelText(value.label, locale: options.locale)
            let labelWidth = min(DisplayWidth.measure(label), width / 3)
            let on = n == chooser.cursor
            let mark = n == chooser.marked ? "(•)" : "( )"
            let valueWidth = max(0, width - 4 - labelWidth - 1)
            let line: [PickerSpan] = [
                PickerSpan(mark, width: 4, role: .mark, highlighted: on),
                PickerSpan(value.value, width: valueWidth, role: .row, highlighted: on),
                PickerSpan(" ", width: 1, role: .row, highlighted: on),
                PickerSpan(label, width: labelWidth, role: .value, alignment: .trailing, highlighted: on),
            ]
            body.append(line)
        }
        return body
    }

    /// How the value chooser names a label: a standard one (vCard TYPE: mobile, home, work, …) from the
    /// catalog in the picker's language, one the user wrote as written, none for an unlabeled value.
    ///
    /// ```swift
    /// ContactPicker.labelText(.mobile, locale: "de")          // "Mobil"
    /// ContactPicker.labelText(.custom("Grandma"), locale: "de")   // "Grandma"
    /// ```
    public static func labelText(_ label: ContactLabel, locale: String) -> String {
        let key: Strings.Key
        switch label {
        case .unlabeled: return ""
        case .custom(let text): return text
        case .home: key = .home
        case .work: key = .work
        case .other: key = .other
        case .mobile: key = .mobile
        case .iPhone: key = .iPhone
        case .main: key = .main
        case .homeFax: key = .homeFax
        case .workFax: key = .workFax
        case .otherFax: key = .otherFax
        case .pager: key = .pager
        case .school: key = .school
        // Not labels of a phone or an email: their identifier.
        case .homePage, .anniversary: return label.identifier
        }
        return Strings.string(key, locale: locale)
    }

    func statusLine() -> [PickerSpan] {
        let count = selection.selectedCount
        let text = options.single ? "" : Strings.contactsSelected(count: count, locale: options.locale)
        return [PickerSpan(text, width: columns, role: .status)]
    }
}
