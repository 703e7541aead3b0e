import ICUKit

/// What a piece of the picker's screen is; the front end decides how each is drawn.
public enum PickerRole: Sendable, Hashable {
    case titleBar, button, title, info
    case prompt, query, placeholder
    case pinned, sectionHeader, row, disabledRow, mark, value
    case index, currentIndex
    case status, empty
    /// The compose sheet: a field's label, its value, a line of the message's body, an error.
    case label, field, body, error
    /// An alert's title and message (its button is a `.button`).
    case alertTitle, alertMessage
}

/// A run of columns of one line of the picker's screen: `text` fitted into `width` columns.
public struct PickerSpan: Sendable, Hashable {
    public var text: String
    public var width: Int
    public var role: PickerRole
    public var alignment: ColumnAlignment
    /// The row under the cursor.
    public var highlighted: Bool

    public init(
        _ text: String, width: Int, role: PickerRole, alignment: ColumnAlignment = .leading, highlighted: Bool = false
    ) {
        self.text = text
        self.width = max(0, width)
        self.role = role
        self.alignment = alignment
        self.highlighted = highlighted
    }
}

/// The whole screen of the picker at one moment: one array of spans per line (as wide as the screen), and
/// where the text cursor stands (the end of the search text).
public struct PickerScreen: Sendable {
    public var columns: Int
    public var lines: [[PickerSpan]]
    public var cursor: (line: Int, column: Int)

    /// The screen as plain text, one string per line, each span fitted to its width.
    public var text: [String] {
        lines.map { $0.map { DisplayWidth.fit($0.text, width: $0.width, alignment: $0.alignment) }.joined() }
    }
}

extension PickerSpan {
    /// `text` in the middle of `width` columns (cut with "…" when longer), padded with spaces on both sides,
    /// so that it stays in the middle when a mirrored line (ar, he) aligns its spans to the other edge.
    ///
    /// ```swift
    /// PickerSpan.centred("Anna", width: 8, role: .title).text   // "  Anna  "
    /// ```
    public static func centred(_ text: String, width: Int, role: PickerRole) -> PickerSpan {
        let cut = DisplayWidth.truncate(text, width: width)
        let room = max(0, width - DisplayWidth.measure(cut))
        let before = String(repeating: " ", count: room / 2)
        return PickerSpan(before + cut + String(repeating: " ", count: room - room / 2), width: width, role: role)
    }
}
