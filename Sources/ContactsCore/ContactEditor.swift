import Foundation
import Locales
import Support

/// Adds, edits and deletes contacts where they live: in a vCard file (the edited card's bytes change, every
/// other card stays byte for byte) or in a vdir folder (one file per contact: a new contact is `<UID>.vcf`,
/// an edited one keeps its file name). Every write is atomic: a temporary file in the same folder, synced,
/// then renamed into place. Unknown properties and parameters of an edited card are kept.
///
/// ```swift
/// let editor = try ContactEditor(source: .vdir("contacts/family"))
/// let id = try editor.add(givenName: "Ada", familyName: "Lovelace", emails: ["ada@example.org"])
/// try editor.edit(id: id, [try PropertyEdit.set(parsing: "X-TWITTER=@ada")])
/// try editor.delete(id: id)
/// ```
public struct ContactEditor: Sendable {
    public let source: ContactSource
    /// The region for phone numbers written without a country code (nil: only international numbers).
    public var region: String?

    /// An editor of a file or a vdir; standard input cannot be edited.
    public init(source: ContactSource, region: String? = nil) throws {
        if case .standardInput = source {
            throw ContactsCoreError.invalidEdit(field: "--source", message: "standard input cannot be edited")
        }
        self.source = source
        self.region = region
    }

    /// Adds a contact with a new UID and returns its id. `groups`: the group card of that name when the file
    /// (or a file of the vdir) has one (`KIND:group` with `MEMBER`, or Apple's `X-ADDRESSBOOKSERVER-KIND` and
    /// `X-ADDRESSBOOKSERVER-MEMBER`), which gets the new member; else `CATEGORIES`, as khard writes them.
    /// `edits` are applied to the new card.
    public func add(
        givenName: String, familyName: String, emails: [String] = [], phones: [String] = [], groups: [String] = [],
        edits: [PropertyEdit] = []
    ) throws -> String {
        let id = UUID().uuidString.lowercased()
        var contact = Contact(id: id)
        contact.givenName = givenName
        contact.familyName = familyName
        contact.formattedName = NameOrder.format(PersonName(given: givenName, family: familyName))
        guard !NameOrder.trimmed(contact.formattedName).isEmpty else {
            throw ContactsCoreError.invalidEdit(field: "--given/--family", message: "a new contact needs a name")
        }
        var checks = emails.map { PropertyEdit(.add, name: "EMAIL", value: $0) }
        checks += phones.map { PropertyEdit(.add, name: "TEL", value: $0) }
        for edit in checks + edits { try edit.validate(region: region) }
        contact.emails = emails.map { LabeledValue(label: .unlabeled, value: $0) }
        contact.phones = phones.map { LabeledValue(label: .unlabeled, value: $0) }
        switch source {
        case .vdir(let folder):
            let cardGroups = try Self.groupCardNames(in: folder, among: groups)
            contact.categories = groups.filter { !cardGroups.contains($0) }
            let card = try edited(Array(VCardWriter.string(for: contact, version: .v3).utf8), edits)
            try write { try AtomicFiles.create(folder + "/" + Self.fileName(for: id), with: card) }
            try addMembers(id, toGroupsNamed: groups, inFolder: folder)
        case .file(let path):
            let file = try Self.load(path, missingIsEmpty: true)
            let cardGroups = Set(file.book.groups.filter { $0.kind == .card }.map(\.name))
            contact.categories = groups.filter { !cardGroups.contains($0) }
            var card = try edited(Array(VCardWriter.string(for: contact, version: file.version).utf8), edits)
            if file.newline == [0x0A] { card.removeAll { $0 == 0x0D } }
            let bytes = try addMembers(id, toGroupsNamed: groups, in: CardFile(bytes: file.appending(card)))
            try write { try AtomicFiles.replace(path, with: bytes) }
        case .standardInput:
            break
        }
        return id
    }

