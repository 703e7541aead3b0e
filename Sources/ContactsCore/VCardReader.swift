import Foundation
import ICUKit

/// One card read from a vCard file.
///
/// ```swift
/// if case .group(let g) = record { print(g.name, g.memberIDs.count) }
/// ```
public enum VCardRecord: Sendable, Hashable {
    case contact(Contact)
    case group(Group)
}

/// The streaming vCard reader: 2.1, 3.0 and 4.0, card by card, on bytes.
///
/// It unfolds lines (space or tab), accepts CRLF, LF, CR and the doubled CR of some phone exports, reads
/// property groups (`item1.EMAIL`), parameters (2.1 bare types, quoted and multiple values, RFC 6868 `^`
/// escapes), value escapes and structured values, quoted-printable with soft line breaks, `CHARSET=` (through
/// ICU converters), base64 and `data:` photos. A bad line or a card without `END:VCARD` becomes a
/// ``VCardDiagnostic`` and reading goes on.
///
/// ```swift
/// let diagnostics = VCardReader.read(data: data, fileName: "big.vcf") { record, line in
///     if case .contact(let c) = record { print(c.displayName) }
/// }
/// ```
public enum VCardReader {
    /// Reads `data`, calling `body` for each card in file order with the line where the card begins;
    /// returns the diagnostics. Ids are not made unique here (``AddressBook`` does that).
    public static func read(data: Data, fileName: String, _ body: (consuming VCardRecord, _ line: Int) -> Void)
        -> [VCardDiagnostic]
    {
        let parser = VCardParser(fileName: fileName)
        let (input, notes) = utf8Input(data, fileName: fileName)
        input.withUnsafeBytes { raw in
            parser.parse(raw.bindMemory(to: UInt8.self), emit: body)
        }
        return notes + parser.diagnostics
    }

    /// UTF-16 files (Outlook and some Windows tools export them, with a byte order mark) converted to UTF-8;
    /// anything else as it is.
    static func utf8Input(_ data: Data, fileName: String) -> (Data, [VCardDiagnostic]) {
        guard data.count >= 2 else { return (data, []) }
        let b0 = data[data.startIndex]
        let b1 = data[data.startIndex + 1]
        let charset: String
        if b0 == 0xFF && b1 == 0xFE {
            charset = "UTF-16LE"
        } else if b0 == 0xFE && b1 == 0xFF {
            charset = "UTF-16BE"
        } else {
            return (data, [])
        }
        let body = data.dropFirst(2)
        do {
            return (Data(try CharsetConverter.toUTF8(body, charset: charset, strict: true).utf8), [])
        } catch {
            let text = (try? CharsetConverter.toUTF8(body, charset: charset, strict: false)) ?? ""
            let note = VCardDiagnostic(
                file: fileName, line: 1,
                message:
                    "the \(charset) text has invalid sequences (\(error)); they were replaced with a substitution character"
            )
            return (Data(text.utf8), [note])
        }
    }
}

extension VCardReader {
    /// What one chunk of a file gave.
    struct Chunk {
        /// The contacts, in memory that ``AddressBook`` moves into its array without copying.
        var storage = ContactStorage()
        var contactLines: [Int] = []
        /// ``IDIndex/hash(_:)`` of each contact's id (computed while the id is fresh), and whether every id
        /// is ASCII (the hashes are meaningful only then).
        var idHashes: [UInt64] = []
        var idsAreASCII = true
        /// The categories of this chunk's contacts, with their members (positions in this chunk).
        var categories = CategoryGroups()
        var groups: [Group] = []
        var diagnostics: [VCardDiagnostic] = []

        /// The contacts as an array (a copy).
        var contacts: [Contact] { storage.contacts }
    }

    /// Contacts in manually managed memory, so that pieces read in parallel can be moved into one array
    /// without copying them or leaving placeholders behind.
    final class ContactStorage: @unchecked Sendable {
        let base: UnsafeMutablePointer<Contact>?
        let count: Int
        private let capacity: Int
        /// Set once the contacts were moved out (then only the memory is freed). Touched by one thread.
        private var movedOut = false

        init() {
            base = nil
            count = 0
            capacity = 0
        }

        /// Takes ownership of `count` initialized contacts at `base` (allocated with `capacity`).
        init(base: UnsafeMutablePointer<Contact>, count: Int, capacity: Int) {
            self.base = base
            self.count = count
            self.capacity = capacity
        }

        var contacts: [Contact] {
            guard let base, !movedOut else { return [] }
            return Array(UnsafeBufferPointer(start: base, count: count))
        }

        /// Moves every contact to `destination` (uninitialized room for ``count``); this storage is then empty.
        func moveAll(to destination: UnsafeMutablePointer<Contact>) {
            guard let base, !movedOut else { return }
            destination.moveInitialize(from: base, count: count)
            movedOut = true
        }

        deinit {
            guard let base else { return }
            if !movedOut { base.deinitialize(count: count) }
            base.deallocate()
        }
    }

    /// Threads for reading large files: the active processors, or env `CONTACTS_THREADS` when set (≥ 1).
    static var defaultThreadCount: Int {
        if let text = ProcessInfo.processInfo.environment["CONTACTS_THREADS"], let n = Int(text), n >= 1 { return n }
        return ProcessInfo.processInfo.activeProcessorCount
    }

    /// Pieces for reading a large file: eight per thread (at most 16, each at least 1 MiB), so that a thread
    /// that is done early takes another piece instead of waiting for a slower one: threads do not run at the
    /// same speed (one may first have to tidy its malloc arena), and small pieces keep the wait at the end
    /// short. One for one thread.
    static var defaultPieceCount: Int {
        let threads = defaultThreadCount
        return threads > 1 ? threads * 8 : 1
    }

    /// Hands out piece numbers to the reading threads, each once.
    private final class PieceCounter: @unchecked Sendable {
        private let lock = NSLock()
        private var next = 0

        func take(below count: Int) -> Int? {
            lock.lock()
            defer { lock.unlock() }
            guard next < count else { return nil }
            next += 1
            return next - 1
        }
    }

    /// Reads `data` in up to `maxChunks` pieces split at BEGIN:VCARD lines, with file line numbers, on up to
    /// `threads` threads (each takes the next piece when done). Small inputs (under 2 × `minChunkSize`) are
    /// read in one piece.
    static func readChunked(
        data: Data, fileName: String, maxChunks: Int = defaultPieceCount, threads: Int = defaultThreadCount,
        minChunkSize: Int = 1 << 20
    ) -> [Chunk] {
        let (data, notes) = utf8Input(data, fileName: fileName)
        let boundaries = data.withUnsafeBytes { raw in
            chunkBoundaries(
                raw.bindMemory(to: UInt8.self),
                pieces: min(16, maxChunks, max(1, raw.count / max(1, minChunkSize))))
        }
        let n = boundaries.count - 1
        struct Partial {
            var chunk = Chunk()
            var localDiagnostics: [VCardParser.LocalDiagnostic] = []
            var lineCount = 0
        }
        /// One slot per chunk; iteration k writes only slot k, and the slots are read after all iterations end.
        struct Slots: @unchecked Sendable { let buffer: UnsafeMutableBufferPointer<Partial> }
        let slots = Slots(buffer: .allocate(capacity: n))
        slots.buffer.initialize(repeating: Partial())
        defer {
            _ = slots.buffer.deinitialize()
            slots.buffer.deallocate()
        }
        let work: @Sendable (Int) -> Void = { k in
            let parser = VCardParser(fileName: fileName)
            parser.endsBeforeNextCard = k < n - 1
            data.withUnsafeBytes { raw in
                let piece = UnsafeRawBufferPointer(rebasing: raw[boundaries[k]..<boundaries[k + 1]])
                parser.collect(reserving: estimatedCardCount(piece))
                parser.parse(piece.bindMemory(to: UInt8.self)) { _, _ in }
            }
            slots.buffer[k] = Partial(
                chunk: parser.takeCollected(), localDiagnostics: parser.localDiagnostics,
                lineCount: parser.lineCount)
        }
        if n == 1 || threads <= 1 {
            for k in 0..<n { work(k) }
        } else {
            let counter = PieceCounter()
            DispatchQueue.concurrentPerform(iterations: min(n, threads)) { _ in
                while let k = counter.take(below: n) { work(k) }
            }
        }
        var chunks: [Chunk] = []
        chunks.reserveCapacity(n)
        var offset = 0
        for k in 0..<n {
            var chunk = slots.buffer[k].chunk
            if offset > 0 {
                for i in chunk.contactLines.indices { chunk.contactLines[i] += offset }
            }
            chunk.diagnostics = slots.buffer[k].localDiagnostics.map { $0.rendered(file: fileName, lineOffset: offset) }
            offset += slots.buffer[k].lineCount
            chunks.append(chunk)
        }
        if !notes.isEmpty { chunks[0].diagnostics = notes + chunks[0].diagnostics }
        return chunks
    }

