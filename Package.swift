// swift-tools-version: 6.0
import PackageDescription

/// The system image libraries: Debian `libpng-dev` and `libjpeg-dev` (libjpeg-turbo).
let imageLibraries: [LinkerSetting] = [.linkedLibrary("png"), .linkedLibrary("jpeg")]

let package = Package(
    name: "Scrollwork",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "ListDiff", targets: ["ListDiff"]),
        .library(name: "Thumbnails", targets: ["Thumbnails"]),
        .library(name: "Feeds", targets: ["Feeds"]),
        .executable(name: "scrollwork", targets: ["scrollwork"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        // Engines, left to right in the data flow of DESIGN.md.
        .target(name: "ListDiff"),
        .target(name: "CThumbnails", linkerSettings: imageLibraries),
        .target(name: "Thumbnails", dependencies: ["CThumbnails"]),
        // The system libxml2 (Debian `libxml2-dev`), found through pkg-config.
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        .target(name: "Feeds", dependencies: ["CLibXML2"]),

        // Generated PNG and JPEG images for the tests and the benchmarks, so no binary fixtures.
        .target(name: "CImageEncoders", linkerSettings: imageLibraries),
        .target(name: "ImageFixtures", dependencies: ["CImageEncoders"]),

        // The reader: commands, benchmarks. Only this layer knows about the terminal and the CLI.
        .target(
            name: "ScrollworkApp",
            dependencies: [
                "ListDiff",
                "Thumbnails",
                "Feeds",
                "ImageFixtures",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(name: "scrollwork", dependencies: ["ScrollworkApp"]),

        .testTarget(name: "ListDiffTests", dependencies: ["ListDiff"]),
        .testTarget(name: "ThumbnailsTests", dependencies: ["Thumbnails", "ImageFixtures"]),
        .testTarget(name: "FeedsTests", dependencies: ["Feeds"]),
        .testTarget(
            name: "ScrollworkAppTests",
            dependencies: [
                "ScrollworkApp", "ListDiff", "Thumbnails", "Feeds", "ImageFixtures",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
