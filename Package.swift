// swift-tools-version: 6.1
//
// Gridlock's targets show its architecture (see docs/development.md, "Modules"):
// a pure core that solves puzzles, and one thin executable that parses flags and prints.
import PackageDescription

// GridlockX86V4 is compiled for x86-64-v4 (AVX-512) and runs only where the CPU has it
// (CPUFeatures.runsX86V4); on other architectures it builds plainly and stays off.
#if arch(x86_64)
let x86V4Settings: [SwiftSetting] = [.unsafeFlags(["-Xcc", "-march=x86-64-v4"])]
#else
let x86V4Settings: [SwiftSetting] = []
#endif

// The test targets compile unoptimized even in a release build (scripts/test builds once, in
// release): the code they test is optimized, and the tests themselves compile in a third of
// the time.
let testSettings: [SwiftSetting] = [.unsafeFlags(["-Onone"])]

let package = Package(
    name: "Gridlock",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "gridlock", targets: ["gridlock"]),
        .library(name: "GridlockCore", targets: ["GridlockCore"]),
    ],
    // PostgreSQL as a results store, off by default: postgres-nio (with SwiftNIO, its TLS and
    // BoringSSL) adds about 10 minutes to a clean build on two cores. On with
    // `swift build -c release --traits PostgreSQL`; its tests run by scripts/test-postgres.
    traits: [
        .trait(name: "PostgreSQL", description: "--db postgresql://...: results in a PostgreSQL server (postgres-nio)"),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    ],
    targets: [
        // Puzzle models, move generation, search and statistics. No sockets, no files, no clocks
        // except the ones a caller passes in.
        .target(name: "GridlockCore", dependencies: ["GridlockKinds", "CCPUFeatures"]),
        // The CPU's features (CPUID, which Swift cannot ask): may the x86-64-v4 code run here?
        .target(name: "CCPUFeatures"),
        // The kinds of puzzle and of job outcome, as types the core, the wire and the store share.
        .target(name: "GridlockKinds"),
        // The revision the binary was built from, compiled in by BuildInfoPlugin (git at build
        // time, never at run time).
        .target(name: "GridlockBuildInfo", plugins: ["BuildInfoPlugin"]),
        .plugin(name: "BuildInfoPlugin", capability: .buildTool()),
        // The wire protocol in one place: message types and their codec. Pure.
        .target(name: "GridlockWire", dependencies: ["GridlockKinds"]),
        // libzmq's C API, from Debian's libzmq3-dev (headers in /usr/include; pkg-config's
        // flags for libzmq include -isystem paths that SwiftPM refuses, so it is not used).
        .systemLibrary(name: "CZeroMQ", providers: [.apt(["libzmq3-dev"])]),
        // Boards as pictures: scenes of rectangles, lines and labels, written as SVG or drawn to
        // pixels. Pure: no file, no C library (PNGFile writes the pixels).
        .target(name: "GridlockDrawing", dependencies: ["GridlockCore"]),
        // Charts as SVG (boxes, intervals, time series, timelines, scatter plots): no Swift
        // charting library runs on Linux, so Gridlock draws its own. Pure.
        .target(name: "GridlockCharts", dependencies: ["GridlockDrawing"]),
        // The HTML report: the rows folded into charts and tables, the puzzle players, the page.
        .target(
            name: "GridlockHTMLReport",
            dependencies: [
                "GridlockCharts", "GridlockDrawing", "GridlockCluster", "GridlockCore",
                .product(name: "Histogram", package: "hdrhistogram-swift"),
            ]
        ),
        // libpng's simplified API, from Debian's libpng-dev, and the small wrapper over it.
        .systemLibrary(name: "CPNG", providers: [.apt(["libpng-dev"])]),
        .target(name: "PNGFile", dependencies: ["CPNG"]),
        // libjpeg-turbo (Debian's libjpeg62-turbo-dev), called through C that catches its
        // errors (it reports them by longjmp, which Swift cannot cross).
        .target(name: "CJPEG", linkerSettings: [.linkedLibrary("jpeg")]),
        // PNG and JPEG files as pixels, for `gridlock scan`.
        .target(name: "ImageFile", dependencies: ["CJPEG", "PNGFile"]),
        // From a picture to a puzzle: a Rush Hour board or a Sudoku grid found, measured and read
        // in pixels. Pure.
        .target(name: "GridlockScan", dependencies: ["GridlockCore", "GridlockDigits", "GridlockDigitModel"]),
        // The Sudoku digit reader: a mark's features and the nearest trained example. Pure.
        .target(name: "GridlockDigits"),
        // The reader's examples, trained on installed fonts when the package is built
        // (DigitModelPlugin runs gridlock-train-digits); nothing trained is kept in git.
        .target(name: "GridlockDigitModel", dependencies: ["GridlockDigits"], plugins: ["DigitModelPlugin"]),
        .plugin(name: "DigitModelPlugin", capability: .buildTool(), dependencies: ["gridlock-train-digits"]),
        .executableTarget(name: "gridlock-train-digits", dependencies: ["FontRaster", "GridlockDigits", "GridlockDrawing"]),
        // FreeType (Debian's libfreetype-dev), and glyphs drawn through it: for the trainer, and
        // for the tests, which print Sudoku grids in fonts.
        .systemLibrary(name: "CFreeType", pkgConfig: "freetype2", providers: [.apt(["libfreetype-dev"])]),
        .target(name: "FontRaster", dependencies: ["CFreeType"]),
        // A thin, safe Swift wrapper: context, sockets, multipart messages, poll, typed errors.
        .target(name: "ZeroMQ", dependencies: ["CZeroMQ"]),
        // prctl(2), which Swift cannot call (it is variadic): a supervised worker dies with its
        // supervisor; and the fork-to-exec of an outside solver, which must be plain C.
        .target(name: "CProcessControl"),
        // The solvers' wide paths: the core's searches specialized with SIMD tables, compiled
        // for x86-64-v4, installed at start (GridlockCommands' SolverPaths) where the CPU runs them.
        .target(name: "GridlockX86V4", dependencies: ["GridlockCore"], swiftSettings: x86V4Settings),
        // What the cluster's modules share: a role's error in words a user can act on, the
        // config file, sizes with units, small files read safely, and the values threads of one
        // process share (a stop flag, a locked value).
        .target(name: "GridlockClusterBase", dependencies: ["GridlockCore"]),
        // Coordinator, worker, sink and the results database.
        .target(
            name: "GridlockCluster",
            dependencies: [
                "GridlockClusterBase", "GridlockCore", "GridlockWire", "ZeroMQ", "CProcessControl", "GridlockBuildInfo",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
            ],
            // The reliability tests' fault hooks (FaultInjection.swift): in debug builds here,
            // in scripts/test's release build by -D; never in a plain release build.
            swiftSettings: [.define("GRIDLOCK_FAULT_INJECTION", .when(configuration: .debug))]
        ),
        // The results in a PostgreSQL server, behind the PostgreSQL trait. SwiftPM builds a
        // target depended on under a trait even with the trait off, so its files are all
        // `#if PostgreSQL`: without it, the module is empty and links no SwiftNIO.
        .target(
            name: "GridlockPostgres",
            dependencies: [
                "GridlockClusterBase", "GridlockCluster", "GridlockCore", "GridlockWire",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["PostgreSQL"])),
            ]
        ),
        // What a running role shows: Prometheus metrics and health on a small HTTP endpoint
        // of its own, and its log lines.
        .target(
            name: "GridlockObservability",
            dependencies: [
                "GridlockClusterBase", "GridlockCluster",
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The command-line front end: parse, wire, run. A library, so that the fuzzer reaches
        // its option parsing and its database reading.
        .target(
            name: "GridlockCommands",
            dependencies: [
                "GridlockClusterBase", "GridlockCore", "GridlockCluster", "GridlockWire", "GridlockBuildInfo", "GridlockObservability",
                "GridlockDrawing", "PNGFile", "GridlockHTMLReport", "GridlockScan", "ImageFile", "GridlockX86V4",
                .target(name: "GridlockPostgres", condition: .when(traits: ["PostgreSQL"])),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The executable: it only calls GridlockCommands.
        .executableTarget(name: "gridlock", dependencies: ["GridlockCommands"]),
        // The hostile peers of scripts/chaos: forged and junk frames against the roles.
        .executableTarget(
            name: "gridlock-chaos",
            dependencies: [
                "GridlockWire", "ZeroMQ",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The fuzz target of scripts/fuzz (libFuzzer); built plainly, it replays saved inputs.
        .executableTarget(
            name: "gridlock-fuzz",
            dependencies: [
                "GridlockClusterBase", "GridlockWire", "GridlockCluster", "GridlockCommands", "GridlockCore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .testTarget(
            name: "GridlockCoreTests",
            dependencies: ["GridlockCore", "GridlockX86V4"],
            swiftSettings: testSettings
        ),
        .testTarget(
            name: "GridlockDrawingTests",
            dependencies: ["GridlockDrawing", "PNGFile", "GridlockCore"],
            swiftSettings: testSettings
        ),
        .testTarget(
            name: "GridlockHTMLReportTests",
            dependencies: ["GridlockHTMLReport", "GridlockCharts", "GridlockCluster", "GridlockCore"],
            swiftSettings: testSettings
        ),
        .testTarget(
            name: "GridlockScanTests",
            dependencies: ["GridlockScan", "GridlockDrawing", "GridlockCore", "ImageFile", "PNGFile", "FontRaster", "GridlockDigits", "GridlockDigitModel"],
            swiftSettings: testSettings
        ),
        .testTarget(
            name: "GridlockWireTests",
            dependencies: ["GridlockWire", "GridlockKinds"],
            swiftSettings: testSettings
        ),
        .testTarget(
            name: "ZeroMQTests",
            dependencies: ["ZeroMQ"],
            swiftSettings: testSettings
        ),
        .testTarget(
            name: "GridlockClusterTests",
            dependencies: ["GridlockClusterBase", "GridlockCluster", "GridlockWire", "GridlockCore", "ZeroMQ", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: testSettings
        ),
        // Against a real PostgreSQL server; empty without the trait (scripts/test-postgres).
        .testTarget(
            name: "GridlockPostgresTests",
            dependencies: [
                "GridlockPostgres", "GridlockCluster", "GridlockWire", "GridlockCore",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: testSettings
        ),
        .testTarget(
            name: "GridlockCLITests",
            dependencies: [
                "GridlockClusterBase", "gridlock", "ZeroMQ", "GridlockWire", "GridlockObservability", "GridlockCluster", "GridlockCore",
                "GridlockDrawing", "PNGFile", "ImageFile",
                .product(name: "Logging", package: "swift-log"), .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: testSettings
        ),
    ]
)
