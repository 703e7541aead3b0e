import Foundation

// Address fields and display names (RFC 5322 3.4)
extension MIME {
    static func appendAddressField(_ name: String, _ list: [MailAddress], to out: inout [UInt8]) {
        out.append(contentsOf: name.utf8)
        out.append(UInt8(ascii: ":"))
        var folder = Folder(lineLength: name.utf8.count + 1)
        var token: [UInt8] = []
        for (n, address) in list.enumerated() {
            let last = n == list.count - 1
            if let display = address.name {
                appendPhrase(display, folder: &folder, to: &out)
                token.removeAll(keepingCapacity: true)
                token.append(UInt8(ascii: "<"))
                token.append(contentsOf: address.asciiAddress.utf8)
                token.append(UInt8(ascii: ">"))
            } else {
                token.removeAll(keepingCapacity: true)
                token.append(contentsOf: address.asciiAddress.utf8)
            }
            if !last { token.append(UInt8(ascii: ",")) }
            folder.append(token, to: &out)
        }
        out.append(contentsOf: crlf)
    }

    /// A display name: atoms as they are, other printable ASCII as a quoted-string, anything else as
    /// encoded-words. Leading and trailing white space carries no meaning in a phrase and is dropped (mail
    /// readers disagree on keeping it).
    static func appendPhrase(_ rawName: String, folder: inout Folder, to out: inout [UInt8]) {
        let first = rawName.unicodeScalars.first
        let last = rawName.unicodeScalars.last
        let name =
            (first?.properties.isWhitespace ?? false) || (last?.properties.isWhitespace ?? false)
            ? rawName.trimmingCharacters(in: .whitespaces) : rawName
        if name.isEmpty {
            folder.append("\"\"".utf8, to: &out)
            return
        }
        let u = name.utf8
        var allAtext = true
        var printable = true
        var previous: UInt8 = 0x20
        for b in u {
            if b == 0x20 {
                if previous == 0x20 { allAtext = false }
            } else if b < 0x20 || b >= 0x7F {
                printable = false
                allAtext = false
                break
            } else if !AddrSpec.isAtext(b) {
                allAtext = false
            }
            if b == UInt8(ascii: "?") && previous == UInt8(ascii: "=") { printable = false }
            previous = b
        }
        if previous == 0x20 { allAtext = false }
        if allAtext && printable && u.count <= 70 {
            for word in name.split(separator: " ") { folder.append(word.utf8, to: &out) }
        } else if printable && u.count <= 60 {
            var quoted: [UInt8] = [UInt8(ascii: "\"")]
            for b in u {
                if b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") { quoted.append(UInt8(ascii: "\\")) }
                quoted.append(b)
            }
            quoted.append(UInt8(ascii: "\""))
            folder.append(quoted, to: &out)
        } else {
            appendEncodedWords(name[...].utf8, preferSingle: true, folder: &folder, to: &out)
        }
    }
}
