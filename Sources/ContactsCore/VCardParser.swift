import Foundation

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

    var localDiagnostics: [LocalDiagnostic] = []
    /// Physical lines read so far.
    var lineCount = 0
    /// Set for a chunk that ends right before a BEGIN:VCARD line of the same file.
    var endsBeforeNextCard = false

    /// The diagnostics with file line numbers (for a parser that read a whole input).
    var diagnostics: [VCardDiagnostic] { localDiagnostics.map { $0.rendered(file: fileName, lineOffset: 0) } }

    /// The mutable state of a read. It lives behind a pointer so that the hot loops touch it without the
    /// run-time exclusivity checks that stored properties of a class get (measured: ~30 % of parse time).
    struct State {
        /// The current content line, unfolded (its parameter names and property name are upper-cased in place).
        var line = CheckedBuffer<UInt8>(capacity: 4096)
        /// Room for a decoded value (quoted-printable).
        var aux = CheckedBuffer<UInt8>(capacity: 4096)
        var paramSpans = CheckedBuffer<ParamSpan>(capacity: 16)
        var valueSpans = CheckedBuffer<ValueSpan>(capacity: 32)
        var builder = CardBuilder()
        var mode = ReadMode.contact
        /// The input being read (a group card is read again from it).
        var input: UnsafeBufferPointer<UInt8>?
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

    let st: UnsafeMutablePointer<State>

    /// The current content line (its bytes can be written through, its length changes only through `st`).
    var line: CheckedBuffer<UInt8> { st.pointee.line }
    var lineLength: Int { st.pointee.line.count }
    var mode: ReadMode {
        get { st.pointee.mode }
        set { st.pointee.mode = newValue }
    }
    var input: UnsafeBufferPointer<UInt8>? {
        get { st.pointee.input }
        set { st.pointee.input = newValue }
    }
    /// In group-card mode: what the card said.
    var groupResult: CardBuilder? {
        get { st.pointee.groupResult }
        set { st.pointee.groupResult = newValue }
    }
    var inCard: Bool {
        get { st.pointee.inCard }
        set { st.pointee.inCard = newValue }
    }
    var cardStartLine: Int {
        get { st.pointee.cardStartLine }
        set { st.pointee.cardStartLine = newValue }
    }
    var cardStartOffset: Int {
        get { st.pointee.cardStartOffset }
        set { st.pointee.cardStartOffset = newValue }
    }
    var junkReported: Bool {
        get { st.pointee.junkReported }
        set { st.pointee.junkReported = newValue }
    }
    var lineNumber: Int {
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
    func appendCollected(_ contact: consuming Contact) {
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
        st.initialize(to: State())
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
}
