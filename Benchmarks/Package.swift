// swift-tools-version:6.0
import PackageDescription

// The benchmarks, soak runs and fuzzers, beside the library rather than in it, so a user's
// `swift build` of Recipes does not build them. They drive the `recipes` program the root
// package builds: run `Scripts/build-static -c release` at the root first (see BENCHMARKS.md
// at the root).
let package = Package(
    name: "RecipesBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Recipes", path: ".."),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // For `recipes-bench http-clients`, which replays the replicator's requests with it
        // and with URLSession (the measurement behind the replication client's choice).
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.0"),
    ],
    targets: [
        .executableTarget(
            name: "recipes-bench",
            dependencies: [
                .product(name: "DocumentFormat", package: "Recipes"),
                .product(name: "DocumentStore", package: "Recipes"),
                .product(name: "RecipesKit", package: "Recipes"),
                .product(name: "ObjectGraph", package: "Recipes"),
                .product(name: "DocumentIncrementalStore", package: "Recipes"),
                .product(name: "Replication", package: "Recipes"),
                .product(name: "HTTPSupport", package: "Recipes"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        // Short runs of the benchmark modes themselves, so they keep working; the long runs
        // stay in the executable.
        .testTarget(name: "BenchmarkSmokeTests", dependencies: ["recipes-bench"]),
    ],
    swiftLanguageModes: [.v6]
)

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [
        .enableUpcomingFeature("InternalImportsByDefault"),
        .enableUpcomingFeature("MemberImportVisibility"),
    ]
}
