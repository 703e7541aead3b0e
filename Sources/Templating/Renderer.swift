import Foundation
import ICUKit

/// Runs a compiled template's instructions with a context stack and writes UTF-8 bytes.
struct Renderer {
    struct Override {
        let program: Program
        let block: Int
        let templateName: String
    }

    static let maxDepth = 200

    let out: ByteBuffer
    /// The context stack. Change it only through `push`, `pop` and `setStack`, which keep `frames` in step.
    fileprivate(set) var stack: [MustacheValue] = []
    /// For each stack entry: its dictionary storage, unretained (the stack keeps it alive), so the hot
    /// path can look keys up without reference counting; or whether it is an object (slow path).
    fileprivate(set) var frames: [Frame] = []

    struct Frame {
        var storage: Unmanaged<MustacheDictionary.Storage>?
        var isObject: Bool
    }

    @inline(__always) static func frame(_ value: MustacheValue) -> Frame {
        switch value {
        case .dictionary(let d): return Frame(storage: Unmanaged.passUnretained(d.storage), isObject: false)
        case .object: return Frame(storage: nil, isObject: true)
        default: return Frame(storage: nil, isObject: false)
        }
    }

    @inline(__always) mutating func push(_ value: MustacheValue) {
        frames.append(Renderer.frame(value))
        stack.append(value)
    }

    @inline(__always) mutating func pop() {
        stack.removeLast()
        frames.removeLast()
    }

    mutating func setStack(_ values: [MustacheValue]) {
        stack = values
        frames = values.map(Renderer.frame)
    }
    var options: RenderOptions {
        didSet { configure() }
    }
    let partials: MustachePartials
    var templateName: String
    /// Indentation of the partial being rendered (added at every line start of its text).
    var indent: [UInt8] = []
    var atLineStart = true
    var overrides: [String: Override] = [:]
    var depth = 0
    private(set) var escapeHTML = true
    /// ``Escaping/uriComponent``: escaped values are percent-encoded.
    private(set) var escapeURI = false
    /// ``RenderOptions/maxOutputBytes``, checked before every instruction.
    private(set) var outputLimit = Int.max
    private(set) var strict = false
    /// Values can be written without checks (HTML or text escaping; header rejection checks each value).
    private(set) var simpleValues = true
    /// Values are isolated (``BidiIsolation``) in text of this direction.
    private(set) var rightToLeftText = false
    /// The hot path hands values that may hold a right-to-left letter to the general one (isolation).
    private(set) var screensValues = false
    /// Steps of work done so far and the most allowed (``RenderOptions/maxSteps``; Renderer+Budget).
    var steps = 0
    private(set) var stepLimit = Int.max

    init(options: RenderOptions, partials: MustachePartials, templateName: String, workspace: Workspace? = nil) {
        self.options = options
        self.partials = partials
        self.templateName = templateName
        if let workspace {
            out = workspace.out
            swap(&stack, &workspace.stack)
            swap(&frames, &workspace.frames)
        } else {
            out = ByteBuffer()
        }
        configure()
    }

    /// Hands the (emptied) stack buffers back for the next render.
    mutating func returnBuffers(to workspace: Workspace) {
        stack.removeAll(keepingCapacity: true)
        frames.removeAll(keepingCapacity: true)
        swap(&stack, &workspace.stack)
        swap(&frames, &workspace.frames)
    }

    private mutating func configure() {
        outputLimit = max(options.maxOutputBytes, 0)
        stepLimit = max(options.maxSteps, 0)
        escapeHTML = options.escaping == .html
        escapeURI = options.escaping == .uriComponent
        strict = options.strict
        rightToLeftText = options.bidiIsolation != .none && ICULocale.isRightToLeft(options.locale)
        // Left-to-right text keeps the hot path: a value that may hold a right-to-left letter leaves it.
        screensValues = options.bidiIsolation != .none && !rightToLeftText
        simpleValues =
            (options.escaping == .html || options.escaping == .text || options.escaping == .header(.fold))
            && (options.bidiIsolation == .none || screensValues)
    }

    // MARK: instructions

    mutating func render(_ program: Program) throws {
        try render(program, 0, program.ops.count)
    }

    mutating func render(_ p: Program, _ start: Int, _ end: Int) throws {
        try spend(p, near: start > 0 ? start - 1 : start)  // a pass through a section, even an empty one
        try p.ops.withUnsafeBufferPointer { ops in
            try p.text.withUnsafeBufferPointer { text in
                try run(p, ops, text, start, end)
            }
        }
        // The last instruction went over the limit: it is the one named (the check before each
        // instruction has no next one to run).
        if out.count > outputLimit, end > start { try checkOutputSize(at: Self.position(in: p, near: end - 1)) }
    }

