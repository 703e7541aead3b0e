import Foundation

/// A varied vCard 3.0 address book for tests that compare two ways of reading one book: names in Latin,
/// Cyrillic, Han, kana and Hangul scripts, unnamed cards, cards without phone or email, national and
/// international numbers in any position, nicknames and organizations, repeated UIDs and identical cards,
/// a card without END:VCARD, a line the reader must diagnose, and a group card.
public enum VCardBookGenerator {
    public static func book(cards: Int, seed: UInt64) -> String {
        var rng = SplitMix64(seed: seed)
        let given = ["Anna", "Hélène", "Boris", "Борис", "太郎", "伟", "민준", "Felipe", "Zoë", "Åsa", "Ödön", "  Lee "]
        let family = ["Baytelman", "Finstein", "Müller", "山田", "张", "김", "Nguyễn", "Öztürk", "Иванов", "Smith"]
        func pick(_ list: [String]) -> String { list[Int(rng.next() % UInt64(list.count))] }
        func chance(_ percent: UInt64) -> Bool { rng.next() % 100 < percent }
        func phone() -> String {
            let n = rng.next()
            switch n % 4 {
            case 0: return "+1 415-\(100 + n % 900)-\(1000 + (n / 7) % 9000)"
            case 1: return "(\(200 + n % 700)) 555-\(1000 + (n / 11) % 9000)"
            case 2: return "+49 30 \(1_000_000 + (n / 13) % 9_000_000)"
            default: return "0\(7_000_000_000 + (n / 17) % 999_999_999)"
            }
        }
        var out = ""
        var previous = ""
        for i in 0..<cards {
            if i > 0 && chance(2) {
                out += previous  // an identical card
                continue
            }
            var card = "BEGIN:VCARD\r\nVERSION:3.0\r\n"
            if chance(3) {
                card += "UID:dup-\(rng.next() % 4)\r\n"
            } else if !chance(5) {
                card += "UID:c-\(i)\r\n"
            }
            if !chance(6) {
                let g = pick(given)
                let f = pick(family)
                card += "N:\(f);\(g);;;\r\nFN:\(g) \(f)\r\n"
            } else if chance(50) {
                card += "ORG:Acme \(i % 7)\r\n"
            }
            if chance(15) { card += "NICKNAME:Bobby \(i % 5)\r\n" }
            if chance(10) { card += "ORG:Initech\r\n" }
            let phones = Int(rng.next() % 3)
            for _ in 0..<phones { card += "TEL;TYPE=CELL:\(phone())\r\n" }
            let emails = Int(rng.next() % 3)
            for k in 0..<emails { card += "EMAIL:u\(i).\(k)@example.\(k == 0 ? "org" : "net")\r\n" }
            if chance(3) { card += "BDAY:not a date\r\n" }
            if chance(1) { card += "this line has no colon\r\n" }
            card += "NOTE:card \(i)\r\n"
            if i == cards / 2 {
                out += card  // no END:VCARD
                continue
            }
            card += "END:VCARD\r\n"
            out += card
            previous = card
        }
        out +=
            "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:group-1\r\nX-ADDRESSBOOKSERVER-KIND:group\r\nFN:Friends\r\n"
            + "X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:c-1\r\nEND:VCARD\r\n"
        return out
    }
}
