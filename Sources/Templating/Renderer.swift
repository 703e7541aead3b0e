/// Walks a compiled template's nodes with a context stack and writes UTF-8 bytes.
struct Renderer {
    struct Override {
        let block: BlockNode
        let templateName: String
    }

    static let maxDepth = 200

    var out: [UInt8] = []
    var stack: [MustacheValue] = []
    var options: RenderOptions
    let partials: MustachePartials
    var templateName: String
    /// Indentation of the partial being rendered (added at every line start of its text).
    var indent: [UInt8] = []
    var atLineStart = true
    var overrides: [String: Override] = [:]
    var depth = 0

    init(options: RenderOptions, partials: MustachePartials, templateName: String) {
        self.options = options
        self.partials = partials
        self.templateName = templateName
    }

    // MARK: lookup

    static func lookup(_ name: TagName, in stack: [MustacheValue]) -> MustacheValue? {
        if name.isImplicit { return stack.last }
        var found: MustacheValue?
        var i = stack.count - 1
        while i >= 0 {
            if let v = stack[i].member(name.first) {
                found = v
                break
            }
            i -= 1
        }
        guard var value = found else { return nil }
        var p = 1
        while p < name.parts.count {
            guard let next = value.member(name.parts[p]) else { return nil }
            value = next
            p += 1
        }
        return value
    }

    @inline(__always) func lookup(_ name: TagName) -> MustacheValue? { Renderer.lookup(name, in: stack) }

    func missing(_ name: String, _ pos: SourcePosition) -> TemplatingError {
        .missingValue(name: name, template: templateName, line: pos.line, column: pos.column,
                      recipient: options.recipient)
    }

    // MARK: output

    @inline(__always) mutating func emitText(_ bytes: [UInt8]) {
        if indent.isEmpty {
            out.append(contentsOf: bytes)
        } else {
            emitIndented(bytes)
        }
    }

    mutating func emitIndented(_ bytes: [UInt8]) {
        var start = 0
        for i in bytes.indices where bytes[i] == 0x0A {
            if atLineStart { out.append(contentsOf: indent) }
            out.append(contentsOf: bytes[start...i])
            atLineStart = true
            start = i + 1
        }
        if start < bytes.count {
            if atLineStart { out.append(contentsOf: indent) }
            out.append(contentsOf: bytes[start...])
            atLineStart = false
        }
    }

