extension TOMLDocument {
    /// What a settings file may hold, checked with its grammar (``Grammar``) before TOMLKit
    /// sees it.
    ///
    /// toml++, under TOMLKit, builds and frees nested tables by recursion, so a table header of
    /// 100,000 dotted parts overflowed the stack; and it took half a minute and more than a
    /// gigabyte to read two million keys. The reader's settings are a few dozen keys nested
    /// three deep (`[keys]`, `down`, `["j", "down"]`): the limits are far above that, and far
    /// below harm.
    enum Limits {
        /// The most bytes a settings file may have: 1 MiB.
        static let maxBytes = 1 << 20
        /// The deepest a value may sit: each part of a table header or of a dotted key, each
        /// array and each inline table around it is a level.
        static let maxDepth = 32
        /// The most keys a settings file may have, table headers included.
        static let maxKeys = 1_000
    }
}
