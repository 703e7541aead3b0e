import Foundation

/// The lexer: physical lines (CRLF, LF, CR, doubled CR), unfolding (space or tab continuations,
/// quoted-printable soft breaks, 2.1 base64 runs), card boundaries.
extension VCardParser {
    // MARK: Lines

    func parse(_ buf: UnsafeBufferPointer<UInt8>, emit: (consuming VCardRecord, Int) -> Void) {
        guard buf.count > 0 else {
            diagnose(1, nil, "no vCard found: the input is empty (expected BEGIN:VCARD)")
            return
        }
        let count = buf.count
        input = buf
        var pos = 0
        // Skip a UTF-8 byte order mark.
        if count >= 3 && buf[0] == 0xEF && buf[1] == 0xBB && buf[2] == 0xBF { pos = 3 }
        var sawCard = false

        /// The next physical line: [start, end) and the offset after its terminator.
        // The next LF at or after the current line (count when none), kept so that a file with CR-only line
        // ends is not searched to its end for every line.
        var nextLF = -1
        @inline(__always) func physical(_ from: Int) -> (start: Int, end: Int, next: Int) {
            // The line ends at the first CR or LF: find the LF (memchr), then any CR before it.
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
            return (from, end, i)
        }

        var pending: (start: Int, end: Int, next: Int)? = pos < count ? physical(pos) : nil
        var pendingLine = 1
        while let cur = pending {
            let curLine = pendingLine
            pending = cur.next < count ? physical(cur.next) : nil
            pendingLine += 1
            if cur.start == cur.end { continue }
            st.pointee.line.removeAll()
            st.pointee.line.append(contentsOf: UnsafeBufferPointer(rebasing: buf[cur.start..<cur.end]))
            // Unfold: continuation lines start with a space or a tab; quoted-printable soft breaks end with '='.
            var encoding: UInt8?  // looked up once per content line, when needed (the parameters do not change)
            while let p = pending {
                if p.end > p.start && (buf[p.start] == space || buf[p.start] == tab) {
                    st.pointee.line.append(contentsOf: UnsafeBufferPointer(rebasing: buf[p.start + 1..<p.end]))
                } else if p.end > p.start && lineLength > 0 && line[lineLength - 1] == equals
                    && !isCardBoundary(UnsafeBufferPointer(rebasing: buf[p.start..<p.end]))
                    && (encoding ?? lineEncoding()) == 1
                {
                    // Quoted-printable soft line break.
                    encoding = 1
                    st.pointee.line.removeLast()
                    st.pointee.line.append(contentsOf: UnsafeBufferPointer(rebasing: buf[p.start..<p.end]))
                } else if p.end > p.start && buf.firstOffset(of: colon, in: p.start..<p.end) == nil
                    && (encoding ?? lineEncoding()) == 2
                {
                    // vCard 2.1 base64 continued on lines without leading space (base64 has no ':').
                    encoding = 2
                    st.pointee.line.append(contentsOf: UnsafeBufferPointer(rebasing: buf[p.start..<p.end]))
                } else {
                    break
                }
                pending = p.next < count ? physical(p.next) : nil
                pendingLine += 1
            }
            lineNumber = curLine
            if processLine(offset: cur.start, emit: emit) { sawCard = true }
        }
        lineCount = pendingLine - 1
        if inCard {
            localDiagnostics.append(
                LocalDiagnostic(
                    line: cardStartLine, column: nil,
                    message: .missingEnd(cardStart: cardStartLine, nextBegin: endsBeforeNextCard ? pendingLine : nil)))
            finishCard(endOffset: count, emit: emit)
        }
        if !sawCard && localDiagnostics.isEmpty {
            diagnose(1, nil, "no vCard found (expected BEGIN:VCARD)")
        }
    }

    /// The transfer encoding named among the parameters of the current line (before its first ':' outside
    /// quotes): 1 quoted-printable, 2 base64, 0 none.
    func lineEncoding() -> UInt8 {
        var inQuotes = false
        var i = 0
        let n = lineLength
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

    func isCardBoundary(_ p: UnsafeBufferPointer<UInt8>) -> Bool {
        matchesKeyword(p, "END:VCARD") || matchesKeyword(p, "BEGIN:VCARD")
    }

    /// Whether `p` is `keyword` (any case) followed by nothing but spaces and tabs.
    func matchesKeyword(_ p: UnsafeBufferPointer<UInt8>, _ keyword: StaticString) -> Bool {
        let k = keyword.utf8Start
        let kn = keyword.utf8CodeUnitCount
        let n = p.count
        guard n >= kn else { return false }
        for i in 0..<kn where upper(p[i]) != k[i] { return false }
        for i in kn..<n where p[i] != space && p[i] != tab { return false }
        return true
    }

    // MARK: Content lines

    /// Handles one unfolded content line; returns true when it began a card.
    func processLine(offset: Int, emit: (consuming VCardRecord, Int) -> Void) -> Bool {
        let n = lineLength
        var i = 0
        while i < n && (line[i] == space || line[i] == tab) { i += 1 }
        if i == n { return false }
        // BEGIN and END lines start with B or E (any case); other lines skip both keyword tests, except
        // those ending in "d" that may be a grouped `home.BEGIN:VCARD` / `home.END:VCARD` (RFC 2426 §4).
        let first = line[i] | 0x20
        var start = i
        var maybeBoundary = first == 0x62 || first == 0x65
        if !maybeBoundary && line[n - 1] | 0x20 == 0x64, let g = groupedBoundaryStart(from: i) {
            start = g
            maybeBoundary = true
        }
        if maybeBoundary && matchesKeyword(line.extracting(start..<n), "BEGIN:VCARD") {
            if inCard {
                localDiagnostics.append(
                    LocalDiagnostic(
                        line: cardStartLine, column: nil,
                        message: .missingEnd(cardStart: cardStartLine, nextBegin: lineNumber)))
                finishCard(endOffset: offset, emit: emit)
            }
            inCard = true
            junkReported = false
            cardStartLine = lineNumber
            cardStartOffset = offset
            st.pointee.builder.reset()
            return true
        }
        if maybeBoundary && matchesKeyword(line.extracting(start..<n), "END:VCARD") {
            if inCard {
                finishCard(endOffset: offset, emit: emit)
            } else {
                diagnose(lineNumber, i + 1, "END:VCARD without a BEGIN:VCARD before it")
            }
            return false
        }
        guard inCard else {
            if !junkReported {
                diagnose(lineNumber, i + 1, "expected BEGIN:VCARD, found '\(preview(from: i))'")
                junkReported = true
            }
            return false
        }
        if let property = parseHead(from: i) {
            handle(property, mode: mode, into: &st.pointee.builder)
        }
        return false
    }

    /// For a line `group.BEGIN:VCARD` or `group.END:VCARD` (group: letters, digits, '-'), the index after
    /// the dot; nil otherwise. Called only for lines ending in "d".
    func groupedBoundaryStart(from i: Int) -> Int? {
        let n = lineLength
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

    func preview(from i: Int) -> String {
        let end = min(lineLength, i + 40)
        var text = String(decoding: line.extracting(i..<end), as: UTF8.self)
        if end < lineLength { text += "…" }
        return text
    }
}
