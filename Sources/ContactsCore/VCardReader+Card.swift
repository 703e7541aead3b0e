import Foundation

extension VCardReader {
    /// The contact whose card begins at byte `offset` of the file at `path` (an entry of
    /// ``Stream/cardOffsets``), read alone: from that `BEGIN:VCARD` line to its `END:VCARD` line, the rest
    /// of the file untouched. Nil when no whole contact card begins there (the file changed since). Its
    /// `CATEGORIES` are the contact's own (the groups they make in a book are not read here).
    /// Throws ``ContactsCoreError/cannotRead(path:reason:)``.
    ///
    /// ```swift
    /// let stream = try VCardReader.stream(contentsOfFile: "big.vcf", makePiece: { 0 }) { _, _ in }
    /// let third = try VCardReader.contact(inFile: "big.vcf", atOffset: stream.cardOffsets![2])
    /// ```
    public static func contact(inFile path: String, atOffset offset: Int) throws -> Contact? {
        let file = try mappedFile(path)
        guard offset >= 0, offset < file.count else { return nil }
        let end = file.withUnsafeBytes { cardEnd($0, from: offset) }
        guard let end else { return nil }
        let book = AddressBook(data: Data(file[offset..<end]), fileName: (path as NSString).lastPathComponent)
        guard book.contacts.count == 1 else { return nil }
        return book.contacts[0]
    }

    /// The end of the card whose `BEGIN:VCARD` line starts at `start`, as the parser ends it: past its
    /// `END:VCARD` line, else before the next `BEGIN:VCARD` line or at the end of the file; nil when no
    /// `BEGIN:VCARD` line starts there.
    static func cardEnd(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
        func starts(_ word: StaticString, at i: Int, before end: Int) -> Bool {
            var i = i
            while i < end && (bytes[i] == 0x20 || bytes[i] == 0x09) { i += 1 }
            let count = word.utf8CodeUnitCount
            guard i + count <= end else { return false }
            for k in 0..<count where bytes[i + k] | 0x20 != word.utf8Start[k] | 0x20 { return false }
            return true
        }
        var lineStart = start
        while lineStart < bytes.count {
            var end = lineStart
            while end < bytes.count && bytes[end] != 0x0A { end += 1 }
            let next = min(end + 1, bytes.count)
            if starts("begin:vcard", at: lineStart, before: end) {
                if lineStart > start { return lineStart }
            } else if lineStart == start {
                return nil
            } else if starts("end:vcard", at: lineStart, before: end) {
                return next
            }
            lineStart = next
        }
        return bytes.count
    }
}
