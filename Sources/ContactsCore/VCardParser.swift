import Foundation
import Support

/// The reader's driver: it runs the lexer (``VCardLexer``) over the input, hands each content line to the
/// property parser (``VCardPropertyParser``) and its values to the field reader (``VCardFieldReader``),
/// which fills the card being built (``CardBuilder``), and finishes cards. It owns buffers that live across cards, so it is a class; it is
/// created per read (or per piece) and never shared.
final class VCardParser {
    let fileName: String

    /// A diagnostic whose line numbers are local to this parser's input (a chunk of a file).
    struct LocalDiagnostic {
        enum Message {
            case text(String)
            /// A card without END:VCARD: where it starts and the BEGIN:VCARD that follows (nil: end of input).
            case missingEnd(cardStart: Int, nextBegin: Int?)
        }
        var line: Int
        var column: Int?
        var message: Message

        func rendered(file: String, lineOffset: Int) -> VCardDiagnostic {
            let text: String
            switch message {
            case .text(let t): text = t
            case .missingEnd(let start, let next?):
                text =
                    "card starting at line \(start + lineOffset) has no END:VCARD (expected before BEGIN:VCARD at line \(next + lineOffset)); its properties are kept"
            case .missingEnd(let start, nil):
                text =
                    "card starting at line \(start + lineOffset) has no END:VCARD (expected before the end of the input); its properties are kept"
            }
            return VCardDiagnostic(file: file, line: line + lineOffset, column: column, message: text)
        }
    }

    var localDiagnostics: [LocalDiagnostic] = []
    /// Physical lines read so far.
    var lineCount = 0
    /// Set for a chunk that ends right before a BEGIN:VCARD line of the same file.
    var endsBeforeNextCard = false

    /// The diagnostics with file line numbers (for a parser that read a whole input).
    var diagnostics: [VCardDiagnostic] { localDiagnostics.map { $0.rendered(file: fileName, lineOffset: 0) } }

    /// The mutable state of a read. It lives in a ``CheckedStorage`` (reached in place through `st[0]`) so
    /// that the hot loops touch it without the run-time exclusivity checks that stored properties of a class
    /// get (measured: ~30 % of parse time).
    struct State {
        var lexer = VCardLexer()
        var properties: VCardPropertyParser
        var fields: VCardFieldReader
        var builder = CardBuilder()
        var mode = ReadMode.contact
        /// In group-card mode: what the card said.
        var groupResult: CardBuilder?
        var inCard = false
        var cardStartLine = 0
        var cardStartOffset = 0
        var junkReported = false
        /// When `collecting`, finished cards are appended to `collected` and `contacts` instead of being passed
        /// to `emit`.
        var collecting = false
        var collected = VCardReader.Chunk()
        var contacts: CheckedStorage<Contact>?

        init() {
            properties = VCardPropertyParser(line: lexer.line)
            fields = VCardFieldReader(properties: properties)
        }
    }

    /// The state: exactly one element, for the parser's lifetime.
    let st = CheckedStorage<State>(repeating: State(), count: 1)

    /// The current content line (its bytes can be written through; only the lexer changes its length).
    var line: CheckedBuffer<UInt8> { st[0].lexer.line }
    /// The number of the (first physical) line of the current content line.
    var lineNumber: Int { st[0].lexer.lineNumber }
    var mode: ReadMode {
        get { st[0].mode }
        set { st[0].mode = newValue }
    }
    var inCard: Bool {
        get { st[0].inCard }
        set { st[0].inCard = newValue }
    }
    var cardStartLine: Int { st[0].cardStartLine }
    /// The byte offset in the input of the current card's `BEGIN:VCARD` line.
    var cardStartOffset: Int { st[0].cardStartOffset }

    /// Makes `parse` keep the cards (moved, not copied) for ``takeCollected()`` instead of calling `emit`.
    func collect(reserving capacity: Int) {
        st[0].collecting = true
        if st[0].contacts == nil { st[0].contacts = CheckedStorage(capacity: max(16, capacity)) }
        st[0].collected.contactLines.reserveCapacity(capacity)
        st[0].collected.idHashes.reserveCapacity(capacity)
    }

    /// The cards kept since ``collect(reserving:)``.
    func takeCollected() -> VCardReader.Chunk {
        var chunk = VCardReader.Chunk()
        swap(&chunk, &st[0].collected)
        if let contacts = st[0].contacts {
            chunk.storage = contacts
            st[0].contacts = nil
        }
        return chunk
    }

    /// Appends `contact` to the collected ones (moved; the room doubles when full).
    func appendCollected(_ contact: consuming Contact) {
        if let contacts = st[0].contacts, !contacts.isFull {
            contacts.append(contact)
            return
        }
        let grown = st[0].contacts?.moved(toCapacity: max(16, 2 * (st[0].contacts?.capacity ?? 0)))
        let storage = grown ?? CheckedStorage(capacity: 16)
        storage.append(contact)
        st[0].contacts = storage
    }

    init(fileName: String) {
        self.fileName = fileName
    }

    deinit {
        st[0].lexer.deallocate()
        st[0].properties.deallocate()
        st[0].fields.deallocate()
    }

    // MARK: Reading

