import CICU

/// An error reported by ICU through the bridge.
///
/// ```swift
/// do { _ = try Collator(locale: "sv") } catch let error as ICUError { print(error) }
/// ```
public enum ICUError: Error, Equatable, CustomStringConvertible, Sendable {
    /// ICU returned a failure status while doing `operation`.
    case failure(operation: String, code: Int32, name: String)
    /// A MessageFormat or transliterator rule pattern did not parse.
    case syntax(operation: String, line: Int, column: Int, code: Int32, name: String)
    /// Bytes could not be converted from a charset; `offset` is the first bad byte.
    case invalidBytes(charset: String, offset: Int)
    /// A value the bridge cannot accept (too long for ICU's 32-bit lengths, out of range).
    case invalidArgument(String)
    /// A MessageFormat pattern nests sub-messages deeper than `limit` (see
    /// ``MessageFormat/maximumNestingDepth``); `line` and `column` locate the sub-message one level too deep.
    case nestingTooDeep(line: Int, column: Int, limit: Int)
    /// A domain name is not valid by UTS #46 / IDNA2008; `errors` says why.
    case invalidDomainName(String, errors: UTS46.Errors)

    public var description: String {
        switch self {
        case .failure(let op, let code, let name): return "\(op) failed: \(name) (\(code))"
        case .syntax(let op, let line, let column, _, let name):
            return "\(op): syntax error at line \(line), column \(column): \(name)"
        case .invalidBytes(let charset, let offset): return "invalid \(charset) bytes at offset \(offset)"
        case .invalidArgument(let text): return "invalid argument: \(text)"
        case .invalidDomainName(let name, let errors): return "invalid domain name '\(name)': \(errors)"
        case .nestingTooDeep(let line, let column, let limit):
            return "MessageFormat: sub-messages nest more than \(limit) levels deep at line \(line), column \(column)"
        }
    }

    static func name(_ code: Int32) -> String { String(cString: cicu_error_name(code)) }

    /// Throws when `status` is an error (> 0).
    @inline(__always)
    static func check(_ status: Int32, _ operation: @autoclosure () -> String) throws {
        if status > 0 { throw ICUError.failure(operation: operation(), code: status, name: name(status)) }
    }
}

/// The version of the system ICU the bridge links against ("72.1").
public let icuVersion: String = String(cString: cicu_version())

/// Calls a preflighting bridge function that writes UTF-8: once with a stack-sized guess, again with the
/// exact size when the guess was too small.
@inline(__always)
func preflightString(
    _ operation: @autoclosure () -> String, guess: Int = 256,
    _ body: (UnsafeMutablePointer<CChar>?, Int32, inout Int32) -> Int32
) throws -> String {
    var capacity = max(guess, 16)
    for _ in 0..<2 {
        var status: Int32 = 0
        var needed: Int32 = 0
        let result: String? = withUnsafeTemporaryAllocation(of: CChar.self, capacity: capacity) { buffer in
            needed = body(buffer.baseAddress, Int32(capacity), &status)
            if status > 0 { return nil }
            return String(
                decoding: UnsafeRawBufferPointer(start: buffer.baseAddress, count: Int(needed)), as: UTF8.self)
        }
        if let result { return result }
        if status != CICU_BUFFER_OVERFLOW { try ICUError.check(status, operation()) }
        capacity = Int(needed) + 1
    }
    throw ICUError.failure(
        operation: operation(), code: CICU_BUFFER_OVERFLOW, name: ICUError.name(CICU_BUFFER_OVERFLOW))
}

/// Runs `body` with a UTF-8 pointer and length for `string` without copying when the string is native.
@inline(__always)
func withUTF8<R>(_ string: String, _ body: (UnsafePointer<CChar>?, Int32) throws -> R) throws -> R {
    var copy = string
    return try copy.withUTF8 { buffer in
        guard buffer.count <= Int32.max else { throw ICUError.invalidArgument("string of \(buffer.count) bytes") }
        return try buffer.withMemoryRebound(to: CChar.self) { chars in
            try body(chars.baseAddress, Int32(chars.count))
        }
    }
}
