import Foundation
import Support

/// What one card has said so far.
struct CardBuilder {
    enum ItemKind: UInt8 { case phone, email, url, address, date }

    var contact = Contact(id: "")
    var uid: String?
    var hasN = false
    var hasOrg = false
    var isGroupCard = false
    /// A value of the card was read in listing mode and not kept (``ReadMode/listing``).
    var valuesLeftOut = false
    var members: [String] = []
    /// Items that belong to a property group (`item1.TEL`), so that an `X-ABLabel` can label them.
    var grouped: [(group: String, kind: ItemKind, index: Int)] = []
    /// LANG preferences, kept only once a card has two or more LANGs.
    var languagePrefs: [Int] = []
    var firstLanguagePref = Int.max

    /// Back to an empty card, keeping the capacity of the per-card lists for the next card. The contact
    /// itself is not touched: it is empty once it was taken out (or when no property was read yet).
    mutating func reset() {
        uid = nil
        hasN = false
        hasOrg = false
        isGroupCard = false
        valuesLeftOut = false
        if !members.isEmpty { members.removeAll(keepingCapacity: true) }
        if !grouped.isEmpty { grouped.removeAll(keepingCapacity: true) }
        if !languagePrefs.isEmpty { languagePrefs.removeAll(keepingCapacity: true) }
        firstLanguagePref = Int.max
    }

    mutating func note(_ group: String?, kind: ItemKind, index: Int) {
        if let group { grouped.append((group, kind, index)) }
    }

    mutating func addLanguage(_ language: String, preference: Int) {
        if contact.languages.isEmpty {
            firstLanguagePref = preference
        } else {
            if languagePrefs.isEmpty { languagePrefs.append(firstLanguagePref) }
            languagePrefs.append(preference)
        }
        contact.languages.append(language)
    }

    /// Applies Apple `X-ABLabel`s to the properties of their group and drops the labels that were used.
    mutating func resolveLabels() {
        guard !grouped.isEmpty, contact.unknownProperties.contains(where: { $0.name == "X-ABLABEL" && $0.group != nil })
        else { return }
        // Few groups (the usual Apple card): scan; many: index them by group.
        let itemsByGroup: [String: [(kind: ItemKind, index: Int)]]? =
            grouped.count <= 16
            ? nil : Dictionary(grouping: grouped, by: \.group).mapValues { $0.map { ($0.kind, $0.index) } }
        // The labels used: a bit per property among the first 64, a list for the others (rare).
        var usedMask: UInt64 = 0
        var usedMore: [Int] = []
        for k in contact.unknownProperties.indices where contact.unknownProperties[k].name == "X-ABLABEL" {
            guard let g = contact.unknownProperties[k].group else { continue }
            var label: ContactLabel?
            func apply(_ kind: ItemKind, _ index: Int) {
                let l =
                    label ?? ContactLabel(abLabel: VCardValueDecoder.unescapeText(contact.unknownProperties[k].value))
                label = l
                switch kind {
                case .phone: contact.phones[index].label = l
                case .email: contact.emails[index].label = l
                case .url: contact.urls[index].label = l
                case .address: contact.addresses[index].label = l
                case .date: contact.dates[index].label = l
                }
            }
            if let itemsByGroup {
                for item in itemsByGroup[g] ?? [] { apply(item.kind, item.index) }
            } else {
                for item in grouped where item.group == g { apply(item.kind, item.index) }
            }
            if label != nil {
                if k < 64 { usedMask |= 1 << UInt64(k) } else { usedMore.append(k) }
            }
        }
        if usedMask == 0 && usedMore.isEmpty { return }
        var used: [Int] = []
        if usedMask.nonzeroBitCount + usedMore.count <= 8 && usedMore.isEmpty {
            // Remove from the last one so that the positions of the others hold.
            var mask = usedMask
            while mask != 0 {
                let k = 63 - mask.leadingZeroBitCount
                contact.unknownProperties.remove(at: k)
                mask &= ~(1 << UInt64(k))
            }
            return
        }
        for k in 0..<64 where usedMask & (1 << UInt64(k)) != 0 { used.append(k) }
        used += usedMore
        if used.count > 8 {
            let drop = Set(used)
            contact.unknownProperties = contact.unknownProperties.enumerated().filter { !drop.contains($0.offset) }
                .map(\.element)
        } else {
            for k in used.reversed() { contact.unknownProperties.remove(at: k) }
        }
    }

