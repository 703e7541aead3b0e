import Foundation

/// A problem found in a vCard file: where it is and what was expected. The reader reports it and goes on.
///
/// ```swift
/// for d in book.diagnostics { print(d) }   // contacts.vcf:12:5: expected ':' after the property name 'TEL'
/// ```
public struct VCardDiagnostic: Sendable, Hashable, CustomStringConvertible {
    public var file: String
    /// 1-based physical line where the offending content line starts.
    public var line: Int
    /// 1-based byte column within the unfolded content line, when the problem has a position.
    public var column: Int?
    public var message: String

    public init(file: String, line: Int, column: Int? = nil, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    public var description: String {
        if let column { return "\(file):\(line):\(column): \(message)" }
        return "\(file):\(line): \(message)"
    }
}

/// Contacts, groups and the diagnostics of reading them: loaded once, immutable, looked up by id.
///
/// ```swift
/// let book = try AddressBook(contentsOf: URL(fileURLWithPath: "contacts.vcf"))
/// print(book.contacts.count, book.diagnostics.count)
/// let ada = book.contact(id: "ada-uid")
/// ```
public struct AddressBook: Sendable, Equatable {
    public let contacts: [Contact]
    /// Group cards first (file order), then one `.category` group per distinct `CATEGORIES` value.
    public let groups: [Group]
    public let diagnostics: [VCardDiagnostic]
    private let indexByID: [String: Int]
    /// Group membership per contact, flattened: the groups of contact `i` are
    /// `membership[membershipStart[i]..<membershipStart[i + 1]]`.
    private let membershipStart: [Int32]
    private let membership: [Int32]

    /// An address book from parts. Category groups are not derived here: pass them in `groups`.
    public init(contacts: [Contact], groups: [Group] = [], diagnostics: [VCardDiagnostic] = []) {
        var index: [String: Int] = [:]
        index.reserveCapacity(contacts.count)
        for i in contacts.indices where index[contacts[i].id] == nil { index[contacts[i].id] = i }
        self.init(contacts: contacts, groups: groups, diagnostics: diagnostics, index: index)
    }

    private init(contacts: [Contact], groups: [Group], diagnostics: [VCardDiagnostic], index: [String: Int]) {
        self.contacts = contacts
        self.groups = groups
        self.diagnostics = diagnostics
        indexByID = index
        // Count, then fill (no array per contact).
        var start = [Int32](repeating: 0, count: contacts.count + 1)
        for group in groups {
            for m in group.memberIDs { if let i = index[m] { start[i + 1] += 1 } }
        }
        for i in 0..<contacts.count { start[i + 1] += start[i] }
        var fill = start
        var flat = [Int32](repeating: 0, count: Int(start[contacts.count]))
        for (g, group) in groups.enumerated() {
            for m in group.memberIDs {
                guard let i = index[m] else { continue }
                flat[Int(fill[i])] = Int32(g)
                fill[i] += 1
            }
        }
        membershipStart = start
        membership = flat
    }

