import Foundation

/// Fixed-capacity memory for values of any type, owned by one object: the vCard reader's only other place with
/// raw pointers besides `CheckedBuffer` (Support), for what a `CheckedBuffer` cannot hold (values with references,
/// which must be deinitialized, and memory that must be freed when its last user lets go): the parser's
/// state, the contacts a piece collected, and the results of pieces read in parallel.
///
/// Invariants (``checkInvariants()`` tests them):
/// - `0 <= count <= capacity`; elements `0..<count` are initialized, the others are not;
/// - the memory never moves or grows (``moved(toCapacity:)`` makes a larger storage), so an element is
///   reached in place, without a copy, through the subscript, for as long as the storage lives;
/// - every index is checked against `count` in debug builds (`assert`); ``append(_:)`` checks the capacity
///   in every build;
/// - the elements still initialized are deinitialized, and the memory freed, when the storage goes away;
///   elements moved out (``moved(toCapacity:)``, ``joined(_:)``) are not.
///
/// Threads: a storage of `Sendable` elements may be handed to another thread whole, or shared by threads that
/// each reach distinct elements through the subscript; ``append(_:)`` and the moves are for one thread at a
/// time.
///
/// ```swift
/// let names = CheckedStorage<String>(capacity: 2)
/// names.append("Ada")
/// names[0] += " Lovelace"  // in place
/// print(names.elements)  // ["Ada Lovelace"]
/// ```
final class CheckedStorage<Element> {
    private let base: UnsafeMutablePointer<Element>
    /// The elements there is room for.
    let capacity: Int
    /// The initialized elements: `0..<count`.
    private(set) var count = 0

    /// An empty storage with room for `capacity` (≥ 0) elements.
    init(capacity: Int) {
        precondition(capacity >= 0, "a CheckedStorage cannot have a negative capacity")
        base = .allocate(capacity: max(1, capacity))
        self.capacity = capacity
    }

    /// A full storage of `count` copies of `element`.
    convenience init(repeating element: Element, count: Int) {
        self.init(capacity: count)
        base.initialize(repeating: element, count: count)
        self.count = count
    }

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }

    var isEmpty: Bool { count == 0 }
    var isFull: Bool { count == capacity }

    /// The element at `i` (`0 <= i < count`), read and written in place.
    @inline(__always) subscript(i: Int) -> Element {
        unsafeAddress {
            assert(i >= 0 && i < count, "CheckedStorage index out of range")
            return UnsafePointer(base + i)
        }
        unsafeMutableAddress {
            assert(i >= 0 && i < count, "CheckedStorage index out of range")
            return base + i
        }
    }

    /// Moves `element` in after the others; there must be room (see ``isFull``).
    @inline(__always) func append(_ element: consuming Element) {
        precondition(count < capacity, "CheckedStorage is full")
        (base + count).initialize(to: element)
        count += 1
    }

    /// A storage with room for `capacity` (≥ ``count``) elements that holds this one's, moved; this one is
    /// empty afterwards.
    func moved(toCapacity capacity: Int) -> CheckedStorage {
        precondition(capacity >= count, "CheckedStorage cannot shrink below its count")
        let grown = CheckedStorage(capacity: capacity)
        grown.base.moveInitialize(from: base, count: count)
        grown.count = count
        count = 0
        return grown
    }

    /// The elements, copied.
    var elements: [Element] { Array(UnsafeBufferPointer(start: base, count: count)) }

    /// Whether the size invariants hold (for tests).
    func checkInvariants() -> Bool { capacity >= 0 && count >= 0 && count <= capacity }
}

extension CheckedStorage: @unchecked Sendable where Element: Sendable {}

extension CheckedStorage where Element: Sendable {
    /// Part k of a join moves its elements to `destination[offsets[k] ..< offsets[k] + parts[k].count]`.
    // @unchecked Sendable: the parts write disjoint ranges of `destination`, each part moved once.
    private struct Move: @unchecked Sendable {
        let destination: UnsafeMutablePointer<Element>
        let parts: [CheckedStorage]
        let offsets: [Int]

        func callAsFunction(_ k: Int) {
            let part = parts[k]
            (destination + offsets[k]).moveInitialize(from: part.base, count: part.count)
            part.count = 0
        }
    }

    /// One array of the elements of `parts`, in order, moved out (each part on its own thread when there are
    /// several); the parts are empty afterwards. A part must not appear twice.
    static func joined(_ parts: [CheckedStorage]) -> [Element] {
        precondition(Set(parts.map(ObjectIdentifier.init)).count == parts.count, "a part appears twice")
        let total = parts.reduce(0) { $0 + $1.count }
        guard total > 0 else { return [] }
        return [Element](unsafeUninitializedCapacity: total) { buffer, initialized in
            guard let destination = buffer.baseAddress else { return }
            var offsets: [Int] = []
            var offset = 0
            for part in parts {
                offsets.append(offset)
                offset += part.count
            }
            let move = Move(destination: destination, parts: parts, offsets: offsets)
            if parts.count == 1 {
                move(0)
            } else {
                DispatchQueue.concurrentPerform(iterations: parts.count) { k in move(k) }
            }
            initialized = total
        }
    }
}