    /// Reads `buf`: the caller's bytes, read-only and borrowed for the call (a file is read without a copy).
    func parse(_ buf: UnsafeBufferPointer<UInt8>, emit: (consuming VCardRecord, Int) -> Void) {
        guard buf.count > 0 else {
            diagnose(1, nil, "no vCard found: the input is empty (expected BEGIN:VCARD)")
            return
        }
        st[0].lexer.start(buf)
        var sawCard = false
        while st[0].lexer.next() {
            if processLine(offset: st[0].lexer.lineOffset, emit: emit) { sawCard = true }
        }
        lineCount = st[0].lexer.lineCount
        if inCard {
            localDiagnostics.append(
                LocalDiagnostic(
                    line: cardStartLine, column: nil,
                    message: .missingEnd(cardStart: cardStartLine, nextBegin: endsBeforeNextCard ? lineCount + 1 : nil)
                ))
            finishCard(endOffset: buf.count, emit: emit)
        }
        if !sawCard && localDiagnostics.isEmpty {
            diagnose(1, nil, "no vCard found (expected BEGIN:VCARD)")
        }
    }

    /// Handles one unfolded content line; returns true when it began a card.
    func processLine(offset: Int, emit: (consuming VCardRecord, Int) -> Void) -> Bool {
        let line = self.line
        let n = line.count
        var i = 0
        while i < n && (line[i] == space || line[i] == tab) { i += 1 }
        if i == n { return false }
        // BEGIN and END lines start with B or E (any case); other lines skip both keyword tests, except
        // those ending in "d" that may be a grouped `home.BEGIN:VCARD` / `home.END:VCARD` (RFC 2426 §4).
        let first = line[i] | 0x20
        var start = i
        var maybeBoundary = first == 0x62 || first == 0x65
        if !maybeBoundary && line[n - 1] | 0x20 == 0x64, let g = st[0].lexer.groupedBoundaryStart(from: i) {
            start = g
            maybeBoundary = true
        }
        if maybeBoundary && VCardLexer.matchesKeyword(line.extracting(start..<n), "BEGIN:VCARD") {
            if inCard {
                localDiagnostics.append(
                    LocalDiagnostic(
                        line: cardStartLine, column: nil,
                        message: .missingEnd(cardStart: cardStartLine, nextBegin: lineNumber)))
                finishCard(endOffset: offset, emit: emit)
            }
            inCard = true
            st[0].junkReported = false
            st[0].cardStartLine = lineNumber
            st[0].cardStartOffset = offset
            st[0].builder.reset()
            return true
        }
        if maybeBoundary && VCardLexer.matchesKeyword(line.extracting(start..<n), "END:VCARD") {
            if inCard {
                finishCard(endOffset: offset, emit: emit)
            } else {
                diagnose(lineNumber, i + 1, "END:VCARD without a BEGIN:VCARD before it")
            }
            return false
        }
        guard inCard else {
            if !st[0].junkReported {
                diagnose(lineNumber, i + 1, "expected BEGIN:VCARD, found '\(linePreview(line, from: i))'")
                st[0].junkReported = true
            }
            return false
        }
        do {
            let head = try st[0].properties.parse(line, from: i)
            st[0].fields.read(head, properties: st[0].properties, mode: mode, into: &st[0].builder)
            if !st[0].fields.notes.isEmpty {
                for note in st[0].fields.takeNotes() { diagnose(lineNumber, note.column, note.message) }
            }
        } catch {
            diagnose(lineNumber, error.column, error.message)
        }
        return false
    }

    // MARK: Finishing a card

    func finishCard(endOffset: Int, emit: (consuming VCardRecord, Int) -> Void) {
        inCard = false
        if mode != .groupCard && !st[0].builder.isGroupCard {
            if mode == .listing && st[0].builder.valuesLeftOut && (st[0].builder.uid ?? "").isEmpty {
                // The id of a card without UID is a hash of all it says: that of the card read in full.
                st[0].builder.uid = fullReadID(endOffset: endOffset)
            }
            finishContact(emit: emit)
            return
        }
        var b = CardBuilder()
        swap(&b, &st[0].builder)
        if mode == .groupCard {
            st[0].groupResult = b
            return
        }
        let id = b.cardID()
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
                // The card's own bytes: a read-only slice of the input being read.
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

    /// The id of the current card (which ends at `endOffset`) read again in full (``ReadMode/contact``).
    private func fullReadID(endOffset: Int) -> String? {
        let start = st[0].cardStartOffset
        guard endOffset > start else { return nil }
        let again = VCardParser(fileName: fileName)
        var id: String?
        // The card's own bytes: a read-only slice of the input being read.
        again.parse(UnsafeBufferPointer(rebasing: st[0].lexer.input[start..<endOffset])) { record, _ in
            if id == nil, case .contact(let contact) = consume record { id = contact.id }
        }
        return id
    }

    /// Finishes an ordinary contact card in place: the contact is moved out and the builder reset, so its
    /// buffers serve the next card.
    func finishContact(emit: (consuming VCardRecord, Int) -> Void) {
        let line = cardStartLine
        let (id, hadMembers) = st[0].builder.finishContact()
        if hadMembers {
            diagnose(
                line, nil, "MEMBER in a card that is not a group (expected KIND:group); kept as an unknown property")
        }
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

    func diagnose(_ line: Int, _ column: Int?, _ message: String) {
        localDiagnostics.append(LocalDiagnostic(line: line, column: column, message: .text(message)))
    }
}
