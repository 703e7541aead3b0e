import Foundation
import Synchronization
import Testing

@testable import ContactsCore

/// The reader's storage for values with references: in-place access, moves, joins, and that every element
/// is deinitialized exactly once.
@Suite struct CheckedStorageTests {
    /// A value with a reference whose deinitialization is counted.
    final class Tracked: Sendable {
        let value: Int
        let alive: Alive

        init(_ value: Int, _ alive: Alive) {
            self.value = value
            self.alive = alive
            alive.count.withLock { $0 += 1 }
        }

        deinit { alive.count.withLock { $0 -= 1 } }
    }

    final class Alive: Sendable {
        let count = Mutex(0)
        var now: Int { count.withLock { $0 } }
    }

    @Test func emptyStorageHasNoElements() {
        let storage = CheckedStorage<String>(capacity: 0)
        #expect(storage.isEmpty)
        #expect(storage.isFull)
        #expect(storage.elements.isEmpty)
        #expect(storage.checkInvariants())
    }

    @Test func appendAndInPlaceAccess() {
        let storage = CheckedStorage<[Int]>(capacity: 3)
        storage.append([1])
        storage.append([2, 3])
        storage[0].append(10)  // in place, through the subscript
        storage[1][0] = 20
        #expect(storage.count == 2)
        #expect(!storage.isFull)
        #expect(storage.elements == [[1, 10], [20, 3]])
        storage.append([])
        #expect(storage.isFull)
        #expect(storage.checkInvariants())
    }

    @Test func repeatingFillsEverySlot() {
        let storage = CheckedStorage<String?>(repeating: nil, count: 5)
        #expect(storage.count == 5)
        #expect(storage.isFull)
        storage[3] = "three"
        #expect(storage.elements == [nil, nil, nil, "three", nil])
    }

    @Test func movingToALargerCapacityKeepsTheElementsAndEmptiesTheSource() {
        let alive = Alive()
        do {
            let small = CheckedStorage<Tracked>(capacity: 2)
            small.append(Tracked(1, alive))
            small.append(Tracked(2, alive))
            let grown = small.moved(toCapacity: 8)
            #expect(small.isEmpty)
            #expect(small.checkInvariants())
            #expect(grown.count == 2)
            #expect(grown.capacity == 8)
            #expect(grown.elements.map(\.value) == [1, 2])
            grown.append(Tracked(3, alive))
            #expect(alive.now == 3)
        }
        // Each element deinitialized once: by the grown storage, none by the emptied one.
        #expect(alive.now == 0)
    }

    @Test func deinitReleasesTheInitializedElementsOnly() {
        let alive = Alive()
        do {
            let storage = CheckedStorage<Tracked>(capacity: 10)
            for k in 0..<4 { storage.append(Tracked(k, alive)) }
            storage[1] = Tracked(11, alive)  // the replaced element is released at once
            #expect(alive.now == 4)
        }
        #expect(alive.now == 0)
    }

    @Test func joinMovesThePartsInOrder() {
        let alive = Alive()
        var joined: [Tracked] = []
        do {
            var parts: [CheckedStorage<Tracked>] = []
            var next = 0
            for size in [3, 0, 5, 1, 7, 2] {
                let part = CheckedStorage<Tracked>(capacity: size)
                for _ in 0..<size {
                    part.append(Tracked(next, alive))
                    next += 1
                }
                parts.append(part)
            }
            joined = CheckedStorage.joined(parts)
            #expect(parts.allSatisfy { $0.isEmpty })
            #expect(alive.now == 18)
        }
        #expect(joined.map(\.value) == Array(0..<18))
        #expect(alive.now == 18)  // the parts are gone; the array holds every element
        joined.removeAll()
        #expect(alive.now == 0)
    }

    @Test func joinOfOnePartAndOfNothing() {
        let one = CheckedStorage<String>(capacity: 2)
        one.append("a")
        one.append("b")
        #expect(CheckedStorage.joined([one]) == ["a", "b"])
        #expect(one.isEmpty)
        #expect(CheckedStorage<String>.joined([]).isEmpty)
        #expect(CheckedStorage.joined([CheckedStorage<String>(capacity: 4)]).isEmpty)
    }

    /// Threads that each write distinct elements through the subscript (the parallel piece reader's use).
    @Test func distinctElementsWrittenFromManyThreads() {
        let storage = CheckedStorage<String?>(repeating: nil, count: 64)
        DispatchQueue.concurrentPerform(iterations: 64) { k in storage[k] = "piece \(k)" }
        #expect(storage.elements == (0..<64).map { "piece \($0)" })
    }
}
