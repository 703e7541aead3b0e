import Foundation

/// A growable run of plain values in memory its owner manages: the package's one growable unsafe buffer. The
/// vCard reader reaches the memory of its own buffers through it (the unfolded content line, the decoding
/// buffer, the parameter and value spans), and the template renderer writes its output into one, instead of
/// raw pointers and separate length and capacity variables. (Values with references live in ContactsCore's
/// `CheckedStorage`.)
///
/// Invariants (``checkInvariants()`` tests them):
/// - `0 <= count <= capacity` and `capacity >= 1`;
/// - the memory holds `capacity` elements, of which `0..<count` are initialized; elements are plain values
///   (`BitwiseCopyable`), so nothing is ever deinitialized;
/// - copies of the struct share the memory: exactly one copy owns it and calls ``deallocate()`` once, and
///   after an append or ``reserveCapacity(_:)`` that grew the memory only the grown value is valid;
/// - buffers from ``all`` and ``extracting(_:)`` stay valid until the next append, reserve or deallocate.
///
/// Every index and range is checked in debug builds (`assert`); release builds compile the accessors to
/// plain loads and stores, which the reader's per-byte loops rely on. There are no separate `_unchecked`
/// accessors: the checked ones cost nothing in release builds.
///
/// ```swift
/// var bytes = CheckedBuffer<UInt8>(capacity: 4)
/// defer { bytes.deallocate() }
/// bytes.append(0x41)
/// bytes[0] = 0x61  // writes through to the shared memory
/// print(bytes.count)  // 1
/// ```
package struct CheckedBuffer<Element: BitwiseCopyable> {
    @usableFromInline var base: UnsafeMutablePointer<Element>
    /// The initialized elements: `0..<count`.
    @usableFromInline package internal(set) var count = 0
    /// The elements there is room for without growing.
    @usableFromInline package internal(set) var capacity: Int

    /// An empty buffer with room for `capacity` (≥ 1) elements.
    @inlinable package init(capacity: Int) {
        precondition(capacity >= 1, "a CheckedBuffer needs a capacity of at least 1")
        base = .allocate(capacity: capacity)
        self.capacity = capacity
    }

    @inlinable package var isEmpty: Bool { count == 0 }

    /// Whether `range` lies within `0..<count` (the check behind every accessor).
    @inlinable @inline(__always) package static func isValid(_ range: Range<Int>, count: Int) -> Bool {
        range.lowerBound >= 0 && range.upperBound <= count
    }

    /// The element at `i` (`0 <= i < count`); setting writes through to the shared memory.
    @inlinable @inline(__always) package subscript(i: Int) -> Element {
        get {
            assert(i >= 0 && i < count, "CheckedBuffer index out of range")
            return base[i]
        }
        nonmutating set {
            assert(i >= 0 && i < count, "CheckedBuffer index out of range")
            base[i] = newValue
        }
    }

    /// The initialized elements.
    @inlinable @inline(__always) package var all: UnsafeBufferPointer<Element> {
        UnsafeBufferPointer(start: base, count: count)
    }

    /// The elements in `range` (within `0..<count`).
    @inlinable @inline(__always) package func extracting(_ range: Range<Int>) -> UnsafeBufferPointer<Element> {
        assert(Self.isValid(range, count: count), "CheckedBuffer range out of bounds")
        return UnsafeBufferPointer(start: base + range.lowerBound, count: range.count)
    }

    @inlinable @inline(__always) package mutating func append(_ element: Element) {
        if count == capacity { grow(to: count + 1) }
        (base + count).initialize(to: element)
        count += 1
    }

    @inlinable @inline(__always) package mutating func append(contentsOf elements: UnsafeBufferPointer<Element>) {
        guard let source = elements.baseAddress, !elements.isEmpty else { return }
        if count + elements.count > capacity { grow(to: count + elements.count) }
        (base + count).initialize(from: source, count: elements.count)
        count += elements.count
    }

    /// Makes room for `maximum` more elements and appends those `body` initializes from the end of the
    /// elements: it gets the first free place and returns how many (at most `maximum`) it wrote. The
    /// escaping writers of the template renderer append through this.
    @inlinable @inline(__always) package mutating func append(
        upTo maximum: Int, _ body: (UnsafeMutablePointer<Element>) -> Int
    ) {
        if count + maximum > capacity { grow(to: count + maximum) }
        let written = body(base + count)
        assert(written >= 0 && written <= maximum, "CheckedBuffer: more elements written than reserved")
        count += written
    }

    /// Empties the buffer; the capacity stays.
    @inlinable @inline(__always) package mutating func removeAll() { count = 0 }

    /// Drops the last `n` elements (`0 <= n <= count`).
    @inlinable @inline(__always) package mutating func removeLast(_ n: Int = 1) {
        assert(n >= 0 && n <= count, "CheckedBuffer cannot remove more elements than it has")
        count -= n
    }

    /// Makes room for at least `minimumCapacity` elements, keeping the elements.
    @inlinable package mutating func reserveCapacity(_ minimumCapacity: Int) {
        if minimumCapacity > capacity { grow(to: minimumCapacity) }
    }

    /// Doubles the capacity until `needed` fits and moves the elements over.
    @usableFromInline mutating func grow(to needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let grown = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        grown.initialize(from: base, count: count)
        base.deallocate()
        base = grown
        capacity = newCapacity
    }

    /// Frees the memory; the owner calls it once, and uses no copy of the buffer afterwards.
    package func deallocate() { base.deallocate() }

    /// Whether the size invariants hold (for tests).
    package func checkInvariants() -> Bool { capacity >= 1 && count >= 0 && count <= capacity }
}

extension UnsafeBufferPointer<UInt8> {
    /// The 8 bytes at `offset` (`offset + 8 <= count`, checked in debug builds) as one word, in the machine's
    /// byte order: the ASCII and hash loops read their bytes 8 at a time only through this.
    @inlinable @inline(__always) package func word(at offset: Int) -> UInt64 {
        assert(offset >= 0 && offset + 8 <= count, "word read outside the buffer")
        return UnsafeRawBufferPointer(self).loadUnaligned(fromByteOffset: offset, as: UInt64.self)
    }

    /// The offset of the first `byte` in `self[range]` (found with `memchr`), nil when there is none. The range
    /// is checked in debug builds, as ``CheckedBuffer``'s are: the reader searches its input only through this.
    @inlinable @inline(__always) package func firstOffset(of byte: UInt8, in range: Range<Int>) -> Int? {
        assert(range.lowerBound >= 0 && range.upperBound <= count, "byte search outside the buffer")
        guard let base = baseAddress, !range.isEmpty,
            let hit = memchr(base + range.lowerBound, Int32(byte), range.count)
        else { return nil }
        return UnsafeRawPointer(base).distance(to: UnsafeRawPointer(hit))
    }
}
