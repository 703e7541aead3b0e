import Foundation
import PackageResources

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
    /// Nothing at all could be read: no card, only problems (a command then fails instead of showing an
    /// empty book, and no index is saved for it).
    public var nothingRead: Bool { contacts.isEmpty && groups.isEmpty && !diagnostics.isEmpty }
    /// The line where each contact's card begins, when the book was read from vCard data ([] otherwise).
    package internal(set) var contactLines: [Int] = []
    /// The file of each contact, when the book was merged from several files ([] otherwise).
    package internal(set) var contactFiles: [String] = []
    let indexByID: IDIndex
    /// Group membership per contact, flattened: the groups of contact `i` are
    /// `membership[membershipStart[i]..<membershipStart[i + 1]]`.
    private let membershipStart: [Int32]
    private let membership: [Int32]

    /// An address book from parts. Category groups are not derived here: pass them in `groups`.
    public init(contacts: [Contact], groups: [Group] = [], diagnostics: [VCardDiagnostic] = []) {
        var index = IDIndex(capacity: contacts.count)
        if let hashes = IDIndex.hashes(of: contacts.map(\.id)) {
            for i in contacts.indices
            where index.find(contacts[i].id, hash: hashes[i], idAt: { contacts[$0].id }) == nil {
                index.insert(hash: hashes[i], position: i)
            }
        } else {
            var dictionary: [String: Int] = [:]
            dictionary.reserveCapacity(contacts.count)
            for i in contacts.indices where dictionary[contacts[i].id] == nil { dictionary[contacts[i].id] = i }
            index = IDIndex(dictionary: dictionary)
        }
        self.init(contacts: contacts, groups: groups, diagnostics: diagnostics, index: index)
    }

    /// `trailingMembers`: the member positions of the last `trailingMembers.count` groups, when known (the
    /// category groups); the other groups' members are looked up by id.
    private init(
        contacts: [Contact], groups: [Group], diagnostics: [VCardDiagnostic], index: IDIndex,
        trailingMembers: [[Int32]] = []
    ) {
        self.contacts = contacts
        self.groups = groups
        self.diagnostics = diagnostics
        indexByID = index
        // Count, then fill (no array per contact).
        var start = [Int32](repeating: 0, count: contacts.count + 1)
        let lookedUp = groups.count - trailingMembers.count
        for group in groups[..<lookedUp] {
            for m in group.memberIDs { if let i = index.position(of: m, in: contacts) { start[i + 1] += 1 } }
        }
        for members in trailingMembers { for i in members { start[Int(i) + 1] += 1 } }
        for i in 0..<contacts.count { start[i + 1] += start[i] }
        var fill = start
        var flat = [Int32](repeating: 0, count: Int(start[contacts.count]))
        for (g, group) in groups[..<lookedUp].enumerated() {
            for m in group.memberIDs {
                guard let i = index.position(of: m, in: contacts) else { continue }
                flat[Int(fill[i])] = Int32(g)
                fill[i] += 1
            }
        }
        for (k, members) in trailingMembers.enumerated() {
            for i in members {
                flat[Int(fill[Int(i)])] = Int32(lookedUp + k)
                fill[Int(i)] += 1
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
        self.init(data: data, fileName: fileName, maxChunks: VCardReader.defaultPieceCount)
    }

    /// ``init(data:fileName:)`` read in up to `maxChunks` pieces of at least `minChunkSize` bytes (package
    /// access: the tests and the fuzz targets compare the pieces' book with the whole file's).
    package init(data: Data, fileName: String, maxChunks: Int, minChunkSize: Int = 1 << 20) {
        var chunks = VCardReader.readChunked(
            data: data, fileName: fileName, maxChunks: maxChunks, minChunkSize: minChunkSize)
        var lines: [Int] = []
        var cards: [Group] = []
        var diagnostics: [VCardDiagnostic] = []
        var idHashes: [UInt64]? = []
        var categories = CategoryGroups()
        if chunks.count == 1 {
            swap(&categories, &chunks[0].categories)
            swap(&lines, &chunks[0].contactLines)
            swap(&cards, &chunks[0].groups)
            swap(&diagnostics, &chunks[0].diagnostics)
            if chunks[0].idsAreASCII { swap(&idHashes!, &chunks[0].idHashes) } else { idHashes = nil }
        } else {
            let total = chunks.reduce(0) { $0 + $1.storage.count }
            lines.reserveCapacity(total)
            idHashes?.reserveCapacity(total)
            var offset: Int32 = 0
            for k in chunks.indices {
                categories.append(chunks[k].categories, offset: offset)
                offset += Int32(chunks[k].storage.count)
                lines.append(contentsOf: chunks[k].contactLines)
                cards.append(contentsOf: chunks[k].groups)
                diagnostics.append(contentsOf: chunks[k].diagnostics)
                if chunks[k].idsAreASCII { idHashes?.append(contentsOf: chunks[k].idHashes) } else { idHashes = nil }
            }
        }
        // Move the contacts out of the pieces (in parallel): no copy, nothing left behind.
        let storages = chunks.map(\.storage)
        chunks.removeAll()
        var contacts = CheckedStorage.joined(storages)
        // Ids are unique within a book (UniqueIDs).
        var ids = contacts.map(\.id)
        let unique = UniqueIDs(
            &ids, hashes: idHashes?.count == contacts.count ? idHashes : nil, lines: lines, fileName: fileName)
        for i in unique.changed { contacts[i].id = ids[i] }
        ids = []
        diagnostics = unique.merged(into: diagnostics)
        // The member ids the readers noted hold unless an id was changed above.
        let categoryGroups = categories.groups(ids: unique.changed.isEmpty ? nil : contacts)
        self.init(
            contacts: contacts, groups: cards + categoryGroups, diagnostics: diagnostics, index: unique.index,
            trailingMembers: categories.members)
        contactLines = lines
    }

    /// Reads a vCard file (memory-mapped). Throws ``ContactsCoreError/cannotRead(path:reason:)`` when the
    /// file cannot be read; problems inside it are ``diagnostics``.
    public init(contentsOf url: URL) throws {
        try self.init(contentsOf: url, fileName: url.lastPathComponent)
    }

    /// ``init(contentsOf:)`` with `fileName` naming the file in diagnostics.
    package init(contentsOf url: URL, fileName: String) throws {
        let data: Data
        do {
            data = try Data(contentsOf: url, options: .alwaysMapped)
        } catch {
            throw ContactsCoreError.cannotRead(path: url.path, reason: AddressBook.reason(error))
        }
        self.init(data: data, fileName: fileName)
    }

    /// The sample address book shipped with the package: about 300 fictional contacts in many scripts.
    ///
    /// ```swift
    /// let sample = try AddressBook.sample()
    /// ```
    public static func sample() throws -> AddressBook {
        guard
            let url = ResourceFolder.find(
                bundle: "ContactsSelection_ContactsCore", folder: "sample.vcf",
                source: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                    .appendingPathComponent("Resources/sample.vcf"))
        else {
            throw ContactsCoreError.missingResource("sample.vcf")
        }
        return try AddressBook(contentsOf: url)
    }

    /// The contact with `id`, if any.
    public func contact(id: String) -> Contact? {
        indexByID.position(of: id, in: contacts).map { contacts[$0] }
    }

    /// The groups that list the contact `contactID` as a member, in ``groups`` order ([] for an id that is not a
    /// contact of this book).
    public func groups(containing contactID: String) -> [Group] {
        guard let i = indexByID.position(of: contactID, in: contacts) else { return [] }
        return membership[Int(membershipStart[i])..<Int(membershipStart[i + 1])].map { groups[Int($0)] }
    }

    /// Two books are equal when their contacts and groups are (diagnostics are not compared).
    public static func == (a: AddressBook, b: AddressBook) -> Bool {
        a.contacts == b.contacts && a.groups == b.groups
    }

    static func reason(_ error: Error) -> String {
        let ns = error as NSError
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain,
            let code = POSIXErrorCode(rawValue: Int32(underlying.code))
        {
            return String(cString: strerror(code.rawValue))
        }
        return ns.localizedDescription
    }
}

/// The distinct categories of contacts in order of first appearance, each with its members' positions (in
/// order) and ids; built by the reader threads while each contact is at hand, then joined piece by piece.
struct CategoryGroups {
    private(set) var order: [String] = []
    private(set) var members: [[Int32]] = []
    private var memberIDs: [[String]] = []
    /// Category to its index in `order`, once there are more than 8 (few are compared one by one).
    private var positions: [String: Int]?

    /// The index of `category` in `order`, added when new.
    private mutating func index(of category: String) -> Int {
        let k: Int
        if let positions {
            k = positions[category] ?? order.count
        } else {
            k = order.firstIndex(of: category) ?? order.count
        }
        if k == order.count {
            order.append(category)
            members.append([])
            memberIDs.append([])
            if positions != nil {
                positions?[category] = k
            } else if order.count > 8 {
                positions = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($0.element, $0.offset) })
            }
        }
        return k
    }

    /// Notes the contact at `position` (after those noted before) with id `id` in each of its `categories`.
    mutating func add(_ categories: [String], position: Int32, id: String) {
        for category in categories {
            let k = index(of: category)
            members[k].append(position)
            memberIDs[k].append(id)
        }
    }

    /// Adds the categories of the next piece, whose positions start at `offset`.
    mutating func append(_ other: CategoryGroups, offset: Int32) {
        for j in other.order.indices {
            let k = index(of: other.order[j])
            if offset == 0 {
                members[k].append(contentsOf: other.members[j])
            } else {
                members[k].append(contentsOf: other.members[j].lazy.map { $0 + offset })
            }
            memberIDs[k].append(contentsOf: other.memberIDs[j])
        }
    }

    /// One `.category` group per category; member ids as noted, or taken from `contacts` when given (after
    /// ids were changed).
    func groups(ids contacts: [Contact]?) -> [Group] {
        order.indices.map { k in
            Group(
                id: "category:" + order[k], name: order[k],
                memberIDs: contacts.map { c in members[k].map { c[Int($0)].id } } ?? memberIDs[k], kind: .category)
        }
    }
}