    /// Writes a value's text, escaped for the output when `escaped`.
    mutating func emitValue(_ text: String, escaped: Bool, name: String, _ pos: SourcePosition) throws {
        if text.isEmpty { return }
        if !indent.isEmpty {
            if atLineStart { out.append(contentsOf: indent) }
            atLineStart = false
        }
        var text = text
        switch options.escaping {
        case .html:
            if escaped {
                text.withUTF8 { Renderer.appendHTMLEscaped($0, to: &out) }
            } else {
                text.withUTF8 { out.append(contentsOf: $0) }
            }
        case .text:
            text.withUTF8 { out.append(contentsOf: $0) }
        case .header(let policy):
            if policy == .reject, text.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D }) {
                throw TemplatingError.lineBreakInHeader(name: name, template: templateName, line: pos.line,
                                                        column: pos.column, recipient: options.recipient)
            }
            text.withUTF8 { out.append(contentsOf: $0) }  // folded when the render ends
        }
    }

    static func appendHTMLEscaped(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        var runStart = 0
        var i = 0
        let n = bytes.count
        while i < n {
            let b = bytes[i]
            // Only bytes below '?' can need escaping; skip the rest quickly.
            if b < 0x3F {
                let replacement: StaticString?
                switch b {
                case 0x26: replacement = "&amp;"
                case 0x3C: replacement = "&lt;"
                case 0x3E: replacement = "&gt;"
                case 0x22: replacement = "&quot;"
                case 0x27: replacement = "&#39;"
                default: replacement = nil
                }
                if let replacement {
                    if runStart < i { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<i])) }
                    replacement.withUTF8Buffer { out.append(contentsOf: $0) }
                    runStart = i + 1
                }
            }
            i += 1
        }
        if runStart < n { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<n])) }
    }

    /// Header output: line breaks (and the whitespace around them) become one space; ends are trimmed.
    static func foldHeader(_ out: inout [UInt8], from start: Int) {
        var result: [UInt8] = []
        result.reserveCapacity(out.count - start)
        var i = start
        var pendingSpace = false
        while i < out.count {
            let b = out[i]
            if b == 0x0A || b == 0x0D {
                while let last = result.last, last == 0x20 || last == 0x09 { result.removeLast() }
                pendingSpace = !result.isEmpty
                i += 1
                while i < out.count, [0x0A, 0x0D, 0x20, 0x09].contains(out[i]) { i += 1 }
                continue
            }
            if pendingSpace {
                result.append(0x20)
                pendingSpace = false
            }
            if result.isEmpty && (b == 0x20 || b == 0x09) {
                i += 1
                continue
            }
            result.append(b)
            i += 1
        }
        while let last = result.last, last == 0x20 || last == 0x09 { result.removeLast() }
        out.replaceSubrange(start..., with: result)
    }

    // MARK: nodes

    mutating func render(_ nodes: [Node]) throws {
        for node in nodes {
            switch node {
            case .text(let bytes):
                emitText(bytes)
            case .variable(let name, let escaped, let pos):
                try renderVariable(name, escaped: escaped, pos)
            case .section(let section):
                try renderSection(section)
            case .inverted(let section):
                guard let value = lookup(section.name) else {
                    if options.strict { throw missing(section.name.text, section.position) }
                    try render(section.nodes)
                    continue
                }
                if !value.isTruthy { try render(section.nodes) }
            case .partial(let partial):
                guard let template = try resolvePartial(partial) else { continue }
                try renderPartial(template, partial)
            case .parent(let parent):
                guard let template = try resolvePartial(parent.partial) else { continue }
                let saved = overrides
                for (name, block) in parent.blocks where overrides[name] == nil {
                    overrides[name] = Override(block: block, templateName: templateName)
                }
                defer { overrides = saved }
                try renderPartial(template, parent.partial)
            case .block(let block):
                try renderBlock(block)
            }
        }
    }

    mutating func renderVariable(_ name: TagName, escaped: Bool, _ pos: SourcePosition) throws {
        guard let value = lookup(name) else {
            if options.strict { throw missing(name.text, pos) }
            return
        }
        switch value {
        case .string(let s):
            try emitValue(s, escaped: escaped, name: name.text, pos)
        case .lambda(let lambda):
            let result = try call(lambda, name: name.text, sectionText: nil, pos)
            switch result {
            case .template(let source):
                let template = try MustacheTemplate(source, name: "\(templateName) (lambda '\(name.text)' at \(pos))")
                let text = try renderDetached(template.nodes, templateName: template.name)
                try emitValue(text, escaped: escaped, name: name.text, pos)
            case .text(let text): try emitValue(text, escaped: true, name: name.text, pos)
            case .raw(let text): try emitValue(text, escaped: false, name: name.text, pos)
            }
        default:
            guard let text = value.scalarText else {
                if options.strict {
                    throw TemplatingError.notInterpolatable(name: name.text, template: templateName, line: pos.line,
                                                            column: pos.column, recipient: options.recipient)
                }
                return
            }
            try emitValue(text, escaped: escaped, name: name.text, pos)
        }
    }

    mutating func renderSection(_ section: SectionNode) throws {
        guard let value = lookup(section.name) else {
            if options.strict { throw missing(section.name.text, section.position) }
            return
        }
        switch value {
        case .array(let items):
            for item in items {
                stack.append(item)
                try render(section.nodes)
                stack.removeLast()
            }
        case .lambda(let lambda):
            let result = try call(lambda, name: section.name.text, sectionText: section.rawText, section.position)
            switch result {
            case .template(let source):
                let template = try MustacheTemplate(
                    source: source, name: "\(templateName) (lambda '\(section.name.text)' at \(section.position))",
                    open: section.openDelimiter, close: section.closeDelimiter)
                let saved = templateName
                templateName = template.name
                defer { templateName = saved }
                try render(template.nodes)
            case .text(let text): try emitValue(text, escaped: true, name: section.name.text, section.position)
            case .raw(let text): try emitValue(text, escaped: false, name: section.name.text, section.position)
            }
        default:
            if value.isTruthy {
                stack.append(value)
                try render(section.nodes)
                stack.removeLast()
            }
        }
    }

    mutating func call(_ lambda: MustacheLambda, name: String, sectionText: String?, _ pos: SourcePosition) throws -> LambdaResult {
        let call = LambdaCall(sectionText: sectionText, options: options, templateName: templateName, position: pos,
                              stack: stack, partials: partials)
        do {
            return try lambda.body(call)
        } catch let error as TemplatingError {
            throw error
        } catch {
            throw TemplatingError.helper(name: name, template: templateName, line: pos.line, column: pos.column,
                                         recipient: options.recipient, message: "\(error)")
        }
    }

    /// Renders nodes into a separate buffer, without the current indentation.
    mutating func renderDetached(_ nodes: [Node], templateName name: String) throws -> String {
        var sub = Renderer(options: options, partials: partials, templateName: name)
        sub.stack = stack
        sub.overrides = overrides
        sub.depth = depth + 1
        if case .header = options.escaping { sub.options.escaping = .text }
        try sub.render(nodes)
        return String(decoding: sub.out, as: UTF8.self)
    }

    mutating func resolvePartial(_ partial: PartialNode) throws -> MustacheTemplate? {
        var name = partial.name
        if partial.dynamic {
            guard let value = lookup(TagName(partial.name)), let text = value.scalarText, !text.isEmpty else {
                if options.strict { throw missing(partial.name, partial.position) }
                return nil
            }
            name = text
        }
        guard let template = partials[name] else {
            if options.strict {
                throw TemplatingError.partialNotFound(name: name, template: templateName, line: partial.position.line,
                                                      column: partial.position.column)
            }
            return nil
        }
        return template
    }

    mutating func renderPartial(_ template: MustacheTemplate, _ partial: PartialNode) throws {
        guard depth < Renderer.maxDepth else {
            throw TemplatingError.recursionTooDeep(template: templateName, line: partial.position.line,
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
        try render(template.nodes)
    }

    mutating func renderBlock(_ block: BlockNode) throws {
        guard let override = overrides[block.name] else {
            try render(block.nodes)
            return
        }
        guard depth < Renderer.maxDepth else {
            throw TemplatingError.recursionTooDeep(template: templateName, line: block.position.line,
                                                   column: block.position.column)
        }
        var sub = Renderer(options: options, partials: partials, templateName: override.templateName)
        sub.stack = stack
        sub.overrides = overrides
        sub.depth = depth + 1
        try sub.render(override.block.nodes)
        let remove = override.block.indent ?? []
        let add = block.indent ?? []
        if remove.isEmpty && add.isEmpty {
            emitText(sub.out)
        } else {
            emitText(Renderer.reindent(sub.out, remove: remove, add: add, firstLine: block.indentsFirstLine))
        }
    }

    /// Removes `remove` from the start of every line that has it and puts `add` before every line.
    static func reindent(_ bytes: [UInt8], remove: [UInt8], add: [UInt8], firstLine: Bool) -> [UInt8] {
        var result: [UInt8] = []
        var lineStart = 0
        while lineStart < bytes.count {
            var end = lineStart
            while end < bytes.count && bytes[end] != 0x0A { end += 1 }
            if end < bytes.count { end += 1 }
            var s = lineStart
            if !remove.isEmpty, end - s >= remove.count, Array(bytes[s..<s + remove.count]) == remove { s += remove.count }
            if firstLine || lineStart > 0 { result.append(contentsOf: add) }
            result.append(contentsOf: bytes[s..<end])
            lineStart = end
        }
        return result
    }
}
