// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Scrollwork",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "ListDiff", targets: ["ListDiff"]),
        .executable(name: "scrollwork", targets: ["scrollwork"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        // Engines, left to right in the data flow of DESIGN.md.
        .target(name: "ListDiff"),

        // The reader: commands, benchmarks. Only this layer knows about the terminal and the CLI.
        .target(
            name: "ScrollworkApp",
            dependencies: [
                "ListDiff",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(name: "scrollwork", dependencies: ["ScrollworkApp"]),

        .testTarget(name: "ListDiffTests", dependencies: ["ListDiff"]),
        .testTarget(
            name: "ScrollworkAppTests",
            dependencies: [
                "ScrollworkApp", "ListDiff",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
