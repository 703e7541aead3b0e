import Locales

extension Contact {
    /// The one country of the contact's own addresses (`ADR`), as a region ("USA", "Deutschland",
    /// "United Kingdom" → "US", "DE", "GB"; see `LocalePolicy.region(forCountry:)`); nil when no address
    /// names a known country, or when they name more than one.
    ///
    /// ```swift
    /// var c = Contact(id: "noah")
    /// c.addresses = [LabeledAddress(value: PostalAddress(locality: "Springfield", country: "USA"))]
    /// c.addressRegion   // "US"
    /// ```
    public var addressRegion: String? {
        var found: String?
        for address in addresses where !address.value.country.isEmpty {
            guard let region = LocalePolicy.region(forCountry: address.value.country) else { continue }
            if let found, found != region { return nil }
            found = region
        }
        return found
    }
}

extension PhoneNormalizer {
    /// The E.164 form of `raw` by the package's phone-region rule: a number in international form is kept
    /// as it is; else it is read with `region` (ISO 3166 alpha-2, "ZZ" for none), unless it is not a valid
    /// number there but is one in `addressRegion` (the one country of the contact's addresses,
    /// `Contact.addressRegion`), which is then used. nil when it cannot be normalized (no region and no
    /// address country, or not a possible number): the caller shows it as written and never sends to it.
    ///
    /// ```swift
    /// let n = PhoneNormalizer.shared
    /// n.e164("030 1234567", region: "US", addressRegion: "DE")   // "+49301234567"
    /// n.e164("(206) 555-0101", region: "ZZ", addressRegion: nil)  // nil
    /// ```
    public func e164(_ raw: String, region: String, addressRegion: String?) -> String? {
        if case .decided(let e164) = fastE164(raw) { return e164 }
        guard let country = addressRegion, country != region else { return e164(raw, region: region) }
        let inRegion = PhoneNumber.parse(raw, region: region)
        if inRegion.isValid { return inRegion.e164 }
        let inCountry = PhoneNumber.parse(raw, region: country)
        if inCountry.isValid { return inCountry.e164 }
        return e164(raw, region: region)
    }

    /// Every phone of `contacts` (each contact's in card order, one after the other) by
    /// ``e164(_:region:addressRegion:)``, with whether the fast path decided it (as ``normalize(_:region:)``):
    /// one batch with `region` (each distinct text once, on all cores), then, one by one, the numbers of
    /// contacts whose addresses name another country. `textableOnly`: only each contact's
    /// ``Contact/textablePhones`` (what a list of recipients keeps).
    ///
    /// ```swift
    /// PhoneNormalizer.shared.normalizePhones(of: book.contacts, region: "US").map(\.e164)
    /// ```
    public func normalizePhones(of contacts: [Contact], region: String, textableOnly: Bool = false)
        -> [(e164: String?, direct: Bool)]
    {
        var raws: [String] = []
        raws.reserveCapacity(contacts.count * 2)
        for contact in contacts {
            for phone in contact.phones where !textableOnly || phone.label.receivesTextMessages {
                raws.append(phone.value)
            }
        }
        var results = normalize(raws, region: region)
        var next = 0
        for contact in contacts {
            let count =
                textableOnly ? contact.phones.lazy.filter(\.label.receivesTextMessages).count : contact.phones.count
            if count > 0, !contact.addresses.isEmpty, let country = contact.addressRegion, country != region {
                for k in next..<(next + count) where !results[k].direct {
                    results[k] = (e164(raws[k], region: region, addressRegion: country), false)
                }
            }
            next += count
        }
        return results
    }
}
