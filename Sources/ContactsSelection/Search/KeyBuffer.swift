import Foundation

/// Keys of an index: an array built in this process, or a slice of a saved list's memory-mapped file
/// (kept mapped by `owner`).
struct KeyBuffer<Element>: @unchecked Sendable {
    private let array: [Element]
    private let mapped: UnsafeBufferPointer<Element>?
    private let owner: AnyObject?

    init(_ array: [Element]) {
        self.array = array
        mapped = nil
        owner = nil
    }

    init(mapped: UnsafeBufferPointer<Element>, owner: AnyObject) {
        array = []
        self.mapped = mapped
        self.owner = owner
    }

    var count: Int { mapped?.count ?? array.count }

    subscript(i: Int) -> Element { mapped.map { $0[i] } ?? array[i] }

    func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<Element>) throws -> R) rethrows -> R {
        if let mapped { return try body(mapped) }
        return try array.withUnsafeBufferPointer(body)
    }
}
