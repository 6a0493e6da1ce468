// swift-tools-version: 6.0
import PackageDescription
#if os(Linux)
import Glibc
#endif

/// Whether the glibc this package is built on (and run on: SwiftPM builds where it runs) loads
/// packed relative relocations (DT_RELR, glibc 2.36 and later). An executable linked with them
/// needs that glibc: an older one refuses to start it.
let glibcLoadsPackedRelocations: Bool = {
    #if os(Linux)
    var buffer = [UInt8](repeating: 0, count: 64)
    let length = buffer.withUnsafeMutableBufferPointer { confstr(Int32(_CS_GNU_LIBC_VERSION), $0.baseAddress, $0.count) }
    guard length > 1, length <= buffer.count else { return false }
    // "glibc 2.36"
    let version = String(decoding: buffer[..<(length - 1)], as: UTF8.self).split(separator: " ").last?.split(separator: ".").compactMap { Int($0) } ?? []
    guard version.count >= 2 else { return false }
    return (version[0], version[1]) >= (2, 36)
    #else
    return false
    #endif
}()

/// Set by `Scripts/sanitize.sh` for a build under a sanitizer (`address`, `thread`, `undefined`).
let sanitizer = Context.environment["SCROLLWORK_SANITIZE"]

/// How `scrollwork` is linked on Linux (see the executable target). Under a sanitizer it is
/// linked as any Swift program is, with the runtime's shared libraries and its symbols
/// exported: the sanitizer's `malloc` and `free` are the executable's, and the shared C
/// libraries (libjpeg's buffers) must call them, not glibc's; a static runtime is linked with
/// `--exclude-libs`, which would hide them.
/// The package's own C, compiled with UndefinedBehaviorSanitizer for `Scripts/sanitize.sh
/// undefined` (Swift has none on Linux); the C and C++ of dependencies are not ours to check.
let ownC: [CSetting] = sanitizer == "undefined"
    ? [.unsafeFlags(["-fsanitize=undefined", "-fno-sanitize-recover=undefined", "-fno-omit-frame-pointer"])] : []

/// The functions `scrollwork` runs, laid out together at the start of its code, in the order of
/// `Scripts/symbols.order` (written by `Scripts/order-symbols.sh` from runs of the commands and
/// the reader under callgrind). Linux maps code 64 KB around each page a process faults in, and
/// counts those pages in the process's resident set: spread over 27 MB of code, the 1 MB of
/// functions a 500-post `scrollwork refresh` runs held 12.9 MB of it resident, half its peak.
/// A name the code no longer defines is skipped without a warning: a stale list costs memory,
/// not a failed link (`FreshMachineTests` says when too much of it is stale). SwiftPM does not
/// know the file is an input of the link: a new list is used once the executables are linked
/// again (the script removes them).
let symbolOrderingFlags = ["-Xlinker", "--symbol-ordering-file=" + Context.packageDirectory + "/Scripts/symbols.order", "-Xlinker", "--no-warn-symbol-ordering"]
let executableSwiftFlags: [String] = sanitizer == nil ? ["-static-stdlib"] : []
let executableLinkFlags: [String] = sanitizer != nil ? [] : ["-static-stdlib", "-use-ld=lld", "-Xlinker", "--no-export-dynamic"]
    + (glibcLoadsPackedRelocations ? ["-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"] : [])
    + symbolOrderingFlags

/// For the reader's own targets, which no product exports: types such as `Set<ReaderTimer>` are
/// made by calling their metadata accessors with the conformances the compiler knows, instead
/// of by mangled name. A mangled name makes the runtime look each conformance up (`ReaderTimer:
/// Hashable`), and a first lookup searches all of the executable's 9,400 conformance records, a
/// tenth to a third of a millisecond each; the reader made a dozen such lookups before its first
/// frame. Unsafe flags would keep the engines' libraries from being used as a dependency; these
/// targets are not libraries.
let readerSwiftSettings: [SwiftSetting] = [
    .unsafeFlags(["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"]),
]

