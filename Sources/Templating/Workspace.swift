import Synchronization

/// Reusable buffers for renders (output bytes, context stack), kept in a small pool.
final class Workspace: @unchecked Sendable {
    // @unchecked: a workspace belongs to one render from `take()` to `give(_:)`; the pool is behind a Mutex.
    let out = ByteBuffer()
    var stack: [MustacheValue] = []
    var frames: [Renderer.Frame] = []

    init() {
        stack.reserveCapacity(16)
        frames.reserveCapacity(16)
    }

    private static let pool = Mutex<[Workspace]>([])

    static func take() -> Workspace {
        pool.withLock { $0.popLast() } ?? Workspace()
    }

    static func give(_ w: Workspace) {
        // A buffer grown by a huge render is freed, not kept for the next small one.
        if w.out.capacityBytes > 1 << 22 { return }
        w.out.reset()
        pool.withLock { pool in
            if pool.count < 16 { pool.append(w) }
        }
    }
}
