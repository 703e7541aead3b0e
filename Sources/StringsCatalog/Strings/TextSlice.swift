/// The UTF-8 text of a `.strings` file, held once and shared by the pieces that refer to it.
final class SourceText: Sendable {
    let bytes: [UInt8]
    init(_ bytes: [UInt8]) { self.bytes = bytes }

    static let empty = SourceText([])
}

/// A piece of text as a byte range of a ``SourceText``: the pieces of a parsed document refer to the file's
/// text instead of copying it; edited pieces get a ``SourceText`` of their own. Compared and hashed by content.
struct TextSlice: Sendable, Hashable {
    let source: SourceText
    let range: Range<Int>

    init(_ source: SourceText, _ range: Range<Int>) {
        self.source = source
        self.range = range
    }

    /// Text of its own (an edited or new piece).
    init(_ string: String) {
        if string.isEmpty {
            self.init(SourceText.empty, 0..<0)
        } else {
            let source = SourceText(Array(string.utf8))
            self.init(source, 0..<source.bytes.count)
        }
    }

    static let empty = TextSlice(SourceText.empty, 0..<0)

    var count: Int { range.count }
    var isEmpty: Bool { range.isEmpty }

    /// The text (decoded from the bytes; a slice always holds whole UTF-8 sequences).
    var string: String {
        source.bytes.withUnsafeBufferPointer {
            String(decoding: UnsafeBufferPointer(rebasing: $0[range]), as: UTF8.self)
        }
    }

    /// The byte at `offset` from the start of the slice.
    subscript(offset: Int) -> UInt8 { source.bytes[range.lowerBound + offset] }

    /// A part of the slice, `offsets` counted from its start.
    subscript(offsets: Range<Int>) -> TextSlice {
        TextSlice(source, (range.lowerBound + offsets.lowerBound)..<(range.lowerBound + offsets.upperBound))
    }

    func append(to out: inout [UInt8]) {
        source.bytes.withUnsafeBufferPointer { out.append(contentsOf: UnsafeBufferPointer(rebasing: $0[range])) }
    }

    static func == (a: TextSlice, b: TextSlice) -> Bool {
        guard a.count == b.count else { return false }
        if a.source === b.source && a.range == b.range { return true }
        return a.source.bytes[a.range].elementsEqual(b.source.bytes[b.range])
    }

    func hash(into hasher: inout Hasher) {
        source.bytes.withUnsafeBufferPointer {
            hasher.combine(bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: $0[range])))
        }
    }
}

/// The text between two entries of a document: the range read, or, once edits have put pieces side by side
/// (the text around a removed entry, lines added before a new one), those pieces, kept apart as edits see them.
enum Gap: Sendable, Hashable {
    case one(TextSlice)
    case pieces([TextSlice])

    init(_ pieces: [TextSlice]) {
        self = pieces.count == 1 ? .one(pieces[0]) : .pieces(pieces)
    }

    static let empty = Gap.one(.empty)

    var pieces: [TextSlice] {
        switch self {
        case .one(let piece): return [piece]
        case .pieces(let pieces): return pieces
        }
    }

    var isEmpty: Bool {
        switch self {
        case .one(let piece): return piece.isEmpty
        case .pieces(let pieces): return pieces.allSatisfy(\.isEmpty)
        }
    }

    var count: Int {
        switch self {
        case .one(let piece): return piece.count
        case .pieces(let pieces): return pieces.reduce(0) { $0 + $1.count }
        }
    }

    func append(to out: inout [UInt8]) {
        switch self {
        case .one(let piece): piece.append(to: &out)
        case .pieces(let pieces): for piece in pieces { piece.append(to: &out) }
        }
    }
}
