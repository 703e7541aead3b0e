import Collation

/// fzf's extended syntax (``SearchPattern``) and fuzzy search over the index: the plain words go through
/// the byte search as any query does; the other terms then filter its rows, each row's text part read
/// once per term; fuzzy terms rank the rows by ``FuzzyScore``.
extension SearchIndex {
    /// A term of the pattern, folded as the index folds its keys.
    struct FoldedTerm {
        var bytes: [UInt8]
        var match: SearchPattern.Match
        var negated: Bool
        var fuzzy: Bool
    }

    func fold(_ text: String) -> String {
        folding?.fold(text) ?? SearchFolding.foldLatin1(text) ?? text.lowercased()
    }

    /// The rows matching `text` read as ``SearchPattern``: with `fuzzy`, the plain terms match their letters
    /// in order with gaps and the rows come best first (one untitled section); else in list order,
    /// sectioned as the list.
    func search(_ text: String, keywords: Bool, fuzzy: Bool, previous: SearchResult?) -> SearchResult {
        let pattern = SearchPattern(text)
        guard fuzzy || pattern.isExtended else { return search(text, keywords: keywords, previous: previous) }
        var base: [String] = []
        var terms: [FoldedTerm] = []
        for term in pattern.terms {
            let hasLetters = term.text.unicodeScalars.contains { $0.properties.isAlphabetic }
            if term.match == .plain && !term.negated && (!fuzzy || !hasLetters) {
                base.append(term.text)
                continue
            }
            let folded = fold(term.text)
            // A term of only marks or spaces once folded says nothing.
            if folded.isEmpty { continue }
            terms.append(
                FoldedTerm(
                    bytes: Array(folded.utf8), match: term.match, negated: term.negated,
                    fuzzy: fuzzy && term.match == .plain))
        }
        var numbers =
            base.isEmpty && refinable(previous, pattern, keywords: keywords, fuzzy: fuzzy)
            ? previous!.rowNumbers.sorted()
            : base.isEmpty
                ? Array(0..<Int32(offsets.count - 1))
                : search(base.joined(separator: " "), keywords: keywords, previous: nil)
                    .rowNumbers
        if !base.isEmpty, refinable(previous, pattern, keywords: keywords, fuzzy: fuzzy), let previous {
            // Only rows the previous keystroke found can match: the base's rows among them.
            var shown = [Bool](repeating: false, count: offsets.count - 1)
            for r in previous.rowNumbers { shown[Int(r)] = true }
            numbers.removeAll { !shown[Int($0)] }
        }
        var scores: [Int] = []
        let ranked = terms.contains { $0.fuzzy }
        if !terms.isEmpty {
            (numbers, scores) = filter(numbers, terms, scoring: ranked)
        }
        guard ranked else {
            var result = SearchResult(query: text, rowNumbers: numbers, sections: sectionRuns(numbers), parsed: nil)
            result.pattern = (pattern, keywords, fuzzy)
            return result
        }
        // Best first; equal scores in list order (alphabetical).
        let order = numbers.indices.sorted { a, b in
            scores[a] != scores[b] ? scores[a] > scores[b] : numbers[a] < numbers[b]
        }
        let sorted = order.map { numbers[$0] }
        let sections = sorted.isEmpty ? [] : [RowSection(title: "", range: 0..<sorted.count)]
        var result = SearchResult(query: text, rowNumbers: sorted, sections: sections, parsed: nil)
        result.pattern = (pattern, keywords, fuzzy)
        return result
    }

    /// Whether every row `pattern` finds was found by `previous`: made by a pattern of the same mode whose
    /// terms each reappear, in order, with the same marks and at least as much text (a negated term
    /// unchanged: a longer one excludes fewer rows); new terms may follow; no term holds a digit.
    func refinable(_ previous: SearchResult?, _ pattern: SearchPattern, keywords: Bool, fuzzy: Bool) -> Bool {
        guard let old = previous?.pattern, old.keywords == keywords, old.fuzzy == fuzzy,
            pattern.terms.count >= old.pattern.terms.count,
            // A number may be read in another form as it grows (its E.164 digits): searched afresh.
            !pattern.terms.contains(where: { $0.text.contains(where: \.isNumber) })
        else { return false }
        for (new, was) in zip(pattern.terms, old.pattern.terms) {
            guard new.match == was.match, new.negated == was.negated else { return false }
            if was.negated ? new.text != was.text : !new.text.hasPrefix(was.text) { return false }
        }
        return true
    }

    /// The rows among `candidates` that every term accepts, and (when `scoring`) each one's summed fuzzy
    /// score. A row's byte mask rules out most rows before its bytes are read.
    func filter(_ candidates: [Int32], _ terms: [FoldedTerm], scoring: Bool) -> ([Int32], [Int]) {
        var required: (UInt64, UInt64) = (0, 0)
        for term in terms where !term.negated {
            let m = Self.mask(of: term.bytes)
            required.0 |= m.0
            required.1 |= m.1
        }
        var rows: [Int32] = []
        var scores: [Int] = []
        haystack.withUnsafeBufferPointer { hay in
            offsets.withUnsafeBufferPointer { off in
                masks.withUnsafeBufferPointer { masks in
                    textLengths.withUnsafeBufferPointer { text in
                        for r in candidates {
                            let row = Int(r)
                            guard masks[2 * row] & required.0 == required.0,
                                masks[2 * row + 1] & required.1 == required.1
                            else { continue }
                            // The text part without the separator that ends it (fields start after a 0x01).
                            let start = Int(off[row])
                            let part = UnsafeBufferPointer(rebasing: hay[start..<(start + Int(text[row]))])
                            var total = 0
                            var accepted = true
                            for term in terms where accepted {
                                let found: Int? = term.bytes.withUnsafeBufferPointer { needle in
                                    term.fuzzy
                                        ? FuzzyScore.score(needle, in: part)
                                        : (Self.holds(needle, term.match, in: part) ? 0 : nil)
                                }
                                accepted = (found != nil) != term.negated
                                total += found ?? 0
                            }
                            guard accepted else { continue }
                            rows.append(r)
                            if scoring { scores.append(total) }
                        }
                    }
                }
            }
        }
        return (rows, scores)
    }

    /// Whether a field of `row` (fields separated by 0x01, the part starting with one) holds `needle` as
    /// `match` says: anywhere, at its start, at its end, or as the whole field.
    static func holds(
        _ needle: UnsafeBufferPointer<UInt8>, _ match: SearchPattern.Match, in row: UnsafeBufferPointer<UInt8>
    )
        -> Bool
    {
        let n = needle.count
        guard n > 0, n <= row.count else { return n == 0 }
        var i = 0
        while i + n <= row.count {
            if row[i] == needle[0] {
                var j = 1
                while j < n && row[i + j] == needle[j] { j += 1 }
                if j == n {
                    let atStart = i == 0 || row[i - 1] == fieldSeparator
                    let atEnd = i + n == row.count || row[i + n] == fieldSeparator
                    switch match {
                    case .plain, .exact: return true
                    case .prefix: if atStart { return true }
                    case .suffix: if atEnd { return true }
                    case .whole: if atStart && atEnd { return true }
                    }
                }
            }
            i += 1
        }
        return false
    }
}
