// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "RelBench",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "ObjectGraph", targets: ["ObjectGraph"]),
        .executable(name: "bench", targets: ["bench"]),
    ],
    // Swift sources as input (`bench scan`, SwiftData `@Model` files as models) need swift-syntax, a long build: only
    // `swift build -c release --traits SwiftSources` builds it. Without the trait, the SwiftSources target compiles
    // empty (its files are `#if SwiftSources`) and bench says in one line how to build the feature.
    traits: [
        .trait(name: "SwiftSources", description: "bench scan and SwiftData @Model sources as models (builds swift-syntax)"),
        .default(enabledTraits: []),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-collections.git", exact: "1.6.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", exact: "2.0.1"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", exact: "1.8.2"),
        .package(url: "https://github.com/yaslab/CSV.swift.git", exact: "2.5.2"),
        .package(url: "https://github.com/groue/GRDB.swift.git", exact: "7.10.0"),
        .package(url: "https://github.com/swiftlang/swift-syntax.git", exact: "602.0.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CSQLite",
            path: "Sources/CSQLite",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // A cache-line prefetch hint, which Swift cannot express: ObjectGraph's save walks objects no longer cached.
        .target(name: "CPrefetch", path: "Sources/CPrefetch"),
        // prctl(PR_SET_PDEATHSIG), which Swift cannot call (variadic): a run under valgrind dies with its parent.
        // DWARF 4 for valgrind, as CAllocationCounter below.
        .target(name: "CProcessControl", path: "Sources/CProcessControl", cSettings: [.unsafeFlags(["-gdwarf-4"])]),
        .target(
            name: "ObjectGraph",
            dependencies: [
                "CSQLite",
                "CPrefetch",
                .product(name: "OrderedCollections", package: "swift-collections"),
            ]
        ),
        // Counts the process's heap allocations by interposing malloc (glibc; no-op elsewhere). DWARF 4: valgrind
        // 3.19 (Debian 12's, which `bench run --instructions` runs under) gives up on clang's default DWARF 5 and
        // counts nothing. Unsafe flags only on these two harness targets, outside the ObjectGraph product.
        .target(name: "CAllocationCounter", path: "Sources/CAllocationCounter", cSettings: [.unsafeFlags(["-gdwarf-4"])]),
        // Reads Core Data's SQLDebug log as devices print it (Foundation only): statements, faults, fingerprints,
        // findings. `bench log` reads a device's log with it; the harness fingerprints its own statements with it.
        .target(name: "SQLDebugLog"),
        // Writes the commit the package is built from into BenchKit (BuildInfo), whenever HEAD or a source file changes.
        .plugin(name: "BuildInfo", capability: .buildTool(), path: "Plugins/BuildInfo"),
        // Swift sources read with swift-syntax's parser (no type checker): SwiftData models and the fetches of an app.
        .target(
            name: "SwiftSources",
            dependencies: [
                "ObjectGraph",
                .product(name: "SwiftParser", package: "swift-syntax", condition: .when(traits: ["SwiftSources"])),
                .product(name: "SwiftSyntax", package: "swift-syntax", condition: .when(traits: ["SwiftSources"])),
            ]
        ),
        .target(
            name: "BenchKit",
            dependencies: [
                "ObjectGraph",
                "SQLDebugLog",
                .target(name: "SwiftSources", condition: .when(traits: ["SwiftSources"])),
                "CSQLite",
                "CAllocationCounter",
                "CProcessControl",
                .product(name: "CSV", package: "CSV.swift"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            plugins: ["BuildInfo"]
        ),
        .executableTarget(
            name: "bench",
            dependencies: [
                "BenchKit",
                .target(name: "SwiftSources", condition: .when(traits: ["SwiftSources"])),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // What the test targets share: the built bench binary, run as a user runs it.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(
            name: "BenchKitTests",
            dependencies: ["BenchKit", "ObjectGraph", "SQLDebugLog", "CSQLite", "bench", "TestSupport"],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "SwiftSourcesTests",
            dependencies: [
                "BenchKit", "ObjectGraph", "bench", "TestSupport",
                .target(name: "SwiftSources", condition: .when(traits: ["SwiftSources"])),
            ],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "SQLDebugLogTests",
            dependencies: ["SQLDebugLog", "bench", "TestSupport"],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "ObjectGraphTests",
            dependencies: [
                "ObjectGraph",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
    ]
)
