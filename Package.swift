// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "RelBench",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "ObjectGraph", targets: ["ObjectGraph"]),
        .executable(name: "bench", targets: ["bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-collections.git", exact: "1.6.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", exact: "2.0.1"),
    ],
    targets: [
        .systemLibrary(
            name: "CSQLite",
            path: "Sources/CSQLite",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .target(
            name: "ObjectGraph",
            dependencies: [
                "CSQLite",
                .product(name: "OrderedCollections", package: "swift-collections"),
            ]
        ),
        .executableTarget(
            name: "bench",
            dependencies: ["ObjectGraph"]
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
