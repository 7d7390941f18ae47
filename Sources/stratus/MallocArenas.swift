#if canImport(Glibc)
import Glibc
#endif

/// glibc gives each thread that allocates its own malloc arena, up to eight per core. A server
/// holding thousands of idle connections spreads their small allocations over every arena, and
/// the holes between them stay resident. Two arenas keep the heap compact (what
/// `MALLOC_ARENA_MAX=2` does); an operator's own `MALLOC_ARENA_MAX` wins.
enum MallocArenas {
    /// glibc's `M_ARENA_MAX` (malloc.h, not in the Glibc module).
    private static let arenaMaxParameter: Int32 = -8

    static func limit(to count: Int32 = 2) {
        #if canImport(Glibc)
        guard getenv("MALLOC_ARENA_MAX") == nil, let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        _ = unsafeBitCast(symbol, to: Mallopt.self)(arenaMaxParameter, count)
        #endif
    }
}
