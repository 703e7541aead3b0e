import ContactsCore

/// What the list needs of a phone number: its E.164 form (for the row value and duplicate detection) and
/// the digit strings a search may hit. E.164 is exactly libphonenumber's (through ``PhoneNormalizer``):
/// numbers written in international form whose result the metadata makes certain are normalized without
/// it, which keeps loading a million contacts fast; everything else goes through libphonenumber with the
/// locale's region, each distinct text once and on all cores when made in a batch.
/// All fields are short enough to be stored inline (no heap allocation per number).
struct PhoneKey: Sendable, Hashable {
    var raw: String
    var e164: String?
    /// The national number as libphonenumber gives it (nil for directly normalized numbers).
    var national: String?
    /// Not normalized yet: only `raw` is set (see ``pending(_:)``).
    var isPending = false

    /// A number kept as written, to be normalized (``resolved(region:)``) only if it is needed.
    static func pending(_ raw: String) -> PhoneKey { PhoneKey(raw: raw, e164: nil, national: nil, isPending: true) }

    /// The key itself, or for a pending one the key `make` gives.
    func resolved(region: String, addressRegion: String?) -> PhoneKey {
        isPending ? Self.make(raw, region: region, addressRegion: addressRegion) : self
    }

    /// The key by the package's phone-region rule (`PhoneNormalizer.e164(_:region:addressRegion:)`): a number
    /// in international form as it is, else read with `region`, or with `addressRegion` (the one country of
    /// the contact's addresses) when it is valid only there.
    static func make(_ raw: String, region: String, addressRegion: String?) -> PhoneKey {
        guard let addressRegion, addressRegion != region else { return make(raw, region: region) }
        let normalizer = PhoneNormalizer.shared
        if case .decided(let e164) = normalizer.fastE164(raw) { return direct(raw, e164) }
        return parsed(raw, normalizer.e164(raw, region: region, addressRegion: addressRegion))
    }

    static func make(_ raw: String, region: String) -> PhoneKey {
        let normalizer = PhoneNormalizer.shared
        if case .decided(let e164) = normalizer.fastE164(raw) { return direct(raw, e164) }
        // Decided in national form: what libphonenumber's parse gives, so keyed as parsed.
        if case .decided(let e164) = normalizer.fastNationalE164(raw, region: region) { return parsed(raw, e164) }
        return parsed(raw, normalizer.parsedE164(raw, region: region))
    }

    /// The keys of every textable phone of `contacts` (in order, `Contact.textablePhones`) by the
    /// phone-region rule (`PhoneNormalizer.normalizePhones(of:region:textableOnly:)`): each distinct text
    /// parsed once, on all cores.
    static func make(phonesOf contacts: [Contact], region: String) -> [PhoneKey] {
        let normalized = PhoneNormalizer.shared.normalizePhones(of: contacts, region: region, textableOnly: true)
        var keys: [PhoneKey] = []
        keys.reserveCapacity(normalized.count)
        var i = 0
        for contact in contacts {
            for phone in contact.phones where phone.label.receivesTextMessages {
                let n = normalized[i]
                keys.append(n.direct ? direct(phone.value, n.e164) : parsed(phone.value, n.e164))
                i += 1
            }
        }
        return keys
    }

    /// A number the fast path decided: search digits are those written and those of E.164 (with every
    /// suffix after a 1–3 digit country code).
    private static func direct(_ raw: String, _ e164: String?) -> PhoneKey {
        PhoneKey(raw: raw, e164: e164, national: e164 == nil ? PhoneNumber.digits(of: raw) : nil)
    }

    /// A number libphonenumber parsed: its search digits as `PhoneNumber.searchDigits`.
    private static func parsed(_ raw: String, _ e164: String?) -> PhoneKey {
        PhoneKey(raw: raw, e164: e164, national: e164.map { String($0.dropFirst()) } ?? PhoneNumber.digits(of: raw))
    }

    /// Calls `body` with each distinct digit string a search may hit: as written, E.164 without `+`, and
    /// the national number (for directly normalized numbers: every suffix after a 1–3 digit country code).
    func forEachSearchDigits(_ body: (Substring) -> Void) {
        let written = Self.digitsOnly(raw)
        var seen: [Substring] = []
        func emit(_ s: Substring) {
            guard !s.isEmpty, !seen.contains(s) else { return }
            seen.append(s)
            body(s)
        }
        emit(Substring(written))
        if let e164 {
            let all = e164.dropFirst()
            emit(all)
            if national == nil { for n in 1...3 { emit(all.dropFirst(n)) } }
        }
        if let national { emit(Substring(national)) }
    }

    static func digitsOnly(_ s: String) -> String {
        String(decoding: s.utf8.filter { $0 >= 0x30 && $0 <= 0x39 }, as: UTF8.self)
    }
}
