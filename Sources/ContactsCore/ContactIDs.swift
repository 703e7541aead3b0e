import Foundation

/// The rule that makes contact ids unique within a book: the first card with an id keeps it; a later card
/// with the same UID (or an identical card, whose id is its content hash) gets the first free suffix
/// `-2`, `-3`, … and a diagnostic naming both lines. ``AddressBook`` and the streamed reader
/// (``VCardReader/stream(data:fileName:listedFieldsOnly:makePiece:progress:_:)``) both apply it.
struct UniqueIDs {
    /// The index of the final ids (positions as in `ids`).
    var index: IDIndex
    /// The positions whose id was changed, in order.
    var changed: [Int] = []
    var diagnostics: [VCardDiagnostic] = []

    /// Makes `ids` unique in place. `hashes`: ``IDIndex/hash(_:)`` of each id when every id is ASCII (the
    /// fast table), else nil; `lines`: the line where each card begins; `files`: the file of each card when
    /// the ids come from several files (``SourcedAddressBook``), else every card is in `fileName`.
    init(_ ids: inout [String], hashes: [UInt64]?, lines: [Int], fileName: String, files: [String]? = nil) {
        var changed: [Int] = []
        var diagnostics: [VCardDiagnostic] = []
        var nextSuffix: [String: Int] = [:]
        func rename(_ i: Int, firstAt first: Int, to newID: String) {
            let id = ids[i]
            let place = files.map { "\($0[first]):\(lines[first])" } ?? "line \(lines[first])"
            let message =
                id.hasPrefix("hash-")
                ? "card identical to the one at \(place); this card's id is '\(newID)'"
                : "duplicate UID '\(id)' (first used by the card at \(place)); this card's id is '\(newID)'"
            diagnostics.append(VCardDiagnostic(file: files?[i] ?? fileName, line: lines[i], message: message))
            ids[i] = newID
            changed.append(i)
        }
        if let hashes, hashes.count == ids.count {
            // Every id is ASCII (UUIDs, hash ids): the fast table.
            var index = IDIndex(capacity: ids.count)
            for i in ids.indices {
                guard let first = index.find(ids[i], hash: hashes[i], idAt: { ids[$0] }) else {
                    index.insert(hash: hashes[i], position: i)
                    continue
                }
                let id = ids[i]
                var n = nextSuffix[id] ?? 2
                while index.position(of: "\(id)-\(n)", count: ids.count, idAt: { ids[$0] }) != nil { n += 1 }
                nextSuffix[id] = n + 1
                rename(i, firstAt: first, to: "\(id)-\(n)")
                index.insert(hash: IDIndex.hash(ids[i]).hash, position: i)
            }
            self.index = index
        } else {
            var dictionary: [String: Int] = [:]
            dictionary.reserveCapacity(ids.count)
            for i in ids.indices {
                let id = ids[i]
                if let first = dictionary[id] {
                    var n = nextSuffix[id] ?? 2
                    while dictionary["\(id)-\(n)"] != nil { n += 1 }
                    nextSuffix[id] = n + 1
                    rename(i, firstAt: first, to: "\(id)-\(n)")
                    dictionary[ids[i]] = i
                } else {
                    dictionary[id] = i
                }
            }
            index = IDIndex(dictionary: dictionary)
        }
        self.changed = changed
        self.diagnostics = diagnostics
    }

    /// `diagnostics` merged with these renames, in line order (renames after others on the same line).
    func merged(into diagnostics: [VCardDiagnostic]) -> [VCardDiagnostic] {
        guard !self.diagnostics.isEmpty else { return diagnostics }
        return (diagnostics + self.diagnostics).enumerated().sorted {
            ($0.element.line, $0.offset) < ($1.element.line, $1.offset)
        }.map(\.element)
    }
}

/// Contact ids to positions. When every id is ASCII (the usual case: UUIDs and hash ids) an open-addressing
/// table over a fast hash of the id's bytes, otherwise a `Dictionary`. Lookups agree with `String` equality
/// (canonical equivalence): a non-ASCII query against an all-ASCII table is compared id by id.
struct IDIndex: Sendable {
    /// Position + 1 per slot (0: empty), and the hash of the id there.
    private var slots: [Int32]
    private var slotHashes: [UInt64]
    private let mask: Int
    private var dictionary: [String: Int]?