    /// Stable sort by preference (nil last); untouched when no item has one.
    static func order(_ values: inout [LabeledValue]) {
        guard values.count > 1, values.contains(where: { $0.preference != nil }) else { return }
        if values.count <= 16 {
            // Stable insertion sort in place: the same order as the sort below, without allocating.
            for i in 1..<values.count {
                let key = values[i].preference ?? Int.max
                var j = i
                while j > 0 && (values[j - 1].preference ?? Int.max) > key { j -= 1 }
                if j < i {
                    let moved = values.remove(at: i)
                    values.insert(moved, at: j)
                }
            }
            return
        }
        values = values.enumerated().sorted {
            ($0.element.preference ?? Int.max, $0.offset) < ($1.element.preference ?? Int.max, $1.offset)
        }.map(\.element)
    }

    static func order(_ values: inout [LabeledAddress]) {
        guard values.count > 1, values.contains(where: { $0.preference != nil }) else { return }
        values = values.enumerated().sorted {
            ($0.element.preference ?? Int.max, $0.offset) < ($1.element.preference ?? Int.max, $1.offset)
        }.map(\.element)
    }

    // MARK: Finishing

    /// The card's id: its UID, or (without one) a hash of what it says, so that the id survives re-folding
    /// and re-ordering of files.
    func cardID() -> String {
        if let uid, !uid.isEmpty { return uid }
        return hashID()
    }

    /// Finishes an ordinary contact in place (the contact stays in ``contact``, to be moved out): its id,
    /// MEMBERs kept as unknown properties, `X-ABLabel`s applied, LANGs in preference order, items ordered by
    /// preference, categories without duplicates, phonetic names from SORT-AS. Returns the id and whether
    /// the card had MEMBERs (it is not a group: the caller reports them).
    mutating func finishContact() -> (id: String, hadMembers: Bool) {
        let id = cardID()
        let hadMembers = !members.isEmpty
        for m in members { contact.unknownProperties.append(VCardProperty(name: "MEMBER", value: "urn:uuid:" + m)) }
        resolveLabels()
        if !languagePrefs.isEmpty {
            let prefs = languagePrefs
            contact.languages = zip(contact.languages, prefs).enumerated()
                .sorted { ($0.element.1, $0.offset) < ($1.element.1, $1.offset) }.map { $0.element.0 }
        }
        contact.id = id
        Self.finalize(&contact)
        return (id, hadMembers)
    }

    /// Categories without duplicates, items in preference order, phonetic names from SORT-AS.
    static func finalize(_ c: inout Contact) {
        if c.categories.count > 16 {
            var seen = Set<String>()
            c.categories = c.categories.filter { seen.insert($0).inserted }
        } else if c.categories.count > 1 {
            var k = 1
            while k < c.categories.count {
                if c.categories[0..<k].contains(c.categories[k]) { c.categories.remove(at: k) } else { k += 1 }
            }
        }
        order(&c.phones)
        order(&c.emails)
        order(&c.urls)
        order(&c.addresses)
        if c.phoneticFamilyName.isEmpty && c.phoneticGivenName.isEmpty && !c.sortAsComponents.isEmpty {
            c.phoneticFamilyName = c.sortAsComponents[0]
            if c.sortAsComponents.count > 1 { c.phoneticGivenName = c.sortAsComponents[1] }
        }
    }

    /// FNV-1a over what the card says, as `hash-` and 16 hex digits.
    func hashID() -> String {
        // FNV-1a over what the card says, so the id survives re-folding and re-ordering of files.
        var hasher = StableHasher()
        @inline(__always) func mix(_ s: String) {
            hasher.combine(s)
            hasher.combine(0x1F)
        }
        mix(contact.formattedName)
        mix(contact.familyName)
        mix(contact.givenName)
        mix(contact.middleName)
        mix(contact.namePrefix)
        mix(contact.nameSuffix)
        mix(contact.nickname)
        mix(contact.organization)
        mix(contact.jobTitle)
        mix(contact.note)
        for p in contact.phones { mix(p.value) }
        for e in contact.emails { mix(e.value) }
        for u in contact.urls { mix(u.value) }
        for m in members { mix(m) }
        for p in contact.unknownProperties {
            mix(p.name)
            mix(p.value)
        }
        let h = hasher.value
        // "hash-" and 16 hex digits made in one go: exactly the 21 bytes asked for (bounds-checked in debug).
        let digits: StaticString = "0123456789abcdef"
        let prefix: StaticString = "hash-"
        return String(unsafeUninitializedCapacity: 21) { out in
            for i in 0..<5 { out[i] = prefix.utf8Start[i] }
            for i in 0..<16 { out[5 + i] = digits.utf8Start[Int((h >> UInt64(60 - 4 * i)) & 0xF)] }
            return 21
        }
    }
}
