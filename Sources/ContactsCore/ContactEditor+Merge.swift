import Foundation
import Support

extension ContactEditor {
    /// Merges the contacts `ids` into one, without losing a value: the card of `into` (default: the first
    /// id) gets every other card's values it lacks (see the rules of `CardLines.merge`), keeps its own
    /// bytes for the lines it had, and the other cards are removed (in a vdir, their files, unless a file
    /// holds other cards). Every file is written atomically. Returns what ``MergeUndo/restore()`` needs to
    /// put every byte back; with `undoFile`, that record is written there first (a new file: an existing one
    /// is an error and nothing is merged).
    ///
    /// ```swift
    /// let editor = try ContactEditor(source: .file("contacts.vcf"))
    /// let undo = try editor.merge(ids: ["ada", "ada-lovelace"], undoFile: "merge.undo.json")
    /// try MergeUndo(contentsOf: "merge.undo.json").restore()
    /// ```
    public func merge(ids: [String], into: String? = nil, undoFile: String? = nil) throws -> MergeUndo {
        let target = into ?? ids.first ?? ""
        var all = [target]
        for id in ids where !all.contains(id) { all.append(id) }
        guard all.count >= 2 else {
            throw ContactsCoreError.invalidEdit(field: "ID", message: "merging needs at least two different contacts")
        }
        // Each contact's file (relative to the folder for a vdir; "" for a vCard file) and position in it.
        var files: [String: CardFile] = [:]
        var places: [(file: String, card: Int, contact: Contact)] = []
        switch source {
        case .file(let path):
            let file = try Self.load(path, missingIsEmpty: false)
            files[""] = file
            for id in all {
                guard let p = file.book.position(of: id) else {
                    throw ContactsCoreError.noSuchContact(id: id, source: path)
                }
                places.append(("", file.card(ofContactAt: p), file.book.contacts[p]))
            }
        case .vdir(let folder):
            let contents = try VDir(path: folder).contents()
            for id in all {
                guard let k = contents.book.position(of: id) else {
                    throw ContactsCoreError.noSuchContact(id: id, source: folder)
                }
                let name = contents.fileNames[k]
                if files[name] == nil { files[name] = try Self.load(folder + "/" + name, missingIsEmpty: false) }
                let file = files[name]!
                // The contact's id inside its own file (the folder may have renamed it) by position.
                let p = k - (contents.fileNames.firstIndex(of: name) ?? k)
                guard p < file.book.contacts.count else { throw ContactsCoreError.noSuchContact(id: id, source: name) }
                places.append((name, file.card(ofContactAt: p), contents.book.contacts[k]))
            }
        case .standardInput:
            throw ContactsCoreError.invalidEdit(field: "--source", message: "standard input cannot be edited")
        }
        var seen = Set<String>()
        for place in places where !seen.insert(place.file + "\u{0}\(place.card)").inserted {
            throw ContactsCoreError.invalidEdit(
                field: "ID", message: "\(place.contact.id) shares its card with another contact named")
        }
        // The merged card.
        let first = places[0]
        var merged = files[first.file]!.lines(first.card)
        for place in places.dropFirst() {
            try merged.merge(
                files[place.file]!.lines(place.card), otherID: place.contact.id,
                otherName: place.contact.formattedName)
        }
        let check = AddressBook(data: Data(merged.bytes), fileName: "card")
        guard check.contacts.count == 1 else {
            let problem = check.diagnostics.last.map(\.message) ?? "the merged card could not be read back"
            throw ContactsCoreError.invalidEdit(field: "ID", message: problem)
        }
        // Each file's new bytes and the hunks that undo them.
        var changes: [MergeUndo.FileChange] = []
        var writes: [(path: String, bytes: [UInt8]?)] = []
        for name in files.keys.sorted() {
            let file = files[name]!
            var replacements: [Int: [UInt8]] = [:]
            for place in places where place.file == name { replacements[place.card] = [] }
            if first.file == name { replacements[first.card] = merged.bytes }
            let (after, hunks) = MergeUndo.rewrite(file.bytes, cards: file.cards, replacements: replacements)
            let gone = !name.isEmpty && CardFile.cardRanges(after).isEmpty
            changes.append(
                MergeUndo.FileChange(name: name, afterHash: gone ? nil : MergeUndo.hash(after), hunks: hunks))
            writes.append((path(ofFile: name), gone ? nil : after))
        }
        let undo = MergeUndo(source: source, kept: target, merged: Array(all.dropFirst()), files: changes)
        if let undoFile { try write { try AtomicFiles.create(undoFile, with: Array(undo.json().utf8)) } }
        for (path, bytes) in writes {
            try write {
                if let bytes { try AtomicFiles.replace(path, with: bytes) } else { try AtomicFiles.remove(path) }
            }
        }
        return undo
    }

    /// The path of a file of the source: the vCard file itself for "", else a file of the vdir.
    func path(ofFile name: String) -> String {
        switch source {
        case .vdir(let folder): return folder + "/" + name
        case .file(let path): return path
        case .standardInput: return "-"
        }
    }
}
