public import Foundation
public import ObjectGraph

/// The recipes object model (`Recipe`, `Ingredient`, `RecipeType`, `Image`), read from the
/// `Recipes.xcdatamodeld` shipped as a resource of this module, so a program built with
/// RecipesKit finds its schema from any working directory.
public enum RecipesModel {
    /// The bundled `Recipes.xcdatamodeld` folder (every model version).
    public static var modelURL: URL {
        Bundle.module.url(forResource: "Recipes", withExtension: "xcdatamodeld", subdirectory: "Schemas")
            ?? (Bundle.module.resourceURL ?? Bundle.module.bundleURL)
                .appendingPathComponent("Schemas/Recipes.xcdatamodeld", isDirectory: true)
    }

    /// Every version of the bundled model, loaded once per process.
    public static func versions() throws(RecipesError) -> ModelVersionSet {
        try cachedVersions.get()
    }

    /// The current version of the bundled model, loaded once per process without the older
    /// versions (every command opens its store with it, so a start parses one version).
    public static func current() throws(RecipesError) -> ObjectModel {
        try cachedCurrent.get()
    }

    private static let cachedVersions = loading { try ModelVersionSet.load(contentsOf: modelURL) }
    private static let cachedCurrent = loading { try ObjectModel.load(contentsOf: modelURL) }

    /// The outcome of loading the bundled model, a failure naming its path.
    private static func loading<Model>(_ load: () throws -> Model) -> Result<Model, RecipesError> {
        do {
            return .success(try load())
        } catch {
            return .failure(.modelUnavailable(path: modelURL.path, reason: "\(error)"))
        }
    }
}