    /// The position of op `index`, or (text has none) of the nearest tag before it, else after it, else
    /// the template's start: an error about the output names a line of the template.
    static func position(in p: Program, near index: Int) -> SourcePosition {
        var j = index
        while j >= 0 {
            if p.positions[j].line > 0 { return p.positions[j] }
            j -= 1
        }
        j = index + 1
        while j < p.positions.count {
            if p.positions[j].line > 0 { return p.positions[j] }
            j += 1
        }
        return SourcePosition(line: 1, column: 1)
    }

    @inline(__always)
    private mutating func run(
        _ p: Program, _ ops: UnsafeBufferPointer<Program.Op>, _ text: UnsafeBufferPointer<UInt8>,
        _ start: Int, _ end: Int
    ) throws {
        var i = start
        while i < end {
            if out.count > outputLimit { try checkOutputSize(at: Self.position(in: p, near: i > start ? i - 1 : i)) }
            try spend(p, near: i)
            let op = ops[i]
            switch op.code {
            case .text:
                let a = Int(op.a)
                emitText(UnsafeBufferPointer(rebasing: text[a..<a + Int(op.b)]))
                i += 1
            case .variable:
                try renderVariable(p, Int(op.a), escaped: op.escaped, at: i)
                i += 1
            case .section:
                try renderSection(p, op, at: i)
                i = Int(op.b)
            case .inverted:
                let nameIndex = p.sectionNames[Int(op.a)]
                if let value = lookup(p, nameIndex) {
                    if !value.isTruthy { try render(p, i + 1, Int(op.b)) }
                } else {
                    if strict { throw missing(p.names[nameIndex].text, p.sections[Int(op.a)].position) }
                    try render(p, i + 1, Int(op.b))
                }
                i = Int(op.b)
            case .partial:
                let partial = p.partials[Int(op.a)]
                if let template = try resolvePartial(partial) { try renderPartial(template, partial) }
                i += 1
            case .parent:
                let parent = p.parents[Int(op.a)]
                if let template = try resolvePartial(parent.partial) {
                    let saved = overrides
                    for (name, block) in parent.blocks where overrides[name] == nil {
                        overrides[name] = Override(program: p, block: block, templateName: templateName)
                    }
                    defer { overrides = saved }
                    try renderPartial(template, parent.partial)
                }
                i = Int(op.b)
            case .block:
                try renderBlock(p, Int(op.a))
                i = Int(op.b)
            }
        }
    }

    mutating func renderVariable(_ p: Program, _ nameIndex: Int, escaped: Bool, at i: Int) throws {
        if simpleValues && emitSimpleVariable(p, nameIndex, escaped: escaped) { return }
        guard let value = lookup(p, nameIndex) else {
            if strict { throw missing(p.names[nameIndex].text, p.positions[i]) }
            return
        }
        let name = p.names[nameIndex]
        switch value {
        case .string(let s):
            try emitValue(s, escaped: escaped, name: name.text, p.positions[i])
        case .int(let n):
            emitInt(n)
        case .lambda(let lambda):
            let pos = p.positions[i]
            let result = try call(lambda, name: name.text, sectionText: nil, pos)
            switch result {
            case .template(let source):
                let template = try MustacheTemplate(source, name: "\(templateName) (lambda '\(name.text)' at \(pos))")
                let text = try renderDetached(template.program, templateName: template.name)
                try emitValue(text, escaped: escaped, name: name.text, pos, isolated: false)
            case .text(let text):
                try emitValue(text, escaped: true, name: name.text, pos, isolated: lambda.isolatesResult)
            case .raw(let text): try emitValue(text, escaped: false, name: name.text, pos, isolated: false)
            }
        default:
            guard let text = value.scalarText else {
                if strict {
                    let pos = p.positions[i]
                    throw TemplatingError.notInterpolatable(
                        name: name.text, template: templateName, line: pos.line,
                        column: pos.column, recipient: options.recipient)
                }
                return
            }
            try emitValue(text, escaped: escaped, name: name.text, p.positions[i])
        }
    }

