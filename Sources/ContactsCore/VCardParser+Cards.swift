import Foundation

/// Finishing a card: a contact moved out of the builder, or a group card read again in group mode.
extension VCardParser {
    // MARK: Finishing a card

    func finishCard(endOffset: Int, emit: (consuming VCardRecord, Int) -> Void) {
        inCard = false
        if mode == .contact && !st[0].builder.isGroupCard {
            finishContact(emit: emit)
            return
        }
        var b = CardBuilder()
        swap(&b, &st[0].builder)
        if mode == .groupCard {
            st[0].groupResult = b
            return
        }
        var id = b.uid ?? ""
        if id.isEmpty { id = hashID(&b) }
        if b.isGroupCard {
            var name = b.contact.formattedName
            if name.isEmpty {
                name = [b.contact.givenName, b.contact.familyName].filter { !$0.isEmpty }.joined(separator: " ")
            }
            if name.isEmpty { name = b.contact.organization }
            // Read the card again in group mode so that every property the group model does not name is kept.
            var unknowns = b.contact.unknownProperties
            let input = st[0].lexer.input
            let cardStartOffset = st[0].cardStartOffset
            if endOffset > cardStartOffset {
                let again = VCardParser(fileName: fileName)
                again.mode = .groupCard
                again.parse(UnsafeBufferPointer(rebasing: input[cardStartOffset..<endOffset])) {
                    _, _ in
                }
                if let g = again.st[0].groupResult {
                    unknowns = g.contact.unknownProperties
                    if !g.contact.formattedName.isEmpty { name = g.contact.formattedName }
                }
            }
            let group = Group(id: id, name: name, memberIDs: b.members, kind: .card, unknownProperties: unknowns)
            if st[0].collecting {
                st[0].collected.groups.append(group)
            } else {
                emit(.group(group), cardStartLine)
            }
            return
        }
    }

    /// Finishes an ordinary contact card in place: the contact is moved out and the builder reset, so its
    /// buffers serve the next card.
    func finishContact(emit: (consuming VCardRecord, Int) -> Void) {
        let line = cardStartLine
        let id = prepareContact(&st[0].builder, cardStartLine: line)
        if !st[0].builder.languagePrefs.isEmpty {
            let prefs = st[0].builder.languagePrefs
            st[0].builder.contact.languages = zip(st[0].builder.contact.languages, prefs).enumerated()
                .sorted { ($0.element.1, $0.offset) < ($1.element.1, $1.offset) }.map { $0.element.0 }
        }
        st[0].builder.contact.id = id
        finalize(&st[0].builder.contact)
        if st[0].collecting {
            let (hash, ascii) = IDIndex.hash(id)
            st[0].collected.idHashes.append(hash)
            if !ascii { st[0].collected.idsAreASCII = false }
            st[0].collected.contactLines.append(line)
            if !st[0].builder.contact.categories.isEmpty {
                st[0].collected.categories.add(
                    st[0].builder.contact.categories, position: Int32(st[0].contacts?.count ?? 0), id: id)
            }
            appendCollected(takeBuiltContact())
        } else {
            emit(.contact(takeBuiltContact()), line)
        }
    }

    /// The builder's contact, moved out; the builder is reset for the next card.
    func takeBuiltContact() -> Contact {
        var c = Contact(id: "")
        swap(&c, &st[0].builder.contact)
        st[0].builder.reset()
        return c
    }

    /// The id of the card in builder `b`, with its MEMBERs kept as unknown properties and its `X-ABLabel`s
    /// applied.
    func prepareContact(_ b: inout CardBuilder, cardStartLine: Int) -> String {
        var id = b.uid ?? ""
        if id.isEmpty { id = hashID(&b) }
        if !b.members.isEmpty {
            diagnose(
                cardStartLine, nil,
                "MEMBER in a card that is not a group (expected KIND:group); kept as an unknown property")
            for m in b.members {
                b.contact.unknownProperties.append(VCardProperty(name: "MEMBER", value: "urn:uuid:" + m))
            }
        }
        b.resolveLabels()
        return id
    }

    /// Categories without duplicates, items in preference order, phonetic names from SORT-AS.
    func finalize(_ c: inout Contact) {
        if c.categories.count > 16 {
            var seen = Set<String>()
            c.categories = c.categories.filter { seen.insert($0).inserted }
        } else if c.categories.count > 1 {
            var k = 1
            while k < c.categories.count {
                if c.categories[0..<k].contains(c.categories[k]) { c.categories.remove(at: k) } else { k += 1 }
            }
        }
        CardBuilder.order(&c.phones)
        CardBuilder.order(&c.emails)
        CardBuilder.order(&c.urls)
        CardBuilder.order(&c.addresses)
        if c.phoneticFamilyName.isEmpty && c.phoneticGivenName.isEmpty && !c.sortAsComponents.isEmpty {
            c.phoneticFamilyName = c.sortAsComponents[0]
            if c.sortAsComponents.count > 1 { c.phoneticGivenName = c.sortAsComponents[1] }
        }
    }

    func hashID(_ b: inout CardBuilder) -> String {
        // FNV-1a over what the card says, so the id survives re-folding and re-ordering of files.
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        @inline(__always) func mix(_ s: String) {
            let done: Void? = s.utf8.withContiguousStorageIfAvailable { bytes in
                for byte in bytes {
                    h ^= UInt64(byte)
                    h = h &* 0x100_0000_01b3
                }
            }
            if done == nil {
                for byte in s.utf8 {
                    h ^= UInt64(byte)
                    h = h &* 0x100_0000_01b3
                }
            }
            h ^= 0x1F
            h = h &* 0x100_0000_01b3
        }
        mix(b.contact.formattedName)
        mix(b.contact.familyName)
        mix(b.contact.givenName)
        mix(b.contact.middleName)
        mix(b.contact.namePrefix)
        mix(b.contact.nameSuffix)
        mix(b.contact.nickname)
        mix(b.contact.organization)
        mix(b.contact.jobTitle)
        mix(b.contact.note)
        for p in b.contact.phones { mix(p.value) }
        for e in b.contact.emails { mix(e.value) }
        for u in b.contact.urls { mix(u.value) }
        for m in b.members { mix(m) }
        for p in b.contact.unknownProperties {
            mix(p.name)
            mix(p.value)
        }
        // "hash-" and 16 hex digits, made in one go.
        let digits: StaticString = "0123456789abcdef"
        let prefix: StaticString = "hash-"
        return String(unsafeUninitializedCapacity: 21) { out in
            for i in 0..<5 { out[i] = prefix.utf8Start[i] }
            for i in 0..<16 { out[5 + i] = digits.utf8Start[Int((h >> UInt64(60 - 4 * i)) & 0xF)] }
            return 21
        }
    }

}