    /// Reads vCard `data` (2.1, 3.0 or 4.0); `fileName` names the source in diagnostics. Never throws:
    /// problems become ``diagnostics`` and every readable card is kept.
    ///
    /// ```swift
    /// let book = AddressBook(data: Data("BEGIN:VCARD\r\nFN:Ada\r\nEND:VCARD\r\n".utf8), fileName: "a.vcf")
    /// ```
    public init(data: Data, fileName: String) {
        var chunks = VCardReader.readChunked(data: data, fileName: fileName)
        var contacts: [Contact] = []
        var lines: [Int] = []
        var cards: [Group] = []
        var diagnostics: [VCardDiagnostic] = []
        if chunks.count == 1 {
            swap(&contacts, &chunks[0].contacts)
            swap(&lines, &chunks[0].contactLines)
            swap(&cards, &chunks[0].groups)
            swap(&diagnostics, &chunks[0].diagnostics)
        } else {
            // Move the contacts out of the pieces (a copy would retain every string of every contact).
            let total = chunks.reduce(0) { $0 + $1.contacts.count }
            contacts = [Contact](unsafeUninitializedCapacity: total) { buffer, count in
                var offset = 0
                for k in chunks.indices {
                    chunks[k].contacts.withUnsafeMutableBufferPointer { source in
                        guard let from = source.baseAddress, let to = buffer.baseAddress else { return }
                        (to + offset).moveInitialize(from: from, count: source.count)
                        // Leave cheap placeholders behind so that the piece can be destroyed normally.
                        from.initialize(repeating: Contact(id: ""), count: source.count)
                        offset += source.count
                    }
                    chunks[k].contacts = []  // free each piece as soon as it is moved
                }
                count = offset
            }
            lines.reserveCapacity(total)
            for k in chunks.indices {
                lines.append(contentsOf: chunks[k].contactLines)
                cards.append(contentsOf: chunks[k].groups)
                diagnostics.append(contentsOf: chunks[k].diagnostics)
            }
            chunks.removeAll()
        }
        // Ids are unique within a book: a repeated UID (or an identical card) gets a suffix.
        var index: [String: Int] = [:]
        index.reserveCapacity(contacts.count)
        var duplicates: [VCardDiagnostic] = []
        var nextSuffix: [String: Int] = [:]
        for i in contacts.indices {
            let id = contacts[i].id
            if let first = index[id] {
                var n = nextSuffix[id] ?? 2
                while index["\(id)-\(n)"] != nil { n += 1 }
                nextSuffix[id] = n + 1
                let newID = "\(id)-\(n)"
                let message =
                    id.hasPrefix("hash-")
                    ? "card identical to the one at line \(lines[first]); this card's id is '\(newID)'"
                    : "duplicate UID '\(id)' (first used by the card at line \(lines[first])); this card's id is '\(newID)'"
                duplicates.append(VCardDiagnostic(file: fileName, line: lines[i], message: message))
                contacts[i].id = newID
                index[newID] = i
            } else {
                index[id] = i
            }
        }
        if !duplicates.isEmpty {
            diagnostics = (diagnostics + duplicates).enumerated().sorted {
                ($0.element.line, $0.offset) < ($1.element.line, $1.offset)
            }.map(\.element)
        }
        self.init(
            contacts: contacts, groups: cards + AddressBook.categoryGroups(contacts), diagnostics: diagnostics,
            index: index)
    }

    /// Reads a vCard file (memory-mapped). Throws ``ContactsCoreError/cannotRead(path:reason:)`` when the
    /// file cannot be read; problems inside it are ``diagnostics``.
    public init(contentsOf url: URL) throws {
        let data: Data
        do {
            data = try Data(contentsOf: url, options: .alwaysMapped)
        } catch {
            throw ContactsCoreError.cannotRead(path: url.path, reason: AddressBook.reason(error))
        }
        self.init(data: data, fileName: url.lastPathComponent)
    }

    /// The sample address book shipped with the package: about 300 fictional contacts in many scripts.
    ///
    /// ```swift
    /// let sample = try AddressBook.sample()
    /// ```
    public static func sample() throws -> AddressBook {
        guard let url = Bundle.module.url(forResource: "sample", withExtension: "vcf") else {
            throw ContactsCoreError.missingResource("sample.vcf")
        }
        return try AddressBook(contentsOf: url)
    }

    /// The contact with `id`, if any.
    public func contact(id: String) -> Contact? {
        indexByID[id].map { contacts[$0] }
    }

    /// The groups that list the contact `contactID` as a member, in ``groups`` order ([] for an id that is not a
    /// contact of this book).
    public func groups(containing contactID: String) -> [Group] {
        guard let i = indexByID[contactID] else { return [] }
        return membership[Int(membershipStart[i])..<Int(membershipStart[i + 1])].map { groups[Int($0)] }
    }

    /// Two books are equal when their contacts and groups are (diagnostics are not compared).
    public static func == (a: AddressBook, b: AddressBook) -> Bool {
        a.contacts == b.contacts && a.groups == b.groups
    }

    /// One `.category` group per distinct category, in order of first appearance.
    static func categoryGroups(_ contacts: [Contact]) -> [Group] {
        var order: [String] = []
        var members: [String: [String]] = [:]
        for i in contacts.indices where !contacts[i].categories.isEmpty {
            for cat in contacts[i].categories {
                if members[cat] == nil { order.append(cat) }
                members[cat, default: []].append(contacts[i].id)
            }
        }
        return order.map { Group(id: "category:" + $0, name: $0, memberIDs: members[$0] ?? [], kind: .category) }
    }

    private static func reason(_ error: Error) -> String {
        let ns = error as NSError
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain,
            let code = POSIXErrorCode(rawValue: Int32(underlying.code))
        {
            return String(cString: strerror(code.rawValue))
        }
        return ns.localizedDescription
    }
}
