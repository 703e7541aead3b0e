import Foundation
import Support

/// The vCard lexer: physical lines (CRLF, LF, CR, the doubled CR of some phone exports), unfolding (space or tab
/// continuations, quoted-printable soft breaks, vCard 2.1 base64 runs) into one content line at a time, and
/// line counting. It knows nothing of cards or properties beyond what unfolding needs.
///
/// ```swift
/// var lexer = VCardLexer()
/// defer { lexer.deallocate() }
/// Array("NOTE:folded\r\n  line\r\n".utf8).withUnsafeBufferPointer { input in
///     lexer.start(input)
///     while lexer.next() { print(lexer.lineNumber, String(decoding: lexer.line.all, as: UTF8.self)) }
/// }
/// ```
struct VCardLexer {
    /// A physical line: its bytes are `input[start..<end]`, the next one starts at `next`.
    private struct PhysicalLine {
        var start: Int
        var end: Int
        var next: Int
    }

    /// The current content line, unfolded. Others may rewrite its bytes in place (the property parser
    /// upper-cases names); only the lexer changes its length. Owned by the lexer (``deallocate()``).
    private(set) var line = CheckedBuffer<UInt8>(capacity: 4096)
    /// The input being read: the caller's bytes, valid while it reads them (``start(_:)`` to the last
    /// ``next()``); never written. Unsafe code: it and its slices (`UnsafeBufferPointer(rebasing:)`) are
    /// read-only views of the caller's bytes, so that a memory-mapped file is read without a copy.
    private(set) var input = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
    /// The 1-based number of the first physical line of the current content line.
    private(set) var lineNumber = 0
    /// The offset in ``input`` where the current content line starts.
    private(set) var lineOffset = 0
    /// The physical line after the current content line (nil at the end of the input), and its number.
    private var pending: PhysicalLine?
    private var pendingNumber = 1
    /// The next LF at or after the current line (the input's length when none), kept so that a file with
    /// CR-only line ends is not searched to its end for every line.
    private var nextLF = -1

    /// Physical lines read so far (every line of the input once ``next()`` returned false).
    var lineCount: Int { pendingNumber - 1 }

    /// Starts reading `input` (after a UTF-8 byte order mark, if any) from line 1.
    mutating func start(_ input: UnsafeBufferPointer<UInt8>) {
        self.input = input
        line.removeAll()
        lineNumber = 0
        lineOffset = 0
        nextLF = -1
        pendingNumber = 1
        var pos = 0
        if input.count >= 3 && input[0] == 0xEF && input[1] == 0xBB && input[2] == 0xBF { pos = 3 }
        pending = pos < input.count ? physical(pos) : nil
    }

    /// The physical line starting at `from`: it ends at the first CR or LF (found with `memchr`).
    @inline(__always) private mutating func physical(_ from: Int) -> PhysicalLine {
        let buf = input
        let count = buf.count
        if nextLF < from { nextLF = buf.firstOffset(of: lf, in: from..<count) ?? count }
        var i = nextLF
        if let r = buf.firstOffset(of: cr, in: from..<i) { i = r }
        let end = i
        if i < count && buf[i] == cr {
            while i < count && buf[i] == cr { i += 1 }
            if i < count && buf[i] == lf { i += 1 }
        } else if i < count {
            i += 1
        }
        return PhysicalLine(start: from, end: end, next: i)
    }

