// swift-tools-version: 6.1
//
// Gridlock's targets show its architecture (see README.md, "Layout"):
// a pure core that solves puzzles, and one thin executable that parses flags and prints.
import PackageDescription

let package = Package(
    name: "Gridlock",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "gridlock", targets: ["gridlock"]),
        .library(name: "GridlockCore", targets: ["GridlockCore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // Puzzle models, move generation, search and statistics. No sockets, no files, no clocks
        // except the ones a caller passes in.
        .target(name: "GridlockCore"),
        // The command-line front end: parse, wire, run.
        .executableTarget(
            name: "gridlock",
            dependencies: [
                "GridlockCore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "GridlockCoreTests",
            dependencies: ["GridlockCore"]
        ),
        .testTarget(
            name: "GridlockCLITests",
            dependencies: ["gridlock"]
        ),
    ]
)
