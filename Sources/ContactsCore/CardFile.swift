import Foundation

/// A vCard file's bytes cut into cards, each card's contact known: the cards are found by their
/// `BEGIN:VCARD` and `END:VCARD` lines, read one by one, and their ids made unique as the reader of the
/// whole file makes them. Editing one card changes only its bytes.
struct CardFile {
    let bytes: [UInt8]
    /// The byte range of each card, its line ending included.
    let cards: [Range<Int>]
    /// Every card's contacts and groups, ids unique across the file.
    let book: AddressBook
    /// The card of each contact of `book`.
    private let cardOfContact: [Int]
    /// The card of each group card of `book` (category groups have none).
    private let cardOfGroup: [String: Int]

    init(bytes: [UInt8], fileName: String = "card") {
        self.bytes = bytes
        let cards = Self.cardRanges(bytes)
        self.cards = cards
        let parts = cards.map { AddressBook(data: Data(bytes[$0]), fileName: fileName) }
        var cardOfContact: [Int] = []
        var cardOfGroup: [String: Int] = [:]
        for (k, part) in parts.enumerated() {
            cardOfContact += repeatElement(k, count: part.contacts.count)
            for group in part.groups where group.kind == .card && cardOfGroup[group.id] == nil {
                cardOfGroup[group.id] = k
            }
        }
        self.cardOfContact = cardOfContact
        self.cardOfGroup = cardOfGroup
        book = AddressBook(merging: parts, names: parts.map { _ in fileName })
    }

    /// The card of the contact with `id`, if the file has it in a card of its own.
    func card(ofContact id: String) -> Int? {
        book.position(of: id).map { cardOfContact[$0] }
    }

    /// The card of the contact at `position` in ``book``.
    func card(ofContactAt position: Int) -> Int { cardOfContact[position] }

    /// The card of the group card with `id`.
    func card(ofGroup id: String) -> Int? { cardOfGroup[id] }

    /// The card's lines.
    func lines(_ card: Int) -> CardLines { CardLines(bytes[cards[card]]) }

    /// The file with card `k` replaced by `replacement` (nil: removed); every other byte as it was.
    func replacing(_ k: Int, with replacement: [UInt8]?) -> [UInt8] {
        var out = Array(bytes[..<cards[k].lowerBound])
        if let replacement { out += replacement }
        out += bytes[cards[k].upperBound...]
        return out
    }

    /// The file with `card` added at the end (after a line ending when the file lacks a last one).
    func appending(_ card: [UInt8]) -> [UInt8] {
        var out = bytes
        if let last = out.last, last != 0x0A { out += newline }
        return out + card
    }

    /// The line ending of the file's first card (CRLF when there is none).
    var newline: [UInt8] { cards.isEmpty ? [0x0D, 0x0A] : lines(0).newline }

    /// The `VERSION` of the first card (3.0 for an empty file).
    var version: VCardWriter.Version { cards.isEmpty ? .v3 : lines(0).version }

    /// The cards: from a `BEGIN:VCARD` line to its `END:VCARD` line (nested cards, as 2.1 `AGENT`s, inside).
    static func cardRanges(_ bytes: [UInt8]) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var depth = 0
        var start = 0
        var lineStart = 0
        func starts(_ word: String, at i: Int) -> Bool {
            let w = Array(word.utf8)
            guard i + w.count <= bytes.count else { return false }
            for k in 0..<w.count where bytes[i + k] | 0x20 != w[k] | 0x20 { return false }
            return true
        }
        while lineStart < bytes.count {
            var end = lineStart
            while end < bytes.count && bytes[end] != 0x0A { end += 1 }
            let next = min(end + 1, bytes.count)
            if starts("BEGIN:VCARD", at: lineStart) {
                if depth == 0 { start = lineStart }
                depth += 1
            } else if depth > 0 && starts("END:VCARD", at: lineStart) {
                depth -= 1
                if depth == 0 { ranges.append(start..<next) }
            }
            lineStart = next
        }
        return ranges
    }
}
