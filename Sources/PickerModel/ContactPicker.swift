import ContactsCore
import ContactsSelection
import ICUKit
import StringsCatalog

/// The picker's view model: the search text, what it finds, the cursor, the part of the list on screen,
/// the selection (kept by contact id across searches, in the list's own selection), the section index, the
/// pinned rows and the value chooser. Input goes in through ``handle(_:)``; ``screen()`` says what the
/// screen shows, line by line; the outcome comes out when the user selects or cancels. No terminal code:
/// a front end draws the screen and turns its keys into ``PickerInput``.
///
/// ```swift
/// let selection = try SelectionController(contacts: book.contacts)
/// let picker = ContactPicker(selection: selection, options: PickerOptions(locale: "en"), columns: 60, lines: 20)
/// _ = picker.handle(.text("anna"))
/// let outcome = picker.handle(.enter)   // .selected([Anna]) — the row under the cursor
/// ```
public final class ContactPicker {
    public let selection: SelectionController
    public let options: PickerOptions
    var listing: any ContactListing { selection.listing }

    /// The search text.
    public internal(set) var query = ""
    /// Keyword search (every word starts a word of the contact) instead of plain search; Ctrl-K toggles it.
    public internal(set) var keywords: Bool
    /// Fuzzy search (each word's letters in order, with gaps; the best matches first); Ctrl-F toggles it.
    public internal(set) var fuzzy: Bool
    /// Where the text cursor stands in the search text: the number of characters before it.
    public internal(set) var queryCursor = 0
    /// What the search shows.
    public internal(set) var result: SearchResult
    /// The item under the cursor: the pinned rows come first (while not searching), then the result's rows.
    public internal(set) var cursor = 0
    /// The first line of the list on screen (lines: pinned rows, then each section's header and rows).
    public internal(set) var top = 0
    public internal(set) var columns: Int
    public internal(set) var lines: Int
    /// The contact whose phone numbers or email addresses are being chosen from (→ or Ctrl-E), the cursor
    /// in them, and the one value it is reached at now (marked; nil when none of them is).
    public internal(set) var chooser: (id: String, values: [LabeledValue], cursor: Int, marked: Int?)?

    /// The help screen, when it is open (? or F1): the first of its lines on screen.
    public internal(set) var helpTop: Int?
    /// Whether the list shows the groups of likely duplicates (Ctrl-T) instead of what the search finds.
    public internal(set) var duplicates = false
    /// The contact's card, when it is open (Ctrl-O), and the first of its lines on screen.
    public internal(set) var card: (card: ContactCard, top: Int)?

    public init(selection: SelectionController, options: PickerOptions, columns: Int, lines: Int) {
        self.selection = selection
        self.options = options
        self.columns = columns
        self.lines = lines
        keywords = selection.configuration.searchByKeywords
        fuzzy = options.fuzzy
        query = options.query
        queryCursor = options.query.count
        result = selection.listing.search(options.query, keywords: keywords, fuzzy: fuzzy, refining: nil)
        sectionTitles = selection.listing.sections.map(\.title)
        indexTitlesWidth = selection.listing.indexTitles.map(DisplayWidth.measure).max() ?? 0
    }

    /// The titles of the list's sections (of everyone, whatever the search shows).
    let sectionTitles: [String]
    /// The widest title of the list's index, in columns (measured once: every screen needs it).
    let indexTitlesWidth: Int

    // MARK: - Items and lines

    /// The pinned rows shown now (only while not searching).
    public var pinned: [PinnedRow] {
        !duplicates && query.allSatisfy({ $0.isWhitespace || $0.isPunctuation })
            ? selection.configuration.pinnedRows : []
    }

    /// Pinned rows plus result rows.
    public var itemCount: Int { pinned.count + result.count }

    /// What an item is.
    public enum Item: Equatable {
        case pinned(PinnedRow)
        /// A row of the result: its position in the result and its row number in the list.
        case row(position: Int, number: Int)
    }

    public func item(_ index: Int) -> Item? {
        let p = pinned
        if index < 0 || index >= p.count + result.count { return nil }
        if index < p.count { return .pinned(p[index]) }
        let position = index - p.count
        return .row(position: position, number: Int(result.rowNumbers[position]))
    }

    /// The row under the cursor, if it is a contact.
    public var currentRow: ListedRow? {
        if case .row(_, let number) = item(cursor) { return listing.listedRow(number) }
        return nil
    }

    /// What a line of the list shows.
    enum Line: Equatable {
        case item(Int)
        case header(Int)
    }

    var totalLines: Int { pinned.count + result.sections.count + result.count }

    /// The section holding result position `position` (the last one starting at or before it).
    func section(ofPosition position: Int) -> Int {
        let sections = result.sections
        var low = 0
        var high = sections.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if sections[mid].range.lowerBound <= position { low = mid } else { high = mid - 1 }
        }
        return max(0, low)
    }

    func headerLine(_ section: Int) -> Int { pinned.count + section + result.sections[section].range.lowerBound }

    func line(ofItem index: Int) -> Int {
        let p = pinned.count
        if index < p { return index }
        let position = index - p
        return p + section(ofPosition: position) + 1 + position
    }

    func content(atLine line: Int) -> Line? {
        let p = pinned.count
        if line < 0 || line >= totalLines { return nil }
        if line < p { return .item(line) }
        let sections = result.sections
        var low = 0
        var high = sections.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if headerLine(mid) <= line { low = mid } else { high = mid - 1 }
        }
        let header = headerLine(low)
        if line == header { return .header(low) }
        return .item(p + sections[low].range.lowerBound + (line - header - 1))
    }

    // MARK: - Layout

    var titleBarLines: Int { options.showsTitleBar ? 1 : 0 }
    var infoLines: Int { options.info == nil ? 0 : 1 }
    /// The first screen line of the list.
    var listTop: Int { titleBarLines + infoLines + 1 }
    /// The key hints' line, under the status line.
    var hintLines: Int { options.showsHints ? 1 : 0 }
    /// Lines of the list on screen (the status line and the key hints come after it).
    var listHeight: Int { max(1, lines - listTop - 1 - hintLines) }
    var rightToLeft: Bool { ICULocale.isRightToLeft(options.locale) }

    /// Keeps the cursor on screen: the list shows a sticky header on its first line when it starts inside a
    /// section, so a row is on screen when it is within the lines below that.
    func scrollToCursor() {
        guard itemCount > 0 else {
            top = 0
            return
        }
        let cursorLine = line(ofItem: cursor)
        if cursorLine <= top {
            top = cursorLine
            // The first row of a section comes with its header.
            if cursorLine > 0,
                content(atLine: cursorLine - 1).map({ if case .header = $0 { true } else { false } })
                    == true
            {
                top = cursorLine - 1
            }
        } else if cursorLine > top + listHeight - 2 {
            top = cursorLine - max(0, listHeight - 2)
        }
        clampTop()
    }

    func clampTop() {
        top = max(0, min(top, totalLines - listHeight + 1))
    }
}