    /// Reads the next non-empty content line into ``line`` (unfolded) and sets ``lineNumber`` and
    /// ``lineOffset``; false at the end of the input.
    mutating func next() -> Bool {
        let buf = input
        let count = buf.count
        while let cur = pending {
            let curNumber = pendingNumber
            pending = cur.next < count ? physical(cur.next) : nil
            pendingNumber += 1
            if cur.start == cur.end { continue }
            line.removeAll()
            line.append(contentsOf: UnsafeBufferPointer(rebasing: buf[cur.start..<cur.end]))
            // Unfold: continuation lines start with a space or a tab; quoted-printable soft breaks end with '='.
            var encoding: UInt8?  // looked up once per content line, when needed (the parameters do not change)
            while let p = pending {
                if p.end > p.start && (buf[p.start] == space || buf[p.start] == tab) {
                    line.append(contentsOf: UnsafeBufferPointer(rebasing: buf[p.start + 1..<p.end]))
                } else if p.end > p.start && line.count > 0 && line[line.count - 1] == equals
                    && !Self.isCardBoundary(UnsafeBufferPointer(rebasing: buf[p.start..<p.end]))
                    && (encoding ?? lineEncoding()) == 1
                {
                    // Quoted-printable soft line break.
                    encoding = 1
                    line.removeLast()
                    line.append(contentsOf: UnsafeBufferPointer(rebasing: buf[p.start..<p.end]))
                } else if p.end > p.start && buf.firstOffset(of: colon, in: p.start..<p.end) == nil
                    && (encoding ?? lineEncoding()) == 2
                {
                    // vCard 2.1 base64 continued on lines without leading space (base64 has no ':').
                    encoding = 2
                    line.append(contentsOf: UnsafeBufferPointer(rebasing: buf[p.start..<p.end]))
                } else {
                    break
                }
                pending = p.next < count ? physical(p.next) : nil
                pendingNumber += 1
            }
            lineNumber = curNumber
            lineOffset = cur.start
            return true
        }
        return false
    }

    /// The transfer encoding named among the parameters of the current line (before its first ':' outside
    /// quotes): 1 quoted-printable, 2 base64, 0 none.
    func lineEncoding() -> UInt8 {
        var inQuotes = false
        var i = 0
        let n = line.count
        @inline(__always) func at(_ k: Int, _ word: StaticString) -> Bool {
            let w = word.utf8Start
            let len = word.utf8CodeUnitCount
            guard k + len <= n else { return false }
            for j in 0..<len where upper(line[k + j]) != w[j] { return false }
            return true
        }
        while i < n {
            let b = line[i]
            if b == quote {
                inQuotes.toggle()
            } else if b == colon && !inQuotes {
                return 0
            } else if !inQuotes && (b == semicolon || b == equals) {
                // A parameter value or a bare 2.1 parameter starts here.
                let k = i + 1
                if at(k, "QUOTED-PRINTABLE") { return 1 }
                if at(k, "BASE64") { return 2 }
                if b == equals && at(k, "B") && k + 1 < n && (line[k + 1] == semicolon || line[k + 1] == colon) {
                    return 2
                }
            }
            i += 1
        }
        return 0
    }

    /// Whether `p` is a BEGIN:VCARD or END:VCARD line.
    static func isCardBoundary(_ p: UnsafeBufferPointer<UInt8>) -> Bool {
        matchesKeyword(p, "END:VCARD") || matchesKeyword(p, "BEGIN:VCARD")
    }

    /// Whether `p` is `keyword` (any case) followed by nothing but spaces and tabs.
    static func matchesKeyword(_ p: UnsafeBufferPointer<UInt8>, _ keyword: StaticString) -> Bool {
        let k = keyword.utf8Start
        let kn = keyword.utf8CodeUnitCount
        let n = p.count
        guard n >= kn else { return false }
        for i in 0..<kn where upper(p[i]) != k[i] { return false }
        for i in kn..<n where p[i] != space && p[i] != tab { return false }
        return true
    }

    /// For a current line `group.BEGIN:VCARD` or `group.END:VCARD` (group: letters, digits, '-') whose group
    /// starts at `i`, the index after the dot; nil otherwise.
    func groupedBoundaryStart(from i: Int) -> Int? {
        let n = line.count
        var k = i
        while k < n {
            let b = line[k] | 0x20
            guard (b >= 0x61 && b <= 0x7A) || (line[k] >= 0x30 && line[k] <= 0x39) || line[k] == 0x2D else { break }
            k += 1
        }
        guard k > i, k < n, line[k] == dot else { return nil }
        let b = line[k + 1 < n ? k + 1 : k] | 0x20
        return b == 0x62 || b == 0x65 ? k + 1 : nil
    }

    /// The current line from `i`, at most 40 bytes of it, for a diagnostic.
    func preview(from i: Int) -> String { linePreview(line, from: i) }

    /// Frees the line buffer; the owner calls it once, and uses the lexer no more.
    func deallocate() { line.deallocate() }
}
