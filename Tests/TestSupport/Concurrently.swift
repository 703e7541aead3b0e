import Foundation
import Synchronization

/// Runs `body(worker)` for `workers` workers at once, each on its own thread (released together, so they
/// meet in the shared state under test), and returns the workers' results in worker order. The first error
/// thrown is rethrown after every worker has finished.
///
/// ```swift
/// let keys = try concurrently(workers: 8) { _ in names.map { folding.keys(for: $0) } }
/// #expect(keys.allSatisfy { $0 == expected })
/// ```
public func concurrently<T: Sendable>(workers: Int, _ body: @escaping @Sendable (Int) throws -> T) throws -> [T] {
    let slots = Slots<T>(workers)
    let start = DispatchSemaphore(value: 0)
    let done = DispatchGroup()
    for worker in 0..<workers {
        done.enter()
        let thread = Thread {
            start.wait()
            let result = Result { try body(worker) }
            slots.results.withLock { $0[worker] = result }
            done.leave()
        }
        thread.start()
    }
    for _ in 0..<workers { start.signal() }
    done.wait()
    return try slots.results.withLock { $0 }.map { try $0!.get() }
}

/// Each worker's result, written once by that worker.
private final class Slots<T: Sendable>: Sendable {
    let results: Mutex<[Result<T, any Error>?]>
    init(_ count: Int) { results = Mutex(Array(repeating: nil, count: count)) }
}