    /// Offsets that split `buf` into about `pieces` parts, each starting at a BEGIN:VCARD line.
    static func chunkBoundaries(_ buf: UnsafeBufferPointer<UInt8>, pieces: Int) -> [Int] {
        var result = [0]
        guard pieces > 1, let base = buf.baseAddress else { return [0, buf.count] }
        let keyword: StaticString = "BEGIN:VCARD"
        for k in 1..<pieces {
            var pos = max(result[result.count - 1] + 1, buf.count / pieces * k)
            var found: Int?
            while pos < buf.count {
                guard let nl = memchr(base + pos, 0x0A, buf.count - pos) else { break }
                let start = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(nl)) + 1
                if buf.count - start >= 11 {
                    var match = true
                    for i in 0..<11
                    where (buf[start + i] >= 0x61 && buf[start + i] <= 0x7A ? buf[start + i] - 0x20 : buf[start + i])
                        != keyword.utf8Start[i]
                    {
                        match = false
                        break
                    }
                    if match {
                        found = start
                        break
                    }
                }
                pos = start
            }
            guard let found else { break }
            result.append(found)
        }
        result.append(buf.count)
        return result
    }
}

// MARK: - Byte constants

private let cr: UInt8 = 0x0D
private let lf: UInt8 = 0x0A
private let space: UInt8 = 0x20
private let tab: UInt8 = 0x09
private let colon: UInt8 = 0x3A
private let semicolon: UInt8 = 0x3B
private let comma: UInt8 = 0x2C
private let equals: UInt8 = 0x3D
private let dot: UInt8 = 0x2E
private let quote: UInt8 = 0x22
private let backslash: UInt8 = 0x5C
private let caret: UInt8 = 0x5E

@inline(__always) private func upper(_ b: UInt8) -> UInt8 { (b >= 0x61 && b <= 0x7A) ? b - 0x20 : b }
@inline(__always) private func isNameByte(_ b: UInt8) -> Bool {
    (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39) || b == 0x2D || b == 0x5F
}

/// The properties the model names, recognized from the name bytes once per line.
private enum PropertyKind: UInt8 {
    case other, version, uid, fn, n, nickname, phoneticFirst, phoneticLast, org, title, tel, email, url, adr, bday
    case anniversary, abDate, note, photo, categories, lang, kind, abKind, member, abMember
}

/// Which properties a card's builder treats as its own.
private enum ReadMode { case contact, groupCard }

/// The TYPE values the model knows, as bits.
private enum TypeFlags {
    static let home: UInt32 = 1, work: UInt32 = 2, cell: UInt32 = 4, fax: UInt32 = 8, pager: UInt32 = 16
    static let pref: UInt32 = 32, iphone: UInt32 = 64, main: UInt32 = 128, other: UInt32 = 256
    static let school: UInt32 = 512
}

// MARK: - Parser

/// A growable list of plain values in manually managed memory: appending and emptying without the
/// uniqueness checks of an Array. Its owner calls ``deallocate()``.
private struct PlainList<Element: BitwiseCopyable> {
    private(set) var base: UnsafeMutablePointer<Element>
    /// Set to 0 to empty the list (the capacity stays).
    var count = 0
    private var capacity: Int

    init(capacity: Int) {
        base = .allocate(capacity: capacity)
        self.capacity = capacity
    }

    var isEmpty: Bool { count == 0 }
    var all: UnsafeBufferPointer<Element> { UnsafeBufferPointer(start: base, count: count) }
    subscript(i: Int) -> Element { base[i] }

    mutating func append(_ element: Element) {
        if count == capacity {
            let grown = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
            grown.initialize(from: base, count: count)
            base.deallocate()
            base = grown
            capacity *= 2
        }
        (base + count).initialize(to: element)
        count += 1
    }

    func deallocate() { base.deallocate() }
}

