import Collation
import ContactsCore
import Foundation

/// Queries: parsing, narrowing a previous result, searching, grouping rows into sections.
extension SearchIndex {
    /// A query in the form the index compares.
    struct Query: Equatable {
        var keywords: Bool
        /// Folded query (plain) or its tokens (keywords), as UTF-8.
        var needles: [[UInt8]]
        /// For a query of digits and punctuation only: its digits, matched against phone fields too.
        var digits: [UInt8]?
        /// For such a query written as a number (national form with a trunk prefix, `00` international
        /// prefix): the digits of its E.164 form when they differ from `digits`; a row matches them too.
        var international: [UInt8]? = nil
        var matchesEverything: Bool { needles.isEmpty && digits == nil }
    }

    /// The digits of the E.164 form of a query typed as people type numbers ("020 7946 0140" in GB,
    /// "01 99 00 03 88" in FR, "0033 1 99 00 03 88" anywhere): the number read with `region` by
    /// libphonenumber, else, for a leading `00` (the international prefix of most of the world), read as
    /// "+" and what follows; nil when it is no number or its digits are the query's own.
    static func internationalDigits(of text: String, region: String) -> [UInt8]? {
        let digits = text.utf8.filter { $0 >= 0x30 && $0 <= 0x39 }
        // Written with "+", its digits already are those of E.164.
        guard digits.count >= 4, !text.contains("+") else { return nil }
        let normalizer = PhoneNormalizer.shared
        var e164 = normalizer.e164(text, region: region)
        if e164 == nil, digits.starts(with: [0x30, 0x30]) {
            e164 = normalizer.e164("+" + String(decoding: digits.dropFirst(2), as: UTF8.self), region: "ZZ")
        }
        guard let e164 else { return nil }
        let result = Array(e164.utf8.dropFirst())
        return result == digits ? nil : result
    }

    func parse(_ text: String, keywords: Bool) -> Query {
        if SearchFolding.isHangulInitialsQuery(text) {
            let jamo = text.unicodeScalars.filter { !$0.properties.isWhitespace }
            let s = String(String.UnicodeScalarView(jamo))
            return Query(keywords: keywords, needles: [Array(s.utf8)], digits: nil)
        }
        let folded = folding?.fold(text) ?? SearchFolding.foldLatin1(text) ?? text.lowercased()
        let hasLetters = text.unicodeScalars.contains { $0.properties.isAlphabetic }
        let digitBytes = text.utf8.filter { $0 >= 0x30 && $0 <= 0x39 }
        let digits = !hasLetters && !digitBytes.isEmpty ? Array(digitBytes) : nil
        // Read as a number once per search (not per row).
        let international = digits == nil ? nil : Self.internationalDigits(of: text, region: region)
        if folded.isEmpty {
            return Query(keywords: keywords, needles: [], digits: digits, international: international)
        }
        if !keywords && text.contains("@") {
            // An email address: compare as written (emails are indexed lowercased, not folded).
            let raw = text.trimmingCharacters(in: .whitespaces).lowercased()
            return Query(keywords: false, needles: [Array(raw.utf8)], digits: nil)
        }
        // Words in any order: each is a needle of its own (a query of digits stays one, read as a number).
        let needles =
            keywords || digits == nil ? folded.split(separator: " ").map { Array($0.utf8) } : [Array(folded.utf8)]
        return Query(keywords: keywords, needles: needles, digits: digits, international: international)
    }

    /// True when every row matching `narrower` also matches `wider` (so `wider`'s result can be filtered).
    static func narrows(_ narrower: Query, _ wider: Query) -> Bool {
        guard narrower.keywords == wider.keywords else { return false }
        if wider.matchesEverything { return true }
        if let wd = wider.digits {
            // Digit queries: the new digits must extend the old ones, and the text must as well.
            guard let nd = narrower.digits, contains(nd, wd) else { return false }
        }
        if let ni = narrower.international {
            // Rows found through the number's E.164 digits must have been found by the wider query too.
            guard let wi = wider.international, contains(ni, wi) else { return false }
        }
        // Each old word must be a prefix (keywords) or a part (plain) of the new word at the same place; new
        // words may be added.
        guard narrower.needles.count >= wider.needles.count else { return false }
        for (n, w) in zip(narrower.needles, wider.needles) {
            if narrower.keywords ? !n.starts(with: w) : !contains(n, w) { return false }
        }
        return true
    }

