// Header folding (RFC 5322 2.2.3), unstructured fields
extension MIME {
    /// Appends tokens separated by single spaces, folding (CRLF SP) before a token that would pass 78.
    struct Folder {
        var lineLength: Int
        var hasToken = false
        /// Just folded: the continuation line's leading space is already written.
        var atLineStart = false
        /// The current line holds an encoded-word, so it must stay ≤ 76 octets (RFC 2047 2).
        var lineHasEncodedWord = false

        mutating func append(_ token: some Collection<UInt8>, encodedWord: Bool = false, to out: inout [UInt8]) {
            if atLineStart {
                atLineStart = false
            } else {
                let limit = (lineHasEncodedWord || encodedWord) ? 76 : 78
                if hasToken && lineLength + 1 + token.count > limit {
                    out.append(contentsOf: crlf)
                    lineLength = 0
                    lineHasEncodedWord = false
                }
                out.append(0x20)
                lineLength += 1
            }
            out.append(contentsOf: token)
            lineLength += token.count
            hasToken = true
            if encodedWord { lineHasEncodedWord = true }
        }

        /// Room left on the current line for an encoded-word (such lines stay ≤ 76 octets).
        var roomForEncodedWord: Int { atLineStart ? 76 - lineLength : 76 - lineLength - 1 }

        mutating func fold(to out: inout [UInt8]) {
            out.append(contentsOf: crlf)
            out.append(0x20)
            lineLength = 1
            atLineStart = true
            lineHasEncodedWord = false
        }
    }

    /// Unstructured field (Subject, extra headers): plain folded ASCII words when that is lossless, else
    /// encoded-words.
    static func appendUnstructured(_ name: String, _ value: String, to out: inout [UInt8]) {
        out.append(contentsOf: name.utf8)
        out.append(UInt8(ascii: ":"))
        var folder = Folder(lineLength: name.utf8.count + 1)
        if value.isEmpty {
            out.append(contentsOf: crlf)
            return
        }
        if isPlainFoldable(value.utf8) {
            var start = value.utf8.startIndex
            let u = value.utf8
            var idx = start
            while idx < u.endIndex {
                if u[idx] == 0x20 {
                    folder.append(u[start..<idx], to: &out)
                    start = u.index(after: idx)
                }
                idx = u.index(after: idx)
            }
            folder.append(u[start..<u.endIndex], to: &out)
        } else {
            appendEncodedWords(value[...].utf8, folder: &folder, to: &out)
        }
        out.append(contentsOf: crlf)
    }

    /// Printable ASCII, single spaces between words, no leading/trailing space, no word longer than 70
    /// octets, nothing that looks like an encoded-word.
    static func isPlainFoldable(_ u: String.UTF8View) -> Bool {
        var previous: UInt8 = 0x20
        var wordLength = 0
        var first = true
        for b in u {
            if b == 0x20 {
                if previous == 0x20 { return false }  // leading space or a run of spaces
                wordLength = 0
            } else {
                guard b > 0x20 && b < 0x7F else { return false }
                if b == UInt8(ascii: "?") && previous == UInt8(ascii: "=") { return false }
                wordLength += 1
                if wordLength > 70 { return false }
            }
            previous = b
            first = false
        }
        return !first && previous != 0x20
    }
}
