/// A template flattened into instructions over trivial values (no reference counting in the hot loop):
/// literal text lives in one byte buffer, names are hashed once, sections jump over their bodies.
final class Program: Sendable {
    enum Code: UInt8 {
        /// a = offset in `text`, b = length
        case text
        /// a = name index; `escaped`
        case variable
        /// a = section index, b = index after the body
        case section
        case inverted
        /// a = partial index
        case partial
        /// a = parent index, b = index after the parent's body (its blocks)
        case parent
        /// a = block index, b = index after the body
        case block
    }

    struct Op {
        var code: Code
        var escaped: Bool
        var a: Int32
        var b: Int32
    }

    struct Name {
        let text: String
        let parts: [String]
        let hashes: [UInt64]
        var isImplicit: Bool { parts.isEmpty }
    }

    /// Per name: its first part and that part's hash ("" for the implicit iterator), and whether it has
    /// more parts (then `names` has them). Kept apart so the hot path copies no arrays.
    let firstKeys: [String]
    let firstHashes: [UInt64]
    let dotted: [Bool]
    /// The UTF-8 bytes of every name's first part, back to back; name i is at offsets[i]..<offsets[i+1].
    let firstKeyBytes: [UInt8]
    let firstKeyOffsets: [Int]
    /// Per section: its name's index.
    let sectionNames: [Int]

    struct Section {
        let name: Int
        let rawText: Substring
        let openDelimiter: String
        let closeDelimiter: String
        let position: SourcePosition
    }

    struct Parent {
        let partial: PartialNode
        /// Block name → block index (the first definition of each name).
        let blocks: [(name: String, block: Int)]
    }

    struct Block {
        let name: String
        let indent: [UInt8]?
        let indentsFirstLine: Bool
        let position: SourcePosition
        /// The body's instructions.
        let start: Int
        let end: Int
    }

    let ops: [Op]
    let text: [UInt8]
    let names: [Name]
    let positions: [SourcePosition]  // per op
    let sections: [Section]
    let partials: [PartialNode]
    let parents: [Parent]
    let blocks: [Block]

    init(_ nodes: [Node]) {
        var c = Compiler()
        c.emit(nodes)
        ops = c.ops
        text = c.text
        names = c.names
        firstKeys = c.names.map { $0.parts.first ?? "" }
        firstHashes = c.names.map { $0.hashes.first ?? 0 }
        dotted = c.names.map { $0.parts.count != 1 }
        var keyBytes: [UInt8] = []
        var offsets: [Int] = [0]
        for name in c.names {
            keyBytes.append(contentsOf: (name.parts.first ?? "").utf8)
            offsets.append(keyBytes.count)
        }
        firstKeyBytes = keyBytes
        firstKeyOffsets = offsets
        positions = c.positions
        sections = c.sections
        sectionNames = c.sections.map(\.name)
        partials = c.partials
        parents = c.parents
        blocks = c.blocks
    }

    private struct Compiler {
        var ops: [Op] = []
        var text: [UInt8] = []
        var names: [Name] = []
        var nameIndex: [String: Int] = [:]
        var positions: [SourcePosition] = []
        var sections: [Section] = []
        var partials: [PartialNode] = []
        var parents: [Parent] = []
        var blocks: [Block] = []

        mutating func name(_ tag: TagName) -> Int32 {
            if let i = nameIndex[tag.text] { return Int32(i) }
            names.append(Name(text: tag.text, parts: tag.parts, hashes: tag.parts.map(MustacheDictionary.hash)))
            nameIndex[tag.text] = names.count - 1
            return Int32(names.count - 1)
        }

        mutating func op(_ code: Code, _ a: Int32, _ b: Int32 = 0, escaped: Bool = false, _ pos: SourcePosition) -> Int
        {
            ops.append(Op(code: code, escaped: escaped, a: a, b: b))
            positions.append(pos)
            return ops.count - 1
        }

        mutating func emit(_ nodes: [Node]) {
            let none = SourcePosition(line: 0, column: 0)
            for node in nodes {
                switch node {
                case .text(let bytes):
                    _ = op(.text, Int32(text.count), Int32(bytes.count), none)
                    text.append(contentsOf: bytes)
                case .variable(let tag, let escaped, let pos):
                    _ = op(.variable, name(tag), escaped: escaped, pos)
                case .section(let s), .inverted(let s):
                    let isSection = if case .section = node { true } else { false }
                    sections.append(
                        Section(
                            name: Int(name(s.name)), rawText: s.rawText, openDelimiter: s.openDelimiter,
                            closeDelimiter: s.closeDelimiter, position: s.position))
                    let at = op(isSection ? .section : .inverted, Int32(sections.count - 1), 0, s.position)
                    emit(s.nodes)
                    ops[at].b = Int32(ops.count)
                case .partial(let p):
                    partials.append(p)
                    _ = op(.partial, Int32(partials.count - 1), 0, p.position)
                case .parent(let p):
                    let at = op(.parent, 0, 0, p.partial.position)
                    var list: [(String, Int)] = []
                    // Compile each block body after the parent instruction; they run only as overrides.
                    for (name, block) in p.blocks.sorted(by: { $0.key < $1.key }) {
                        list.append((name, emitBlock(block)))
                    }
                    parents.append(Parent(partial: p.partial, blocks: list))
                    ops[at].a = Int32(parents.count - 1)
                    ops[at].b = Int32(ops.count)
                case .block(let b):
                    _ = emitBlock(b)
                }
            }
        }

        /// Emits a block instruction with its body; returns the block's index.
        mutating func emitBlock(_ b: BlockNode) -> Int {
            let at = op(.block, 0, 0, b.position)
            let start = ops.count
            emit(b.nodes)
            blocks.append(
                Block(
                    name: b.name, indent: b.indent, indentsFirstLine: b.indentsFirstLine, position: b.position,
                    start: start, end: ops.count))
            ops[at].a = Int32(blocks.count - 1)
            ops[at].b = Int32(ops.count)
            return blocks.count - 1
        }
    }
}
