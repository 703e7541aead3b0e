import Dispatch
import Foundation
import Synchronization

/// The package's one way to spread work over the cores: how many threads (the online processors, or
/// environment variable `CONTACTS_THREADS` when set to a number ≥ 1) and an ordered parallel map in which
/// each thread takes the next item when done.
///
/// ```swift
/// let squares = ParallelWork.map(count: 8) { $0 * $0 }   // [0, 1, 4, …, 49], computed on all cores
/// ```
package enum ParallelWork {
    /// Threads for parallel work.
    package static let threads: Int = {
        if let text = getenv("CONTACTS_THREADS"), let n = Int(String(cString: text)), n >= 1 { return n }
        return max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    }()

    /// `work(k)` for every k in `0..<count`, in order of k, on up to `threads` threads (each takes the next
    /// k when done, so a slow item does not hold the others back).
    package static func map<R: Sendable>(count: Int, threads: Int = threads, _ work: @Sendable (Int) throws -> R)
        rethrows -> [R]
    {
        guard count > 1, threads > 1 else { return try (0..<count).map(work) }
        let next = Mutex(0)
        let slots = Mutex([Result<R, any Error>?](repeating: nil, count: count))
        DispatchQueue.concurrentPerform(iterations: min(count, threads)) { _ in
            while true {
                let k: Int? = next.withLock { n in
                    guard n < count else { return nil }
                    n += 1
                    return n - 1
                }
                guard let k else { return }
                let r = Result { try work(k) }
                slots.withLock { $0[k] = r }
            }
        }
        return try slots.withLock { $0 }.map { try $0!.get() }
    }
}