    static func contains(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        if b.isEmpty { return true }
        if b.count > a.count { return false }
        return a.withUnsafeBufferPointer { pa in
            b.withUnsafeBufferPointer { pb in
                find(pb.baseAddress!, pb.count, in: pa.baseAddress!, pa.count, atTokenStart: false)
            }
        }
    }

    func search(_ text: String, keywords: Bool, previous: SearchResult?) -> SearchResult {
        let query = parse(text, keywords: keywords)
        let rowCount = offsets.count - 1
        var numbers: [Int32]
        if query.matchesEverything {
            numbers = Array(0..<Int32(rowCount))
        } else if let previous, let previousQuery = previous.parsed, Self.narrows(query, previousQuery) {
            // The rows holding the query's letter pairs: the answer, or candidates fewer than the previous one.
            if let pairs = pairCandidates(query), pairs.exact || pairs.rows.count < previous.rowNumbers.count {
                numbers = pairs.exact ? pairs.rows : filter(pairs.rows, query)
            } else {
                numbers = filter(previous.rowNumbers, query)
            }
        } else if let pairs = pairCandidates(query) {
            numbers = pairs.exact ? pairs.rows : filter(pairs.rows, query)
        } else {
            numbers = scanAll(query)
        }
        // A query with Han also finds the names whose Han is kept as written (Japanese names): its Han
        // compared as typed, the rest folded. Such a result is not refined by the next keystroke.
        if let folding, SearchFolding.containsHan(text) {
            let kept = folding.foldKeepingHan(text)
            let asWritten = Query(
                keywords: keywords,
                needles: keywords ? kept.split(separator: " ").map { Array($0.utf8) } : [Array(kept.utf8)],
                digits: nil)
            numbers = Self.union(numbers, scanAll(asWritten))
            return SearchResult(query: text, rowNumbers: numbers, sections: sectionRuns(numbers), parsed: nil)
        }
        return SearchResult(query: text, rowNumbers: numbers, sections: sectionRuns(numbers), parsed: query)
    }

    /// The rows of two results in list order (both are ascending), each once.
    static func union(_ a: [Int32], _ b: [Int32]) -> [Int32] {
        var out: [Int32] = []
        out.reserveCapacity(a.count + b.count)
        var i = 0
        var j = 0
        while i < a.count || j < b.count {
            if j == b.count || (i < a.count && a[i] < b[j]) {
                out.append(a[i])
                i += 1
            } else {
                if i < a.count && a[i] == b[j] { i += 1 }
                out.append(b[j])
                j += 1
            }
        }
        return out
    }

    /// Groups result rows (in list order) into runs of the same section. Rows are in section order, so
    /// each run's end is found by galloping and halving (a million-row result in a few hundred looks).
    func sectionRuns(_ numbers: [Int32]) -> [RowSection] {
        var sections: [RowSection] = []
        var start = 0
        let count = numbers.count
        while start < count {
            let s = sectionOfRow[Int(numbers[start])]
            func inRun(_ position: Int) -> Bool { sectionOfRow[Int(numbers[position])] == s }
            // The run holds start..<low+1 and not high (or high is the end).
            var low = start
            var step = 1
            while low + step < count && inRun(low + step) {
                low += step
                step *= 2
            }
            var high = min(count, low + step)
            while high - low > 1 {
                let mid = (low + high) / 2
                if inRun(mid) { low = mid } else { high = mid }
            }
            sections.append(RowSection(title: sectionTitles[Int(s)], range: start..<high))
            start = high
        }
        return sections
    }
}
