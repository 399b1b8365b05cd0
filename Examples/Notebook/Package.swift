// swift-tools-version:6.0
import PackageDescription

// An application that keeps its own object model and uses the types EntityCodegenPlugin
// generates from it: see "Typed entities from your model" in the README at the root.
let package = Package(
    name: "Notebook",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Recipes", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "notebook",
            dependencies: [.product(name: "ObjectSync", package: "Recipes")],
            // The model is a resource (loaded at run time) and the plugin's input (read at
            // build time).
            resources: [.copy("Notebook.xcdatamodeld")],
            plugins: [.plugin(name: "EntityCodegenPlugin", package: "Recipes")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
