import Foundation

extension VCardReader {
    /// Contacts in manually managed memory, so that pieces read in parallel can be moved into one array
    /// without copying them or leaving placeholders behind.
    // @unchecked Sendable: filled by one thread, handed over whole; only moveAll(to:) mutates it then, once.
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
}
