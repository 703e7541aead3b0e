import ICUKit

/// How a span of text is drawn. ``TerminalSession`` maps each to the terminal's attributes; without
/// colour (`NO_COLOR`, or a terminal without colours) ``accent`` is drawn bold.
public struct TextStyle: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let bold = TextStyle(rawValue: 1)
    public static let dim = TextStyle(rawValue: 2)
    public static let reverse = TextStyle(rawValue: 4)
    public static let underline = TextStyle(rawValue: 8)
    /// The tint colour (`--tint`).
    public static let accent = TextStyle(rawValue: 16)
}

/// A run of cells of one line: `text` fitted into `width` columns (cut with "…" by grapheme cluster when
/// longer, padded with spaces when shorter), drawn with `style`.
public struct Span: Sendable, Hashable {
    public var text: String
    public var width: Int
    public var style: TextStyle
    public var alignment: ColumnAlignment

    public init(_ text: String, width: Int, style: TextStyle = [], alignment: ColumnAlignment = .leading) {
        self.text = text
        self.width = max(0, width)
        self.style = style
        self.alignment = alignment
    }
}

/// One whole screen to draw: lines of spans from the left edge (a line's spans are drawn side by side;
/// the rest of the line is cleared), and where the cursor stands (nil: hidden).
///
/// ```swift
/// let frame = Frame(lines: [[Span("Search contacts", width: 40, style: .dim)]], cursor: (line: 0, column: 0))
/// frame.lines.count   // 1
/// ```
public struct Frame: Sendable {
    public var lines: [[Span]]
    public var cursor: (line: Int, column: Int)?

    public init(lines: [[Span]], cursor: (line: Int, column: Int)? = nil) {
        self.lines = lines
        self.cursor = cursor
    }

    /// The frame as plain text, one string per line, each span fitted as it is drawn (styles left out).
    public var plainLines: [String] {
        lines.map { spans in spans.map { DisplayWidth.fit($0.text, width: $0.width, alignment: $0.alignment) }.joined()
        }
    }
}
