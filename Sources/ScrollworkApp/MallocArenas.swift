import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// glibc's allocator gives each thread that allocates an arena of its own, up to eight per
/// core. The reader's dozen threads are mostly idle (the main actor, the cooperative pool, a
/// few of GRDB's and Dispatch's queues): in nine arenas they held 2.3 MB, most of it freed
/// memory each arena kept for itself. No more threads than there are cores run at once, so
/// one arena a core serves them without waiting.
enum MallocArenas {
    /// The most arenas glibc may make: one a core, at least two. The cores are counted as
    /// glibc counts them for its own default, with `sysconf`: `ProcessInfo`'s count reads the
    /// cgroup's files, which took half a millisecond of every launch.
    static var limit: Int { max(2, sysconf(Int32(_SC_NPROCESSORS_ONLN))) }

    /// Caps glibc's arenas at ``limit``; call before the process starts threads. Elsewhere
    /// (another C library, Darwin) it does nothing and returns false.
    @discardableResult
    static func cap() -> Bool {
        #if canImport(Glibc)
        // `mallopt` and `M_ARENA_MAX` are in `<malloc.h>`, which the Glibc module does not
        // import: the function is looked up by name, the constant is glibc's.
        typealias MallOpt = @convention(c) (Int32, Int32) -> Int32
        let arenaMax: Int32 = -8
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "mallopt") else { return false }
        return unsafeBitCast(symbol, to: MallOpt.self)(arenaMax, Int32(limit)) == 1
        #else
        return false
        #endif
    }

    /// Gives the system back the memory the arenas hold freed (`malloc_trim`): the reader calls
    /// it when it comes to rest, about half a megabyte after moving through its list. It walks
    /// every arena, so it is not for a frame's path. Elsewhere it does nothing and returns
    /// false.
    @discardableResult
    static func trim() -> Bool {
        #if canImport(Glibc)
        typealias MallocTrim = @convention(c) (Int) -> Int32
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "malloc_trim") else { return false }
        _ = unsafeBitCast(symbol, to: MallocTrim.self)(0)
        return true
        #else
        return false
        #endif
    }
}
