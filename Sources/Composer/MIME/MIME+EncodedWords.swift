// RFC 2047 encoded-words
extension MIME {
    static func isQSafe(_ b: UInt8) -> Bool {
        (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || (b >= 0x30 && b <= 0x39) || b == 0x21 || b == 0x2A
            || b == 0x2B || b == 0x2D || b == 0x2F
    }

    static func qLength(_ b: UInt8) -> Int { (isQSafe(b) || b == 0x20) ? 1 : 3 }

    /// Appends `text` as encoded-words (B or Q, whichever is shorter overall), folding between words.
    /// Words end only on UTF-8 sequence boundaries.
    ///
    /// With `preferSingle` (display names), text that fits one word is never split: Python's `email`
    /// package inserts a space between adjacent encoded-words in a phrase, against RFC 2047 6.2.
    static func appendEncodedWords(
        _ text: Substring.UTF8View, preferSingle: Bool = false, folder: inout Folder, to out: inout [UInt8]
    ) {
        let bytes = Array(text)
        var qTotal = 0
        for b in bytes { qTotal += qLength(b) }
        let bTotal = (bytes.count + 2) / 3 * 4
        let useQ = qTotal <= bTotal
        if preferSingle && min(qTotal, bTotal) + 12 <= 75 && !folder.atLineStart
            && min(qTotal, bTotal) + 12 > folder.roomForEncodedWord
        {
            folder.fold(to: &out)
        }
        let prefix: [UInt8] = Array((useQ ? "=?UTF-8?Q?" : "=?UTF-8?B?").utf8)
        var i = 0
        var word: [UInt8] = []
        word.reserveCapacity(75)
        while i < bytes.count {
            var room = min(75, folder.roomForEncodedWord)
            if room < 20 && !folder.atLineStart {
                folder.fold(to: &out)
                room = 75
            }
            let payloadRoom = room - 12
            // Take whole UTF-8 sequences while they fit.
            var j = i
            var used = 0
            while j < bytes.count {
                let len = utf8SequenceLength(bytes[j])
                let end = min(j + len, bytes.count)
                var cost = 0
                if useQ {
                    for k in j..<end { cost += qLength(bytes[k]) }
                    if used + cost > payloadRoom { break }
                    used += cost
                } else {
                    let newCount = j + (end - j) - i
                    if (newCount + 2) / 3 * 4 > payloadRoom { break }
                }
                j = end
            }
            if j == i { j = min(i + utf8SequenceLength(bytes[i]), bytes.count) }  // never happens with room ≥ 20
            word.removeAll(keepingCapacity: true)
            word.append(contentsOf: prefix)
            if useQ {
                for k in i..<j {
                    let b = bytes[k]
                    if b == 0x20 {
                        word.append(UInt8(ascii: "_"))
                    } else if isQSafe(b) {
                        word.append(b)
                    } else {
                        word.append(UInt8(ascii: "="))
                        word.append(hexDigits[Int(b >> 4)])
                        word.append(hexDigits[Int(b & 15)])
                    }
                }
            } else {
                Base64.append(bytes[i..<j], to: &word)
            }
            word.append(contentsOf: "?=".utf8)
            folder.append(word, encodedWord: true, to: &out)
            i = j
        }
    }

    @inline(__always) static func utf8SequenceLength(_ lead: UInt8) -> Int {
        if lead < 0x80 { return 1 }
        if lead >= 0xF0 { return 4 }
        if lead >= 0xE0 { return 3 }
        if lead >= 0xC0 { return 2 }
        return 1
    }
}