/// The parser owns two growable byte buffers (the unfolded content line and a decoding buffer), so it is a
/// class; it is created per read and never shared.
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

    private(set) var localDiagnostics: [LocalDiagnostic] = []
    /// Physical lines read so far.
    private(set) var lineCount = 0
    /// Set for a chunk that ends right before a BEGIN:VCARD line of the same file.
    var endsBeforeNextCard = false

    /// The diagnostics with file line numbers (for a parser that read a whole input).
    var diagnostics: [VCardDiagnostic] { localDiagnostics.map { $0.rendered(file: fileName, lineOffset: 0) } }

    /// The mutable state of a read. It lives behind a pointer so that the hot loops touch it without the
    /// run-time exclusivity checks that stored properties of a class get (measured: ~30 % of parse time).
    private struct State {
        var line: UnsafeMutablePointer<UInt8>
        var lineCapacity = 4096
        var lineLength = 0
        var aux: UnsafeMutablePointer<UInt8>
        var auxCapacity = 4096
        var paramSpans = PlainList<ParamSpan>(capacity: 16)
        var valueSpans = PlainList<ValueSpan>(capacity: 32)
        var builder = CardBuilder()
        var mode = ReadMode.contact
        var base: UnsafePointer<UInt8>?
        var groupResult: CardBuilder?
        var inCard = false
        var cardStartLine = 0
        var cardStartOffset = 0
        var junkReported = false
        var lineNumber = 0
        /// When `collecting`, finished cards are appended here instead of being passed to `emit`.
        var collecting = false
        var collected = VCardReader.Chunk()
        /// The collected contacts (``VCardReader/ContactStorage`` once taken).
        var collectedBase: UnsafeMutablePointer<Contact>?
        var collectedCount = 0
        var collectedCapacity = 0
    }

    private let st: UnsafeMutablePointer<State>

    private var line: UnsafeMutablePointer<UInt8> {
        get { st.pointee.line }
        set { st.pointee.line = newValue }
    }
    private var lineCapacity: Int {
        get { st.pointee.lineCapacity }
        set { st.pointee.lineCapacity = newValue }
    }
    private var lineLength: Int {
        get { st.pointee.lineLength }
        set { st.pointee.lineLength = newValue }
    }
    private var aux: UnsafeMutablePointer<UInt8> {
        get { st.pointee.aux }
        set { st.pointee.aux = newValue }
    }
    private var auxCapacity: Int {
        get { st.pointee.auxCapacity }
        set { st.pointee.auxCapacity = newValue }
    }
    private var mode: ReadMode {
        get { st.pointee.mode }
        set { st.pointee.mode = newValue }
    }
    private var base: UnsafePointer<UInt8>? {
        get { st.pointee.base }
        set { st.pointee.base = newValue }
    }
    /// In group-card mode: what the card said.
    private var groupResult: CardBuilder? {
        get { st.pointee.groupResult }
        set { st.pointee.groupResult = newValue }
    }
    private var inCard: Bool {
        get { st.pointee.inCard }
        set { st.pointee.inCard = newValue }
    }
    private var cardStartLine: Int {
        get { st.pointee.cardStartLine }
        set { st.pointee.cardStartLine = newValue }
    }
    private var cardStartOffset: Int {
        get { st.pointee.cardStartOffset }
        set { st.pointee.cardStartOffset = newValue }
    }
    private var junkReported: Bool {
        get { st.pointee.junkReported }
        set { st.pointee.junkReported = newValue }
    }
    private var lineNumber: Int {
        get { st.pointee.lineNumber }
        set { st.pointee.lineNumber = newValue }
    }

    /// Makes `parse` keep the cards (moved, not copied) for ``takeCollected()`` instead of calling `emit`.
    func collect(reserving capacity: Int) {
        st.pointee.collecting = true
        let capacity = max(16, capacity)
        if st.pointee.collectedBase == nil {
            st.pointee.collectedBase = .allocate(capacity: capacity)
            st.pointee.collectedCapacity = capacity
        }
        st.pointee.collected.contactLines.reserveCapacity(capacity)
        st.pointee.collected.idHashes.reserveCapacity(capacity)
    }

    /// The cards kept since ``collect(reserving:)``.
    func takeCollected() -> VCardReader.Chunk {
        var chunk = VCardReader.Chunk()
        swap(&chunk, &st.pointee.collected)
        if let base = st.pointee.collectedBase {
            chunk.storage = VCardReader.ContactStorage(
                base: base, count: st.pointee.collectedCount, capacity: st.pointee.collectedCapacity)
        }
        st.pointee.collectedBase = nil
        st.pointee.collectedCount = 0
        st.pointee.collectedCapacity = 0
        return chunk
    }

    /// Appends `contact` to the collected ones (moved; the memory doubles when full).
    private func appendCollected(_ contact: consuming Contact) {
        if st.pointee.collectedCount == st.pointee.collectedCapacity || st.pointee.collectedBase == nil {
            let capacity = max(16, st.pointee.collectedCapacity * 2)
            let grown = UnsafeMutablePointer<Contact>.allocate(capacity: capacity)
            if let old = st.pointee.collectedBase {
                grown.moveInitialize(from: old, count: st.pointee.collectedCount)
                old.deallocate()
            }
            st.pointee.collectedBase = grown
            st.pointee.collectedCapacity = capacity
        }
        // `collectedBase` is set just above.
        (st.pointee.collectedBase.unsafelyUnwrapped + st.pointee.collectedCount).initialize(to: contact)
        st.pointee.collectedCount += 1
    }

    init(fileName: String) {
        self.fileName = fileName
        st = .allocate(capacity: 1)
        st.initialize(to: State(line: .allocate(capacity: 4096), aux: .allocate(capacity: 4096)))
    }

    deinit {
        if let base = st.pointee.collectedBase {
            base.deinitialize(count: st.pointee.collectedCount)
            base.deallocate()
        }
        st.pointee.line.deallocate()
        st.pointee.aux.deallocate()
        st.pointee.paramSpans.deallocate()
        st.pointee.valueSpans.deallocate()
        st.deinitialize(count: 1)
        st.deallocate()
    }

    func diagnose(_ line: Int, _ column: Int?, _ message: String) {
        localDiagnostics.append(LocalDiagnostic(line: line, column: column, message: .text(message)))
    }

    private func appendToLine(_ src: UnsafePointer<UInt8>, _ count: Int) {
        if lineLength + count > lineCapacity {
            var cap = lineCapacity * 2
            while cap < lineLength + count { cap *= 2 }
            let n = UnsafeMutablePointer<UInt8>.allocate(capacity: cap)
            n.update(from: line, count: lineLength)
            line.deallocate()
            line = n
            lineCapacity = cap
        }
        (line + lineLength).update(from: src, count: count)
        lineLength += count
    }

    private func reserveAux(_ count: Int) {
        if count > auxCapacity {
            var cap = auxCapacity * 2
            while cap < count { cap *= 2 }
            aux.deallocate()
            aux = .allocate(capacity: cap)
            auxCapacity = cap
        }
    }

    // MARK: Lines

    func parse(_ buf: UnsafeBufferPointer<UInt8>, emit: (consuming VCardRecord, Int) -> Void) {
        guard let base = buf.baseAddress, buf.count > 0 else {
            diagnose(1, nil, "no vCard found: the input is empty (expected BEGIN:VCARD)")
            return
        }
        let count = buf.count
        self.base = base
        var pos = 0
        // Skip a UTF-8 byte order mark.
        if count >= 3 && base[0] == 0xEF && base[1] == 0xBB && base[2] == 0xBF { pos = 3 }
        var sawCard = false

        /// The next physical line: [start, end) and the offset after its terminator.
        // The next LF at or after the current line (count when none), kept so that a file with CR-only line
        // ends is not searched to its end for every line.
        var nextLF = -1
        @inline(__always) func physical(_ from: Int) -> (start: Int, end: Int, next: Int) {
            // The line ends at the first CR or LF: find the LF with memchr, then any CR before it.
            if nextLF < from {
                nextLF = count
                if let nl = memchr(base + from, Int32(lf), count - from) {
                    nextLF = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(nl))
                }
            }
            var i = nextLF
            if let r = memchr(base + from, Int32(cr), i - from) {
                i = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(r))
            }
            let end = i
            if i < count && base[i] == cr {
                while i < count && base[i] == cr { i += 1 }
                if i < count && base[i] == lf { i += 1 }
            } else if i < count {
                i += 1
            }
            return (from, end, i)
        }

        var pending: (start: Int, end: Int, next: Int)? = pos < count ? physical(pos) : nil
        var pendingLine = 1
        while let cur = pending {
            let curLine = pendingLine
            pending = cur.next < count ? physical(cur.next) : nil
            pendingLine += 1
            if cur.start == cur.end { continue }
            lineLength = 0
            appendToLine(base + cur.start, cur.end - cur.start)
            // Unfold: continuation lines start with a space or a tab; quoted-printable soft breaks end with '='.
            var encoding: UInt8?  // looked up once per content line, when needed (the parameters do not change)
            while let p = pending {
                if p.end > p.start && (base[p.start] == space || base[p.start] == tab) {
                    appendToLine(base + p.start + 1, p.end - p.start - 1)
                } else if p.end > p.start && lineLength > 0 && line[lineLength - 1] == equals
                    && !isCardBoundary(base + p.start, p.end - p.start) && (encoding ?? lineEncoding()) == 1
                {
                    // Quoted-printable soft line break.
                    encoding = 1
                    lineLength -= 1
                    appendToLine(base + p.start, p.end - p.start)
                } else if p.end > p.start && memchr(base + p.start, Int32(colon), p.end - p.start) == nil
                    && (encoding ?? lineEncoding()) == 2
                {
                    // vCard 2.1 base64 continued on lines without leading space (base64 has no ':').
                    encoding = 2
                    appendToLine(base + p.start, p.end - p.start)
                } else {
                    break
                }
                pending = p.next < count ? physical(p.next) : nil
                pendingLine += 1
            }
            lineNumber = curLine
            if processLine(offset: cur.start, emit: emit) { sawCard = true }
        }
        lineCount = pendingLine - 1
        if inCard {
            localDiagnostics.append(
                LocalDiagnostic(
                    line: cardStartLine, column: nil,
                    message: .missingEnd(cardStart: cardStartLine, nextBegin: endsBeforeNextCard ? pendingLine : nil)))
            finishCard(endOffset: count, emit: emit)
        }
        if !sawCard && localDiagnostics.isEmpty {
            diagnose(1, nil, "no vCard found (expected BEGIN:VCARD)")
        }
    }

    /// The transfer encoding named among the parameters of the current line (before its first ':' outside
    /// quotes): 1 quoted-printable, 2 base64, 0 none.
    private func lineEncoding() -> UInt8 {
        var inQuotes = false
        var i = 0
        let n = lineLength
        @inline(__always) func at(_ k: Int, _ word: StaticString) -> Bool {
            let w = word.utf8Start
            let len = word.utf8CodeUnitCount
            guard k + len <= n else { return false }
            for j in 0..<len where upper(line[k + j]) != w[j] { return false }
            return true
        }
        while i < n {
            let b = line[i]
            if b == quote {
                inQuotes.toggle()
            } else if b == colon && !inQuotes {
                return 0
            } else if !inQuotes && (b == semicolon || b == equals) {
                // A parameter value or a bare 2.1 parameter starts here.
                let k = i + 1
                if at(k, "QUOTED-PRINTABLE") { return 1 }
                if at(k, "BASE64") { return 2 }
                if b == equals && at(k, "B") && k + 1 < n && (line[k + 1] == semicolon || line[k + 1] == colon) {
                    return 2
                }
            }
            i += 1
        }
        return 0
    }

    private func isCardBoundary(_ p: UnsafePointer<UInt8>, _ n: Int) -> Bool {
        matchesKeyword(p, n, "END:VCARD") || matchesKeyword(p, n, "BEGIN:VCARD")
    }

    private func matchesKeyword(_ p: UnsafePointer<UInt8>, _ n: Int, _ keyword: StaticString) -> Bool {
        let k = keyword.utf8Start
        let kn = keyword.utf8CodeUnitCount
        guard n >= kn else { return false }
        for i in 0..<kn where upper(p[i]) != k[i] { return false }
        for i in kn..<n where p[i] != space && p[i] != tab { return false }
        return true
    }

    // MARK: Content lines

    /// Handles one unfolded content line; returns true when it began a card.
    private func processLine(offset: Int, emit: (consuming VCardRecord, Int) -> Void) -> Bool {
        let n = lineLength
        var i = 0
        while i < n && (line[i] == space || line[i] == tab) { i += 1 }
        if i == n { return false }
        // BEGIN and END lines start with B or E (any case); other lines skip both keyword tests, except
        // those ending in "d" that may be a grouped `home.BEGIN:VCARD` / `home.END:VCARD` (RFC 2426 §4).
        let first = line[i] | 0x20
        var start = i
        var maybeBoundary = first == 0x62 || first == 0x65
        if !maybeBoundary && line[n - 1] | 0x20 == 0x64, let g = groupedBoundaryStart(from: i) {
            start = g
            maybeBoundary = true
        }
        if maybeBoundary && matchesKeyword(line + start, n - start, "BEGIN:VCARD") {
            if inCard {
                localDiagnostics.append(
                    LocalDiagnostic(
                        line: cardStartLine, column: nil,
                        message: .missingEnd(cardStart: cardStartLine, nextBegin: lineNumber)))
                finishCard(endOffset: offset, emit: emit)
            }
            inCard = true
            junkReported = false
            cardStartLine = lineNumber
            cardStartOffset = offset
            st.pointee.builder.reset()
            return true
        }
        if maybeBoundary && matchesKeyword(line + start, n - start, "END:VCARD") {
            if inCard {
                finishCard(endOffset: offset, emit: emit)
            } else {
                diagnose(lineNumber, i + 1, "END:VCARD without a BEGIN:VCARD before it")
            }
            return false
        }
        guard inCard else {
            if !junkReported {
                diagnose(lineNumber, i + 1, "expected BEGIN:VCARD, found '\(preview(from: i))'")
                junkReported = true
            }
            return false
        }
        if let property = parseHead(from: i) {
            handle(property, mode: mode, into: &st.pointee.builder)
        }
        return false
    }

    /// For a line `group.BEGIN:VCARD` or `group.END:VCARD` (group: letters, digits, '-'), the index after
    /// the dot; nil otherwise. Called only for lines ending in "d".
    private func groupedBoundaryStart(from i: Int) -> Int? {
        let n = lineLength
        var k = i
        while k < n {
            let b = line[k] | 0x20
            guard (b >= 0x61 && b <= 0x7A) || (line[k] >= 0x30 && line[k] <= 0x39) || line[k] == 0x2D else { break }
            k += 1
        }
        guard k > i, k < n, line[k] == dot else { return nil }
        let b = line[k + 1 < n ? k + 1 : k] | 0x20
        return b == 0x62 || b == 0x65 ? k + 1 : nil
    }

    private func preview(from i: Int) -> String {
        let end = min(lineLength, i + 40)
        var text = String(decoding: UnsafeBufferPointer(start: line + i, count: end - i), as: UTF8.self)
        if end < lineLength { text += "…" }
        return text
    }

    /// A parsed content line: group and name decoded, parameters summarized (their bytes stay in `line`,
    /// described by `paramSpans`), the value still bytes in `line`.
    /// Plain data (no references), so that passing it around costs no reference counting.
    fileprivate struct Head {
        /// The group (`item1` of `item1.TEL`) as a byte range in `line`; `groupStart < 0` when absent.
        var groupStart: Int
        var groupEnd: Int
        var nameStart: Int
        var nameEnd: Int
        var kind: PropertyKind
        var valueStart: Int = 0
        var encoding: UInt8 = 0  // 0 none, 1 quoted-printable, 2 base64
        /// The last `CHARSET` value as a byte range in `line`; `charsetStart < 0` when absent.
        var charsetStart = -1
        var charsetEnd = -1
        var hasParameters = false
        var types: UInt32 = 0
        /// The first TYPE the model does not name, as a byte range in `line` (RFC 6868 escapes still in);
        /// `customStart < 0` when none.
        var customStart = -1
        var customEnd = -1
        var pref: Int?
        var valueIsText = false
        var omitYear: Int?
    }

    /// One parameter as byte ranges in `line`; its values are `st.pointee.valueSpans[valuesStart..<valuesEnd]` (none for a
    /// vCard 2.1 bare parameter).
    private struct ParamSpan {
        var nameStart: Int
        var nameEnd: Int
        var valuesStart: Int
        var valuesEnd: Int
    }

    private struct ValueSpan {
        var start: Int
        var end: Int
        var quoted: Bool
    }

    private func parseHead(from start: Int) -> Head? {
        let n = lineLength
        var i = start
        var groupEnd = -1
        while i < n {
            let b = line[i]
            if isNameByte(b) {
                i += 1
                continue
            }
            if b == dot && groupEnd < 0 && i > start {
                groupEnd = i
                i += 1
                continue
            }
            break
        }
        let nameStart = groupEnd >= 0 ? groupEnd + 1 : start
        if i == nameStart || i == n || (line[i] != colon && line[i] != semicolon) {
            if i < n && i > nameStart && line[i] != colon && line[i] != semicolon {
                let shown = String(decoding: UnsafeBufferPointer(start: line + i, count: 1), as: UTF8.self)
                diagnose(
                    lineNumber, i + 1,
                    "unexpected '\(shown)' in property name (expected ':' or ';' after '\(text(nameStart, i))'); line skipped"
                )
            } else if i == nameStart {
                diagnose(lineNumber, i + 1, "expected a property name, found '\(preview(from: start))'; line skipped")
            } else {
                diagnose(
                    lineNumber, i + 1, "expected ':' after the property name '\(text(nameStart, i))'; line skipped")
            }
            return nil
        }
        for k in nameStart..<i { line[k] = upper(line[k]) }
        var head = Head(
            groupStart: groupEnd >= 0 ? start : -1, groupEnd: groupEnd, nameStart: nameStart, nameEnd: i,
            kind: propertyKind(nameStart, i))
        st.pointee.paramSpans.count = 0
        st.pointee.valueSpans.count = 0
        while i < n && line[i] == semicolon {
            i += 1
            let pStart = i
            while i < n && line[i] != equals && line[i] != semicolon && line[i] != colon { i += 1 }
            var pEnd = i
            while pEnd > pStart && (line[pEnd - 1] == space || line[pEnd - 1] == tab) { pEnd -= 1 }
            for k in pStart..<pEnd { line[k] = upper(line[k]) }
            let valuesStart = st.pointee.valueSpans.count
            if i < n && line[i] == equals {
                i += 1
                while true {
                    if i < n && line[i] == quote {
                        let qStart = i + 1
                        i += 1
                        while i < n && line[i] != quote { i += 1 }
                        if i == n {
                            diagnose(
                                lineNumber, qStart,
                                "unterminated quoted value of parameter \(text(pStart, pEnd)) (expected '\"'); line skipped"
                            )
                            return nil
                        }
                        st.pointee.valueSpans.append(ValueSpan(start: qStart, end: i, quoted: true))
                        i += 1
                    } else {
                        let vStart = i
                        while i < n && line[i] != comma && line[i] != semicolon && line[i] != colon { i += 1 }
                        st.pointee.valueSpans.append(ValueSpan(start: vStart, end: i, quoted: false))
                    }
                    if i < n && line[i] == comma {
                        i += 1
                        continue
                    }
                    break
                }
            } else if pEnd == pStart {
                continue
            }
            let span = ParamSpan(
                nameStart: pStart, nameEnd: pEnd, valuesStart: valuesStart, valuesEnd: st.pointee.valueSpans.count)
            st.pointee.paramSpans.append(span)
            interpret(span, into: &head)
        }
        guard i < n && line[i] == colon else {
            diagnose(lineNumber, i + 1, "expected ':' before the value of \(name(head)); line skipped")
            return nil
        }
        head.hasParameters = !st.pointee.paramSpans.isEmpty
        head.valueStart = i + 1
        return head
    }

    /// The property group of the current line (`item1`), nil when it has none.
    private func group(_ head: Head) -> String? {
        head.groupStart < 0 ? nil : text(head.groupStart, head.groupEnd)
    }

    /// The property name of the current line (upper-cased).
    private func name(_ head: Head) -> String { text(head.nameStart, head.nameEnd) }

    @inline(__always) private func text(_ s: Int, _ e: Int) -> String {
        String(decoding: UnsafeBufferPointer(start: line + s, count: e - s), as: UTF8.self)
    }

    private func propertyKind(_ s: Int, _ e: Int) -> PropertyKind {
        switch e - s {
        case 1: return line[s] == 0x4E ? .n : .other
        case 2: return isKeyword(s, e, "FN") ? .fn : .other
        case 3:
            if isKeyword(s, e, "TEL") { return .tel }
            if isKeyword(s, e, "UID") { return .uid }
            if isKeyword(s, e, "ORG") { return .org }
            if isKeyword(s, e, "URL") { return .url }
            if isKeyword(s, e, "ADR") { return .adr }
        case 4:
            if isKeyword(s, e, "NOTE") { return .note }
            if isKeyword(s, e, "BDAY") { return .bday }
            if isKeyword(s, e, "LANG") { return .lang }
            if isKeyword(s, e, "KIND") { return .kind }
        case 5:
            if isKeyword(s, e, "EMAIL") { return .email }
            if isKeyword(s, e, "TITLE") { return .title }
            if isKeyword(s, e, "PHOTO") { return .photo }
        case 6: return isKeyword(s, e, "MEMBER") ? .member : .other
        case 7: return isKeyword(s, e, "VERSION") ? .version : .other
        case 8:
            if isKeyword(s, e, "NICKNAME") { return .nickname }
            if isKeyword(s, e, "X-ABDATE") { return .abDate }
        case 10: return isKeyword(s, e, "CATEGORIES") ? .categories : .other
        case 11: return isKeyword(s, e, "ANNIVERSARY") ? .anniversary : .other
        case 20: return isKeyword(s, e, "X-PHONETIC-LAST-NAME") ? .phoneticLast : .other
        case 21: return isKeyword(s, e, "X-PHONETIC-FIRST-NAME") ? .phoneticFirst : .other
        case 24: return isKeyword(s, e, "X-ADDRESSBOOKSERVER-KIND") ? .abKind : .other
        case 26: return isKeyword(s, e, "X-ADDRESSBOOKSERVER-MEMBER") ? .abMember : .other
        default: break
        }
        return .other
    }

    /// Exact comparison of `line[s..<e]` with an upper-case ASCII keyword.
    @inline(__always) private func isKeyword(_ s: Int, _ e: Int, _ keyword: StaticString) -> Bool {
        guard e - s == keyword.utf8CodeUnitCount else { return false }
        let k = keyword.utf8Start
        for i in 0..<(e - s) where line[s + i] != k[i] { return false }
        return true
    }

    /// Case-insensitive comparison of `line[s..<e]` with an upper-case ASCII keyword.
    @inline(__always) private func isKeywordIgnoringCase(_ s: Int, _ e: Int, _ keyword: StaticString) -> Bool {
        guard e - s == keyword.utf8CodeUnitCount else { return false }
        let k = keyword.utf8Start
        for i in 0..<(e - s) where upper(line[s + i]) != k[i] { return false }
        return true
    }

    private func integer(_ v: ValueSpan) -> Int? {
        guard v.end > v.start, v.end - v.start < 10 else { return nil }
        var n = 0
        for k in v.start..<v.end {
            let b = line[k]
            guard b >= 0x30 && b <= 0x39 else { return nil }
            n = n * 10 + Int(b - 0x30)
        }
        return n
    }

    /// Folds what the model needs from one parameter into `head`.
    private func interpret(_ p: ParamSpan, into head: inout Head) {
        let s = p.nameStart
        let e = p.nameEnd
        if p.valuesStart == p.valuesEnd {
            // vCard 2.1 bare parameter: an encoding or a type.
            let kind = encodingKind(s, e)
            if kind != 0 {
                head.encoding = kind
            } else if !isKeyword(s, e, "8BIT") && !isKeyword(s, e, "7BIT") {
                addType(s, e, to: &head)
            }
            return
        }
        let first = st.pointee.valueSpans[p.valuesStart]
        if isKeyword(s, e, "TYPE") {
            for v in st.pointee.valueSpans.all[p.valuesStart..<p.valuesEnd] {
                if v.quoted {
                    var a = v.start
                    for k in v.start...v.end where k == v.end || line[k] == comma {
                        addType(a, k, to: &head)
                        a = k + 1
                    }
                } else {
                    addType(v.start, v.end, to: &head)
                }
            }
        } else if isKeyword(s, e, "PREF") {
            head.pref = integer(first)
        } else if isKeyword(s, e, "ENCODING") {
            head.encoding = encodingKind(first.start, first.end)
        } else if isKeyword(s, e, "CHARSET") {
            head.charsetStart = first.start
            head.charsetEnd = first.end
        } else if isKeyword(s, e, "VALUE") {
            head.valueIsText = isKeywordIgnoringCase(first.start, first.end, "TEXT")
        } else if isKeyword(s, e, "X-APPLE-OMIT-YEAR") {
            head.omitYear = integer(first)
        }
    }

    private func encodingKind(_ s: Int, _ e: Int) -> UInt8 {
        if isKeywordIgnoringCase(s, e, "QUOTED-PRINTABLE") || isKeywordIgnoringCase(s, e, "QP") { return 1 }
        if isKeywordIgnoringCase(s, e, "B") || isKeywordIgnoringCase(s, e, "BASE64") { return 2 }
        return 0
    }

    private func addType(_ s: Int, _ e: Int, to head: inout Head) {
        switch e - s {
        case 0: return
        case 3:
            if isKeywordIgnoringCase(s, e, "FAX") {
                head.types |= TypeFlags.fax
                return
            }
            if isKeywordIgnoringCase(s, e, "MSG") { return }
        case 4:
            if isKeywordIgnoringCase(s, e, "HOME") {
                head.types |= TypeFlags.home
                return
            }
            if isKeywordIgnoringCase(s, e, "WORK") {
                head.types |= TypeFlags.work
                return
            }
            if isKeywordIgnoringCase(s, e, "CELL") {
                head.types |= TypeFlags.cell
                return
            }
            if isKeywordIgnoringCase(s, e, "PREF") {
                head.types |= TypeFlags.pref
                return
            }
            if isKeywordIgnoringCase(s, e, "MAIN") {
                head.types |= TypeFlags.main
                return
            }
            if isKeywordIgnoringCase(s, e, "TEXT") || isKeywordIgnoringCase(s, e, "X400") { return }
        case 5:
            if isKeywordIgnoringCase(s, e, "VOICE") { return }
            if isKeywordIgnoringCase(s, e, "PAGER") {
                head.types |= TypeFlags.pager
                return
            }
            if isKeywordIgnoringCase(s, e, "OTHER") {
                head.types |= TypeFlags.other
                return
            }
        case 6:
            if isKeywordIgnoringCase(s, e, "MOBILE") {
                head.types |= TypeFlags.cell
                return
            }
            if isKeywordIgnoringCase(s, e, "IPHONE") {
                head.types |= TypeFlags.iphone
                return
            }
            if isKeywordIgnoringCase(s, e, "SCHOOL") {
                head.types |= TypeFlags.school
                return
            }
        case 8:
            if isKeywordIgnoringCase(s, e, "INTERNET") { return }
        case 10:
            if isKeywordIgnoringCase(s, e, "X-INTERNET") { return }
        default: break
        }
        if head.customStart < 0 {
            head.customStart = s
            head.customEnd = e
        }
    }

    /// The parameters of the current line as values (for properties kept verbatim and rare lookups).
    private func materializedParameters() -> [VCardParameter] {
        var result: [VCardParameter] = []
        result.reserveCapacity(st.pointee.paramSpans.count)
        for p in st.pointee.paramSpans.all {
            let name = text(p.nameStart, p.nameEnd)
            if p.valuesStart == p.valuesEnd {
                let isEncoding = encodingKind(p.nameStart, p.nameEnd) != 0 || name == "8BIT" || name == "7BIT"
                result.append(VCardParameter(name: isEncoding ? "ENCODING" : "TYPE", values: [name]))
                continue
            }
            let splitQuoted = name == "TYPE" || name == "SORT-AS"
            var values: [String] = []
            for v in st.pointee.valueSpans.all[p.valuesStart..<p.valuesEnd] {
                let value = paramText(v.start, v.end)
                if v.quoted && splitQuoted && value.utf8.contains(comma) {
                    values.append(
                        contentsOf: value.split(separator: ",", omittingEmptySubsequences: false).map(String.init))
                } else {
                    values.append(value)
                }
            }
            result.append(VCardParameter(name: name, values: values))
        }
        return result
    }

    /// The `SORT-AS` values of the current line, as ``materializedParameters()`` gives them (quoted values
    /// split at commas), without building the other parameters.
    private func appendSortAs(to out: inout [String]) {
        if out.isEmpty {
            // Room for every value at once (at most one per comma of a quoted value, plus one per value).
            var parts = 0
            for p in st.pointee.paramSpans.all
            where p.valuesStart < p.valuesEnd && isKeyword(p.nameStart, p.nameEnd, "SORT-AS") {
                for v in st.pointee.valueSpans.all[p.valuesStart..<p.valuesEnd] {
                    parts += 1
                    if v.quoted { for k in v.start..<v.end where line[k] == comma { parts += 1 } }
                }
            }
            if parts > 1 { out.reserveCapacity(parts) }
        }
        for p in st.pointee.paramSpans.all
        where p.valuesStart < p.valuesEnd && isKeyword(p.nameStart, p.nameEnd, "SORT-AS") {
            for v in st.pointee.valueSpans.all[p.valuesStart..<p.valuesEnd] {
                var hasComma = false
                var asciiAround = true
                if v.quoted {
                    for k in v.start..<v.end where line[k] == comma {
                        hasComma = true
                        // A comma next to a non-ASCII character may be part of a larger Character (a combining
                        // mark after it, a prepended mark before it): then split as a String.
                        if asciiAround && !commaStandsAlone(at: k, in: v.start..<v.end) { asciiAround = false }
                    }
                }
                if hasComma && !asciiAround {
                    out.append(
                        contentsOf: paramText(v.start, v.end).split(separator: ",", omittingEmptySubsequences: false)
                            .map(String.init))
                } else if hasComma {
                    // RFC 6868 escapes never produce a comma, so splitting the bytes splits the decoded text.
                    var a = v.start
                    for k in v.start...v.end where k == v.end || line[k] == comma {
                        out.append(paramText(a, k))
                        a = k + 1
                    }
                } else {
                    out.append(paramText(v.start, v.end))
                }
            }
        }
    }

    /// Whether the comma at `line[k]` is a Character of its own within `line[range]` (as `String.split`
    /// sees it): true when its neighbours are ASCII, or when they do not join it into one grapheme.
    private func commaStandsAlone(at k: Int, in range: Range<Int>) -> Bool {
        let before = k > range.lowerBound && line[k - 1] >= 0x80
        let after = k + 1 < range.upperBound && line[k + 1] >= 0x80
        if !before && !after { return true }
        var s = range.lowerBound
        var e = range.upperBound
        if before {
            // The character before: back over at most 3 continuation bytes to its lead byte.
            var a = k - 1
            while a > range.lowerBound && k - a < 4 && line[a] & 0xC0 == 0x80 { a -= 1 }
            s = a
        } else {
            s = k
        }
        if after {
            var z = k + 2
            while z < range.upperBound && z - k < 5 && line[z] & 0xC0 == 0x80 { z += 1 }
            e = z
        } else {
            e = k + 1
        }
        let text = String(decoding: UnsafeBufferPointer(start: line + s, count: e - s), as: UTF8.self)
        // Split as String.split would: the comma stands alone when every piece around it has 1 Character.
        let expected = (before ? 1 : 0) + 1 + (after ? 1 : 0)
        return text.count == expected && text.unicodeScalars.count == expected
    }

    /// Parameter value text with RFC 6868 escapes (^n, ^^, ^') decoded.
    private func paramText(_ s: Int, _ e: Int) -> String {
        var hasCaret = false
        for k in s..<e where line[k] == caret {
            hasCaret = true
            break
        }
        let raw = UnsafeBufferPointer(start: line + s, count: e - s)
        guard hasCaret else { return String(decoding: raw, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(e - s)
        var k = s
        while k < e {
            let b = line[k]
            if b == caret && k + 1 < e {
                switch line[k + 1] {
                case 0x6E, 0x4E:
                    out.append(lf)
                    k += 2
                    continue
                case caret:
                    out.append(caret)
                    k += 2
                    continue
                case 0x27:
                    out.append(quote)
                    k += 2
                    continue
                default: break
                }
            }
            out.append(b)
            k += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    // MARK: Values

    /// The decoded value bytes (quoted-printable and charset undone) passed to `body`, which sees UTF-8.
    private func withValue<R>(_ head: Head, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        let start = line + head.valueStart
        var count = lineLength - head.valueStart
        var bytes = UnsafeBufferPointer(start: start, count: count)
        if head.encoding == 1 {
            reserveAux(count)
            count = decodeQuotedPrintable(bytes, into: aux, column: head.valueStart + 1)
            bytes = UnsafeBufferPointer(start: aux, count: count)
        }
        if head.charsetStart >= 0 && !isUTF8Name(head.charsetStart, head.charsetEnd) {
            let charset = text(head.charsetStart, head.charsetEnd)
            do {
                let text = try CharsetConverter.toUTF8(bytes, charset: charset, strict: true)
                return Array(text.utf8).withUnsafeBufferPointer { body($0) }
            } catch let ICUError.invalidBytes(_, offset) {
                diagnose(
                    lineNumber, head.valueStart + 1,
                    "\(name(head)) value has bytes that are not valid \(charset) (at value byte \(offset + 1)); they were replaced with a substitution character"
                )
                if let text = try? CharsetConverter.toUTF8(bytes, charset: charset, strict: false) {
                    return Array(text.utf8).withUnsafeBufferPointer { body($0) }
                }
            } catch {
                diagnose(
                    lineNumber, head.valueStart + 1,
                    "unknown charset '\(charset)' on \(name(head)) (expected a name such as UTF-8, ISO-8859-1, Windows-1252, Shift_JIS); value read as UTF-8"
                )
            }
        }
        if let bad = firstInvalidUTF8(bytes) {
            diagnose(
                lineNumber, head.encoding == 1 ? head.valueStart + 1 : head.valueStart + bad + 1,
                "invalid UTF-8 in the value of \(name(head)) (value byte \(bad + 1)); replaced with U+FFFD")
            let repaired = Array(String(decoding: bytes, as: UTF8.self).utf8)
            return repaired.withUnsafeBufferPointer { body($0) }
        }
        return body(bytes)
    }

    /// Whether the charset named by `line[s..<e]` is UTF-8 (or its ASCII subset).
    private func isUTF8Name(_ s: Int, _ e: Int) -> Bool {
        var ascii = true
        for k in s..<e where line[k] >= 0x80 {
            ascii = false
            break
        }
        guard ascii else { return isUTF8Name(text(s, e)) }
        return isKeywordIgnoringCase(s, e, "UTF-8") || isKeywordIgnoringCase(s, e, "UTF8")
            || isKeywordIgnoringCase(s, e, "US-ASCII") || isKeywordIgnoringCase(s, e, "ASCII")
    }

    private func isUTF8Name(_ charset: String) -> Bool {
        switch charset.uppercased() {
        case "UTF-8", "UTF8", "US-ASCII", "ASCII": return true
        default: return false
        }
    }

    private func decodeQuotedPrintable(
        _ src: UnsafeBufferPointer<UInt8>, into out: UnsafeMutablePointer<UInt8>,
        column: Int
    ) -> Int {
        @inline(__always) func hex(_ b: UInt8) -> UInt8? {
            switch b {
            case 0x30...0x39: return b - 0x30
            case 0x41...0x46: return b - 0x37
            case 0x61...0x66: return b - 0x57
            default: return nil
            }
        }
        var o = 0
        var i = 0
        var reported = false
        let n = src.count
        while i < n {
            let b = src[i]
            if b == equals {
                if i + 2 < n, let h = hex(src[i + 1]), let l = hex(src[i + 2]) {
                    out[o] = h << 4 | l
                    o += 1
                    i += 3
                    continue
                }
                if i == n - 1 {
                    i += 1
                    continue
                }  // trailing soft break
                if !reported {
                    diagnose(
                        lineNumber, column + i,
                        "invalid quoted-printable sequence (expected '=' and two hex digits); kept as written")
                    reported = true
                }
            }
            out[o] = b
            o += 1
            i += 1
        }
        return o
    }

    // MARK: Properties

    private func handle(_ head: Head, mode: ReadMode, into b: inout CardBuilder) {
        if head.kind == .version {
            withValue(head) { v in
                // The three versions are ASCII, which no other bytes equal as a String: compared as bytes.
                let (s, e) = trimmedRange(v)
                if e - s == 3 && v[s + 1] == dot
                    && ((v[s] == 0x32 && v[s + 2] == 0x31) || (v[s] == 0x33 && v[s + 2] == 0x30)
                        || (v[s] == 0x34 && v[s + 2] == 0x30))
                {
                    return
                }
                let text = trimmedString(v)
                if text != "2.1" && text != "3.0" && text != "4.0" {
                    diagnose(
                        lineNumber, head.valueStart + 1,
                        "unsupported vCard version '\(text)' (expected 2.1, 3.0 or 4.0); read as best as possible")
                }
            }
            return
        }
        if mode == .groupCard {
            switch head.kind {
            case .uid: b.uid = withValue(head) { idString($0) }
            case .fn where b.contact.formattedName.isEmpty: b.contact.formattedName = withValue(head) { unescape($0) }
            case .kind, .abKind: break
            case .member, .abMember: b.members.append(withValue(head) { idString($0) })
            default: b.contact.unknownProperties.append(unknown(head))
            }
            return
        }
        switch head.kind {
        case .uid where b.uid == nil:
            b.uid = withValue(head) { idString($0) }
        case .fn where b.contact.formattedName.isEmpty:
            b.contact.formattedName = withValue(head) { unescape($0) }
        case .n where !b.hasN:
            b.hasN = true
            withValue(head) { v in
                var k = 0
                forEachComponent(v, separator: semicolon) { s, e in
                    switch k {
                    case 0: b.contact.familyName = unescape(v, from: s, to: e)
                    case 1: b.contact.givenName = unescape(v, from: s, to: e)
                    case 2: b.contact.middleName = unescape(v, from: s, to: e)
                    case 3: b.contact.namePrefix = unescape(v, from: s, to: e)
                    case 4: b.contact.nameSuffix = unescape(v, from: s, to: e)
                    default: break
                    }
                    k += 1
                }
            }
            if head.hasParameters
                && st.pointee.paramSpans.all.contains(where: { isKeyword($0.nameStart, $0.nameEnd, "SORT-AS") })
            {
                appendSortAs(to: &b.contact.sortAsComponents)
            }
        case .nickname where b.contact.nickname.isEmpty:
            b.contact.nickname = withValue(head) { unescape($0) }
        case .phoneticFirst where b.contact.phoneticGivenName.isEmpty:
            b.contact.phoneticGivenName = withValue(head) { unescape($0) }
        case .phoneticLast where b.contact.phoneticFamilyName.isEmpty:
            b.contact.phoneticFamilyName = withValue(head) { unescape($0) }
        case .org where !b.hasOrg:
            b.hasOrg = true
            withValue(head) { v in
                var k = 0
                forEachComponent(v, separator: semicolon) { s, e in
                    if k == 0 {
                        b.contact.organization = unescape(v, from: s, to: e)
                    } else if e > s {
                        let part = unescape(v, from: s, to: e)
                        b.contact.department += b.contact.department.isEmpty ? part : ", " + part
                    }
                    k += 1
                }
            }
        case .title where b.contact.jobTitle.isEmpty:
            b.contact.jobTitle = withValue(head) { unescape($0) }
        case .tel:
            let value = withValue(head) { v in
                // A `tel:` URI loses its scheme; stripped on the bytes when what follows is ASCII (then the
                // String prefix test below would agree), so no String is made twice.
                if v.count >= 4 && v[0] == 0x74 && v[1] == 0x65 && v[2] == 0x6C && v[3] == colon
                    && (v.count == 4 || v[4] < 0x80)
                {
                    return unescape(v, from: 4, to: v.count)
                }
                var text = unescape(v)
                if text.hasPrefix("tel:") { text.removeFirst(4) }
                return text
            }
            b.note(group(head), kind: .phone, index: b.contact.phones.count)
            if b.contact.phones.isEmpty { b.contact.phones.reserveCapacity(2) }
            b.contact.phones.append(LabeledValue(label: label(head), value: value, preference: preference(head)))
        case .email:
            b.note(group(head), kind: .email, index: b.contact.emails.count)
            if b.contact.emails.isEmpty { b.contact.emails.reserveCapacity(2) }
            b.contact.emails.append(
                LabeledValue(
                    label: label(head), value: withValue(head) { unescape($0) },
                    preference: preference(head)))
        case .url:
            b.note(group(head), kind: .url, index: b.contact.urls.count)
            b.contact.urls.append(
                LabeledValue(
                    label: label(head), value: withValue(head) { unescape($0) },
                    preference: preference(head)))
        case .adr:
            var a = PostalAddress()
            withValue(head) { v in
                var k = 0
                forEachComponent(v, separator: semicolon) { s, e in
                    if e > s {
                        let part = unescape(v, from: s, to: e)
                        switch k {
                        case 0: a.poBox = part
                        case 1: a.extended = part
                        case 2: a.street = part
                        case 3: a.locality = part
                        case 4: a.region = part
                        case 5: a.postalCode = part
                        case 6: a.country = part
                        default: break
                        }
                    }
                    k += 1
                }
            }
            b.note(group(head), kind: .address, index: b.contact.addresses.count)
            b.contact.addresses.append(LabeledAddress(label: label(head), value: a, preference: preference(head)))
        case .bday where b.contact.birthday == nil:
            b.contact.birthday = date(head)
        case .anniversary:
            b.contact.dates.append(LabeledDate(label: .anniversary, value: date(head)))
        case .abDate:
            b.note(group(head), kind: .date, index: b.contact.dates.count)
            b.contact.dates.append(LabeledDate(label: .unlabeled, value: date(head)))
        case .note where b.contact.note.isEmpty:
            b.contact.note = withValue(head) { unescape($0) }
        case .photo where b.contact.photo == nil:
            if let photo = photo(head) {
                b.contact.photo = photo
            } else {
                b.contact.unknownProperties.append(unknown(head))
            }
        case .categories:
            withValue(head) { v in
                if b.contact.categories.isEmpty {
                    // Room for every component at once (at most one per unescaped comma, plus one).
                    var parts = 0
                    forEachComponent(v, separator: comma) { _, _ in parts += 1 }
                    if parts > 1 { b.contact.categories.reserveCapacity(parts) }
                }
                forEachComponent(v, separator: comma) { s, e in
                    var s = s
                    var e = e
                    while s < e && (v[s] == space || v[s] == tab) { s += 1 }
                    while e > s && (v[e - 1] == space || v[e - 1] == tab) { e -= 1 }
                    guard e > s else { return }
                    let cat = unescape(v, from: s, to: e)
                    b.contact.categories.append(cat)
                }
            }
        case .lang:
            let value = withValue(head) { unescape($0) }
            b.addLanguage(value, preference: head.pref ?? Int.max)
        case .kind where withValue(head, { isGroupKind($0) }):
            b.isGroupCard = true
        case .abKind where withValue(head, { isGroupKind($0) }):
            b.isGroupCard = true
        case .member, .abMember:
            b.members.append(withValue(head) { idString($0) })
        default:
            // Cards with one unknown property usually have a few more (PRODID, REV, X-…): room for 4 at once.
            if b.contact.unknownProperties.isEmpty { b.contact.unknownProperties.reserveCapacity(4) }
            b.contact.unknownProperties.append(unknown(head))
        }
    }

    private func unknown(_ head: Head) -> VCardProperty {
        var parameters = head.hasParameters ? materializedParameters() : []
        var value: String
        if head.encoding == 1 || head.charsetStart >= 0 {
            // Decoded to UTF-8: the encoding and charset no longer apply; line breaks become \n escapes.
            parameters.removeAll { $0.name == "CHARSET" || ($0.name == "ENCODING" && head.encoding == 1) }
            value = withValue(head) { rawString($0) }
            if value.contains(where: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) {
                value = value.replacingOccurrences(of: "\r\n", with: "\\n").replacingOccurrences(of: "\n", with: "\\n")
                    .replacingOccurrences(of: "\r", with: "\\n")
            }
        } else {
            value = withValue(head) { rawString($0) }
        }
        return VCardProperty(group: group(head), name: name(head), parameters: parameters, value: value)
    }

    private func date(_ head: Head) -> ContactDate {
        let text = withValue(head) { unescape($0) }
        if head.valueIsText { return ContactDate(text: text) }
        var d = ContactDate(parsing: text)
        if let omit = head.omitYear, d.year == omit { d.year = nil }
        return d
    }

    private func photo(_ head: Head) -> ContactPhoto? {
        let raw = withValue(head) { rawString($0) }
        var mediaType: String?
        for p in materializedParameters() where p.name == "TYPE" || p.name == "MEDIATYPE" {
            if let v = p.values.first, !v.isEmpty {
                mediaType = v.contains("/") ? v.lowercased() : "image/" + v.lowercased()
            }
        }
        if head.encoding == 2 {
            guard let data = Data(base64Encoded: raw, options: .ignoreUnknownCharacters) else {
                diagnose(lineNumber, head.valueStart + 1, "PHOTO data is not valid base64; kept as an unknown property")
                return nil
            }
            return .embedded(data, mediaType: mediaType)
        }
        if raw.hasPrefix("data:") {
            guard let comma = raw.firstIndex(of: ",") else {
                diagnose(
                    lineNumber, head.valueStart + 1,
                    "PHOTO data: URI has no ',' before its data; kept as an unknown property")
                return nil
            }
            let meta = raw[raw.index(raw.startIndex, offsetBy: 5)..<comma]
            let payload = String(raw[raw.index(after: comma)...])
            let isBase64 = meta.hasSuffix(";base64")
            let type = String(isBase64 ? meta.dropLast(7) : meta).split(separator: ";").first.map(String.init) ?? ""
            let data: Data?
            if isBase64 {
                data = Data(base64Encoded: payload, options: .ignoreUnknownCharacters)
            } else {
                data = payload.removingPercentEncoding.map { Data($0.utf8) }
            }
            guard let data else {
                diagnose(
                    lineNumber, head.valueStart + 1,
                    "PHOTO data: URI payload does not decode; kept as an unknown property")
                return nil
            }
            return .embedded(data, mediaType: type.isEmpty ? nil : type.lowercased())
        }
        return .uri(raw)
    }

    @inline(__always) private func preference(_ head: Head) -> Int? {
        head.pref ?? (head.types & TypeFlags.pref != 0 ? 1 : nil)
    }

    private func label(_ head: Head) -> ContactLabel {
        let f = head.types
        if f & TypeFlags.iphone != 0 { return .iPhone }
        if f & TypeFlags.fax != 0 {
            return f & TypeFlags.home != 0 ? .homeFax : f & TypeFlags.work != 0 ? .workFax : .otherFax
        }
        if f & TypeFlags.cell != 0 { return .mobile }
        if f & TypeFlags.pager != 0 { return .pager }
        if f & TypeFlags.main != 0 { return .main }
        if f & TypeFlags.home != 0 { return .home }
        if f & TypeFlags.work != 0 { return .work }
        if f & TypeFlags.school != 0 { return .school }
        if f & TypeFlags.other != 0 { return .other }
        if head.customStart >= 0 { return .custom(paramText(head.customStart, head.customEnd)) }
        return .unlabeled
    }

    // MARK: Finishing a card

    private func finishCard(endOffset: Int, emit: (consuming VCardRecord, Int) -> Void) {
        inCard = false
        if mode == .contact && !st.pointee.builder.isGroupCard {
            finishContact(emit: emit)
            return
        }
        var b = CardBuilder()
        swap(&b, &st.pointee.builder)
        if mode == .groupCard {
            groupResult = b
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
            if let base = self.base, endOffset > cardStartOffset {
                let again = VCardParser(fileName: fileName)
                again.mode = .groupCard
                again.parse(UnsafeBufferPointer(start: base + cardStartOffset, count: endOffset - cardStartOffset)) {
                    _, _ in
                }
                if let g = again.groupResult {
                    unknowns = g.contact.unknownProperties
                    if !g.contact.formattedName.isEmpty { name = g.contact.formattedName }
                }
            }
            let group = Group(id: id, name: name, memberIDs: b.members, kind: .card, unknownProperties: unknowns)
            if st.pointee.collecting {
                st.pointee.collected.groups.append(group)
            } else {
                emit(.group(group), cardStartLine)
            }
            return
        }
    }

    /// Finishes an ordinary contact card in place: the contact is moved out and the builder reset, so its
    /// buffers serve the next card.
    private func finishContact(emit: (consuming VCardRecord, Int) -> Void) {
        let line = cardStartLine
        let id = prepareContact(&st.pointee.builder, cardStartLine: line)
        if !st.pointee.builder.languagePrefs.isEmpty {
            let prefs = st.pointee.builder.languagePrefs
            st.pointee.builder.contact.languages = zip(st.pointee.builder.contact.languages, prefs).enumerated()
                .sorted { ($0.element.1, $0.offset) < ($1.element.1, $1.offset) }.map { $0.element.0 }
        }
        st.pointee.builder.contact.id = id
        finalize(&st.pointee.builder.contact)
        if st.pointee.collecting {
            let (hash, ascii) = IDIndex.hash(id)
            st.pointee.collected.idHashes.append(hash)
            if !ascii { st.pointee.collected.idsAreASCII = false }
            st.pointee.collected.contactLines.append(line)
            if !st.pointee.builder.contact.categories.isEmpty {
                st.pointee.collected.categories.add(
                    st.pointee.builder.contact.categories, position: Int32(st.pointee.collectedCount), id: id)
            }
            appendCollected(takeBuiltContact())
        } else {
            emit(.contact(takeBuiltContact()), line)
        }
    }

    /// The builder's contact, moved out; the builder is reset for the next card.
    private func takeBuiltContact() -> Contact {
        var c = Contact(id: "")
        swap(&c, &st.pointee.builder.contact)
        st.pointee.builder.reset()
        return c
    }

    /// The id of the card in builder `b`, with its MEMBERs kept as unknown properties and its `X-ABLabel`s
    /// applied.
    private func prepareContact(_ b: inout CardBuilder, cardStartLine: Int) -> String {
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
    private func finalize(_ c: inout Contact) {
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

    private func hashID(_ b: inout CardBuilder) -> String {
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

    // MARK: Value conversions (UTF-8 bytes → String)

    private func rawString(_ v: UnsafeBufferPointer<UInt8>) -> String {
        String(decoding: v, as: UTF8.self)
    }

    /// `v` without surrounding spaces and tabs.
    private func trimmedRange(_ v: UnsafeBufferPointer<UInt8>) -> (Int, Int) {
        var s = 0
        var e = v.count
        while s < e && (v[s] == space || v[s] == tab) { s += 1 }
        while e > s && (v[e - 1] == space || v[e - 1] == tab) { e -= 1 }
        return (s, e)
    }

    private func trimmedString(_ v: UnsafeBufferPointer<UInt8>) -> String {
        let (s, e) = trimmedRange(v)
        return String(decoding: UnsafeBufferPointer(rebasing: v[s..<e]), as: UTF8.self)
    }

    /// A UID or MEMBER value: trimmed, without a `urn:uuid:` prefix.
    private func idString(_ v: UnsafeBufferPointer<UInt8>) -> String {
        var (s, e) = trimmedRange(v)
        let prefix: StaticString = "URN:UUID:"
        if e - s > 9 {
            let k = prefix.utf8Start
            var match = true
            for i in 0..<9 where upper(v[s + i]) != k[i] {
                match = false
                break
            }
            if match { s += 9 }
        }
        while e > s && (v[e - 1] == space || v[e - 1] == tab) { e -= 1 }
        return String(decoding: UnsafeBufferPointer(rebasing: v[s..<e]), as: UTF8.self)
    }

    private func isGroupKind(_ v: UnsafeBufferPointer<UInt8>) -> Bool {
        let (s, e) = trimmedRange(v)
        guard e - s == 5 else { return false }
        let k: StaticString = "GROUP"
        for i in 0..<5 where upper(v[s + i]) != k.utf8Start[i] { return false }
        return true
    }

    /// Calls `body` with the range of each component of `v` split at unescaped `separator`s.
    @inline(__always)
    private func forEachComponent(_ v: UnsafeBufferPointer<UInt8>, separator: UInt8, _ body: (Int, Int) -> Void) {
        var s = 0
        var i = 0
        let n = v.count
        while i < n {
            let b = v[i]
            if b == backslash {
                i += 2
                continue
            }
            if b == separator {
                body(s, i)
                s = i + 1
            }
            i += 1
        }
        body(s, max(s, n))
    }

    /// Text with `\n`, `\,`, `\;`, `\:` and `\\` escapes undone (other backslashes kept); CRLF and CR
    /// become LF.
    private func unescape(_ v: UnsafeBufferPointer<UInt8>) -> String {
        unescape(v, from: 0, to: v.count)
    }

    private func unescape(_ v: UnsafeBufferPointer<UInt8>, from s: Int, to e: Int) -> String {
        if e <= s { return "" }  // empty structured components are common (N, ADR)
        var k = s
        while k < e && v[k] != backslash && v[k] != cr { k += 1 }
        if k == e { return String(decoding: UnsafeBufferPointer(rebasing: v[s..<e]), as: UTF8.self) }
        return String(unsafeUninitializedCapacity: e - s) { out in
            var o = 0
            var i = s
            while i < e {
                let b = v[i]
                if b == cr {  // decoded line breaks (quoted-printable =0D=0A) become LF
                    out[o] = lf
                    o += 1
                    i += (i + 1 < e && v[i + 1] == lf) ? 2 : 1
                    continue
                }
                if b == backslash && i + 1 < e {
                    let n = v[i + 1]
                    switch n {
                    case 0x6E, 0x4E:
                        out[o] = lf
                        o += 1
                        i += 2
                        continue
                    case backslash, comma, semicolon, colon:
                        out[o] = n
                        o += 1
                        i += 2
                        continue
                    default: break
                    }
                }
                out[o] = b
                o += 1
                i += 1
            }
            return o
        }
    }

}

/// About how many cards `raw` holds (for reserving capacity): the lines that start with "BEGIN:" in its
/// first 64 KiB, scaled to its size with a margin (memory reserved and not used is never touched).
func estimatedCardCount(_ raw: UnsafeRawBufferPointer) -> Int {
    guard let start = raw.baseAddress else { return 0 }
    let total = min(raw.count, 1 << 16)
    var count = 0
    var offset = 0
    while offset < total {
        guard let nl = memchr(start + offset, 0x0A, total - offset) else { break }
        let next = start.distance(to: UnsafeRawPointer(nl)) + 1
        if total - next > 6 {
            let b0 = raw[next] | 0x20
            let b1 = raw[next + 1] | 0x20
            if b0 == 0x62 && b1 == 0x65 && raw[next + 5] == 0x3A { count += 1 }
        }
        offset = next
    }
    if total == raw.count { return count + 1 }
    return Int(Double(count + 1) * Double(raw.count) / Double(total) * 1.25) + 16
}

/// The first invalid UTF-8 byte's offset, nil when `v` is valid.
func firstInvalidUTF8(_ v: UnsafeBufferPointer<UInt8>) -> Int? {
    let n = v.count
    var i = 0
    // ASCII fast path, 8 bytes at a time.
    if let base = v.baseAddress {
        let raw = UnsafeRawPointer(base)
        while i + 8 <= n {
            if raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { break }
            i += 8
        }
    }
    while i < n {
        let b = v[i]
        if b < 0x80 {
            i += 1
            continue
        }
        var need = 0
        var lo: UInt8 = 0x80
        var hi: UInt8 = 0xBF
        switch b {
        case 0xC2...0xDF: need = 1
        case 0xE0:
            need = 2
            lo = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: need = 2
        case 0xED:
            need = 2
            hi = 0x9F
        case 0xF0:
            need = 3
            lo = 0x90
        case 0xF1...0xF3: need = 3
        case 0xF4:
            need = 3
            hi = 0x8F
        default: return i
        }
        guard i + need < n else { return i }
        let c1 = v[i + 1]
        if c1 < lo || c1 > hi { return i }
        if need >= 2 {
            let c = v[i + 2]
            if c < 0x80 || c > 0xBF { return i }
        }
        if need == 3 {
            let c = v[i + 3]
            if c < 0x80 || c > 0xBF { return i }
        }
        i += need + 1
    }
    return nil
}

/// What one card has said so far.
struct CardBuilder {
    enum ItemKind: UInt8 { case phone, email, url, address, date }

    var contact = Contact(id: "")
    var uid: String?
    var hasN = false
    var hasOrg = false
    var isGroupCard = false
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
                let l = label ?? ContactLabel(abLabel: unescapeText(contact.unknownProperties[k].value))
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
}

/// Undoes text escapes in a String (used for values kept raw, such as X-ABLabel).
func unescapeText(_ s: String) -> String {
    guard s.utf8.contains(0x5C) else { return s }
    var out = ""
    var it = s.makeIterator()
    while let ch = it.next() {
        if ch == "\\", let n = it.next() {
            switch n {
            case "n", "N": out.append("\n")
            case "\\", ",", ";", ":": out.append(n)
            default:
                out.append(ch)
                out.append(n)
            }
        } else {
            out.append(ch)
        }
    }
    return out
}
