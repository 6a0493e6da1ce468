import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// glibc's allocator gives each thread that allocates an arena of its own, up to eight per
/// core. The reader's dozen threads are mostly idle (the main actor, the cooperative pool, a
/// few of GRDB's and Dispatch's queues): in nine arenas they held 2.3 MB, most of it freed
/// memory each arena kept for itself. No more threads than there are cores run at once, so
/// one arena a core serves them without waiting.
package enum MallocArenas {
    /// The most arenas glibc may make: one a core, at least two. The cores are counted as
    /// glibc counts them for its own default, with `sysconf`: `ProcessInfo`'s count reads the
    /// cgroup's files, which took half a millisecond of every launch.
    package static var limit: Int { max(2, sysconf(Int32(_SC_NPROCESSORS_ONLN))) }

    /// Caps glibc's arenas at ``limit``; call before the process starts threads. Elsewhere
    /// (another C library, Darwin) it does nothing and returns false.
    @discardableResult
    package static func cap() -> Bool {
        #if canImport(Glibc)
        // `M_ARENA_MAX` is in `<malloc.h>`, which the Glibc module does not import: the
        // constant is glibc's.
        typealias MallOpt = @convention(c) (Int32, Int32) -> Int32
        let arenaMax: Int32 = -8
        guard let mallopt = glibc("mallopt", as: MallOpt.self) else { return false }
        return mallopt(arenaMax, Int32(limit)) == 1
        #else
        return false
        #endif
    }

    /// Gives the system back the memory the arenas hold freed (`malloc_trim`): the reader calls
    /// it when it comes to rest, about a third of a megabyte after moving through its list. It
    /// walks every arena, so it is not for a frame's path. Elsewhere it does nothing and
    /// returns false.
    @discardableResult
    package static func trim() -> Bool {
        #if canImport(Glibc)
        guard let mallocTrim else { return false }
        _ = mallocTrim(0)
        return true
        #else
        return false
        #endif
    }

    #if canImport(Glibc)
    /// glibc's `malloc_trim`, looked up once.
    private static let mallocTrim = glibc("malloc_trim", as: (@convention(c) (Int) -> Int32).self)

    /// The function `name` of the C library the process runs with, as `type`: `<malloc.h>`'s
    /// functions, which the Glibc module does not import, are looked up by name in the global
    /// scope (`RTLD_DEFAULT`, a null handle in glibc).
    private static func glibc<Function>(_ name: String, as type: Function.Type) -> Function? {
        dlsym(nil, name).map { unsafeBitCast($0, to: type) }
    }
    #endif
}
