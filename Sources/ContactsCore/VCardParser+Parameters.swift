import Foundation

/// Parameters as values: the verbatim list for unknown properties, SORT-AS, RFC 6868 caret escapes.
extension VCardParser {
    /// The parameters of the current line as values (for properties kept verbatim and rare lookups).
    func materializedParameters() -> [VCardParameter] {
        var result: [VCardParameter] = []
        result.reserveCapacity(st.pointee.paramSpans.count)
        for p in st.pointee.paramSpans.all {
            let name = text(p.nameStart, p.nameEnd)
            if p.valuesStart == p.valuesEnd {
                let isEncoding = encodingKind(p.nameStart, p.nameEnd) != 0 || name == "8BIT" || name == "7BIT"
                result.append(VCardParameter(name: isEncoding ? "ENCODING" : "TYPE", values: [name]))
                continue
            }
            let splitQuoted = name == "TYPE" || name == "SORT-AS"
            var values: [String] = []
            for v in st.pointee.valueSpans.extracting(p.valuesStart..<p.valuesEnd) {
                let value = paramText(v.start, v.end)
                if v.quoted && splitQuoted && value.utf8.contains(comma) {
                    values.append(
                        contentsOf: value.split(separator: ",", omittingEmptySubsequences: false).map(String.init))
                } else {
                    values.append(value)
                }
            }
            result.append(VCardParameter(name: name, values: values))
        }
        return result
    }

    /// The `SORT-AS` values of the current line, as ``materializedParameters()`` gives them (quoted values
    /// split at commas), without building the other parameters.
    func appendSortAs(to out: inout [String]) {
        if out.isEmpty {
            // Room for every value at once (at most one per comma of a quoted value, plus one per value).
            var parts = 0
            for p in st.pointee.paramSpans.all
            where p.valuesStart < p.valuesEnd && isKeyword(p.nameStart, p.nameEnd, "SORT-AS") {
                for v in st.pointee.valueSpans.extracting(p.valuesStart..<p.valuesEnd) {
                    parts += 1
                    if v.quoted { for k in v.start..<v.end where line[k] == comma { parts += 1 } }
                }
            }
            if parts > 1 { out.reserveCapacity(parts) }
        }
        for p in st.pointee.paramSpans.all
        where p.valuesStart < p.valuesEnd && isKeyword(p.nameStart, p.nameEnd, "SORT-AS") {
            for v in st.pointee.valueSpans.extracting(p.valuesStart..<p.valuesEnd) {
                var hasComma = false
                var asciiAround = true
                if v.quoted {
                    for k in v.start..<v.end where line[k] == comma {
                        hasComma = true
                        // A comma next to a non-ASCII character may be part of a larger Character (a combining
                        // mark after it, a prepended mark before it): then split as a String.
                        if asciiAround && !commaStandsAlone(at: k, in: v.start..<v.end) { asciiAround = false }
                    }
                }
                if hasComma && !asciiAround {
                    out.append(
                        contentsOf: paramText(v.start, v.end).split(separator: ",", omittingEmptySubsequences: false)
                            .map(String.init))
                } else if hasComma {
                    // RFC 6868 escapes never produce a comma, so splitting the bytes splits the decoded text.
                    var a = v.start
                    for k in v.start...v.end where k == v.end || line[k] == comma {
                        out.append(paramText(a, k))
                        a = k + 1
                    }
                } else {
                    out.append(paramText(v.start, v.end))
                }
            }
        }
    }

    /// Whether the comma at `line[k]` is a Character of its own within `line[range]` (as `String.split`
    /// sees it): true when its neighbours are ASCII, or when they do not join it into one grapheme.
    func commaStandsAlone(at k: Int, in range: Range<Int>) -> Bool {
        let before = k > range.lowerBound && line[k - 1] >= 0x80
        let after = k + 1 < range.upperBound && line[k + 1] >= 0x80
        if !before && !after { return true }
        var s = range.lowerBound
        var e = range.upperBound
        if before {
            // The character before: back over at most 3 continuation bytes to its lead byte.
            var a = k - 1
            while a > range.lowerBound && k - a < 4 && line[a] & 0xC0 == 0x80 { a -= 1 }
            s = a
        } else {
            s = k
        }
        if after {
            var z = k + 2
            while z < range.upperBound && z - k < 5 && line[z] & 0xC0 == 0x80 { z += 1 }
            e = z
        } else {
            e = k + 1
        }
        let text = String(decoding: line.extracting(s..<e), as: UTF8.self)
        // Split as String.split would: the comma stands alone when every piece around it has 1 Character.
        let expected = (before ? 1 : 0) + 1 + (after ? 1 : 0)
        return text.count == expected && text.unicodeScalars.count == expected
    }

    /// Parameter value text with RFC 6868 escapes (^n, ^^, ^') decoded.
    func paramText(_ s: Int, _ e: Int) -> String {
        var hasCaret = false
        for k in s..<e where line[k] == caret {
            hasCaret = true
            break
        }
        let raw = line.extracting(s..<e)
        guard hasCaret else { return String(decoding: raw, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(e - s)
        var k = s
        while k < e {
            let b = line[k]
            if b == caret && k + 1 < e {
                switch line[k + 1] {
                case 0x6E, 0x4E:
                    out.append(lf)
                    k += 2
                    continue
                case caret:
                    out.append(caret)
                    k += 2
                    continue
                case 0x27:
                    out.append(quote)
                    k += 2
                    continue
                default: break
                }
            }
            out.append(b)
            k += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

}
