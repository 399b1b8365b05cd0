import Foundation
@testable import ObjectGraph

/// Paths and shared fixtures for the ObjectGraph tests.
enum TestSupport {
    /// The package root, found from this file's path.
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `Schemas/Recipes.xcdatamodeld`.
    static let recipesModeld = packageRoot.appendingPathComponent("Schemas/Recipes.xcdatamodeld")

    /// The current recipes model, loaded once.
    static let recipesModel: ObjectModel = {
        do { return try ModelVersionSet.load(contentsOf: recipesModeld).current }
        catch { preconditionFailure("recipes model failed to load: \(error)") }
    }()

    /// Wraps entity XML in a model document with the usual header, so line numbers are
    /// predictable: the first line of `body` is line 3.
    static func modelXML(_ body: String) -> Data {
        Data(("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n<model type=\"com.apple.IDECoreDataModeler.DataModel\" documentVersion=\"1.0\">\n" + body + "\n</model>\n").utf8)
    }
}
