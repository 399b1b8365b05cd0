import Foundation
import TestSupport

enum Fixtures {
    /// The package root, found from this file's location (Tests/RecipesKitTests/…).
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The Core Data store of the original app (`Tests/Fixtures/apple-recipes`) (never opened in place).
    static let appleRecipesStore = packageRoot
        .appendingPathComponent("Tests/Fixtures/apple-recipes/Recipes.sqlite").standardizedFileURL

    /// The smallest byte sequences the loaders accept as PNG and JPEG.
    static let pngBytes = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D])
    static let jpegBytes = Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46])

    /// Copies the Core Data fixture into `directory` and returns the copy.
    static func copyOfAppleStore(in directory: TemporaryDirectory, named name: String = "Recipes.sqlite") throws -> URL {
        let copy = directory.file(name)
        try FileManager.default.copyItem(at: appleRecipesStore, to: copy)
        return copy
    }
}

import GRDB

enum GRDBTestSupport {
    /// Opens a writable connection to a test's own copy of a database.
    static func open(_ url: URL) throws -> DatabaseQueue {
        try DatabaseQueue(path: url.path)
    }
}