    /// An empty fast table for up to `capacity` ids.
    init(capacity: Int) {
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        slots = [Int32](repeating: 0, count: size)
        slotHashes = [UInt64](repeating: 0, count: size)
        mask = size - 1
        dictionary = nil
    }

    init(dictionary: [String: Int]) {
        slots = []
        slotHashes = []
        mask = 0
        self.dictionary = dictionary
    }

    /// The hash of each id, or nil when some id is not ASCII (then use a dictionary).
    static func hashes(of ids: [String]) -> [UInt64]? {
        var result = [UInt64](repeating: 0, count: ids.count)
        for i in ids.indices {
            let (h, ascii) = IDIndex.hash(ids[i])
            guard ascii else { return nil }
            result[i] = h
        }
        return result
    }

    /// Seeded once per process, so that hashes made while reading (in parallel) fit any table.
    private static let seed = UInt64.random(in: .min ... .max)

    /// A fast hash of `id`'s UTF-8 bytes, and whether they are all ASCII.
    static func hash(_ id: String) -> (hash: UInt64, ascii: Bool) {
        if let r = id.utf8.withContiguousStorageIfAvailable({ hash($0, seed: seed) }) { return r }
        return Array(id.utf8).withUnsafeBufferPointer { hash($0, seed: seed) }
    }

    // `b`: the id's bytes, borrowed read-only from the caller's String (no copy per id).
    private static func hash(_ b: UnsafeBufferPointer<UInt8>, seed: UInt64) -> (hash: UInt64, ascii: Bool) {
        let n = b.count
        var h = seed ^ (UInt64(n) &* 0x9E37_79B9_7F4A_7C15)
        var bits: UInt64 = 0
        var i = 0
        while i + 8 <= n {
            let w = b.word(at: i)
            bits |= w
            h = (h ^ w) &* 0xBF58_476D_1CE4_E5B9
            h ^= h >> 31
            i += 8
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while i < n {
            tail |= UInt64(b[i]) << shift
            shift += 8
            i += 1
        }
        bits |= tail
        h = (h ^ tail) &* 0x94D0_49BB_1331_11EB
        h ^= h >> 29
        h = h &* 0xBF58_476D_1CE4_E5B9
        h ^= h >> 32
        return (h, bits & 0x8080_8080_8080_8080 == 0)
    }

    /// The position of the ASCII `id` (whose hash is `h`) in the fast table; `idAt` gives the id at a
    /// position.
    func find(_ id: String, hash h: UInt64, idAt: (Int) -> String) -> Int? {
        var k = Int(truncatingIfNeeded: h) & mask
        while true {
            let s = Int(slots[k])
            if s == 0 { return nil }
            if slotHashes[k] == h && idAt(s - 1) == id { return s - 1 }
            k = (k + 1) & mask
        }
    }

    /// Adds position `position` (an id not in the fast table yet) with hash `h`.
    mutating func insert(hash h: UInt64, position: Int) {
        var k = Int(truncatingIfNeeded: h) & mask
        while slots[k] != 0 { k = (k + 1) & mask }
        slots[k] = Int32(position + 1)
        slotHashes[k] = h
    }

    /// The position of `id` among `count` ids given by `idAt` (the first one when ids repeat).
    func position(of id: String, count: Int, idAt: (Int) -> String) -> Int? {
        if let dictionary { return dictionary[id] }
        let (h, ascii) = IDIndex.hash(id)
        if ascii { return find(id, hash: h, idAt: idAt) }
        // A non-ASCII query may still equal an ASCII id (U+212A KELVIN SIGN is canonically "K").
        return (0..<count).first { idAt($0) == id }
    }

    /// The position of `id` among `contacts`.
    func position(of id: String, in contacts: [Contact]) -> Int? {
        position(of: id, count: contacts.count) { contacts[$0].id }
    }
}
