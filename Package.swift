// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Recipes",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "DocumentStore", targets: ["DocumentStore"]),
        .library(name: "RecipesKit", targets: ["RecipesKit"]),
        .library(name: "ObjectGraph", targets: ["ObjectGraph"]),
        .library(name: "DocumentIncrementalStore", targets: ["DocumentIncrementalStore"]),
        .executable(name: "recipes-bench", targets: ["recipes-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        .target(
            name: "DocumentStore",
            dependencies: [
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .executableTarget(
            name: "recipes-bench",
            dependencies: [
                "DocumentStore",
                "ObjectGraph",
                "DocumentIncrementalStore",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "store-crash-writer",
            dependencies: [
                "DocumentStore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "DocumentStoreTests",
            dependencies: [
                "DocumentStore",
                "store-crash-writer",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .target(
            name: "RecipesKit",
            dependencies: [
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            resources: [.copy("Resources/SampleData")]
        ),
        .testTarget(
            name: "RecipesKitTests",
            dependencies: ["RecipesKit", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .target(
            name: "ObjectGraph",
            dependencies: [
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .testTarget(name: "ObjectGraphTests", dependencies: ["ObjectGraph"]),
        .target(name: "DocumentIncrementalStore", dependencies: ["ObjectGraph", "DocumentStore"]),
        .executableTarget(name: "dis-save-child", dependencies: ["DocumentIncrementalStore", "ObjectGraph"]),
        .testTarget(
            name: "DocumentIncrementalStoreTests",
            dependencies: ["DocumentIncrementalStore", "ObjectGraph", "DocumentStore", "dis-save-child"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
