public import Foundation
public import ObjectGraph

/// The recipes object model (`Recipe`, `Ingredient`, `RecipeType`, `Image`) of
/// `Recipes.xcdatamodeld`: its current version compiled into this module (built at start
/// without parsing XML), every version shipped as a resource, so a program built with
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

    /// The current version of the model, built once per process from its definition compiled
    /// into this module: every command opens its store with it, so no start reads, decodes or
    /// parses the model's XML. It is the model ``versions()`` gives as current.
    public static func current() throws(RecipesError) -> ObjectModel {
        try cachedCurrent.get()
    }

    private static let cachedVersions = loading { try ModelVersionSet.load(contentsOf: modelURL) }
    // Built from the definition `EntityCodegenPlugin` compiles in from the same folder: the
    // model loading the XML gives, without reading, decoding or parsing it at every start.
    private static let cachedCurrent = loading { try RecipesModelDefinition.model() }

    /// The outcome of loading the bundled model, a failure naming its path.
    private static func loading<Model>(_ load: () throws -> Model) -> Result<Model, RecipesError> {
        do {
            return .success(try load())
        } catch {
            return .failure(.modelUnavailable(path: modelURL.path, reason: "\(error)"))
        }
    }
}