    /// Applies `edits` (in order) to the contact `id`, and adds it to `groups` as
    /// ``add(givenName:familyName:emails:phones:groups:edits:)`` does.
    public func edit(id: String, _ edits: [PropertyEdit], addingToGroups groups: [String] = []) throws {
        for edit in edits { try edit.validate(region: region) }
        var folder: String?
        if case .vdir(let path) = source { folder = path }
        let folderGroups = try folder.map { try Self.groupCardNames(in: $0, among: groups) } ?? []
        try change(id: id) { file, card, contact in
            var all = edits
            let cardGroups = Set(file.book.groups.filter { $0.kind == .card }.map(\.name)).union(folderGroups)
            let missing = groups.filter { !contact.categories.contains($0) && !cardGroups.contains($0) }
            if !missing.isEmpty {
                let categories = (contact.categories + missing).map(VCardWriter.escape).joined(separator: ",")
                all.append(PropertyEdit(.set, name: "CATEGORIES", value: categories))
            }
            let bytes = file.replacing(card, with: try edited(file.lines(card).bytes, all))
            return try addMembers(contact.id, toGroupsNamed: groups, in: CardFile(bytes: bytes))
        }
        if let folder { try addMembers(id, toGroupsNamed: groups, inFolder: folder) }
    }

    /// Removes the contact `id`: its card from a file, its file from a vdir (its card only, when the file
    /// holds others).
    public func delete(id: String) throws {
        try change(id: id) { file, card, _ in file.replacing(card, with: nil) }
    }

    // MARK: Finding and writing

    /// Finds the card of `id` (and the contact as its file names it), lets `body` make the file's new bytes,
    /// and writes them atomically; in a vdir, a file left without a card is removed.
    private func change(id: String, _ body: (CardFile, Int, Contact) throws -> [UInt8]) throws {
        let path: String
        let file: CardFile
        let position: Int
        switch source {
        case .file(let p):
            path = p
            file = try Self.load(p, missingIsEmpty: false)
            guard let k = file.book.position(of: id) else { throw ContactsCoreError.noSuchContact(id: id, source: p) }
            position = k
        case .vdir(let folder):
            let contents = try VDir(path: folder).contents()
            guard let k = contents.book.position(of: id) else {
                throw ContactsCoreError.noSuchContact(id: id, source: folder)
            }
            let name = contents.fileNames[k]
            path = folder + "/" + name
            file = try Self.load(path, missingIsEmpty: false)
            position = k - (contents.fileNames.firstIndex(of: name) ?? k)
            guard position < file.book.contacts.count else {
                throw ContactsCoreError.noSuchContact(id: id, source: path)
            }
        case .standardInput:
            return
        }
        let bytes = try body(file, file.card(ofContactAt: position), file.book.contacts[position])
        if case .vdir = source, CardFile.cardRanges(bytes).isEmpty {
            try write { try AtomicFiles.remove(path) }
        } else {
            try write { try AtomicFiles.replace(path, with: bytes) }
        }
    }

    /// The card's bytes with `edits` applied, `FN` following a changed `N`; throws when an edit would make
    /// the card unreadable or nameless.
    private func edited(_ card: [UInt8], _ edits: [PropertyEdit]) throws -> [UInt8] {
        guard !edits.isEmpty else { return card }
        var lines = CardLines(card[...])
        for edit in edits { try lines.apply(edit) }
        let touches = Set(edits.map(\.propertyName))
        if touches.contains("FN") && lines.positions(of: "FN").isEmpty {
            throw ContactsCoreError.invalidEdit(
                field: "FN", message: "a card needs a name (FN); use --set FN=… instead")
        }
        if touches.contains("N") && !touches.contains("FN"),
            let c = AddressBook(data: Data(lines.bytes), fileName: "card").contacts.first
        {
            let parts = PersonName(
                prefix: c.namePrefix, given: c.givenName, middle: c.middleName, family: c.familyName,
                suffix: c.nameSuffix)
            let name = NameOrder.format(parts, language: c.languages.first)
            if !name.isEmpty { try lines.apply(PropertyEdit(.set, name: "FN", value: name)) }
        }
        let before = AddressBook(data: Data(card), fileName: "card")
        let after = AddressBook(data: Data(lines.bytes), fileName: "card")
        guard after.contacts.count == before.contacts.count, after.diagnostics.count <= before.diagnostics.count else {
            let problem = after.diagnostics.last.map(\.message) ?? "the card could not be read back"
            throw ContactsCoreError.invalidEdit(field: edits.map(\.name).joined(separator: ", "), message: problem)
        }
        return lines.bytes
    }

