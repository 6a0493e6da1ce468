// swift-tools-version: 6.0
import PackageDescription

/// The system image libraries: Debian `libpng-dev` and `libjpeg-dev` (libjpeg-turbo).
let imageLibraries: [LinkerSetting] = [.linkedLibrary("png"), .linkedLibrary("jpeg")]
/// The PNG decoder's inflate on Linux: Debian `libisal-dev` (Intel ISA-L), and zlib for CRC-32.
let fastInflate: [LinkerSetting] = [.linkedLibrary("isal", .when(platforms: [.linux])), .linkedLibrary("z", .when(platforms: [.linux]))]

let package = Package(
    name: "Scrollwork",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "ListDiff", targets: ["ListDiff"]),
        .library(name: "Thumbnails", targets: ["Thumbnails"]),
        .library(name: "ContentLoading", targets: ["ContentLoading"]),
        .library(name: "Feeds", targets: ["Feeds"]),
        .library(name: "TerminalUI", targets: ["TerminalUI"]),
        .library(name: "ListViewport", targets: ["ListViewport"]),
        .executable(name: "scrollwork", targets: ["scrollwork"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.20.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.60.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
    ],
    targets: [
        // Engines, left to right in the data flow of DESIGN.md.
        .target(name: "ListDiff"),
        .target(name: "CThumbnails", linkerSettings: imageLibraries + fastInflate),
        .target(name: "Thumbnails", dependencies: ["CThumbnails", "ContentLoading"]),
        .target(
            name: "ContentLoading",
            dependencies: [
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ]
        ),
        // The system libxml2 (Debian `libxml2-dev`), found through pkg-config.
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        // The store uses GRDB over the system SQLite (Debian `libsqlite3-dev`); fetching uses
        // AsyncHTTPClient.
        .target(
            name: "Feeds",
            dependencies: [
                "CLibXML2",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ]
        ),
        // The scrolling list itself: geometry, scroll physics, ranges, coalesced updates.
        .target(name: "ListViewport", dependencies: ["ListDiff"]),
        // An HTTP server on the loopback address: the demo's feed and pictures, and test servers.
        .target(
            name: "LoopbackHTTP",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        // The terminal layer: what may reach the terminal, and how the reader draws: cells,
        // input, pictures (from Thumbnails' pixel buffers), the terminal session.
        .target(name: "TerminalUI", dependencies: ["Thumbnails"]),

        // Seeded randomness for randomized tests and benchmark data, and generated PNG and JPEG
        // images for the tests and the benchmarks, so no binary fixtures.
        .target(name: "SeededRandom"),
        .target(name: "CImageEncoders", linkerSettings: imageLibraries),
        .target(name: "ImageFixtures", dependencies: ["CImageEncoders", "SeededRandom"]),

        // The reader: commands, benchmarks. Only this layer knows about the terminal and the CLI.
        .target(
            name: "ScrollworkApp",
            dependencies: [
                "ListDiff",
                "ContentLoading",
                "Thumbnails",
                "Feeds",
                "TerminalUI",
                "ImageFixtures",
                "SeededRandom",
                "LoopbackHTTP",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(name: "scrollwork", dependencies: ["ScrollworkApp"]),

        .testTarget(name: "ListDiffTests", dependencies: ["ListDiff", "SeededRandom"]),
        // A loopback HTTP server and a clock that does not wait, for tests of network code.
        .target(
            name: "ScrollworkTestSupport",
            dependencies: ["LoopbackHTTP"],
            path: "Tests/ScrollworkTestSupport"
        ),
        .testTarget(name: "ContentLoadingTests", dependencies: ["ContentLoading", "SeededRandom", "ScrollworkTestSupport"]),
        .testTarget(name: "ThumbnailsTests", dependencies: ["Thumbnails", "ImageFixtures", "ContentLoading", "SeededRandom"]),
        .testTarget(
            name: "FeedsTests",
            dependencies: ["Feeds", "SeededRandom", "ScrollworkTestSupport", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        // The child that FeedsTests kills in the middle of an ingest: a crash test needs a real
        // process. `swift test` builds it next to the test bundle, where the test finds it.
        .executableTarget(
            name: "feeds-ingest-crash-helper",
            dependencies: ["Feeds"],
            path: "Tests/FeedsIngestCrashHelper"
        ),
        .testTarget(name: "ListViewportTests", dependencies: ["ListViewport", "ListDiff", "SeededRandom"]),
        // The child that TerminalUITests runs in a pseudo-terminal and signals: restoring the
        // terminal on SIGINT or SIGTSTP needs a real process on a real terminal.
        .executableTarget(
            name: "terminal-session-helper",
            dependencies: ["TerminalUI"],
            path: "Tests/TerminalSessionHelper"
        ),
        .testTarget(name: "TerminalUITests", dependencies: ["TerminalUI", "Thumbnails", "SeededRandom", "ScrollworkTestSupport"]),
        .testTarget(
            name: "ScrollworkAppTests",
            dependencies: [
                "ScrollworkApp", "ListDiff", "Thumbnails", "Feeds", "TerminalUI", "ImageFixtures", "ScrollworkTestSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