    mutating func renderSection(_ p: Program, _ op: Program.Op, at i: Int) throws {
        let nameIndex = p.sectionNames[Int(op.a)]
        guard let value = lookup(p, nameIndex) else {
            if strict { throw missing(p.names[nameIndex].text, p.sections[Int(op.a)].position) }
            return
        }
        let bodyStart = i + 1
        let bodyEnd = Int(op.b)
        switch value {
        case .array(let items):
            for k in items.indices {
                push(items[k])
                try render(p, bodyStart, bodyEnd)
                pop()
            }
        case .lambda(let lambda):
            let section = p.sections[Int(op.a)]
            let name = p.names[nameIndex]
            let result = try call(lambda, name: name.text, sectionText: String(section.rawText), section.position)
            switch result {
            case .template(let source):
                let template = try MustacheTemplate(
                    source: source, name: "\(templateName) (lambda '\(name.text)' at \(section.position))",
                    open: section.openDelimiter, close: section.closeDelimiter)
                let saved = templateName
                templateName = template.name
                defer { templateName = saved }
                try render(template.program)
            case .text(let text):
                try emitValue(text, escaped: true, name: name.text, section.position, isolated: lambda.isolatesResult)
            case .raw(let text):
                try emitValue(text, escaped: false, name: name.text, section.position, isolated: false)
            }
        default:
            if value.isTruthy {
                push(value)
                try render(p, bodyStart, bodyEnd)
                pop()
            }
        }
    }

    mutating func call(_ lambda: MustacheLambda, name: String, sectionText: String?, _ pos: SourcePosition) throws
        -> LambdaResult
    {
        let call = LambdaCall(
            sectionText: sectionText, options: options, templateName: templateName, position: pos,
            stack: stack, partials: partials)
        do {
            return try lambda.body(call)
        } catch let error as TemplatingError {
            throw error
        } catch {
            throw TemplatingError.helper(
                name: name, template: templateName, line: pos.line, column: pos.column,
                recipient: options.recipient, message: "\(error)")
        }
    }

    /// Renders a program into a separate buffer, without the current indentation.
    mutating func renderDetached(_ program: Program, templateName name: String) throws -> String {
        var sub = Renderer(options: options, partials: partials, templateName: name)
        sub.setStack(stack)
        sub.overrides = overrides
        sub.depth = depth + 1
        // Escaped once, by the interpolation the result goes into.
        if case .header = options.escaping { sub.options.escaping = .text }
        if options.escaping == .uriComponent { sub.options.escaping = .text }
        sub.steps = steps
        defer { steps = sub.steps }
        try sub.render(program)
        try sub.checkOutputSize(at: nil)
        return String(decoding: sub.out.bytes, as: UTF8.self)
    }

    mutating func resolvePartial(_ partial: PartialNode) throws -> MustacheTemplate? {
        var name = partial.name
        if partial.dynamic {
            guard let value = Renderer.lookup(TagName(partial.name), in: stack), let text = value.scalarText,
                !text.isEmpty
            else {
                if strict { throw missing(partial.name, partial.position) }
                return nil
            }
            name = text
        }
        guard
            let template = partials.template(
                named: name, hash: partial.dynamic ? MustacheDictionary.hash(name) : partial.nameHash)
        else {
            if strict {
                throw TemplatingError.partialNotFound(
                    name: name, template: templateName, line: partial.position.line,
                    column: partial.position.column)
            }
            return nil
        }
        return template
    }

    mutating func renderPartial(_ template: MustacheTemplate, _ partial: PartialNode) throws {
        guard depth < Renderer.maxDepth else {
            throw TemplatingError.recursionTooDeep(
                template: templateName, line: partial.position.line,
                column: partial.position.column)
        }
        let savedName = templateName
        let savedIndent = indent
        depth += 1
        templateName = template.name
        if !partial.indent.isEmpty {
            indent.append(contentsOf: partial.indent)
            atLineStart = true
        }
        defer {
            depth -= 1
            templateName = savedName
            indent = savedIndent
        }
        try render(template.program)
    }

    mutating func renderBlock(_ p: Program, _ index: Int) throws {
        let block = p.blocks[index]
        guard let override = overrides[block.name] else {
            try render(p, block.start, block.end)
            return
        }
        guard depth < Renderer.maxDepth else {
            throw TemplatingError.recursionTooDeep(
                template: templateName, line: block.position.line,
                column: block.position.column)
        }
        let definition = override.program.blocks[override.block]
        var sub = Renderer(options: options, partials: partials, templateName: override.templateName, workspace: nil)
        sub.setStack(stack)
        sub.overrides = overrides
        sub.depth = depth + 1
        sub.steps = steps
        defer { steps = sub.steps }
        try sub.render(override.program, definition.start, definition.end)
        try sub.checkOutputSize(at: definition.position)
        let remove = definition.indent ?? []
        let add = block.indent ?? []
        if remove.isEmpty && add.isEmpty {
            emitText(sub.out.bytes)
        } else {
            emitText(Renderer.reindent(sub.out.array, remove: remove, add: add, firstLine: block.indentsFirstLine))
        }
    }
}
