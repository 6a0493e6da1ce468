#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `posix_spawn` attributes for a child that starts with every signal at its default action
/// and none blocked, whatever this test process ignores or blocks.
package final class SpawnAttributes {
    package var attributes = posix_spawnattr_t()

    /// Attributes as above; with `newProcessGroup`, the child leads a process group of its own.
    package init(newProcessGroup: Bool = false) {
        posix_spawnattr_init(&attributes)
        var flags = Int32(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK)
        if newProcessGroup {
            flags |= Int32(POSIX_SPAWN_SETPGROUP)
            posix_spawnattr_setpgroup(&attributes, 0)
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigdefault(&attributes, &all)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
    }

    deinit {
        posix_spawnattr_destroy(&attributes)
    }
}
