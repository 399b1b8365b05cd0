// swift-tools-version:6.0
import CompilerPluginSupport
import PackageDescription

let package = Package(
    name: "Recipes",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "DocumentFormat", targets: ["DocumentFormat"]),
        .library(name: "DocumentStore", targets: ["DocumentStore"]),
        .library(name: "RecipesKit", targets: ["RecipesKit"]),
        .library(name: "RecipesSyncKit", targets: ["RecipesSyncKit"]),
        .library(name: "ObjectGraph", targets: ["ObjectGraph"]),
        .library(name: "ObjectSync", targets: ["ObjectSync"]),
        .library(name: "Replication", targets: ["Replication"]),
        .library(name: "CouchServer", targets: ["CouchServer"]),
        .library(name: "CouchProtocol", targets: ["CouchProtocol"]),
        .library(name: "HTTPSupport", targets: ["HTTPSupport"]),
        .executable(name: "recipes", targets: ["recipes"]),
        .executable(name: "recipes-network", targets: ["recipes-network"]),
        .library(name: "DocumentIncrementalStore", targets: ["DocumentIncrementalStore"]),
        .library(name: "PasswordEncryption", targets: ["PasswordEncryption"]),
        .plugin(name: "EntityCodegenPlugin", targets: ["EntityCodegenPlugin"]),
        .library(name: "ObjectModelMacro", targets: ["ObjectModelMacro"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        // Tests only: starting child processes (see Tests/TestSupport/ChildProcess.swift).
        .package(url: "https://github.com/swiftlang/swift-subprocess", from: "1.0.2"),
        .package(url: "https://github.com/apple/swift-system", from: "1.5.0"),
        // Only for the model macros (ObjectModelMacros and the library that declares them): a
        // program that does not import ObjectModelMacro never builds it.
        .package(url: "https://github.com/swiftlang/swift-syntax", from: "603.0.1"),
    ],
    targets: [
        // The document format on its own, free of storage: JSON values with their parser and
        // writer, revision IDs, attachment metadata and Mango selectors. The datastore and the
        // wire protocol both build on it, so neither depends on the other.
        .target(
            name: "DocumentFormat",
            dependencies: [.product(name: "Crypto", package: "swift-crypto"), "CZlib"]
        ),
        .target(
            name: "DocumentStore",
            dependencies: [
                "DocumentFormat",
                .product(name: "GRDB", package: "GRDB.swift"),
                // The SQLite C API itself, for reading long bodies without a copy.
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // A helper executable the crash tests start and kill; it lives with the tests.
        .executableTarget(
            name: "store-crash-writer",
            dependencies: [
                "DocumentFormat", "DocumentStore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Tests/store-crash-writer"
        ),
        .testTarget(
            name: "DocumentStoreTests",
            dependencies: [
                "TestSupport",
                "DocumentFormat", "DocumentStore",
                // Built so the crash tests can start it.
                "store-crash-writer",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .target(
            name: "RecipesKit",
            dependencies: [
                "ObjectGraph",
                "RecipeImages",
                "DocumentFormat", "DocumentStore",
                "DocumentIncrementalStore",
                "HTTPSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            resources: [.copy("Resources/SampleData"), .copy("Resources/Schemas")],
            plugins: ["EntityCodegenPlugin"]
        ),
        // Syncing a recipes store with its remote: RecipesKit's store and model driven by the
        // replication engine (and with it the HTTP client). Apart from RecipesKit so a program
        // that only browses (the `recipes` command) does not link, load and scan it.
        .target(
            name: "RecipesSyncKit",
            dependencies: [
                "RecipesKit", "ObjectGraph", "ObjectSync",
                "DocumentFormat", "DocumentStore", "DocumentIncrementalStore",
                "Replication", "HTTPSupport",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "RecipesKitTests",
            dependencies: ["TestSupport", "RecipesKit", "RecipesSyncKit", "ObjectGraph", "DocumentFormat", "DocumentStore", "DocumentIncrementalStore",
                           "Replication", "HTTPSupport", "InteropSupport", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        // The model layer on its own, free of swift-crypto, so the entity code generator (a
        // build tool, compiled for the host) does not build BoringSSL a second time.
        // The object graph for any model, ready to use and to sync: a container over a
        // SQLite document store (or one in memory) with sync through the replication engine.
        // An app imports this one module (it re-exports ObjectGraph).
        .target(
            name: "ObjectSync",
            dependencies: [
                "ObjectGraph", "DocumentFormat", "DocumentStore", "DocumentIncrementalStore", "Replication", "HTTPSupport",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "ObjectSyncTests",
            dependencies: ["ObjectSync", "DocumentFormat", "DocumentStore", "DocumentIncrementalStore", "Replication", "TestSupport", "InteropSupport"],
            resources: [.copy("Notebook.xcdatamodeld")],
            plugins: ["EntityCodegenPlugin"]
        ),
        .target(name: "ManagedModel"),
        .target(
            name: "ObjectGraph",
            dependencies: [
                "ManagedModel",
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .testTarget(
            name: "ObjectGraphTests",
            dependencies: [
                "TestSupport",
                "ObjectGraph",
                "ManagedModel",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        // Typed entity views generated from a target's .xcdatamodeld at build time: the
        // generator (a library, so tests can call it), its command-line tool, and the build
        // plugin that runs the tool.
        .target(name: "EntityCodegen", dependencies: ["ManagedModel"]),
        .executableTarget(name: "entity-codegen", dependencies: ["EntityCodegen", "ManagedModel"]),
        .plugin(name: "EntityCodegenPlugin", capability: .buildTool(), dependencies: ["entity-codegen"]),
        .testTarget(name: "EntityCodegenTests", dependencies: ["TestSupport", "EntityCodegen", "ObjectGraph"], exclude: ["Fixtures"]),
        // A model declared in Swift (`@ObjectModel`, `@Entity`) instead of an .xcdatamodeld:
        // the macros' implementation (a compiler plug-in on swift-syntax, writing the same
        // member text as entity-codegen) and the library that declares them and re-exports
        // ObjectGraph. ObjectGraph itself does not depend on either, so a program without
        // macros never builds swift-syntax.
        .macro(
            name: "ObjectModelMacros",
            dependencies: [
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftSyntaxBuilder", package: "swift-syntax"),
                .product(name: "SwiftParser", package: "swift-syntax"),
                .product(name: "SwiftDiagnostics", package: "swift-syntax"),
                "EntityCodegen", "ManagedModel",
            ]
        ),
        .target(name: "ObjectModelMacro", dependencies: ["ObjectGraph", "ObjectModelMacros"]),
        .testTarget(
            name: "ObjectModelMacroTests",
            // ObjectGraph's API reaches the tests through ObjectModelMacro's re-export; declared
            // so a change to ObjectGraph rebuilds them.
            dependencies: ["ObjectModelMacro", "ObjectGraph"],
            resources: [.copy("Notebook.xcdatamodeld")]
        ),
        .testTarget(
            name: "ObjectModelMacrosTests",
            dependencies: [
                "ObjectModelMacros",
                .product(name: "SwiftSyntaxMacrosGenericTestSupport", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacroExpansion", package: "swift-syntax"),
            ]
        ),
        .testTarget(
            name: "GeneratedEntityTests",
            dependencies: ["ObjectGraph"],
            resources: [.copy("Shelf.xcdatamodeld")],
            plugins: ["EntityCodegenPlugin"]
        ),
        .target(name: "CouchProtocol", dependencies: ["DocumentFormat", "HTTPSupport"]),
        // General HTTP, below CouchDB's protocol: multipart bodies, header parameters, gzip,
        // credential masking, percent-encoding and urlencoded forms, for the server, the
        // replication client and the web app alike.
        .target(name: "HTTPSupport", dependencies: ["CZlib"]),
        .testTarget(name: "HTTPSupportTests", dependencies: ["HTTPSupport"]),
        // The system zlib: CouchDB stores text attachments gzip-compressed and its replicator
        // sends them that way, so both our server and our client inflate them.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .target(name: "AsyncBridge"),
        .testTarget(name: "CouchProtocolTests", dependencies: ["TestSupport", "CouchProtocol", "HTTPSupport", "DocumentFormat", "DocumentStore"]),
        .target(
            name: "Replication",
            dependencies: [
                "DocumentFormat", "DocumentStore",
                "CouchProtocol", "HTTPSupport",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .testTarget(
            name: "ReplicationTests",
            dependencies: [
                "TestSupport",
                "Replication",
                "DocumentFormat", "DocumentStore",
                "CouchProtocol", "HTTPSupport",
                "CouchServer",
                "InteropSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOFoundationEssentialsCompat", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // TLS for both servers (`recipes serve`, `recipes web`): the certificate chain and key
        // read from PEM files and checked before anything listens, presented through
        // SwiftNIO SSL, and reloaded on SIGHUP without dropping a connection.
        .target(
            name: "ServerTLS",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "ServerTLSTests",
            dependencies: [
                "TestSupport", "InteropSupport", "ServerTLS", "CouchServer", "Replication",
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "CouchServer",
            dependencies: [
                "DocumentFormat", "DocumentStore",
                "CouchProtocol", "HTTPSupport",
                // Server-side replication (`POST /_replicate`, `_replicator`) runs the
                // package's own engine; Replication never imports CouchServer.
                "Replication",
                "AsyncBridge",
                "ServerTLS",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
                // PBKDF2 for `_users` passwords, as CouchDB hashes them.
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ]
        ),
        // A small C shim over libjpeg and libpng: both report errors with longjmp, which Swift
        // cannot survive, so the shim catches them with setjmp and returns error codes.
        .target(
            name: "CPhotoCodec",
            linkerSettings: [.linkedLibrary("jpeg"), .linkedLibrary("png16")]
        ),
        // Photos checked by their content (a whole JPEG or PNG) and their upright thumbnails.
        .target(name: "RecipeImages", dependencies: ["CPhotoCodec"]),
        .testTarget(name: "RecipeImagesTests", dependencies: ["RecipeImages", "TestSupport"], resources: [.copy("Fixtures")]),
        // `recipes web`: the book as web pages over the same store, server-rendered.
        .target(
            name: "RecipesWeb",
            dependencies: [
                "RecipesKit", "ObjectGraph", "DocumentIncrementalStore", "DocumentStore", "HTTPSupport", "RecipeImages", "AsyncBridge",
                "ServerTLS",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            resources: [.copy("Resources/app.js"), .copy("Resources/style.css")]
        ),
        // Crash reports for a `recipes` built with the Swift runtime linked in statically (the
        // fast build the README gives): names the runtime's static backtracer before it starts.
        .target(name: "CStaticBacktrace"),
        // The command-line program's commands, shared by its two executables: `recipes`,
        // which browses and edits without the network stack, and `recipes-network`, which
        // links it and runs sync, serve, web and the seeding of a store from its remote.
        .target(
            name: "RecipesCommandLine",
            dependencies: [
                "RecipesKit",
                "ObjectGraph",
                "DocumentFormat", "DocumentStore", "DocumentIncrementalStore", "HTTPSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "recipes",
            dependencies: ["CStaticBacktrace", "RecipesCommandLine", "RecipesKit"]
        ),
        .executableTarget(
            name: "recipes-network",
            dependencies: [
                "CStaticBacktrace",
                "RecipesCommandLine",
                "RecipesSyncKit",
                "DocumentStore",
                "CouchServer",
                "RecipesWeb",
                "RecipesKit",
                "Replication",
                "ServerTLS",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "CouchServerTests",
            dependencies: ["TestSupport", "CouchServer", "CouchProtocol", "DocumentFormat", "DocumentStore", "InteropSupport", .product(name: "Logging", package: "swift-log")]
        ),
        // What the tests share for talking to servers they did not write: a raw HTTP client
        // independent of the project's own, the live CouchDB named by COUCHDB_URL, loopback
        // sockets, and a proxy that holds an upload half way.
        .target(
            name: "InteropSupport",
            dependencies: [
                "DocumentFormat", "DocumentStore",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            path: "Tests/InteropSupport"),
        // Generic helpers every test target shares, free of the package's own modules: one
        // temporary directory, waiting for events with a deadline, scopes that await a
        // server's stop.
        // Raises the test process's soft limit of open files to its hard limit (a C constructor).
        .target(name: "CTestProcessLimits", path: "Tests/CTestProcessLimits"),
        .target(
            name: "TestSupport",
            dependencies: [
                "CTestProcessLimits",
                .product(name: "Subprocess", package: "swift-subprocess"),
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            path: "Tests/TestSupport"),
        .target(
            name: "PasswordEncryption",
            dependencies: [
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ]
        ),
        .testTarget(name: "PasswordEncryptionTests", dependencies: ["PasswordEncryption"]),
        .target(name: "DocumentIncrementalStore", dependencies: ["ObjectGraph", "DocumentFormat", "DocumentStore", "PasswordEncryption"]),
        // A helper executable the crash-safety tests start and kill; it lives with the tests.
        .executableTarget(name: "dis-save-child", dependencies: ["DocumentIncrementalStore", "ObjectGraph"], path: "Tests/dis-save-child"),
        .testTarget(
            name: "DocumentIncrementalStoreTests",
            dependencies: [
                "TestSupport", "InteropSupport", "DocumentIncrementalStore", "ObjectGraph", "DocumentFormat", "DocumentStore", "PasswordEncryption",
                // Built so the crash-safety tests can start it.
                "dis-save-child",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "RecipesCLITests",
            dependencies: ["TestSupport", "RecipesCommandLine", "RecipesKit", "RecipeImages", "BrowserSupport", "InteropSupport", "HTTPSupport",
                           "DocumentFormat", "DocumentStore", .product(name: "GRDB", package: "GRDB.swift"),
                           // Built so the tests can run the programs themselves.
                           "recipes", "recipes-network"]
        ),
        // A small W3C WebDriver client that drives a real headless Chromium through
        // chromedriver, for the end-to-end tests of `recipes web`. Foundation only: Linux
        // URLSession refuses chromedriver's header lines, so it speaks HTTP/1.1 itself.
        .target(name: "BrowserSupport", dependencies: ["TestSupport"], path: "Tests/BrowserSupport"),
        .testTarget(name: "BrowserSupportTests", dependencies: ["BrowserSupport"]),
    ],
    swiftLanguageModes: [.v6]
)

// The compiler guards the layering: a module's imports are internal unless a public
// declaration needs them (`public import`), and a file sees only the members of modules it
// imports itself, so a layer cannot leak another's types by accident.
for target in package.targets where target.type != .plugin && target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + [
        .enableUpcomingFeature("InternalImportsByDefault"),
        .enableUpcomingFeature("MemberImportVisibility"),
    ]
}