    /// The file with `id` added as a member of its group cards named in `names` (a `MEMBER` line, or Apple's
    /// `X-ADDRESSBOOKSERVER-MEMBER` in the cards that use it).
    private func addMembers(_ id: String, toGroupsNamed names: [String], in file: CardFile) throws -> [UInt8] {
        var file = file
        for group in file.book.groups where group.kind == .card && names.contains(group.name) {
            guard !group.memberIDs.contains(id), let k = file.card(ofGroup: group.id) else { continue }
            let lines = file.lines(k)
            let apple = !lines.positions(of: "X-ADDRESSBOOKSERVER-KIND").isEmpty
            let member = PropertyEdit(
                .add, name: apple ? "X-ADDRESSBOOKSERVER-MEMBER" : "MEMBER", value: "urn:uuid:" + id)
            file = CardFile(bytes: file.replacing(k, with: try edited(lines.bytes, [member])))
        }
        return file.bytes
    }

    /// The files of a vdir that hold a group card (a cheap look for `KIND`, in any case, before any parsing).
    private static func groupCardFiles(in folder: String) throws -> [(path: String, file: CardFile)] {
        func mentionsKind(_ bytes: [UInt8]) -> Bool {
            let word = Array("kind".utf8)
            guard bytes.count >= word.count else { return false }
            for i in 0...(bytes.count - word.count) where bytes[i] | 0x20 == word[0] {
                if (1..<word.count).allSatisfy({ bytes[i + $0] | 0x20 == word[$0] }) { return true }
            }
            return false
        }
        var found: [(path: String, file: CardFile)] = []
        for name in try VDir(path: folder).cardFileNames() {
            let path = folder + "/" + name
            guard let data = FileManager.default.contents(atPath: path) else { continue }
            let bytes = [UInt8](data)
            guard mentionsKind(bytes) else { continue }
            let file = CardFile(bytes: bytes, fileName: path)
            if file.book.groups.contains(where: { $0.kind == .card }) { found.append((path, file)) }
        }
        return found
    }

    /// The names among `names` that are group cards of the vdir `folder`.
    private static func groupCardNames(in folder: String, among names: [String]) throws -> Set<String> {
        guard !names.isEmpty else { return [] }
        var found: Set<String> = []
        for (_, file) in try groupCardFiles(in: folder) {
            for group in file.book.groups where group.kind == .card && names.contains(group.name) {
                found.insert(group.name)
            }
        }
        return found
    }

    /// Adds `id` as a member of the vdir's group cards named in `names`, each file written atomically (read
    /// again here, so that a file changed just before keeps that change).
    private func addMembers(_ id: String, toGroupsNamed names: [String], inFolder folder: String) throws {
        guard !names.isEmpty else { return }
        for (path, file) in try Self.groupCardFiles(in: folder) {
            let bytes = try addMembers(id, toGroupsNamed: names, in: file)
            if bytes != file.bytes { try write { try AtomicFiles.replace(path, with: bytes) } }
        }
    }

    // MARK: Files

    /// The file name of a new contact in a vdir: its UID, with characters unsafe in file names replaced.
    static func fileName(for id: String) -> String {
        String(id.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." ? $0 : "_" }) + ".vcf"
    }

    static func load(_ path: String, missingIsEmpty: Bool) throws -> CardFile {
        if missingIsEmpty && !FileManager.default.fileExists(atPath: path) {
            return CardFile(bytes: [], fileName: path)
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
            throw ContactsCoreError.cannotRead(
                path: path,
                reason: !exists
                    ? "No such file or directory" : isDirectory.boolValue ? "Is a directory" : "Permission denied")
        }
        return CardFile(bytes: [UInt8](data), fileName: path)
    }

    func write(_ body: () throws -> Void) throws {
        do { try body() } catch let error as PrivateFilesError {
            throw ContactsCoreError.cannotWrite(path: error.path, reason: error.reason)
        }
    }
}
