/// A line and column (1-based; columns count Unicode scalars) in a template's source.
public struct SourcePosition: Sendable, Equatable, CustomStringConvertible {
    public var line: Int
    public var column: Int
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }
    public var description: String { "\(line):\(column)" }
}

/// A tag's name: dotted parts, or the implicit iterator `.` (no parts).
struct TagName: Sendable {
    let text: String
    let parts: [String]
    let first: String

    init(_ text: String) {
        self.text = text
        if text == "." {
            parts = []
            first = ""
        } else {
            parts = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            first = parts[0]
        }
    }
    var isImplicit: Bool { parts.isEmpty }
}

struct SectionNode: Sendable {
    let name: TagName
    let nodes: [Node]
    /// The section's source between its tags, for lambdas (a slice of the template's source).
    let rawText: Substring
    let openDelimiter: String
    let closeDelimiter: String
    let position: SourcePosition
}

struct PartialNode: Sendable {
    /// The partial's name, or for a dynamic partial (`{{>*name}}`) the context name holding it.
    let name: String
    let dynamic: Bool
    /// The whitespace before a standalone tag, prefixed to every line of the partial.
    let indent: [UInt8]
    let position: SourcePosition
    /// Hash of `name`, for the partial lookup.
    let nameHash: UInt64

    init(name: String, dynamic: Bool, indent: [UInt8], position: SourcePosition) {
        self.name = name
        self.dynamic = dynamic
        self.indent = indent
        self.position = position
        nameHash = MustacheDictionary.hash(name)
    }
}

struct BlockNode: Sendable {
    let name: String
    let nodes: [Node]
    /// For a standalone block: the indentation of its content (removed where an override is defined,
    /// added where it is expanded). `nil` for inline blocks.
    let indent: [UInt8]?
    /// False for a block alone on its line with its close tag: the line's own whitespace indents the first line.
    let indentsFirstLine: Bool
    let position: SourcePosition
}

struct ParentNode: Sendable {
    let partial: PartialNode
    let blocks: [String: BlockNode]
}

indirect enum Node: Sendable {
    case text([UInt8])
    case variable(TagName, escaped: Bool, SourcePosition)
    case section(SectionNode)
    case inverted(SectionNode)
    case partial(PartialNode)
    case parent(ParentNode)
    case block(BlockNode)
}
