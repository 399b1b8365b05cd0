import Foundation
import Testing
import TestSupport

/// The folder and store file the CLI creates on first run are its user's alone.
@Suite("recipes store folder and file modes")
struct StoreFolderModeTests {
    @Test("the default store folder is 0700 and the store 0600")
    func defaultStoreIsPrivate() async throws {
        let sandbox = try Sandbox()
        let result = try await sandbox.run(["types", "--no-samples"])
        #expect(result.status == 0, "\(result)")
        let folder = sandbox.path("data/recipes")
        let folderMode = try FileManager.default.attributesOfItem(atPath: folder)[.posixPermissions] as? Int
        #expect(folderMode.map { $0 & 0o777 } == 0o700)
        let fileMode = try FileManager.default.attributesOfItem(atPath: folder + "/recipes.sqlite")[.posixPermissions] as? Int
        #expect(fileMode.map { $0 & 0o777 } == 0o600)
    }
}
