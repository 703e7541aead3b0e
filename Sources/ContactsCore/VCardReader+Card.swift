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
        try contacts(inFile: path, atOffsets: [offset])[0]
    }

    /// The contacts whose cards begin at `offsets` in the file at `path`, in the order of `offsets`, each
    /// read alone as ``contact(inFile:atOffset:)`` reads it (nil where no whole contact card begins), the
    /// file mapped once for all of them. Throws ``ContactsCoreError/cannotRead(path:reason:)``.
    ///
    /// ```swift
    /// let found = try VCardReader.contacts(inFile: "big.vcf", atOffsets: [0, 1_204])  // [Contact?]
    /// ```
    public static func contacts(inFile path: String, atOffsets offsets: [Int]) throws -> [Contact?] {
        let file = try mappedFile(path)
        let name = (path as NSString).lastPathComponent
        return file.withUnsafeBytes { raw in
            offsets.map { offset -> Contact? in
                guard offset >= 0, offset < raw.count, let end = cardEnd(raw, from: offset) else { return nil }
                // The card's own bytes, parsed in place (a read-only view of the mapping).
                let card = UnsafeRawBufferPointer(rebasing: raw[offset..<end]).bindMemory(to: UInt8.self)
                var found: [Contact] = []
                var groups = 0
                VCardParser(fileName: name).parse(card) { record, _ in
                    guard case .contact(let contact) = consume record else {
                        groups += 1
                        return
                    }
                    found.append(contact)
                }
                return found.count == 1 && groups == 0 ? found[0] : nil
            }
        }
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
