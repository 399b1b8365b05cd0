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
        switch cached {
        case .success(let set): return set
        case .failure(let error): throw error
        }
    }

    /// The current version of the bundled model.
    public static func current() throws(RecipesError) -> ObjectModel {
        try versions().current
    }

    private static let cached: Result<ModelVersionSet, RecipesError> = {
        do {
            return .success(try ModelVersionSet.load(contentsOf: modelURL))
        } catch {
            return .failure(.modelUnavailable(path: modelURL.path, reason: "\(error)"))
        }
    }()
}
