import Foundation

// Writing output: text, indented text, escaped values, integers, and the output size limit
extension Renderer {
    @inline(__always) mutating func emitText(_ bytes: UnsafeBufferPointer<UInt8>) {
        if indent.isEmpty {
            out.append(bytes)
        } else {
            emitIndented(bytes)
        }
    }

    mutating func emitText(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { emitText($0) }
    }

    mutating func emitIndented(_ bytes: UnsafeBufferPointer<UInt8>) {
        var start = 0
        for i in bytes.indices where bytes[i] == 0x0A {
            if atLineStart { out.append(indent) }
            out.append(UnsafeBufferPointer(rebasing: bytes[start...i]))
            atLineStart = true
            start = i + 1
        }
        if start < bytes.count {
            if atLineStart { out.append(indent) }
            out.append(UnsafeBufferPointer(rebasing: bytes[start...]))
            atLineStart = false
        }
    }

    @inline(__always) mutating func beginValue() {
        if !indent.isEmpty {
            if atLineStart { out.append(indent) }
            atLineStart = false
        }
    }

    /// Writes a value's text, escaped for the output when `escaped`.
    mutating func emitValue(
        _ text: String, escaped: Bool, name: String, _ pos: SourcePosition, isolated: Bool = true
    ) throws {
        if text.isEmpty { return }
        if isolated && options.bidiIsolation != .none {
            return try emitValue(
                options.bidiIsolation.wrap(text, inRightToLeftText: rightToLeftText), escaped: escaped, name: name,
                pos, isolated: false)
        }
        beginValue()
        if case .header(let policy) = options.escaping, policy == .reject,
            text.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D })
        {
            throw TemplatingError.lineBreakInHeader(
                name: name, template: templateName, line: pos.line,
                column: pos.column, recipient: options.recipient)
        }
        let html = escaped && escapeHTML
        let uri = escaped && escapeURI
        func write(_ buf: UnsafeBufferPointer<UInt8>) {
            if html {
                out.appendHTMLEscaped(buf)
            } else if uri {
                out.appendPercentEncoded(buf)
            } else {
                out.append(buf)
            }
        }
        if text.utf8.withContiguousStorageIfAvailable(write) == nil { Array(text.utf8).withUnsafeBufferPointer(write) }
    }

    /// Writes an integer's decimal digits (no escaping needed).
    @inline(__always) mutating func emitInt(_ value: Int) {
        beginValue()
        if value >= 0 && value < 10 {
            out.append(UInt8(0x30 + value))
            return
        }
        var n = value.magnitude
        var digits = 0
        var m = n
        repeat {
            digits += 1
            m /= 10
        } while m > 0
        let total = digits + (value < 0 ? 1 : 0)
        out.reserve(total)
        out.writeDigits(n: &n, total: total, negative: value < 0)
    }

    /// Throws ``TemplatingError/outputTooLarge(template:line:column:limit:recipient:)`` when the output is
    /// over the limit; `position` is the instruction that was running (nil: the end of the render).
    func checkOutputSize(at position: SourcePosition?) throws {
        guard out.count > outputLimit else { return }
        throw TemplatingError.outputTooLarge(
            template: templateName, line: position?.line ?? 0, column: position?.column ?? 0, limit: outputLimit,
            recipient: options.recipient)
    }
}