/// The system image libraries: Debian `libpng-dev` and `libjpeg-dev` (libjpeg-turbo).
let imageLibraries: [LinkerSetting] = [.linkedLibrary("png"), .linkedLibrary("jpeg")]
/// The PNG decoder's inflate: zlib (Debian `zlib1g-dev`), and where the machine has it, Intel's
/// ISA-L, opened at run time (`dlopen`, in glibc itself since 2.34) and never linked, so a
/// machine without it builds too.
let inflateLibraries: [LinkerSetting] = [.linkedLibrary("z")]

let package = Package(
    name: "Scrollwork",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "ListDiff", targets: ["ListDiff"]),
        .library(name: "Thumbnails", targets: ["Thumbnails"]),
        .library(name: "ContentLoading", targets: ["ContentLoading"]),
        .library(name: "HTTPLoading", targets: ["HTTPLoading"]),
        .library(name: "ContentLoadingHTTP", targets: ["ContentLoadingHTTP"]),
        .library(name: "ThumbnailLoading", targets: ["ThumbnailLoading"]),
        .library(name: "Feeds", targets: ["Feeds"]),
        .library(name: "FeedsHTTP", targets: ["FeedsHTTP"]),
        .library(name: "TerminalUI", targets: ["TerminalUI"]),
        .library(name: "ListViewport", targets: ["ListViewport"]),
        .library(name: "ViewportLoading", targets: ["ViewportLoading"]),
        .executable(name: "scrollwork", targets: ["scrollwork"]),
        .executable(name: "scrollwork-bench", targets: ["scrollwork-bench"]),
        .executable(name: "scrollwork-measure", targets: ["scrollwork-measure"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.20.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.60.0"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.20.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
    ],
    targets: [
        // Engines, left to right in the data flow of DESIGN.md.
        .target(name: "ListDiff"),
        // One stable hash (FNV-1a) for the disk cache's names and checks and Feeds' entry ids.
        .target(name: "StableHashing"),
        .target(name: "CThumbnails", cSettings: ownC, linkerSettings: imageLibraries + inflateLibraries),
        // The system zlib's deflate and CRC-32 (Debian `zlib1g-dev`), for the pictures TerminalUI
        // sends a terminal compressed.
        .target(name: "CZlib", cSettings: ownC, linkerSettings: [.linkedLibrary("z")]),
        .target(name: "Thumbnails", dependencies: ["CThumbnails"]),
        // The loading engine, without networking: an app plugs in its own DataLoading.
        .target(name: "ContentLoading", dependencies: ["StableHashing", "WorkerThreads", .product(name: "DequeModule", package: "swift-collections")]),
        // Threads of a pool's own for blocking, CPU-bound work: ContentLoading's decoding, and
        // the background lane on which a sync decodes and writes its pages (Feeds).
        .target(name: "WorkerThreads", dependencies: [.product(name: "DequeModule", package: "swift-collections")]),
        // HTTP and file loading on AsyncHTTPClient, for content and for feeds.
        .target(
            name: "HTTPLoading",
            dependencies: [
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPCompression", package: "swift-nio-extras"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        // Glue: HTTPLoading as ContentLoading's data loader; thumbnails as its processing stage.
        .target(name: "ContentLoadingHTTP", dependencies: ["ContentLoading", "HTTPLoading"]),
        .target(name: "ThumbnailLoading", dependencies: ["ContentLoading", "Thumbnails"]),
        // Glue: HTTPLoading as Feeds' fetcher (conditional GET, gzip, permanent redirects).
        .target(name: "FeedsHTTP", dependencies: ["Feeds", "HTTPLoading"]),
        // The system libxml2's headers (Debian `libxml2-dev`), through the link
        // `include/libxml` to `/usr/include/libxml2/libxml`: the types Feeds reads come from
        // the installed library's own declarations, and nothing links libxml2, which Feeds
        // opens at its first parse (see Feeds' `LibXML2`).
        .target(name: "CLibXML2"),
        // The search index's ranking function, on the FTS5 extension API of the system SQLite
        // that GRDB opens (Debian `libsqlite3-dev`).
        .target(name: "CSearchRank", cSettings: ownC, linkerSettings: [.linkedLibrary("sqlite3")]),
        // Parameter binding on a statement GRDB prepared, for the store's bulk writes: GRDB's
        // arguments wrap and unwrap every value (see Feeds' `ParameterBinding`).
        .target(name: "CSQLiteBinding", cSettings: ownC, linkerSettings: [.linkedLibrary("sqlite3")]),
        // Counts the heap allocations a benchmark makes (it defines malloc for the bench executable).
        .target(name: "CAllocationCount", cSettings: ownC),
        // The store uses GRDB over the system SQLite (Debian `libsqlite3-dev`); fetching is a
        // protocol, which FeedsHTTP's fetcher and the tests' scripted ones conform to.
        .target(
            name: "Feeds",
            dependencies: [
                "CLibXML2",
                "CSearchRank",
                "CSQLiteBinding",
                "StableHashing",
                "WorkerThreads",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        // Sync with a feed server: the synchronous core and the servers' APIs, pure (requests
        // and replies as values); a thin runtime sends the requests over HTTPLoading.
        .target(name: "FeedSync", dependencies: ["Feeds", "HTTPLoading"]),
        // The scrolling list itself: geometry, scroll physics, ranges, coalesced updates. Its
        // ranges say how urgent each row's content is in tiers of its own; it knows no loader.
        .target(name: "ListViewport", dependencies: ["ListDiff"]),
        // Glue: the viewport's ranges as ContentLoading's prefetches, frame to frame, and the
        // binder that keeps one slot per displayed row (the reader's, the benchmarks', the tests').
        .target(name: "ViewportLoading", dependencies: ["ListViewport", "ContentLoading"]),
        // An HTTP server on the loopback address: the demo's feed and pictures, and test servers.
        .target(
            name: "LoopbackHTTP",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        // A program in a pseudo-terminal of our own: the tests run the executables in it, and
        // the reader's benchmark times launches in it.
        .target(name: "PseudoTerminal"),
        // The terminal layer: what may reach the terminal, and how the reader draws: cells,
        // input, pictures (from Thumbnails' pixel buffers, kitty's and iTerm2's compressed with
        // the system zlib through CZlib), the terminal session.
        .target(name: "TerminalUI", dependencies: ["Thumbnails", "CZlib"]),

        // Seeded randomness for randomized tests and benchmark data, and generated PNG and JPEG
        // images for the tests and the benchmarks, so no binary fixtures.
        .target(name: "SeededRandom"),
        .target(name: "CImageEncoders", cSettings: ownC, linkerSettings: imageLibraries),
        .target(name: "ImageFixtures", dependencies: ["CImageEncoders", "SeededRandom"]),

        // `bench scroll`'s simulation: the real viewport, loading core and loader front (with the
        // reader's prefetch plan) against the strategies apps ship, in virtual time.
        .target(
            name: "ScrollSimulation",
            dependencies: [
                "ListViewport", "ListDiff", "ContentLoading", "ViewportLoading", "SeededRandom",
                .product(name: "HeapModule", package: "swift-collections"),
            ]
        ),

        // The reader: its state machine and runtime, screens, settings and the thumbnails it
        // shows. It knows the terminal but neither the command line, the benchmarks' simulation
        // nor the generated images.
        .target(
            name: "ScrollworkReader",
            dependencies: [
                "ListDiff",
                "ContentLoading",
                "ContentLoadingHTTP",
                "HTTPLoading",
                "Thumbnails",
                "ThumbnailLoading",
                "Feeds",
                "FeedSync",
                "TerminalUI",
                "ListViewport",
                "ViewportLoading",
                // The reader's settings file (config.toml).
                .product(name: "TOMLKit", package: "TOMLKit"),
            ],
            swiftSettings: readerSwiftSettings
        ),
        // The embedded demo: a generated feed and its pictures, served on the loopback address.
        .target(name: "ScrollworkDemo", dependencies: ["ImageFixtures", "SeededRandom", "LoopbackHTTP"]),
        // `scrollwork bench`: every figure against its peers, over the simulation, the fixtures,
        // the demo and the reader itself; an executable of its own (`scrollwork-bench`, below),
        // which `scrollwork bench` runs, so the shipped reader carries none of it.
        .target(
            name: "ScrollworkBench",
            dependencies: [
                "CAllocationCount",
                "CommandLineMain",
                "ScrollworkReader",
                "ScrollworkDemo",
                "ScrollSimulation",
                "ImageFixtures",
                "PseudoTerminal",
                "SeededRandom",
                "LoopbackHTTP",
                "ListDiff",
                "ContentLoading",
                "ContentLoadingHTTP",
                "HTTPLoading",
                "Thumbnails",
                "Feeds",
                "FeedsHTTP",
                "FeedSync",
                "TerminalUI",
                "ListViewport",
                "ViewportLoading",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // How the package's executables run their root command: arenas capped, bad usage with
        // status 2.
        .target(
            name: "CommandLineMain",
            dependencies: ["ScrollworkReader", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        // The command line: every subcommand, and the root that runs them.
        .target(
            name: "ScrollworkApp",
            dependencies: [
                "CommandLineMain",
                "ScrollworkReader",
                "ScrollworkDemo",
                "ListDiff",
                "ContentLoading",
                "HTTPLoading",
                "Thumbnails",
                "Feeds",
                "FeedsHTTP",
                "FeedSync",
                "TerminalUI",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: readerSwiftSettings
        ),
        // On Linux the Swift runtime and Foundation are linked in: a launch then resolves no
        // symbols across a dozen shared libraries, the most of a dynamic Swift program's start
        // (a Foundation "hello" starts in 1.8 ms static against 8.5 ms dynamic), and the reader
        // holds 4.7 MB less. main.swift is compiled against the static runtime too, so that its
        // imports bring in the static libraries Foundation needs. lld, which the toolchain ships,
        // links it (GNU ld warns about Foundation's own use of mktemp). The C libraries stay the
        // machine image's shared ones, and the executable stays position-independent, for ASLR.
        // Its symbols are not exported (swiftc exports an executable's by default, for nothing
        // here): 4.5 MB of dynamic symbol tables the loader maps and searches. Where glibc loads
        // them, its 125,000 relative relocations are packed (RELR): 3 MB the loader would read
        // at every start become 24 KB. Together: about 5 MB less resident and 1 ms less to start.
        .executableTarget(
            name: "scrollwork", dependencies: ["ScrollworkApp"],
            swiftSettings: [.unsafeFlags(executableSwiftFlags, .when(platforms: [.linux]))],
            linkerSettings: [.unsafeFlags(executableLinkFlags, .when(platforms: [.linux]))]
        ),
        // The benchmarks, linked as the reader is, so that what they measure of the reader in
        // process (`bench ui`) runs on the same runtime.
        .executableTarget(
            name: "scrollwork-bench", dependencies: ["ScrollworkBench"],
            swiftSettings: [.unsafeFlags(executableSwiftFlags, .when(platforms: [.linux]))],
            linkerSettings: [.unsafeFlags(executableLinkFlags, .when(platforms: [.linux]))]
        ),
        // Runs a program for the benchmarks' whole-process cases and reports its own peak memory:
        // a child the benchmark spawned itself would count the benchmark's too (see main.c).
        .executableTarget(name: "scrollwork-measure", cSettings: ownC),

        // Fuzzing (see Scripts/fuzz.sh and README, "Fuzzing"): each parser of untrusted bytes as a
        // check of one input, in libraries the normal build compiles and FuzzReplayTests runs
        // over every input kept in Fuzz/Corpus; the libFuzzer executables that drive them are
        // declared only for a fuzzing build (`fuzzTargets` below).
        .target(name: "FuzzSupport", dependencies: ["StableHashing"], path: "Fuzz/FuzzSupport"),
        .target(name: "FeedsFuzzing", dependencies: ["FuzzSupport", "Feeds"], path: "Fuzz/FeedsFuzzing"),
        .target(name: "TerminalFuzzing", dependencies: ["FuzzSupport", "TerminalUI", "Thumbnails"], path: "Fuzz/TerminalFuzzing"),
        .target(name: "ThumbnailsFuzzing", dependencies: ["FuzzSupport", "Thumbnails"], path: "Fuzz/ThumbnailsFuzzing"),
        .target(name: "SyncFuzzing", dependencies: ["FuzzSupport", "FeedsFuzzing", "Feeds", "FeedSync"], path: "Fuzz/SyncFuzzing"),
        .target(name: "ReaderFuzzing", dependencies: ["FuzzSupport", "ScrollworkReader"], path: "Fuzz/ReaderFuzzing", swiftSettings: readerSwiftSettings),
        .testTarget(
            name: "FuzzReplayTests",
            dependencies: ["FuzzSupport", "FeedsFuzzing", "TerminalFuzzing", "ThumbnailsFuzzing", "SyncFuzzing", "ReaderFuzzing"]
        ),

        .testTarget(name: "ListDiffTests", dependencies: ["ListDiff", "SeededRandom"]),
        // For any test: a clock that does not wait, scratch directories, hostile text, the
        // built executables, a pseudo-terminal and tmux. No engine of the package, so engine
        // tests build no GRDB or NIO through it.
        .target(name: "ScrollworkTestSupport", dependencies: ["PseudoTerminal"], path: "Tests/ScrollworkTestSupport"),
        // For the tests of feeds and of the app: a fetcher without a network, and the loopback
        // server of the product module LoopbackHTTP.
        .target(name: "FeedsTestSupport", dependencies: ["Feeds", "LoopbackHTTP"], path: "Tests/FeedsTestSupport"),
        .testTarget(name: "ContentLoadingTests", dependencies: ["ContentLoading", "StableHashing", "SeededRandom", "ScrollworkTestSupport"]),
        .testTarget(
            name: "HTTPLoadingTests",
            dependencies: ["HTTPLoading", "ContentLoadingHTTP", "ContentLoading", "LoopbackHTTP", "ScrollworkTestSupport", "CZlib"]
        ),
        .testTarget(name: "ThumbnailsTests", dependencies: ["Thumbnails", "ImageFixtures", "SeededRandom"]),
        .testTarget(name: "ThumbnailLoadingTests", dependencies: ["ThumbnailLoading", "Thumbnails", "ContentLoading", "ImageFixtures"]),
        // For leak tests: the bytes the C library's malloc has out (glibc's mallinfo2).
        .target(name: "CHeapStatistics", path: "Tests/CHeapStatistics"),
        .testTarget(
            name: "FeedsTests",
            dependencies: [
                "Feeds", "FeedsHTTP", "SeededRandom", "ScrollworkTestSupport", "FeedsTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        // The child that FeedsTests' leak tests run: the heap of a process that only parses.
        .executableTarget(name: "feeds-heap-helper", dependencies: ["Feeds", "CHeapStatistics"], path: "Tests/FeedsHeapHelper"),
        .testTarget(name: "FeedsHTTPTests", dependencies: ["FeedsHTTP", "Feeds", "ScrollworkTestSupport", "FeedsTestSupport"]),
        .testTarget(
            name: "FeedSyncTests",
            dependencies: ["FeedSync", "Feeds", "HTTPLoading", "LoopbackHTTP", "ScrollworkTestSupport", "SeededRandom", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        // The child that FeedsTests kills in the middle of an ingest: a crash test needs a real
        // process. `swift test` builds it next to the test bundle, where the test finds it.
        .executableTarget(
            name: "feeds-ingest-crash-helper",
            dependencies: ["Feeds"],
            path: "Tests/FeedsIngestCrashHelper"
        ),
        .testTarget(name: "ListViewportTests", dependencies: ["ListViewport", "ListDiff", "ContentLoading", "ViewportLoading", "SeededRandom", "ScrollworkTestSupport"]),
        .testTarget(name: "ViewportLoadingTests", dependencies: ["ViewportLoading", "ListViewport", "ContentLoading", "ScrollworkTestSupport"]),
        .testTarget(name: "ScrollSimulationTests", dependencies: ["ScrollSimulation", "ListViewport", "SeededRandom"]),
        // The child that TerminalUITests runs in a pseudo-terminal and signals: restoring the
        // terminal on SIGINT or SIGTSTP needs a real process on a real terminal.
        .executableTarget(
            name: "terminal-session-helper",
            dependencies: ["TerminalUI"],
            path: "Tests/TerminalSessionHelper"
        ),
        .testTarget(name: "TerminalUITests", dependencies: ["TerminalUI", "Thumbnails", "SeededRandom", "ScrollworkTestSupport"]),
        // The reader's state, screens and settings, and the reader over a real store.
        .testTarget(
            name: "ScrollworkReaderTests",
            dependencies: [
                "ScrollworkReader", "ListViewport", "Thumbnails", "Feeds", "FeedSync", "TerminalUI", "ContentLoading", "ImageFixtures",
                "ScrollworkTestSupport", "FeedsTestSupport", "SeededRandom",
            ]
        ),
        // The commands, the demo and the benchmarks, and the built executable end to end.
        .testTarget(
            name: "ScrollworkAppTests",
            dependencies: [
                "ScrollworkApp", "ScrollworkReader", "ScrollworkDemo", "ScrollworkBench", "CAllocationCount",
                "ListDiff", "Thumbnails", "Feeds", "FeedsHTTP", "FeedSync", "LoopbackHTTP", "TerminalUI", "ImageFixtures", "ScrollworkTestSupport", "FeedsTestSupport",
                "ScrollSimulation",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

/// The fuzz targets: (executable, the library whose check it drives). Each is a libFuzzer
/// executable of one file, `Fuzz/Targets/NAME/Fuzz.swift`, whose entry runs libFuzzer's driver
/// (`CFuzzDriver`), declared only when `SCROLLWORK_FUZZ` is set, since it links with
/// `-sanitize=fuzzer`: `swift build` and `swift test` never build them. `Scripts/fuzz.sh` sets it.
let fuzzTargets: [(name: String, library: String)] = [
    ("fuzz-feed-parser", "FeedsFuzzing"),
    ("fuzz-xml-differential", "FeedsFuzzing"),
    ("fuzz-input-repair", "FeedsFuzzing"),
    ("fuzz-html-text", "FeedsFuzzing"),
    ("fuzz-json-feed", "FeedsFuzzing"),
    ("fuzz-opml", "FeedsFuzzing"),
    ("fuzz-dates", "FeedsFuzzing"),
    ("fuzz-input-decoder", "TerminalFuzzing"),
    ("fuzz-sixel", "TerminalFuzzing"),
    ("fuzz-images", "ThumbnailsFuzzing"),
    ("fuzz-sync-replies", "SyncFuzzing"),
    ("fuzz-settings", "ReaderFuzzing"),
]
if Context.environment["SCROLLWORK_FUZZ"] != nil {
    package.targets.append(.target(name: "CFuzzDriver", path: "Fuzz/CFuzzDriver"))
    package.targets += fuzzTargets.map { target in
        .executableTarget(name: target.name, dependencies: ["CFuzzDriver", "FuzzSupport", .target(name: target.library)], path: "Fuzz/Targets/\(target.name)")
    }
}
