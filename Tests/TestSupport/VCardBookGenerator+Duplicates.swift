import Foundation

extension VCardBookGenerator {
    /// A book of `people` distinct people (unique names, emails and phones) with planted duplicates, and the
    /// UIDs of each planted group (the truth a duplicate finder is measured against). A duplicate is the
    /// same person written another way: the email in capitals, the phone formatted otherwise, the name in
    /// Cyrillic, with accents, or in family-given order, the nickname as the given name. Traps that are
    /// not duplicates: people sharing a given name or a family name, 30 people sharing a switchboard
    /// number, and pairs of one household sharing a landline (which a finder will take for one person:
    /// they count against its precision).
    public static func bookWithDuplicates(people: Int, seed: UInt64) -> (text: String, groups: [[String]]) {
        var rng = SplitMix64(seed: seed)
        func chance(_ percent: UInt64) -> Bool { rng.next() % 100 < percent }
        let given = [("Boris", "Борис"), ("Anna", "Анна"), ("Oleg", "Олег"), ("Ivan", "Иван"), ("Vera", "Вера")]
        let nicknames = [("Robert", "Bob"), ("William", "Bill"), ("Elizabeth", "Liz"), ("Katherine", "Kate")]
        let latin = ["ka", "lo", "mi", "ne", "ru", "so", "ti", "va"]
        let cyrillic = ["ка", "ло", "ми", "не", "ру", "со", "ти", "ва"]
        /// A family name unique to person `i` (base-8 syllables), in Latin and Cyrillic.
        func family(_ i: Int) -> (String, String) {
            var n = i
            var l = ""
            var c = ""
            repeat {
                l += latin[n % 8]
                c += cyrillic[n % 8]
                n /= 8
            } while n > 0
            return (l.prefix(1).uppercased() + l.dropFirst(), c.prefix(1).uppercased() + c.dropFirst())
        }
        func card(_ uid: String, _ lines: [String]) -> String {
            "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:\(uid)\r\n" + lines.map { $0 + "\r\n" }.joined() + "END:VCARD\r\n"
        }
        var out = ""
        var groups: [[String]] = []
        for i in 0..<people {
            let (fl, fc) = family(i + 64)
            let phone = "+1 415 \(String(format: "%03d", 200 + i / 10_000 % 800)) \(String(format: "%04d", i % 10_000))"
            let email = "p\(i)@example.org"
            let uid = "p\(i)"
            let kind = rng.next() % 100
            if kind < 8 {
                // Nickname as the given name.
                let (full, nick) = nicknames[i % nicknames.count]
                out += card(uid, ["FN:\(full) \(fl)", "N:\(fl);\(full);;;", "NICKNAME:\(nick)", "EMAIL:\(email)"])
                out += card(uid + "-d", ["FN:\(nick) \(fl)", "N:\(fl);\(nick);;;", "EMAIL:other\(i)@example.net"])
                groups.append([uid, uid + "-d"])
                continue
            }
            let (gl, gc) = given[i % given.count]
            out += card(uid, ["FN:\(gl) \(fl)", "N:\(fl);\(gl);;;", "TEL;TYPE=cell:\(phone)", "EMAIL:\(email)"])
            switch kind {
            case 8..<14:
                out += card(uid + "-d", ["FN:\(gl) \(fl)", "EMAIL:\(email.uppercased())"])
            case 14..<20:
                let digits = phone.filter(\.isNumber)
                out += card(
                    uid + "-d",
                    [
                        "FN:\(gl.prefix(1)). \(fl)",
                        "TEL:(\(digits.dropFirst().prefix(3))) \(digits.dropFirst(4).prefix(3))-\(digits.suffix(4))",
                    ])
            case 20..<25:
                out += card(uid + "-d", ["FN:\(gc) \(fc)", "N:\(fc);\(gc);;;"])
            case 25..<28:
                out += card(uid + "-d", ["FN:\(fl) \(gl)", "EMAIL:work\(i)@example.com"])
            case 28..<30:
                out += card(uid + "-d", ["FN:\(gl) \(fl)", "EMAIL:\(email)"])
                out += card(
                    uid + "-e",
                    ["FN:\(gc) \(fc)", "N:\(fc);\(gc);;;", "TEL:+1415\(phone.suffix(8).filter(\.isNumber))"])
                groups.append([uid, uid + "-d", uid + "-e"])
                continue
            case 30..<33:
                // A household: another person with the same landline.
                out += card(uid + "-h", ["FN:\(nicknames[i % 4].0) \(family(i + 64 + people).0)", "TEL:\(phone)"])
                continue
            case 33..<36:
                // A switchboard shared by many colleagues.
                out += card(uid + "-w", ["FN:\(gl) \(family(i + 64 + 2 * people).0)", "TEL:+1 800 555 0100"])
                continue
            default:
                continue
            }
            groups.append([uid, uid + "-d"])
        }
        return (out, groups)
    }
}
